"""Candidate retrieval: BM25 and dense ranked lists, each filtered inside its retriever, plus the *route*
list when a routing rule names the question's entity (the same two retrievers restricted to the preferred
block types, fused).

The BM25 query also carries the document wording the lexicon gives for the question's everyday words;
the dense query sees the question, plus that wording in parentheses for words the collection never uses.
List order matters: fusion breaks ties by first appearance, bm25 → dense → route.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from jogak.filters import Filter, to_chroma, to_mask
from jogak.index.lexical import tokenize
from jogak.retrieve import hybrid, routing
from jogak.retrieve.scope import Scope
from jogak.retrieve.wording import lexicon_expansion, vocabulary

Ranked = list[tuple[str, float]]  # (row key, the retriever's score), best first


@dataclass
class Candidates:
    lists: dict[str, Ranked]
    weights: dict[str, float]  # per list, for fusion
    routed: list[str]  # block types a routing rule preferred


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
    weights = opts.weights if not routed else {**opts.weights, "route": opts.weights.get("route", 1.0) * w}
    return Candidates(lists, weights, routed)


def _bm25(scope: Scope, qtoks: list[str], mask: Any) -> Ranked:
    rows = scope.lex.rows
    return [(rows[i], s) for i, s in scope.lex.search(qtoks, scope.n_candidates, mask)]


def _dense_list(scope: Scope, qvec: Any, filters: list[Filter]) -> Ranked:
    row_of = scope.row_of
    where = to_chroma(filters, scope.store.distinct)
    return [(r, s) for r, s in scope.store.dense_search(qvec, scope.n_candidates, where, scope.snap)
            if r in row_of]


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
        lists["dense"] = _dense_list(scope, qvec, scope.filters)
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
    if opts.bm25:
        sub["bm25"] = _bm25(scope, qtoks, to_mask(rf, scope.lex.column, scope.n))
    if qvec is not None:
        with contextlib.suppress(Exception):  # the route list is a bonus: without its dense half, BM25's
            sub["dense"] = _dense_list(scope, qvec, rf)
    lists["route"] = [(f.key, f.score) for f in hybrid.rrf(sub, opts.weights, opts.rrf_k)]
    return prefer, w
