"""``search``: the retrieval stages in order, each in its own module.

    scope       the snapshot, the caller's filters and those read from the question   (scope.py)
    candidates  BM25, dense and route lists, filtered inside each retriever            (candidates.py)
                + each chunk ranked by its best leaf (항/호/목), dense and BM25         (leaves.py)
    fusion      weighted RRF and the authority prior                                   (hybrid.py)
                + optional second BM25 pass with the top clauses' words (feedback)     (feedback.py)
    documents   the documents the question names or implies are preferred             (documents.py)
                + a question about regulation or a public body prefers the laws
    lookup      clauses and cases the question names go first                          (lookup.py)
    clauses     the chunks of one clause collapse into one hit                         (clauses.py)
    rerank      optional second opinion on the top clauses                             (rerank.py)
                + a question asking a state sanction: the laws' clauses first          (documents.py)
    delegation  an Act clause that delegates is followed by its decree's clause         (delegation.py)
    sanction    a duty clause asked about as breached: its penalty article before it  (sanction.py)
    disqualification  who cannot get a licence: the law's 결격사유 article before it  (disqualification.py)
    spread      several fitting documents take turns at the top                        (documents.py)
    companion   the law clause behind a company's leading rule gets a top place         (companion.py)
    xref        the top k, pointers paired with their targets                          (xref.py)
    expansion   optional neighbours / parent context                                   (expansion.py)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jogak.model import Hit
from jogak.retrieve import documents
from jogak.retrieve.candidates import Candidates, retrieve_candidates
from jogak.retrieve.clauses import collapse
from jogak.retrieve.companion import law_companion
from jogak.retrieve.delegation import follow_delegation
from jogak.retrieve.disqualification import follow_disqualification
from jogak.retrieve.expansion import expand
from jogak.retrieve.feedback import feedback_list
from jogak.retrieve.hybrid import fuse
from jogak.retrieve.lookup import named_first
from jogak.retrieve.options import SearchOptions, SearchResult
from jogak.retrieve.rerank import rerank
from jogak.retrieve.sanction import follow_sanctions
from jogak.retrieve.scope import Entry, Scope, open_scope, row_id
from jogak.retrieve.searchable import SearchableStore
from jogak.retrieve.transitional import with_versions
from jogak.retrieve.xref import assemble


@dataclass
class FirstRanking:
    """The clause entries as the stages before ``rerank`` leave them (what a reranker re-orders)."""

    scope: Scope
    cands: Candidates
    ordered: list[Entry]  # one entry per clause, named clauses first
    by_row: dict[int, Entry]
    named: Any  # the documents the question names (documents.prefer)


def first_ranking(store: SearchableStore, query: str, k: int = 5, filters: Any = None,
                  options: SearchOptions | None = None) -> FirstRanking:
    """Scope, candidates, fusion (+ feedback), document preference, named clauses, clause collapsing."""
    opts = options or SearchOptions.from_config()
    scope = open_scope(store, query, max(1, int(k)), filters, opts)
    cands = retrieve_candidates(scope)
    entries = fuse(scope, cands)
    if opts.feedback and (more := feedback_list(scope, entries, cands.qtoks)):
        cands.lists["feedback"] = more
        entries = fuse(scope, cands)
    entries, named = documents.prefer(scope, entries)
    by_row = {e.row: e for e in entries}
    return FirstRanking(scope, cands, collapse(scope, named_first(scope, entries, by_row)), by_row, named)


def search(store: SearchableStore, query: str, k: int = 5, filters: Any = None,
           options: SearchOptions | None = None) -> SearchResult:
    """The top ``k`` hits for ``query`` (plus expansion context when asked), with the filters in force."""
    first = first_ranking(store, query, k, filters, options)
    scope, cands, by_row = first.scope, first.cands, first.by_row
    # a state-sanction question: the laws first, so that the stages after it follow their clauses
    ordered = documents.laws_first(scope, rerank(scope, first.ordered, cands.qvec), first.named)
    ordered = follow_sanctions(scope, follow_delegation(scope, ordered))
    ordered = follow_disqualification(scope, ordered)
    ordered = law_companion(scope, documents.spread(scope, ordered, first.named), cands.qvec)
    final, placed = assemble(scope, ordered, by_row)
    hits = with_versions(scope, _hits(store, expand(scope, final, placed)))
    return SearchResult(query=query, filters=scope.shown, hits=hits, warnings=scope.warnings,
                        retrieval_query=scope.rq, routed=cands.routed, as_of=scope.as_of.day if scope.as_of else None)


def _hits(store: SearchableStore, entries: list[Entry]) -> list[Hit]:
    chunks = store.chunk_map([e.key for e in entries])  # rows a concurrent writer deleted are absent
    hits: list[Hit] = []
    for e in entries:
        c = chunks.get(e.key)
        if c is None:
            continue
        hits.append(Hit(chunk=c, score=round(e.score, 6), rank=len(hits) + 1, matched=e.matched, via=e.via,
                        scores=e.scores, also=[row_id(k) for k in e.also], leaf=e.leaf))
    return hits
