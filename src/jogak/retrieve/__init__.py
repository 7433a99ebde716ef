"""Retrieval: dense + BM25 fused by RRF, filters inside both, and structure-aware recall on top.

``search(store, query, k, filters, options)`` runs, in order:

1. filters: explicit ones plus those read from the question (``query_filters``), echoed in the result;
2. candidates: dense (Chroma, filtered in the query) and BM25 (bm25s over Kiwi morphemes, filtered by a
   mask), plus a *route* list when a routing rule names the question's entity (the same two retrievers
   restricted to the preferred block types); fused by weighted reciprocal rank fusion;
3. clause lookup: a clause or case named in the question ("제8조", "반품교환환불정책 제2조", "Section 4.2",
   "2000다11621") puts that node's chunks first;
4. cross-reference following: a hit whose chunk points elsewhere ("부록A 참조") is followed by the
   target node's chunks (``via`` = the pointer's id), inside the top k — also when the target was found
   directly — and a pointer is never returned without its target;
5. optional neighbour/parent expansion (extra hits after each hit, not counted in k).
"""

from __future__ import annotations

from jogak.filters import Filter
from jogak.retrieve.options import SearchOptions, SearchResult
from jogak.retrieve.pipeline import search
from jogak.retrieve.searchable import SearchableStore
from jogak.retrieve.wording import lexicon_expansion

__all__ = ["Filter", "SearchOptions", "SearchResult", "SearchableStore", "lexicon_expansion", "search"]
