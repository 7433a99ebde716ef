"""What an answer must state to answer at all (answer/generators/fit.required_types)."""

from __future__ import annotations

import pytest

from jogak.answer.generators.fit import required_types
from jogak.lexicon.quantities import TIME_OR_QTY


def _contact(question: str) -> bool:
    return any(rx is not TIME_OR_QTY for rx in required_types(question))


@pytest.mark.parametrize("question", ["고객센터 전화번호가 뭐예요?", "문의는 어느 이메일로 보내면 되나요?",
                                      "What is the support phone number?"])
def test_a_question_asking_for_a_contact_needs_one(question: str) -> None:
    assert _contact(question)


@pytest.mark.parametrize("question", ["예매할 때 낸 제 전화번호랑 이름은 언제 지워져요?",
                                      "홈페이지에 며칠 전에 알려야 해요?",
                                      "When is my e-mail address deleted?"])
def test_a_contact_named_as_the_topic_of_another_question_is_not_asked_for(question: str) -> None:
    # the question asks when / how long about the contact; a unit stating the period answers it
    assert not _contact(question)


def test_a_time_question_about_a_contact_still_needs_a_time() -> None:
    assert required_types("홈페이지에 며칠 전에 알려야 해요?") == [TIME_OR_QTY]
