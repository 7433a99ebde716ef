"""Bounded load on `jogak serve` over loopback: N parallel clients for M seconds per endpoint.

    .venv/bin/python benchmarks/load_server.py                       # builds a store from examples/haru-market,
                                                                     # starts a server, 4 clients × 10 s
    .venv/bin/python benchmarks/load_server.py --url http://127.0.0.1:8000 [--key KEY] [--collection C]
    .venv/bin/python benchmarks/load_server.py --store ./jogak_db --clients 8 --seconds 30 --json

Each endpoint (``/v1/search``, then ``/v1/ask``) is driven separately by ``--clients`` threads, each with
its own connection, cycling through the questions of examples/haru-market/questions.yaml. Reported per
endpoint: requests, errors (non-200 or transport failures), throughput, p50/p95/max latency. The exit code
is 1 when any request failed. Not part of ``make test`` (a smoke run is, with 2 clients × 2 s).

Issue 18's scenarios (``--scenario hostile|ingest|cold|all``; see ``benchmarks/load_scenarios.py``) start
their own server with two tenants and print the figures the targets are stated in; ``--src DIR`` runs the
server and the CLI from another source tree (e.g. an export of an older commit) for before/after figures:

    .venv/bin/python benchmarks/load_server.py --scenario all
    .venv/bin/python benchmarks/load_server.py --scenario all --src /tmp/before/src
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HARU = ROOT / "examples" / "haru-market"


def questions() -> list[str]:
    try:
        import yaml

        data = yaml.safe_load((HARU / "questions.yaml").read_text(encoding="utf-8"))
        qs = [q["question"] for q in data["questions"] if q.get("question")]
        if qs:
            return qs
    except Exception:
        pass
    return ["단순 변심인데 반품 배송비 얼마예요?", "포인트 유효기간은?", "교환 배송비는 누가 내나요?"]


def percentile(xs: list[float], p: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    k = max(0, min(len(s) - 1, round(p / 100 * (len(s) - 1))))
    return s[k]


def drive(url: str, endpoint: str, clients: int, seconds: float, key: str | None, collection: str | None,
          qs: list[str], k: int) -> dict[str, Any]:
    import httpx

    headers = {"Authorization": f"Bearer {key}"} if key else {}
    lat: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(clients + 1)

    def client(i: int) -> None:
        n = i
        with httpx.Client(base_url=url, headers=headers, timeout=120) as c:
            start.wait()
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                q = qs[n % len(qs)]
                n += clients
                body: dict[str, Any] = {"query": q, "k": k} if endpoint == "search" else {"question": q}
                if collection:
                    body["collection"] = collection
                t0 = time.perf_counter()
                try:
                    r = c.post(f"/v1/{endpoint}", json=body)
                    ok = r.status_code == 200
                    why = f"HTTP {r.status_code}: {r.text[:120]}"
                except Exception as e:  # transport errors count as errors
                    ok, why = False, f"{type(e).__name__}: {e}"
                dt = time.perf_counter() - t0
                with lock:
                    lat.append(dt)
                    if not ok:
                        errors.append(why)

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.monotonic()
    for t in threads:
        t.join()
    wall = time.monotonic() - t0
    ms = [x * 1000 for x in lat]
    return {"endpoint": endpoint, "clients": clients, "seconds": round(wall, 2), "requests": len(lat),
            "errors": len(errors), "throughput_rps": round(len(lat) / wall, 2) if wall else 0.0,
            "p50_ms": round(statistics.median(ms), 1) if ms else 0.0, "p95_ms": round(percentile(ms, 95), 1),
            "max_ms": round(max(ms), 1) if ms else 0.0, "first_errors": errors[:3]}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(proc: subprocess.Popen[bytes], url: str, log: Path, stop: Any) -> str:
    """Wait (≤ 300 s) until the server says it is ready; ``stop()`` it and exit if it never does."""
    import httpx

    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"jogak serve exited ({proc.returncode}); see {log}")
        try:
            if httpx.get(f"{url}/healthz", timeout=2).json().get("ready"):
                return url
        except Exception:
            pass
        time.sleep(0.3)
    stop()
    raise SystemExit(f"jogak serve did not become ready; see {log}")


def start_server(store: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:

    port = free_port()
    jogak = Path(sys.executable).with_name("jogak")
    cmd = [str(jogak), "serve", "--store", str(store), "--port", str(port), "--log-level", "warning"]
    fh = log.open("wb")
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=fh, stderr=subprocess.STDOUT,
                            env={**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"})
    return proc, wait_ready(proc, f"http://127.0.0.1:{port}", log, stop=proc.kill)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", help="an already running server (default: start one)")
    ap.add_argument("--store", type=Path, help="store for the started server (default: build one from "
                                               "examples/haru-market in a temporary directory)")
    ap.add_argument("--key", default=os.environ.get("JOGAK_API_KEY"), help="API key (or $JOGAK_API_KEY)")
    ap.add_argument("--collection", help="collection (default: the server's default)")
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=10.0, help="per endpoint")
    ap.add_argument("--endpoints", default="search,ask")
    ap.add_argument("-k", type=int, default=5, help="k for /v1/search")
    ap.add_argument("--warm", type=int, default=1, help="warm-up passes over the questions before measuring "
                                                        "(0: measure cold caches too)")
    ap.add_argument("--json", action="store_true", help="print one JSON document")
    ap.add_argument("--scenario", choices=["throughput", "hostile", "ingest", "cold", "all"],
                    default="throughput", help="issue 18's scenarios (each starts its own server)")
    ap.add_argument("--src", type=Path, help="run jogak from this source tree (PYTHONPATH) for the scenarios")
    ap.add_argument("--runs", type=int, default=5, help="cold scenario: runs of each command")
    args = ap.parse_args()
    if args.scenario != "throughput":
        from load_scenarios import run_scenarios

        return run_scenarios(args)
    if args.clients < 1 or args.seconds <= 0:
        ap.error("--clients and --seconds must be positive")

    proc = None
    tmp = None
    url = args.url
    try:
        if url is None:
            store = args.store
            if store is None:
                tmp = Path(tempfile.mkdtemp(prefix="jogak_load_"))
                store = tmp / "store"
                print(f"building a store from {HARU} …", file=sys.stderr)
                subprocess.run([str(Path(sys.executable).with_name("jogak")), "ingest", str(HARU), "--store",
                                str(store)], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
            log = (tmp or Path(tempfile.gettempdir())) / "jogak_load_server.log"
            proc, url = start_server(store, log)
            print(f"server at {url} (log {log})", file=sys.stderr)
        qs = questions()
        eps = [e.strip() for e in args.endpoints.split(",") if e.strip()]
        if args.warm:
            import httpx

            h = {"Authorization": f"Bearer {args.key}"} if args.key else {}
            with httpx.Client(base_url=url, headers=h, timeout=300) as c:
                for _ in range(args.warm):
                    for q in qs:
                        for ep in eps:
                            body: dict[str, Any] = {"query": q} if ep == "search" else {"question": q}
                            if args.collection:
                                body["collection"] = args.collection
                            c.post(f"/v1/{ep}", json=body)
        results = {ep: drive(url, ep, args.clients, args.seconds, args.key, args.collection, qs, args.k)
                   for ep in eps}
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)

    if args.json:
        print(json.dumps(results, ensure_ascii=False, indent=2))
    else:
        cols = ("endpoint", "clients", "seconds", "requests", "errors", "throughput_rps", "p50_ms", "p95_ms",
                "max_ms")
        heads = ("endpoint", "clients", "s", "requests", "errors", "req/s", "p50 ms", "p95 ms", "max ms")
        rows = [[str(r[c]) for c in cols] for r in results.values()]
        widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(heads)]
        print("  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True)))
        for row in rows:
            print("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)))
        for r in results.values():
            for e in r["first_errors"]:
                print(f"{r['endpoint']}: {e}", file=sys.stderr)
    return 1 if any(r["errors"] for r in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
