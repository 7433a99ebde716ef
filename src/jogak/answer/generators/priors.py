"""A unit's authority in the answer: the product of the priors that apply to it (``jogak.authority``, answer column;
seed 004) — its evidence tier, an FAQ answer, a decision's reasoning, the addenda (a statute's long-past 경과조치
lower still), a worked example, a purpose clause, a blank form."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from jogak.answer.generators.candidates import Candidate
from jogak.answer.generators.weights import ExtractiveWeights
from jogak.grammar.effective import aged_transitional
from jogak.grammar.patterns import PURPOSE_HEADING_RE

_EXAMPLE = re.compile(r"^\s*(?:예를\s*들어|예컨대|예시|가령|for\s+example|for\s+instance|e\.g\.)", re.I)
_CASE_BODY = ("판례내용", "전문", "이유", "주문")
_FORM = re.compile(r"^\s*[\[【<(]?\s*별지")  # a blank form ("[별지 제1호 서식] 회원탈퇴 신청서 성명: …")


def unit_authority(c: Candidate, w: ExtractiveWeights, mentions_appendix: bool, asks_purpose: bool,
                   present: date | None) -> float:
    """The product of the priors that apply to the unit. An appendix excerpt reached by routing or a pointer, or
    named by the question (``mentions_appendix``), is not down-weighted; nor the addenda when routed there.
    ``present``: today, for a question asked in the present (None when it asks about a past day or a change) —
    then a statute's transitional provision of a 부칙 years old weighs ``aged_transitional`` more."""
    tier, hit, md = c.excerpt.tier, c.excerpt.hit, c.excerpt.chunk.metadata
    weight = w.tier_weight(tier)
    routed = c.excerpt.via is not None or bool({"xref", "route", "routed"} & set(hit.matched)) \
        or mentions_appendix
    if tier == "supplementary" and routed:
        weight = 1.0
    if c.unit.kind == "faq_a":
        weight *= w.prior("faq")
    if is_case_reasoning(c.excerpt.chunk):
        weight *= w.prior("case_reasoning")
    if md.block_type == "addenda" and "route" not in hit.matched:
        weight *= w.prior("addenda")
        if present is not None and aged_transitional(md.path or "", c.unit.heading or md.article or "",
                                                     c.unit.text, present):
            weight *= w.prior("aged_transitional")
    if _EXAMPLE.match(c.unit.text):
        weight *= w.prior("example")
    if not asks_purpose and PURPOSE_HEADING_RE.search(c.unit.heading or ""):
        weight *= w.prior("purpose")
    if any(_FORM.match(x) for x in (c.unit.heading or "", c.unit.text, md.article or "")):
        weight *= w.prior("form")
    return weight


def is_case_reasoning(chunk: Any) -> bool:
    """A chunk of a decision's full text (판례내용, 이유, …) rather than its holdings."""
    md = chunk.metadata
    if not md.case:
        return False
    top = (md.path or "").split("/")[0].replace(" ", "").strip("【】<>[]")
    return top in _CASE_BODY
