"""Everyday words → document wording, below both retrieval and answering.

``content_terms`` reads a text's content lemmas (Kiwi for Korean, stop-worded and suffix-stripped words
for English); ``lexicon()`` is the table of everyday wording → document wording ("월급" → 임금, "잘리다" →
해고, "ship" → deliver); ``expand_terms`` gives a question's terms with their document-wording variants.
The retriever adds the variants to its BM25 query; the extractive answerer credits a clause that uses them.
"""

from __future__ import annotations

from jogak.lexicon.expand import concat_parts, expand_terms
from jogak.lexicon.tables import lexicon
from jogak.lexicon.terms import CONTENT_TAGS, STOP_LEMMAS, content_terms

__all__ = ["CONTENT_TAGS", "STOP_LEMMAS", "concat_parts", "content_terms", "expand_terms", "lexicon"]
