"""CUAD the LegalBench-RAG way: character-span precision@k and recall@k over 50 contracts.

* Corpus: ``cuad_contracts/contracts/*.txt`` (read unchanged, so chunk offsets are offsets into the file).
* Queries: one per (contract, category) row of ``gold_clauses.jsonl`` with at least one annotated clause
  and every clause located in the text (LegalBench-RAG drops a query when a quote cannot be located):
  "Consider the <contract name>; <category description>" — the whole corpus is searched, so the contract
  name is what points the retriever at the right document.
* Metrics (LegalBench-RAG): for the top k snippets, precision = retrieved characters inside a gold span /
  retrieved characters; recall = gold characters covered / gold characters; averaged over queries, for
  k = 1, 2, 4, …, 64.
* Pipelines: ``rcts`` — recursive character splitting 500/0, dense only (the paper's RCTS setting without
  a reranker, with our offline e5-small instead of OpenAI embeddings); ``rcts+hybrid`` — same chunks, our
  hybrid search; ``structure`` — clause-tree chunks with hybrid + structure-aware search, its hits'
  shown chunks as snippets; ``structure+unfold`` — the same hits with each clause's other chunks after it, as
  the answerer reads them (k still counts snippets).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jogak.eval.metrics import span_precision_recall

KS = (1, 2, 4, 8, 16, 32, 64)
# LegalBench-RAG (Pipitone & Houir Alami, 2024), CUAD, RCTS chunking without a reranker.
PUBLISHED = {"name": "LegalBench-RAG RCTS (no rerank)", "precision@1": 1.97, "recall@64": 74.70}


def contract_name(file_name: str) -> str:
    """A readable contract name from a CUAD file name: document type + filer."""
    stem = Path(file_name).stem
    company = re.split(r"[_\-]", stem, maxsplit=1)[0]
    m = re.search(r"EX-[\d.]+[A-Z]?\d*[-_ ](?:EX-[\d.]+[A-Z]?\d*[-_ ])?(.*)$", stem)
    kind = m.group(1) if m else stem
    kind = re.sub(r"[_]+", " ", kind)
    words = [w for w in kind.split() if not re.fullmatch(r"(?i)\d+|ex-[\d.]+\w*", w)]
    kind = " ".join(words).strip(" -") or "Agreement"
    return f"{kind.title()} of {company}"


def load_queries(corpus: Path, files: set[str] | None = None) -> list[dict[str, Any]]:
    out = []
    with (corpus / "gold_clauses.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            if not r.get("has_clause") or not r.get("clauses"):
                continue
            if any(c.get("match") == "not_found" or c.get("start") is None for c in r["clauses"]):
                continue
            name = Path(r["contract_file"]).name
            if files is not None and name not in files:
                continue
            out.append({
                "file": name,
                "category": r["category"],
                "query": f"Consider the {contract_name(name)}; {r['description']}",
                "gold": [(name, int(c["start"]), int(c["end"])) for c in r["clauses"]],
            })
    return out


PIPELINES: list[tuple[str, str, int, int, str]] = [
    # name, strategy, size, overlap, search mode
    ("rcts", "recursive", 500, 0, "dense"),
    ("rcts+hybrid", "recursive", 500, 0, "hybrid"),
    ("structure", "structure", 500, 0, "full"),
]


def run_cuad(corpus: str | Path, work: str | Path, strategies: list[str] | None = None,
             limit: int | None = None, progress: Any = None) -> dict[str, Any]:
    from jogak.index import open_store
    from jogak.retrieve import SearchOptions, search
    from jogak.retrieve.clauses import unfold

    corpus = Path(corpus)
    work = Path(work)
    if not (corpus / "gold_clauses.jsonl").is_file():
        raise FileNotFoundError(f"CUAD corpus not found at {corpus} (expected gold_clauses.jsonl)")
    files = sorted((corpus / "contracts").glob("*.txt"))
    if limit:
        files = files[:limit]
    names = {f.name for f in files}
    queries = load_queries(corpus, names)
    strategies = strategies or ["recursive", "structure"]
    report: dict[str, Any] = {"contracts": len(files), "queries": len(queries), "ks": list(KS),
                              "published": PUBLISHED, "pipelines": {}}
    ctx = progress if progress is not None else _Null()
    cb: Callable[..., Any] = progress if progress is not None else (lambda *a: None)
    stores: dict[tuple[str, int, int], Any] = {}
    with ctx:
        for name, strategy, size, overlap, mode in PIPELINES:
            if strategy not in strategies:
                continue
            key = (strategy, size, overlap)
            if key not in stores:
                cfg = {"embed": {"cache": str(work / "embed_cache.sqlite")}}
                st = open_store(work / f"{strategy}-{size}-{overlap}", "cuad", config=cfg)
                t0 = time.perf_counter()
                rep = st.ingest([str(f) for f in files], strategy=strategy, size=size, overlap=overlap,
                                progress=cb)
                report.setdefault("ingest", {})[f"{strategy}-{size}-{overlap}"] = {
                    "chunks": st.count(), "seconds": round(time.perf_counter() - t0, 1),
                    "embedded": rep.n_embedded, "cached": rep.n_cached, "failed": rep.failed}
                stores[key] = st
            st = stores[key]
            if mode == "dense":
                opts = SearchOptions.baseline()
            elif mode == "hybrid":
                opts = SearchOptions(clause_lookup=False, xref=False, routing=False, query_filters=False)
            else:
                opts = SearchOptions.from_config({})
            # clause hits (structure) are also scored as the answerer reads them: each hit's clause whole
            # (``unfold``: the chunks folded into it right after it), k counting chunks
            views = ("shown", "unfolded") if mode == "full" else ("shown",)
            sums = {v: {k: [0.0, 0.0] for k in KS} for v in views}
            t0 = time.perf_counter()
            for j, q in enumerate(queries):
                res = search(st, q["query"], k=max(KS), options=opts)
                hits = {"shown": res.hits}
                if "unfolded" in views:
                    hits["unfolded"] = unfold(st, list(res.hits))
                for v in views:
                    snippets = [(h.chunk.metadata.source, h.chunk.metadata.char_start, h.chunk.metadata.char_end)
                                for h in hits[v]]
                    for k in KS:
                        p, r = span_precision_recall(snippets[:k], q["gold"])
                        sums[v][k][0] += p
                        sums[v][k][1] += r
                cb(name, j + 1, len(queries), q["category"][:30])
            n = max(1, len(queries))
            for v in views:
                report["pipelines"][name if v == "shown" else f"{name}+unfold"] = {
                    "strategy": strategy, "size": size, "overlap": overlap, "search": mode,
                    "precision": {k: 100 * sums[v][k][0] / n for k in KS},
                    "recall": {k: 100 * sums[v][k][1] / n for k in KS},
                    "query_seconds": round(time.perf_counter() - t0, 1),
                }
    for st in stores.values():
        st.close()
    return report


class _Null:
    def __enter__(self) -> _Null:
        return self

    def __exit__(self, *a: Any) -> None:
        return None


def render_table(report: dict[str, Any]) -> Any:
    """Rows k = 1..64; per pipeline a precision and a recall column (%), then the published RCTS figures."""
    from rich.table import Table

    t = Table(title=f"CUAD span retrieval — {report['queries']} queries over {report['contracts']} contracts "
                    "(character precision P / recall R, %)")
    t.add_column("k", justify="right")
    names = list(report["pipelines"])
    for n in names:
        t.add_column(f"{n} P", justify="right")
        t.add_column(f"{n} R", justify="right")
    t.add_column("LBR RCTS P", justify="right")
    t.add_column("LBR RCTS R", justify="right")
    pub = report["published"]
    for k in report["ks"]:
        cells = []
        for n in names:
            p = report["pipelines"][n]
            cells += [f"{_get(p['precision'], k):.2f}", f"{_get(p['recall'], k):.2f}"]
        cells += [f"{pub['precision@1']:.2f}" if k == 1 else "", f"{pub['recall@64']:.2f}" if k == 64 else ""]
        t.add_row(str(k), *cells)
    t.caption = ("LBR = LegalBench-RAG (Pipitone & Houir Alami, 2024), CUAD, RCTS chunks, OpenAI "
                 "text-embedding-3-large, no reranker; ours use the offline multilingual-e5-small.")
    return t


def _get(d: dict[Any, float], k: int) -> float:
    return d[k] if k in d else d[str(k)]
