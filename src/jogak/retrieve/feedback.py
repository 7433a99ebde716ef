"""Pseudo-relevance feedback (opt-in, ``SearchOptions.feedback``): a second BM25 pass whose query also
carries the distinctive words of the first pass's best clauses.

Everyday questions miss the words the answering clause uses ("그만두면" vs "퇴직", "월급" vs "임금"); the
first pass often still finds a neighbour of the answer through dense retrieval, and that neighbour's own
rare words (RM3's idea, simplified: content tokens that occur in at least two of the top ``feedback_docs``
texts, or are rare in the collection, weighted by tf·idf) find the answer lexically. The feedback list
joins fusion as one more list (``feedback`` in ``weights``), so the first-pass lists keep their votes and
a bad expansion can only add a minority vote.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING

from jogak.index.lexical import lexical_text, tokenize

if TYPE_CHECKING:
    from jogak.retrieve.candidates import Ranked
    from jogak.retrieve.scope import Entry, Scope


def feedback_list(scope: Scope, entries: list[Entry], qtoks: list[str]) -> Ranked:
    """The BM25 ranking for the question plus the expansion terms of the top entries ([] when there is
    nothing to expand with)."""
    opts, lex = scope.opts, scope.lex
    bm25 = lex.bm25
    top = entries[: max(1, int(opts.feedback_docs))]
    if bm25 is None or not top or not qtoks:
        return []
    chunks = scope.store.chunk_map([e.key for e in top])
    docs = [Counter(tokenize(lexical_text(c))) for e in top if (c := chunks.get(e.key)) is not None]
    terms = _expansion_terms(scope, docs, set(qtoks), int(opts.feedback_terms))
    if not terms:
        return []
    rows = lex.rows
    return [(rows[i], s) for i, s in lex.search([*qtoks, *terms], scope.n_candidates, scope.mask)]


def _expansion_terms(scope: Scope, docs: list[Counter[str]], known: set[str], n_terms: int) -> list[str]:
    """Up to ``n_terms`` tokens of the feedback texts by Σ tf · idf, skipping the question's own tokens,
    numbers and one-letter tokens, and tokens in half the collection or more (they rank nothing)."""
    vocab = getattr(scope.lex.bm25, "vocab_dict", None) or {}
    indptr = scope.lex.bm25.scores.get("indptr") if hasattr(scope.lex.bm25, "scores") else None
    n = max(1, scope.n)
    score: Counter[str] = Counter()
    seen_in: Counter[str] = Counter()
    for doc in docs:
        for tok, tf in doc.items():
            if tok in known or len(tok) < 2 or tok.isdigit() or tok not in vocab or indptr is None:
                continue
            j = vocab[tok]
            df = int(indptr[j + 1] - indptr[j])
            if df <= 0 or df >= n / 2:
                continue
            score[tok] += (1 + math.log(tf)) * math.log(n / df)
            seen_in[tok] += 1
    ranked = sorted(score, key=lambda t: (-(seen_in[t] > 1), -score[t], t))
    return ranked[:n_terms]
