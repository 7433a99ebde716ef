"""Leaf candidates ("small-to-big"): the question is also matched against every leaf — 항, 호, 목,
numbered sub-clause, each with its article breadcrumb (``jogak.index.leaves``) — densely and lexically;
each leaf list ranks the chunks by their best leaf, so a long article whose chunk reads far from the
question is found through the one paragraph that answers, and its score lifts its clause in fusion."""

from __future__ import annotations

import re
from typing import Any

from jogak.retrieve.scope import Entry, Scope

Ranked = list[tuple[str, float]]

GRANULARITIES = ("all", "paragraph", "item")
_ITEM = re.compile(r"(?:호(?:의\d+)?|목)$")  # 제3호, 제6호의2, 가목


def leaf_lists(scope: Scope, qtoks: list[str], qvec: Any) -> tuple[dict[str, Ranked], dict[str, str]]:
    """``leaf_dense`` and ``leaf_bm25``: chunk rows ranked by their best leaf (empty without leaves); and
    each ranked row's best leaf path (row key → path)."""
    opts = scope.opts
    li = scope.lex.leaves() if opts.leaves and scope.n else None
    if li is None or not len(li):
        return {}, {}
    keep = _granularity_mask(scope, li)
    n = 4 * scope.n_candidates  # several leaves of one chunk may rank together
    lists: dict[str, Ranked] = {}
    mask = scope.mask
    if keep is not None:
        import numpy as np

        full = np.ones(scope.n, dtype=bool) if mask is None else mask
        hits_d = [(j, s) for j, s in li.dense(qvec, n * 2, full) if keep[j]]
        hits_l = [(j, s) for j, s in li.lexical(qtoks, n * 2, full) if keep[j]]
    else:
        hits_d = li.dense(qvec, n, mask) if qvec is not None else []
        hits_l = li.lexical(qtoks, n, mask) if opts.bm25 else []
    best: dict[str, str] = {}
    for name, hits in (("leaf_bm25", hits_l), ("leaf_dense", hits_d)):
        if hits:
            lists[name] = _by_row(scope, li, hits, best)
    return lists, best


def _by_row(scope: Scope, li: Any, hits: list[tuple[int, float]], best: dict[str, str]) -> Ranked:
    rows = scope.lex.rows
    out: Ranked = []
    seen: set[int] = set()
    for j, s in hits:
        i = int(li.row[j])
        if i in seen:
            continue
        seen.add(i)
        best.setdefault(rows[i], li.paths[j])
        out.append((rows[i], s))
        if len(out) >= scope.n_candidates:
            break
    return out


def _granularity_mask(scope: Scope, li: Any) -> Any:
    """Which leaves take part (``SearchOptions.leaf_granularity``): all; only 항-level ("paragraph": a
    leaf whose last path segment is a 항 or the clause's own text); only 호/목-level ("item")."""
    g = scope.opts.leaf_granularity
    if g == "all":
        return None
    import numpy as np

    def level(path: str) -> str:
        return "item" if _ITEM.search(path.rsplit("/", 1)[-1]) else "paragraph"

    memo = scope.lex.memo("leaf_levels", lambda: [level(p) for p in li.paths])
    return np.array([lv == g for lv in memo], dtype=bool)


def entry_leaves(scope: Scope, li: Any, e: Entry) -> list[int]:
    """The indices of the leaves of an entry's chunks: its own and those of the chunks of the same clause folded
    into it (``Entry.also``)."""
    by_row = scope.lex.memo("leaves_by_row", lambda: _group(li.row))
    row_of = scope.row_of
    rows = [e.row, *(row_of[k] for k in e.also if k in row_of)]
    return [j for r in rows for j in by_row.get(r, ())]


def _group(rows: Any) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for j, r in enumerate(rows):
        out.setdefault(int(r), []).append(j)
    return out
