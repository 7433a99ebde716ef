"""The ``learned`` reranker: a linear score over clause-level evidence the first ranking does not weigh,
fitted on gold clauses (``benchmarks/fitted_rerank.py``; the shipped weights in ``learned_rerank.json``
were fitted on the project's used blind question sets, never on a set reported as untouched).

Per clause hit (its best chunk and the chunks of the same clause folded into it):

    first ranking   fused score, position, rank in the BM25 and the dense list, BM25 score relative to the
                    best, dense cosine and its gap to the best, the document-routing boost
    the question    share of its content words in the clause's title, and in the clause's text; whether it
                    asks the law or about public regulation (a fine, a permit, the authorities:
                    ``grammar.laws.asks_about_regulation``) and the clause is a statute's, decree's or rule's
    the clause      whether it states a quantity or a time when the question asks "얼마 / 며칠 / 몇",
                    its length, how many chunks it spans
    the vectors     cosine between the question and the clause's closest chunk

The hits are re-ordered by that score alone (it holds the first ranking's numbers itself). The weights
apply to the embedding model they were fitted with; for another model the first ranking stands.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from jogak.grammar.laws import asks_about_regulation, title_kind
from jogak.lexicon import content_terms
from jogak.lexicon.quantities import asks_quantity, states_quantity

WEIGHTS = Path(__file__).with_name("learned_rerank.json")
# No feature says "a statute", "a decree" or "an appendix": fitted with them, the weights learned the question
# sets' mix (more law questions than terms questions, few answered by a 별표) rather than relevance (session 10:
# MRR +0.031 with, +0.018 without, on sets left out of the fit), and Haru Market's delay-compensation
# questions, answered by its 부록A, lost their clause (answers 97.1 → 94.9 %). The authority prior
# (``SearchOptions.authority``) already says how far the binding text outranks an appendix. "law_cue" is not
# such a prior: it fires only when the question itself speaks of the law or of public regulation (95 % of such
# questions of the used sets have a law clause as gold, 55 % of the others; measured in session 18).
FEATURES = ("score", "inv_rank", "bm25_rank", "dense_rank", "bm25_rel", "dense", "dense_gap", "document",
            "title", "coverage", "typed", "length", "chunks", "cosine", "law_cue")


def clause_features(question: str, scores: Sequence[dict[str, float]], fused: Sequence[float],
                    meta: Sequence[Any], texts: Sequence[str], n_chunks: Sequence[int],
                    cosines: Sequence[float]) -> list[list[float]]:
    """One row of ``FEATURES`` per hit, in the first ranking's order. ``scores``: each hit's per-list
    scores (``Entry.scores``); ``fused``: its fused score; ``meta``: its best chunk's metadata; ``texts``:
    the text of its chunks joined; ``cosines``: question · closest chunk vector (0 without vectors)."""
    # the question's content lemmas, found in a clause as written ("끊기다" as "끊기"): no analyser run over
    # twenty clauses per query (that tripled the search time)
    qt = {t[:-1] if len(t) > 2 and t.endswith("다") else t for t in content_terms(question)}
    wants = asks_quantity(question)
    law_cue = asks_about_regulation(question)
    bm = max((s.get("bm25", 0.0) for s in scores), default=0.0) or 1.0
    dn = max((s.get("dense", 0.0) for s in scores), default=0.0)
    rows = []
    for j, (sc, f, md, text, n, cos) in enumerate(zip(scores, fused, meta, texts, n_chunks, cosines, strict=True)):
        title = md.article or ""
        row = {"score": 30.0 * f, "inv_rank": 1.0 / (j + 1),
               "bm25_rank": 1.0 / math.log2(1 + sc["bm25_rank"]) if "bm25_rank" in sc else 0.0,
               "dense_rank": 1.0 / math.log2(1 + sc["dense_rank"]) if "dense_rank" in sc else 0.0,
               "bm25_rel": sc.get("bm25", 0.0) / bm, "dense": sc.get("dense", 0.0),
               "dense_gap": sc.get("dense", dn - 0.1) - dn, "document": sc.get("document", 0.0),
               "title": sum(t in title for t in qt) / len(qt) if qt else 0.0,
               "coverage": sum(t in text for t in qt) / len(qt) if qt else 0.0,
               "typed": 1.0 if wants and states_quantity(text) else 0.0,
               "length": math.log1p(len(text)) / 10.0, "chunks": min(n, 8) / 8.0, "cosine": cos,
               "law_cue": 1.0 if law_cue and title_kind(md.doc_title or "") != "other" else 0.0}
        rows.append([row[k] for k in FEATURES])
    return rows


@functools.lru_cache(maxsize=4)
def weights(path: str = str(WEIGHTS)) -> tuple[str, tuple[float, ...]]:
    """(the embedding model the weights were fitted with, one weight per feature)."""
    data = _read(path)
    w = data["weights"]
    missing = [k for k in FEATURES if k not in w]
    if missing:
        raise ValueError(f"{path}: no weight for {', '.join(missing)}")
    return str(data["model"]), tuple(float(w[k]) for k in FEATURES)


@functools.lru_cache(maxsize=4)
def languages(path: str = str(WEIGHTS)) -> frozenset[str]:
    """The question languages the weights were fitted on ("ko", "en"; empty: not recorded, any)."""
    return frozenset(str(x) for x in _read(path).get("languages", ()))


def question_language(question: str) -> str:
    """"ko" when the question has Hangul, else "en" (the only two the project's question sets hold)."""
    from jogak.korean import has_hangul

    return "ko" if has_hangul(question) else "en"


def _read(path: str) -> dict[str, Any]:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def score_rows(rows: Sequence[Sequence[float]], w: Sequence[float]) -> list[float]:
    return [sum(a * b for a, b in zip(r, w, strict=True)) for r in rows]
