"""An unqualified question ("포인트 유효기간은?") is answered by the general rule, not by a clause about a
narrower kind of the thing ("보상으로 지급된 포인트의 유효기간은 90일") — issue 13's own example."""

from __future__ import annotations

import pytest

from jogak.answer import answer_hits
from jogak.answer.generators.fit import narrowed
from jogak.model import Hit

from .helpers import clause_hit

GENERAL = "하루포인트의 유효기간은 적립일로부터 1년이며, 유효기간이 지난 포인트는 매월 말일에 일괄 소멸한다."
NARROW = "보상으로 지급된 포인트의 유효기간은 지급일로부터 90일이다."


@pytest.mark.parametrize(("question", "text", "expected"), [
    ("포인트 유효기간은?", NARROW, True),
    ("포인트 유효기간은?", GENERAL, False),
    ("포인트 유효기간은?", "이 정책 시행 전에 적립된 포인트의 유효기간은 2년으로 한다.", True),
    ("포인트 유효기간은?", "제1항에 따른 포인트는 지급하지 아니한다.", False),  # a reference narrows nothing
    ("자격증을 빌려줘도 돼요?", "누구든지 제1항에 따라 발급받은 자격증을 빌려주어서는 아니 된다.", False),
    ("보상 포인트 유효기간은?", NARROW, False),  # the question names the kind
    ("보상으로 받은 포인트 유효기간은?", NARROW, False),  # … or narrows it itself
    ("곧 없어질 포인트는 어디서 봐요?", "메뉴에서 30일 이내에 소멸될 포인트를 확인할 수 있습니다.", False),
    ("영화 관람 등급은 어떤 것들이 있어요?", "15세 이상의 사람이 관람할 수 있는 영화", False),  # 관람 is in the question
    ("Points expire when?", NARROW, False),
])
def test_narrowed(question: str, text: str, expected: bool) -> None:
    assert narrowed(question, text) is expected


def _hit(doc: str, n: int, article: str, path: str, text: str, block: str, score: float) -> Hit:
    return clause_hit(doc, n, article, path, text, score, block)


def test_the_general_rule_answers_the_unqualified_question() -> None:
    hits = [_hit("환불정책", 0, "제2조 (지급 방법)", "본문/제2조", NARROW, "body", 1.0),
            _hit("멤버십정책", 1, "제5조 (포인트 유효기간)", "본문/제5조", GENERAL, "body", 0.98)]
    a = answer_hits("포인트 유효기간은?", hits).answer
    first = a.answer.splitlines()[0]
    assert "1년" in first and "90일" not in first, a.answer
