"""Candidate retrieval: BM25 and dense ranked lists, each filtered inside its retriever, plus the *route*
list when a routing rule names the question's entity (the same two retrievers restricted to the preferred
block types, fused).

The BM25 query also carries the document wording the lexicon gives for the question's everyday words;
the dense query sees the question, plus that wording in parentheses for words the collection never uses.
Each chunk is also ranked by its best leaf (``leaf_bm25``, ``leaf_dense``: retrieve/leaves.py). List order
matters: fusion breaks ties by first appearance, bm25 → dense → route → leaf lists.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

from jogak.filters import Filter, to_chroma, to_mask
from jogak.index.lexical import tokenize
from jogak.retrieve import hybrid, routing
from jogak.retrieve.articles import article_list
from jogak.retrieve.leaves import leaf_lists
from jogak.retrieve.scope import Scope
from jogak.retrieve.wording import lexicon_expansion, vocabulary

Ranked = list[tuple[str, float]]  # (row key, the retriever's score), best first


@dataclass
class Candidates:
    lists: dict[str, Ranked]
    weights: dict[str, float]  # per list, for fusion
    routed: list[str]  # block types a routing rule preferred
    leaf_paths: dict[str, str] = field(default_factory=dict)  # row key → its best-matching leaf
    qvec: Any = None  # the dense query vector (None without dense retrieval)
    qtoks: list[str] = field(default_factory=list)  # the BM25 query (question + lexicon wording)


def retrieve_candidates(scope: Scope) -> Candidates:
    opts, n = scope.opts, scope.n
    lists: dict[str, Ranked] = {}
    qtoks = tokenize(scope.rq) if opts.bm25 and n else []
    extra, unseen = lexicon_expansion(scope.rq, vocabulary(scope.lex)) if opts.lexicon and n else ("", "")
    if qtoks and extra:
        qtoks = [*qtoks, *tokenize(extra)]
    if opts.bm25 and n:
        lists["bm25"] = _bm25(scope, qtoks, scope.mask)
    qvec = _dense(scope, unseen, lists)
    routed, w = _route(scope, qtoks, qvec, lists)
    leaf, best_leaf = leaf_lists(scope, qtoks, qvec)
    if opts.leaf_mode == "max":  # a chunk ranks by its best granularity: itself or its best leaf
        for name, base in (("leaf_bm25", "bm25"), ("leaf_dense", "dense")):
            if name in leaf and base in lists:
                lists[base] = _best_of(lists[base], leaf.pop(name), scope.n_candidates)
    lists.update(leaf)
    if heads := article_list(scope, qvec):
        lists["article_dense"] = heads
    weights = opts.weights if not routed else {**opts.weights, "route": opts.weights.get("route", 1.0) * w}
    return Candidates(lists, weights, routed, best_leaf, qvec, qtoks)


def _best_of(a: Ranked, b: Ranked, n: int) -> Ranked:
    """Two ranked lists of the same retriever merged: each row at its better score."""
    best: dict[str, float] = {}
    for key, s in [*a, *b]:
        if s > best.get(key, float("-inf")):
            best[key] = s
    return sorted(best.items(), key=lambda kv: -kv[1])[:n]


def _bm25(scope: Scope, qtoks: list[str], mask: Any) -> Ranked:
    rows = scope.lex.rows
    return [(rows[i], s) for i, s in scope.lex.search(qtoks, scope.n_candidates, mask)]


# A snapshot of at most EXACT_ALL_MAX rows is searched exactly over a matrix of its vectors fetched once
# (15 MB at 10 K rows of 384 dimensions): the same ranking in every process, and no slower than HNSW there.
# Larger: a filter keeping at most EXACT_MAX rows is searched exactly over their vectors; otherwise an unfiltered
# query fetching up to FETCH_MAX neighbours (n × collection / kept) and dropping what the filter excludes;
# Chroma's own filter only when that leaves fewer than n.
EXACT_ALL_MAX = 20_000
EXACT_MAX = 4096
FETCH_MAX = 2000


def _dense_list(scope: Scope, qvec: Any, filters: list[Filter], mask: Any = None) -> Ranked:
    """The dense ranking under ``filters`` (``mask``: the same filters over the snapshot's rows). Chroma's
    metadata filter costs 0.4–2 s a query at half a million rows, so it is the last resort."""
    import numpy as np

    row_of, n, store = scope.row_of, scope.n_candidates, scope.store
    if filters and mask is None:
        mask = to_mask(filters, scope.lex.column, scope.n, scope.lex.codes)
    if scope.n <= EXACT_ALL_MAX and (m := store.dense_matrix(scope.snap)) is not None:
        return _exact(scope.lex.rows, m, qvec, n, mask)
    if mask is None:
        return [(r, s) for r, s in store.dense_search(qvec, n, None, scope.snap) if r in row_of]
    kept = int(mask.sum())
    if kept == 0:
        return []
    if kept <= EXACT_MAX:
        rows = scope.lex.rows
        return store.dense_search_among(qvec, n, [rows[i] for i in np.flatnonzero(mask)])
    fetch = n * scope.n // kept + n
    if fetch <= FETCH_MAX:
        got = store.dense_search(qvec, fetch, None, scope.snap)
        out = [(r, s) for r, s in got if (i := row_of.get(r)) is not None and mask[i]][:n]
        if len(out) >= n:
            return out
    where = to_chroma(filters, store.distinct)
    return [(r, s) for r, s in store.dense_search(qvec, n, where, scope.snap) if r in row_of]


def _exact(rows: list[str], m: Any, qvec: Any, n: int, mask: Any) -> Ranked:
    """Top ``n`` rows by cosine similarity over the unit-length matrix ``m`` (rows where ``mask`` holds);
    ties keep row order, so the ranking never depends on the process."""
    import numpy as np

    q = np.asarray(qvec, dtype=np.float32)
    q = q / (float(np.linalg.norm(q)) or 1.0)
    sims = m @ q
    idx = np.arange(len(rows)) if mask is None else np.flatnonzero(mask)
    if not len(idx):
        return []
    s = sims[idx]
    order = np.argsort(-s, kind="stable")[:n]
    return [(rows[idx[i]], float(s[i])) for i in order if float(np.linalg.norm(m[idx[i]])) > 0]


def _dense(scope: Scope, unseen: str, lists: dict[str, Ranked]) -> Any:
    """Adds the dense list; returns the query vector (None when dense retrieval is off or failed)."""
    opts = scope.opts
    if not (opts.dense and scope.n):
        return None
    usable, why = scope.store.dense_info(scope.snap)
    if not usable:
        if why:
            scope.warnings.append(why)
        return None
    try:
        text = f"{scope.rq} ({unseen})" if unseen and opts.lexicon_dense else scope.rq
        qvec = scope.store.embedder.embed_query(text)
        lists["dense"] = _dense_list(scope, qvec, scope.filters, scope.mask)
    except Exception as e:  # a broken vector store must not take lexical search down with it
        scope.warnings.append(f"dense retrieval failed ({type(e).__name__}: {e}); lexical-only")
        return None
    return qvec


def _route(scope: Scope, qtoks: list[str], qvec: Any, lists: dict[str, Ranked]) -> tuple[list[str], float]:
    """Adds the route list when a rule fires; returns (preferred block types, the rule's weight)."""
    opts = scope.opts
    if not (opts.routing and scope.n):
        return [], 0.0
    prefer, w, _terms = routing.route(scope.query, routing.load_rules(opts.routing_rules))
    if not prefer:
        return [], 0.0
    rf = [*scope.filters, Filter("block_type", "in", prefer)]
    sub: dict[str, Ranked] = {}
    rmask = to_mask(rf, scope.lex.column, scope.n, scope.lex.codes)
    if opts.bm25:
        sub["bm25"] = _bm25(scope, qtoks, rmask)
    if qvec is not None:
        with contextlib.suppress(Exception):  # the route list is a bonus: without its dense half, BM25's
            sub["dense"] = _dense_list(scope, qvec, rf, rmask)
    lists["route"] = [(f.key, f.score) for f in hybrid.rrf(sub, opts.weights, opts.rrf_k)]
    return prefer, w
