"""What an Act clause leaves to its decree ("대통령령으로 정하는 건물"), stated by the decree's clause that names it, joins
the answer when the question asks about it (answer.generators.pointer.delegated_details)."""

from __future__ import annotations

from jogak.answer.ask import answer_hits
from jogak.answer.generators.extractive import ExtractiveAnswerer
from jogak.answer.generators.weights import ExtractiveWeights

from .helpers import clause_hit

ACT = """제26조의2(회계감사)
① 전유부분이 150개 이상으로서 대통령령으로 정하는 건물의 관리인은 감사인의 회계감사를 매년 1회 이상 받아야 한다.
② 관리인은 회계감사를 받은 경우에는 그 결과를 구분소유자에게 보고하여야 한다."""
DECREE = """제6조의2(회계감사대상 건물의 범위)
① 법 제26조의2제1항 본문에서 "대통령령으로 정하는 건물"이란 다음 각 호의 어느 하나에 해당하는 건물을 말한다.
1. 직전 회계연도에 구분소유자로부터 징수한 관리비가 3억원 이상인 건물
2. 직전 회계연도 말 기준으로 적립되어 있는 수선적립금이 3억원 이상인 건물"""
OTHER = """제6조의3(감사 결과의 보고)
① 법 제26조의2제2항에 따라 관리인은 감사보고서를 회계감사를 받은 날부터 1개월 이내에 보고한다."""


def _hits() -> list:
    return [clause_hit("집합건물법", 0, "제26조의2 (회계감사)", "본문/제26조의2", ACT, chunk_id="act"),
            clause_hit("집합건물법 시행령", 1, "제6조의2 (회계감사대상 건물의 범위)", "본문/제6조의2", DECREE, score=0.8,
                       chunk_id="decree"),
            clause_hit("집합건물법 시행령", 2, "제6조의3 (감사 결과의 보고)", "본문/제6조의3", OTHER, score=0.7,
                       chunk_id="other")]


# what the answer would say, whatever its confidence on three hand-made hits
SURE = ExtractiveAnswerer(ExtractiveWeights().with_overrides(answer_confidence=0.0))


def test_the_decree_clause_filling_the_delegation_joins_when_asked() -> None:
    a = answer_hits("관리인이 감사인의 회계감사를 매년 받아야 하는 건물은 관리비가 얼마 이상이에요?", _hits(), generator=SURE).answer
    assert "감사인의 회계감사를 매년 1회 이상" in a.answer and "관리비가 3억원 이상인 건물" in a.answer, a.answer
    assert "1개월 이내" not in a.answer  # another delegation of the same Act (its ②) is not this one


def test_nothing_joins_when_the_answer_already_says_what_is_asked() -> None:
    a = answer_hits("회계감사를 받으면 그 결과를 구분소유자에게 보고해야 해요?", _hits(), generator=SURE).answer
    assert "3억원" not in a.answer, a.answer
