"""What the extractive answerer's confidence model reads: the features of answering a question with one unit.

Every feature is computed and reported (``Draft.info["features"]``); the model
(``ExtractiveWeights.confidence_model``) weighs the ones it was fitted on and ignores the rest, so
``benchmarks/calibrate_confidence.py --keys`` can try any subset without changing the answerer.
"""

from __future__ import annotations

import re

from jogak.answer.generators.candidates import Candidate, Scored, article_key
from jogak.answer.generators.fit import asks_quantity
from jogak.answer.generators.selection import clause_key
from jogak.grammar.patterns import LIST_QUESTION_RE
from jogak.lexicon import content_terms
from jogak.lexicon.quantities import asks_exact_figure, states_figure

# interrogatives: with the question marks, three or more ("언제 줘야 하고, 얼마 동안 보관해요?") make a two-part question
_ASKS = re.compile(r"언제|며칠|얼마|몇|어디|누구|무엇|뭐|어떻게|어떤|왜|\bwhen\b|\bhow\b|\bwhat\b|\bwho\b", re.I)


def answer_features(best: Candidate, scored: Scored, typed: bool, answerable: list[Candidate], question: str,
                    named: bool, semantic_coverage: float) -> dict[str, float]:
    """The unit's score and the parts it is made of, the question's semantic noun coverage, the answer type
    fitting, the margin to the best unit of another clause, a named clause, the document the question points
    to, how much of the clause's title the question says, how many of the best units agree on the clause, and
    what the question asks (a quantity or time, a list, several things)."""
    rival = next((c for c in answerable if clause_key(c) != clause_key(best)), None)
    margin = best.score - (rival.score if rival is not None else 0.0)
    top = answerable[:5]
    title = set(content_terms(best.unit.heading or ""))
    return {"bias": 1.0, "score": best.score, "coverage": semantic_coverage,
            "typed": 1.0 if typed else 0.0, "margin": round(margin, 4), "named": 1.0 if named else 0.0,
            "unit_coverage": best.noun_coverage, "semantic": best.semantic or 0.0,
            "first": 1.0 if best.excerpt.rank == 0 else 0.0,
            # the excerpts come from the learned reranker's ordering: the model fitted on that ranking applies
            "reranked": 1.0 if any("learned" in c.excerpt.hit.scores for c in answerable) else 0.0,
            "lexical": round(best.lexical, 4), "focus": round(best.focus, 4), "bigram": round(best.bigram, 4),
            "pointed": scored.doc_scores.get(best.excerpt.chunk.metadata.doc_title, 0.0),
            "title": round(len(title & set(content_terms(question))) / len(title), 4) if title else 0.0,
            "agree": round(sum(1 for c in top if clause_key(c) == clause_key(best)) / len(top), 4) if top else 0.0,
            "asks_amount": 1.0 if asks_quantity(question) else 0.0,
            "asks_list": 1.0 if LIST_QUESTION_RE.search(question) else 0.0,
            "multi": 1.0 if len(_ASKS.findall(question)) + question.count("?") >= 3 else 0.0,
            "table_row": 1.0 if best.unit.kind == "table_row" else 0.0,
            "rank": min(best.excerpt.rank, 5) / 5,
            **_retrieval_features(best, answerable), **_clause_features(best, scored),
            # an exact figure asked, only a ceiling given (the answer-type rule's test, on the answer unit alone)
            "cap": 1.0 if asks_exact_figure(question) and not states_figure(best.unit.display(), question) else 0.0}


def _retrieval_features(best: Candidate, answerable: list[Candidate]) -> dict[str, float]:
    """What retrieval thought of the answer's clause: the learned reranker's score (``rr``) and its margin over
    the best excerpt of another article (``rr_margin``), and whether the clause was looked up by name or
    definition (``looked_up``) or reached by a route or cross-reference (``routed``)."""
    hit = best.excerpt.hit
    own = hit.scores.get("learned")
    rivals = [c.excerpt.hit.scores["learned"] for c in answerable
              if "learned" in c.excerpt.hit.scores and article_key(c) != article_key(best)]
    looked_up = bool({"clause", "defines"} & set(hit.matched))
    routed = best.excerpt.via is not None or bool({"xref", "route", "routed"} & set(hit.matched))
    return {"rr": round(own, 4) if own is not None else 0.0,
            "rr_margin": round(own - max(rivals), 4) if own is not None and rivals else 0.0,
            "looked_up": 1.0 if looked_up else 0.0, "routed": 1.0 if routed else 0.0}


def _clause_features(best: Candidate, scored: Scored) -> dict[str, float]:
    """How much of the question the answer's whole article speaks of: the share of the question's noun weight
    any unit of it matches (``clause_coverage``), and whether the question's rarest noun — the thing it is
    most specifically about — is absent from it (``rare_missing``): a question about a neighbouring fact
    ("VIP실은 몇 평", "형제 할인") is answered by a clause on the topic that never names that fact."""
    weights = scored.noun_weights
    total = sum(weights.values())
    if not total:
        return {"clause_coverage": 1.0, "rare_missing": 0.0}
    got = {t for c in scored.candidates if article_key(c) == article_key(best) for t in c.matched}
    rare = max(weights, key=lambda t: (weights[t], t))
    return {"clause_coverage": round(sum(w for t, w in weights.items() if t in got) / total, 4),
            "rare_missing": 0.0 if rare in got else 1.0}
