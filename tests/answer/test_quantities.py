"""What counts as a question asking for a quantity, and as text stating one (jogak.lexicon.quantities):
the answer-type check and the learned reranker read both."""

from __future__ import annotations

import pytest

from jogak.answer.generators.fit import wanted_types
from jogak.lexicon.quantities import asks_quantity, states_quantity


@pytest.mark.parametrize("question", [
    "몇 명 이상이면 관리인을 꼭 뽑아야 해요?",
    "며칠 안에 돌려줘요?",
    "키가 몇 센티 넘어야 탈 수 있어요?",
    "몇 번째 방문부터 할인돼요?",
    "몇 년째 살고 있는데 보증금은 얼마나 올릴 수 있어요?",  # "얼마나" still asks
    "How long is the notice period?",
])
def test_questions_that_ask_for_a_quantity(question: str) -> None:
    assert asks_quantity(question)


@pytest.mark.parametrize("question", [
    "제 호실이 몇 달째 비어 있어요. 그동안 관리비는 누가 내요?",  # how long it has lasted: asks "who"
    "며칠째 연락이 안 되는데 신고할 수 있어요?",
    "택배 상자가 찌그러져서 왔어요. 반품할 수 있나요?",
])
def test_narrated_durations_ask_nothing(question: str) -> None:
    assert not asks_quantity(question)
    assert not wanted_types(question)


@pytest.mark.parametrize("text", [
    "구분소유자가 10인 이상일 때에는 관리인을 선임하여야 한다.",
    "개와 고양이는 합쳐서 2마리까지로 한다.",
    "키 120센티미터 이상인 사람만 탈 수 있다.",
    "필기시험은 60점 이상을 합격으로 한다.",
    "소포는 20킬로그램까지 접수한다.",
    "게스트룸은 1박 50,000원이다.",
    "주차는 세대당 1대까지 등록한다.",
])
def test_counters_of_people_things_scores_and_sizes_state_a_quantity(text: str) -> None:
    assert states_quantity(text)


@pytest.mark.parametrize("text", ["제3호에 따른 신고를 하여야 한다.", "제2장 총칙", "제5조의2 제1항에 따라"])
def test_clause_and_chapter_numbers_are_no_quantity(text: str) -> None:
    assert not states_quantity(text)
