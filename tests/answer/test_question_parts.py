"""A question that asks two things ("… 며칠이나 못 해요? 벌점은 언젠가 없어지긴 해요?") gets the best unit of each
part when it belongs to a clause the answer already quotes (answer.generators.selection.question_parts)."""

from __future__ import annotations

from jogak.answer.ask import answer_hits
from jogak.answer.generators.selection import question_parts
from jogak.model import Hit

from .helpers import clause_hit

PENALTY = """제25조(벌점과 이용 제한)
① 구직회원의 벌점이 90일 동안 5점 이상 쌓이면 7일 동안, 10점 이상 쌓이면 30일 동안 바로일손에 신청할 수 없다.
② 벌점은 매겨진 날부터 180일이 지나면 없어진다.
③ 회사는 이용 제한을 하기 전에 구직회원에게 문자로 알린다."""
REFUND = """제12조(환불)
① 회원은 결제한 날부터 7일 안에 환불을 요청할 수 있다.
② 회사는 환불 요청을 받은 날부터 3영업일 안에 돌려준다."""


def _hits(text: str, article: str, path: str, doc: str = "약관") -> list[Hit]:
    return [clause_hit(doc, 0, article, path, text, chunk_id=path)]


def test_the_parts_of_a_question() -> None:
    assert question_parts("벌점이 쌓이면 며칠이나 신청을 못 해요? 벌점은 언젠가 없어지긴 해요?") == [
        "벌점이 쌓이면 며칠이나 신청을 못 해요?", "벌점은 언젠가 없어지긴 해요?"]
    assert question_parts("환불은 며칠 안에 받아요?") == []
    assert question_parts("What is the fee? When is it due?") == ["What is the fee?", "When is it due?"]


def test_each_part_is_answered_from_the_clause() -> None:
    hits = _hits(PENALTY, "제25조 (벌점과 이용 제한)", "본문/제25조")
    a = answer_hits("바로일손에서 벌점이 쌓이면 며칠이나 신청을 못 해요? 벌점은 언젠가 없어지긴 해요?", hits).answer
    assert "7일 동안" in a.answer and "180일이 지나면 없어진다" in a.answer, a.answer
    one = answer_hits("바로일손에서 벌점이 쌓이면 며칠이나 신청을 못 해요?", hits).answer
    assert "180일" not in one.answer  # one question: one paragraph


def test_a_part_answered_by_another_clause_does_not_join() -> None:
    hits = _hits(PENALTY, "제25조 (벌점과 이용 제한)", "본문/제25조") + [
        Hit(h.chunk, 0.9, 1) for h in _hits(REFUND, "제12조 (환불)", "본문/제12조")]
    a = answer_hits("바로일손에서 벌점이 쌓이면 며칠이나 신청을 못 해요? 환불은 언제 돼요?", hits).answer
    assert "3영업일" not in a.answer or "7일 동안" not in a.answer, a.answer
