"""What the extractive answerer's confidence model reads: the features of answering a question with one unit.

Every feature is computed and reported (``Draft.info["features"]``); the model
(``ExtractiveWeights.confidence_model``) weighs the ones it was fitted on and ignores the rest, so
``benchmarks/calibrate_confidence.py --keys`` can try any subset without changing the answerer.
"""

from __future__ import annotations

import re

from jogak.answer.generators.candidates import Candidate, Scored
from jogak.answer.generators.fit import asks_quantity
from jogak.answer.generators.selection import clause_key
from jogak.grammar.patterns import LIST_QUESTION_RE
from jogak.lexicon import content_terms

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
            "rank": min(best.excerpt.rank, 5) / 5}
