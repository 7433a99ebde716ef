"""``jogak eval-retrieval``: our pipeline and seed 001's baseline on the same questions, in one run.

Relevance is judged by character spans, the same way for both pipelines: the gold clause's span comes
from the document's clause tree (stored at ingest, or parsed on the fly), and a hit supports a gold clause
when it is from the same document and overlaps the clause by at least half of the shorter of the two
(so a 500-character recursive chunk that merely ends with the first line of 제3조 does not count for
제3조). Without a tree, a hit counts when its ``path``/``paths`` lie under the gold path, or its
``article`` tag lists the gold label.

Baselines run on the same documents in the same run, from one temporary store of recursive 500/100 chunks
built from the same files (the embedding cache is shared, so they cost no extra embedding on a re-run):

- ``hybrid``: the plain pipeline a user builds in an afternoon (LangChain-style recursive chunks, the same
  multilingual-e5-small, BM25 over Kiwi morphemes, reciprocal rank fusion; nothing structural) — the bar;
- ``dense``: seed 001's pipeline (the same chunks, dense only).

A hit of ours is a clause (issue 12): when several chunks of one clause matched, they are one hit, shown by
its best chunk, the others listed in ``Hit.also``; the hit supports a gold clause when any of those chunks
does. Every pipeline retrieves the same k hits. ``clause-P@1`` is the precision of the top hit in clauses: the
gold clauses it supports ÷ the clauses it names (its ``article`` tags), so a 500-character chunk spanning
three articles scores 1/3 even when one of them is the gold clause.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jogak.eval.metrics import KS, summarize

BASELINE_CHUNKS = {"strategy": "recursive", "size": 500, "overlap": 100}
BASELINES = ("hybrid", "dense")
BASELINE_RETRIEVERS = {"hybrid": "dense + Kiwi-BM25 (RRF)", "dense": "dense only"}


def load_questions(path: str | Path) -> list[dict[str, Any]]:
    import yaml

    with Path(path).open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh) or {}
    qs = data.get("questions", data) if isinstance(data, dict) else data
    out = []
    for q in qs:
        if not q.get("question"):
            continue
        q = dict(q)
        q["gold"] = list(q.get("gold") or [])
        out.append(q)
    return out


def _find(tree: dict[str, Any], path: str) -> dict[str, Any] | None:
    if tree.get("path") == path:
        return tree
    for c in tree.get("children", []):
        f = _find(c, path)
        if f is not None:
            return f
    return None


class GoldResolver:
    """Gold (doc_title, path) → character span in the document, via the store's trees."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.docs = {d.doc_title: d for d in store.documents()}
        self._trees: dict[str, dict[str, Any] | None] = {}

    def tree(self, doc_title: str) -> dict[str, Any] | None:
        if doc_title not in self._trees:
            d = self.docs.get(doc_title)
            t = self.store.tree(d.doc_id) if d else None
            if t is None and d is not None and d.path and Path(d.path).is_file():
                try:
                    from jogak.load import load
                    from jogak.structure import parse

                    t = parse(load(d.path)).root.to_dict()
                except Exception:
                    t = None
            self._trees[doc_title] = t
        return self._trees[doc_title]

    def span(self, gold: dict[str, Any]) -> tuple[int, int] | None:
        t = self.tree(gold.get("doc_title", ""))
        if t is None or not gold.get("path"):
            return None
        node = _find(t, gold["path"])
        return (node["char_start"], node["char_end"]) if node else None


def _labels(article: str | None) -> list[str]:
    return [re.sub(r"\s*\(.*$", "", a).strip() for a in (article or "").split(", ") if a]


def judge(chunk: Any, golds: list[dict[str, Any]], spans: list[tuple[int, int] | None]) -> set[int]:
    """Indices of the gold clauses this chunk supports."""
    from jogak.filters import path_prefixes

    md = chunk.metadata
    out: set[int] = set()
    for i, (g, sp) in enumerate(zip(golds, spans, strict=True)):
        if md.doc_title != g.get("doc_title"):
            continue
        if sp is not None:
            ov = min(md.char_end, sp[1]) - max(md.char_start, sp[0])
            if ov > 0 and ov >= 0.5 * min(sp[1] - sp[0], md.char_end - md.char_start):
                out.add(i)
            continue
        if md.path or md.paths:
            if g.get("path") in path_prefixes(md.path, md.paths):
                out.add(i)
        elif g.get("article_label") in _labels(md.article):
            out.add(i)
    return out


def _judge_hit(store: Any, hit: Any, golds: list[dict[str, Any]], spans: list[tuple[int, int] | None]) -> set[int]:
    """A hit is a clause: the gold clauses its chunk supports, and those its other matching chunks of the
    same clause (``Hit.also``, folded into it by clause collapsing) support."""
    out = judge(hit.chunk, golds, spans)
    if hit.also and len(out) < len(golds):
        for c in store.get_chunks(hit.also):
            out |= judge(c, golds, spans)
    return out


def clause_precision(chunk: Any, supported: set[int]) -> float:
    """Gold clauses supported by the chunk ÷ clauses the chunk names (at least one)."""
    named = max(1, len(_labels(chunk.metadata.article)))
    return min(len(supported), named) / named


def run_pipeline(store: Any, questions: list[dict[str, Any]], k: int, options: Any,
                 resolver: GoldResolver, progress: Callable[..., Any] | None = None,
                 label: str = "") -> dict[str, Any]:
    from jogak.retrieve import search

    rows = []
    per_q = []
    times = []
    p1: list[float] = []
    for j, q in enumerate(questions):
        t0 = time.perf_counter()
        res = search(store, q["question"], k=k, options=options)
        times.append(time.perf_counter() - t0)
        spans = [resolver.span(g) for g in q["gold"]]
        covered = [_judge_hit(store, h, q["gold"], spans) for h in res.hits]
        rows.append((covered, len(q["gold"])))
        if q["gold"]:
            p1.append(clause_precision(res.hits[0].chunk, covered[0]) if res.hits else 0.0)
        first = next((r + 1 for r, c in enumerate(covered) if c), None)
        per_q.append({"id": q.get("id"), "kind": q.get("kind"), "first_relevant_rank": first,
                      "n_gold": len(q["gold"]),
                      # each gold clause's first rank (None: not in the hits) — recall counts them one by one
                      "gold_ranks": [next((r + 1 for r, c in enumerate(covered) if g in c), None)
                                     for g in range(len(q["gold"]))],
                      "hits": [h.chunk.id for h in res.hits],
                      "filters": [f.to_dict() for f in res.filters]})
        if progress:
            progress(label or "eval", j + 1, len(questions), q.get("id") or "")
    metrics = summarize(rows)
    if p1:
        metrics["clause_p@1"] = sum(p1) / len(p1)
    by_kind: dict[str, dict[str, float]] = {}
    for kind in sorted({q.get("kind") or "" for q in questions}):
        sub = [r for r, q in zip(rows, questions, strict=True) if (q.get("kind") or "") == kind]
        if any(n for _, n in sub):
            by_kind[kind] = summarize(sub, ks=(1, 5))
    times.sort()
    metrics["latency_ms_p50"] = 1000 * times[len(times) // 2] if times else 0.0
    metrics["latency_ms_p95"] = 1000 * times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
    return {"metrics": metrics, "by_kind": by_kind, "per_question": per_q}


def baseline_names(baseline: bool | str | list[str] | tuple[str, ...] | None) -> list[str]:
    """``True`` → both baselines; ``False``/``None``/"none" → none; "hybrid,dense" or a list → those."""
    if baseline is True:
        return list(BASELINES)
    if not baseline:
        return []
    items = baseline.split(",") if isinstance(baseline, str) else list(baseline)
    names = [b.strip() for b in items if b.strip() and b.strip() != "none"]
    bad = [b for b in names if b not in BASELINES]
    if bad:
        raise ValueError(f"unknown baseline {', '.join(bad)} (choose from {', '.join(BASELINES)}, none)")
    return names


def evaluate(questions_path: str | Path, store: Any, k: int = 10,
             baseline: bool | str | list[str] | tuple[str, ...] | None = True,
             corpus: list[str] | None = None, progress: Any = None) -> dict[str, Any]:
    """Our pipeline and the baselines on the same questions; returns metrics side by side, and each metric
    of ours as a ratio of the first baseline's."""
    from jogak.retrieve import SearchOptions

    names = baseline_names(baseline)
    questions = load_questions(questions_path)
    resolver = GoldResolver(store)
    unresolved = [f"{q['id']}: {g.get('doc_title')} {g.get('path')}" for q in questions for g in q["gold"]
                  if resolver.span(g) is None]
    ctx = progress if progress is not None else _Null()
    report: dict[str, Any] = {
        "questions": len(questions),
        "answerable": sum(1 for q in questions if q["gold"]),
        "pipelines": {},
        "unresolved_gold": unresolved,
    }
    with ctx:
        ours = run_pipeline(store, questions, k, SearchOptions.from_config(), resolver, progress, "jogak")
        ours["config"] = {"strategy": _strategy(store), "retrievers": "dense+bm25 (RRF) + clause/xref/route",
                          "k": k}
        report["pipelines"]["jogak"] = ours
        if names:
            files = corpus or [d.path for d in store.documents() if d.path and Path(d.path).is_file()]
            tmp = Path(tempfile.mkdtemp(prefix="jogak-baseline-"))
            try:
                from jogak.index import open_store

                cfg = dict(store.config)
                cfg["embed"] = {**(cfg.get("embed") or {}), "cache": str(store.cache.path)}
                base = open_store(tmp, "baseline", config=cfg)
                rep = base.ingest(files, progress=progress, **BASELINE_CHUNKS)
                for name in names:
                    opts = SearchOptions.plain_hybrid() if name == "hybrid" else SearchOptions.baseline()
                    b = run_pipeline(base, questions, k, opts, resolver, progress, name)
                    b["config"] = {**BASELINE_CHUNKS, "k": k, "retrievers": BASELINE_RETRIEVERS[name],
                                   "chunks": rep.n_chunks}
                    report["pipelines"][name] = b
                base.close()
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
            report["ratio"] = {"vs": names[0], **ratios(report["pipelines"]["jogak"]["metrics"],
                                                        report["pipelines"][names[0]]["metrics"])}
    return report


RATIO_KEYS = ("recall@1", "recall@3", "recall@5", "recall@10", "mrr", "ndcg@10", "clause_p@1", "latency_ms_p50")


def ratios(ours: dict[str, float], base: dict[str, float]) -> dict[str, float | None]:
    """ours ÷ baseline per metric (None when the baseline is 0)."""
    return {m: (ours[m] / base[m] if base.get(m) else None) for m in RATIO_KEYS if m in ours and m in base}


def _strategy(store: Any) -> str:
    s = {d.strategy for d in store.documents()}
    return ",".join(sorted(x for x in s if x)) or "?"


class _Null:
    def __enter__(self) -> _Null:
        return self

    def __exit__(self, *a: Any) -> None:
        return None

    def __call__(self, *a: Any) -> None:
        return None


def render_table(report: dict[str, Any]) -> Any:
    from rich.table import Table

    names = list(report["pipelines"])
    ratio = report.get("ratio") or {}
    t = Table(title=f"retrieval on {report['answerable']} answerable questions "
                    f"({report['questions']} in the file)")
    t.add_column("metric")
    for n in names:
        cfg = report["pipelines"][n].get("config", {})
        head = n
        if n in BASELINES:
            head += f"\n(recursive {cfg.get('size')}/{cfg.get('overlap')}, {cfg.get('retrievers')}, top {cfg.get('k')})"
        else:
            head += f"\n({cfg.get('strategy')}, hybrid+structure, top {cfg.get('k')})"
        t.add_column(head, justify="right")
    if ratio:
        t.add_column(f"jogak ÷ {ratio['vs']}", justify="right")
    keys = [f"recall@{k}" for k in KS] + ["mrr", "ndcg@10", "clause_p@1", "latency_ms_p50"]
    for key in keys:
        vals = []
        for n in names:
            v = report["pipelines"][n]["metrics"].get(key)
            vals.append("–" if v is None else (f"{v:.1f}" if key.startswith("latency") else f"{v:.3f}"))
        if ratio:
            r = ratio.get(key)
            vals.append("–" if r is None else f"{r:.2f}×")
        t.add_row(key, *vals)
    kinds = sorted({k for n in names for k in report["pipelines"][n].get("by_kind", {})})
    for kind in kinds:
        vals = []
        for n in names:
            m = report["pipelines"][n]["by_kind"].get(kind)
            vals.append(f"{m['recall@5']:.2f} (n={int(m['n'])})" if m else "–")
        if ratio:
            vals.append("")
        t.add_row(f"recall@5 · {kind}", *vals)
    if report.get("unresolved_gold"):
        t.caption = "unresolved gold (judged by path/label): " + ", ".join(report["unresolved_gold"][:5])
    return t
