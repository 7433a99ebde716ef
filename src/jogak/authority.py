"""Authority priors: the binding text outranks text that restates, explains or illustrates it (seed 004).

An article, a body paragraph or a court's holding binds; an FAQ answer restates articles in plainer words,
a footnote or an appendix explains or details them, a worked example illustrates a rule, a decision's
full reasoning restates its holdings among much else, and addenda (부칙) say when and how amendments apply.
When such a text says the same as the binding one, the binding one should win the tie — but the
restatement must still win when it alone says it. So each kind gets a multiplier a little below 1.

This is the one table of those multipliers, below both stages that use it:

- ``retrieval``: multiplies a chunk's fused (RRF) retrieval score; keyed by the chunk's node kind
  (``faq``) or block type (``footnote``, ``addenda``) — ``jogak.retrieve`` (config ``retrieve.authority``);
- ``answer``: multiplies a unit's score in the offline extractive answerer; keyed by unit kind (``faq``),
  block type (``appendix``, ``footnote``, ``addenda``) or what the text is (``case_reasoning``,
  ``example``) — ``jogak.answer.generators.extractive`` (config ``answer.authority``).

The two columns act on different scores and were calibrated separately (retrieval on recall/MRR of the
question sets, answering on their checkpoints; see benchmarks/NOTES-answer-calibration.md), so their
sizes are not comparable across columns: reciprocal-rank scores of neighbouring ranks (1/(60+r)) differ by
a percent or two, so 0.975 moves an FAQ chunk down a rank or so, while answer scores spread over [0, 1].
A column's 1.0 means "no prior at that stage".
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class Prior:
    retrieval: float = 1.0  # × fused retrieval score of a chunk of this kind
    answer: float = 1.0  # × extractive answer score of a unit of this kind


AUTHORITY: MappingProxyType[str, Prior] = MappingProxyType({
    # an FAQ answer restates the articles in plainer words; on a tie the article wins
    "faq": Prior(retrieval=0.975, answer=0.95),
    # a footnote explains; in answers it is background evidence (보조 참고)
    "footnote": Prior(retrieval=0.95, answer=0.75),
    # an appendix details; in answers it is supplementary evidence (보충 증거), not down-weighted when the
    # retriever reached it by routing or a pointer, or the question names it
    "appendix": Prior(retrieval=1.0, answer=0.9),
    # addenda (부칙: commencement, transition, amendment history) rank below the articles unless the
    # question is about application or transition (a routing rule prefers them; the prior is not applied)
    "addenda": Prior(retrieval=0.9, answer=0.9),
    # … and a transitional provision of a statute's 부칙 dated years ago (grammar.effective.aged_transitional:
    # "이 영 시행 당시 … 2013년 11월 23일까지 등록하여야 한다") is no answer to a question asked in the present
    "aged_transitional": Prior(answer=0.5),
    # a decision's full text (facts, the lower court's view, reasoning) below its holdings (판결요지)
    "case_reasoning": Prior(retrieval=1.0, answer=0.85),
    # a worked example ("예를 들어 …", "For example, …") below the rule it illustrates
    "example": Prior(retrieval=1.0, answer=0.95),
    # a purpose clause (제1조 (목적)) names the document and all it covers, so it matches many questions
    # and answers none of them — unless the question asks for the purpose (retrieval: session 6, it was the
    # first hit for 7 of the tune set's 61 questions; ×0.8 gave tune MRR 0.625 → 0.650, others ±0.01)
    "purpose": Prior(retrieval=0.8, answer=0.6),
    # a definitions article (제2조 (정의), "Definitions") names every term of its document — a company's terms
    # define their trade words ("대여기구"란 수상오토바이(제트스키)와 패들보드를 말한다) — so it meets many everyday
    # questions and answers only those about what a word means or what counts as what (session 12: MRR on 18
    # used sets +0.005 on average, up on 10, down on 3 by at most 0.008; r15 +0.04, r14 +0.012)
    "definition": Prior(retrieval=0.9),
    # an addenda article amending other laws ("제6조 (다른 법률의 개정)"): rewriting instructions ("…"을 "…"으로
    # 한다) name the law, its ministries and its words, and answer no question but one about that amendment
    # (on top of the addenda prior)
    "amending": Prior(retrieval=0.8),
    # a penalty provision ("제33조 (과태료)", "제31조 (벌칙)") lists the breached articles, so it shares the words of
    # every duty's question and answers only those about what a breach brings (grammar.laws.PENALTY_QUESTION_RE:
    # not discounted then); as the definitions article, it is a hub
    "penalty": Prior(retrieval=0.9),
    # a blank form (별지 서식: "성명: 아이디: …") is a template to fill in, not a rule
    "form": Prior(retrieval=1.0, answer=0.5),
})


def retrieval_priors() -> dict[str, float]:
    """The retrieval column, only the kinds that have a prior there: {"faq": 0.975, ...}."""
    return {k: p.retrieval for k, p in AUTHORITY.items() if p.retrieval != 1.0}


def answer_priors() -> dict[str, float]:
    """The answer column, only the kinds that have a prior there: {"faq": 0.95, ...}."""
    return {k: p.answer for k, p in AUTHORITY.items() if p.answer != 1.0}
