"""The documents' wording for the question's everyday words (``jogak.lexicon``), as retrieval uses it.

"월급" → 임금, "잘리다" → 해고, "ship" → deliver: the BM25 query also searches for the document wording,
and when the question's own word never occurs in the collection ("자르다" in a statute) the dense query
carries the document wording too.
"""

from __future__ import annotations

from typing import Any

from jogak.index.lexical import tokenize
from jogak.lexicon import content_terms, expand_terms


def lexicon_expansion(query: str, vocabulary: Any = None) -> tuple[str, str]:
    """The document wording the lexicon gives for the question's everyday words: (all of it, the part for
    words the collection never uses — by ``vocabulary``, the BM25 index's tokens). ("", "") when none."""
    terms = list(dict.fromkeys(content_terms(query)))
    _terms, variants = expand_terms(query, terms)
    words: list[str] = []
    unseen: list[str] = []
    for t, vs in variants.items():
        stem = t[:-1] if t.endswith("다") and len(t) > 1 else t  # "자르다" is indexed as "자르"
        seen = vocabulary is not None and all(x in vocabulary for x in (tokenize(stem) or [stem]))
        for v in vs[1:]:  # vs[0] is the question's own wording
            w = " ".join(v)
            if w == t:
                continue
            if w not in words:
                words.append(w)
            if not seen and vocabulary is not None and w not in unseen:
                unseen.append(w)
    return " ".join(words), " ".join(unseen)


def vocabulary(lex: Any) -> Any:
    """The BM25 index's token vocabulary (None when the index has none)."""
    bm25 = getattr(lex, "bm25", None)
    return getattr(bm25, "vocab_dict", None)
