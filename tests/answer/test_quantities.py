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
    "2년 이하의 징역 또는 2천만원 이하의 벌금에 처한다.",  # Sino magnitudes, as statutes write money
    "사망의 경우에는 1인당 8천만원으로 한다.",
    "보증금은 1억5천만원으로 한다.",
    "입회비는 3백만 원이다.",
])
def test_counters_of_people_things_scores_and_sizes_state_a_quantity(text: str) -> None:
    assert states_quantity(text)


@pytest.mark.parametrize("text", ["제3호에 따른 신고를 하여야 한다.", "제3조제2항에 따라", "제2장 총칙", "제5조의2 제1항에 따라"])
def test_clause_and_chapter_numbers_are_no_quantity(text: str) -> None:
    assert not states_quantity(text)


@pytest.mark.parametrize(("question", "expected"), [
    ("아람조리원에서 마사지를 추가로 받으면 한 번에 얼마예요?", True),  # a bare "얼마예요": a price
    ("초등학생 주 3번 반은 한 달에 얼마예요?", True),
    ("기계값 자체는 얼마예요?", True),
    ("계약 8개월 만에 나가면 위약금이 얼마예요?", True),
    ("가산금은 얼마나 붙어요?", True),
    ("환불은 얼마 받아요?", True),  # a money verb
    ("과태료가 최대 얼마예요?", True),
    ("보관 기간이 얼마예요?", False),  # another measure
    ("신청하면 얼마나 걸려요?", False),
    ("점검은 얼마나 자주 해요?", False),
    ("학부모가 얼마나 많이 농촌과 형편이 비슷해야 해요?", False),
    ("처벌이 얼마나 돼요?", False),
    ("몇 살부터 탈 수 있어요?", False),
])
def test_questions_asking_money(question: str, expected: bool) -> None:
    from jogak.lexicon.quantities import asks_money

    assert asks_money(question) is expected


@pytest.mark.parametrize(("text", "expected"), [
    ("성인 씨름반은 1개월에 110,000원이다.", True),
    ("사망의 경우에는 1인당 8천만원으로 한다.", True),
    ("위약금은 남은 이용료의 10퍼센트로 한다.", True),  # a share of something
    ("최저임금액의 100분의 60에 해당하는 금액", True),
    ("사진 후기에는 500포인트를 적립한다.", True),
    ("셔틀버스는 무료로 운행한다.", True),  # nothing is charged
    ("보호자에게 따로 비용을 받지 아니한다.", True),
    ("산모 전신 마사지 2회", False),
    ("간식은 한 달 단위로 신청하며 전달 20일까지 신청한다.", False),
])
def test_what_answers_a_money_question(text: str, expected: bool) -> None:
    from jogak.lexicon.quantities import MONEY_ANSWER

    assert bool(MONEY_ANSWER.search(text)) is expected


@pytest.mark.parametrize(("question", "expected"), [
    ("종이 교재는 며칠 만에 받아요?", True),
    ("환불은 언제까지 신청해야 돼요?", True),
    ("허가 나오는 데 얼마나 걸려요?", True),
    ("경력이 몇 년 있어야 해요?", True),
    ("점검은 몇 년마다 받아요?", False),  # a cycle
    ("몇 달째 비어 있는데 관리비는 누가 내요?", False),  # how long it has lasted
    ("한 달에 얼마예요?", False),
])
def test_questions_asking_a_time(question: str, expected: bool) -> None:
    from jogak.lexicon.quantities import asks_time

    assert asks_time(question) is expected
