"""Retrieval metrics over judged rankings.

A ranking is judged as ``covered[r]`` = the set of gold items the hit at rank ``r`` (0-based) supports.
A question may have several gold items (an answer that needs two clauses): recall@k is the share of them
found in the top k; MRR uses the first hit that supports any gold item; nDCG@k gains 1 for each hit that
supports a gold item not supported higher up (so a clause split into three chunks is not counted thrice),
against the ideal ranking of min(n_gold, k) such hits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

KS = (1, 3, 5, 10)


def recall_at(covered: Sequence[set[int]], n_gold: int, k: int) -> float:
    if n_gold <= 0:
        return 0.0
    found: set[int] = set()
    for s in covered[:k]:
        found |= s
    return len(found) / n_gold


def reciprocal_rank(covered: Sequence[set[int]], k: int | None = None) -> float:
    for r, s in enumerate(covered[:k] if k else covered):
        if s:
            return 1.0 / (r + 1)
    return 0.0


def ndcg_at(covered: Sequence[set[int]], n_gold: int, k: int = 10) -> float:
    if n_gold <= 0:
        return 0.0
    seen: set[int] = set()
    dcg = 0.0
    for r, s in enumerate(covered[:k]):
        new = s - seen
        if new:
            dcg += 1.0 / math.log2(r + 2)
            seen |= new
    idcg = sum(1.0 / math.log2(r + 2) for r in range(min(n_gold, k)))
    return dcg / idcg if idcg else 0.0


def summarize(rows: Sequence[tuple[Sequence[set[int]], int]], ks: Sequence[int] = KS) -> dict[str, float]:
    """Mean recall@k, MRR and nDCG@10 over (covered, n_gold) rows with n_gold > 0."""
    rows = [r for r in rows if r[1] > 0]
    n = len(rows)
    out: dict[str, float] = {"n": float(n)}
    if not n:
        return out
    for k in ks:
        out[f"recall@{k}"] = sum(recall_at(c, g, k) for c, g in rows) / n
    out["mrr"] = sum(reciprocal_rank(c) for c, _ in rows) / n
    out["ndcg@10"] = sum(ndcg_at(c, g, 10) for c, g in rows) / n
    return out


# ─── character-span metrics (LegalBench-RAG) ────────────────────────────────────────────────────


def _merge(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if e <= s:
            continue
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def _overlap(a: Sequence[tuple[int, int]], b: Sequence[tuple[int, int]]) -> int:
    total = 0
    for s1, e1 in a:
        for s2, e2 in b:
            total += max(0, min(e1, e2) - max(s1, s2))
    return total


def span_precision_recall(retrieved: Sequence[tuple[str, int, int]],
                          gold: Sequence[tuple[str, int, int]]) -> tuple[float, float]:
    """LegalBench-RAG's character-level precision and recall for one query.

    Precision = characters of the retrieved snippets that lie inside a gold span / total retrieved
    characters; recall = characters of the gold spans covered by some retrieved snippet / total gold
    characters. Spans are (file, start, end); overlapping snippets are merged per file first so a
    character is counted once.
    """
    files = {f for f, _, _ in retrieved} | {f for f, _, _ in gold}
    inter = ret_len = gold_len = 0
    for f in files:
        r = _merge([(s, e) for ff, s, e in retrieved if ff == f])
        g = _merge([(s, e) for ff, s, e in gold if ff == f])
        inter += _overlap(r, g)
        ret_len += sum(e - s for s, e in r)
        gold_len += sum(e - s for s, e in g)
    precision = inter / ret_len if ret_len else 0.0
    recall = inter / gold_len if gold_len else 0.0
    return precision, recall
