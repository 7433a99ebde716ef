"""A question that asks two things ("… 며칠이나 못 해요? 벌점은 언젠가 없어지긴 해요?") gets the best unit of each
part when it belongs to a clause the answer already quotes (answer.generators.parts.question_parts)."""

from __future__ import annotations

from types import SimpleNamespace

from jogak.answer.ask import answer_hits
from jogak.answer.generators.extractive import ExtractiveAnswerer
from jogak.answer.generators.parts import question_parts, shared_parts
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
    # one sentence joining two questions by "-고,": each clause asks something
    assert question_parts("전기를 끊을 때는 며칠 전에 알려 주고, 한 번에 몇 시간까지 끊어요?") == [
        "전기를 끊을 때는 며칠 전에 알려 주고", "한 번에 몇 시간까지 끊어요?"]
    # a "-고," that joins a condition to one question is no joint
    assert question_parts("집에 가고, 밥 먹으면 돼요?") == []
    assert question_parts("환불을 받고, 다시 사면 며칠 걸려요?") == []
    # … a wh-question joined to a yes/no question is two ("운영비는 나라가 대 주나요?" asks whether, on its own)
    assert question_parts("센터 직원은 어떻게 두는 거고, 운영비는 나라가 대 주나요?") == [
        "센터 직원은 어떻게 두는 거고", "운영비는 나라가 대 주나요?"]
    assert question_parts("사업자 등록을 하고, 세금은 얼마 내요?") == []


def test_each_part_is_answered_from_the_clause() -> None:
    hits = _hits(PENALTY, "제25조 (벌점과 이용 제한)", "본문/제25조")
    a = answer_hits("바로일손에서 벌점이 쌓이면 며칠이나 신청을 못 해요? 벌점은 언젠가 없어지긴 해요?", hits).answer
    assert "7일 동안" in a.answer and "180일이 지나면 없어진다" in a.answer, a.answer
    one = answer_hits("바로일손에서 벌점이 쌓이면 며칠이나 신청을 못 해요?", hits).answer
    assert "180일" not in one.answer  # one question: one paragraph


def test_each_clause_of_a_joined_question_is_answered() -> None:
    hits = _hits(PENALTY, "제25조 (벌점과 이용 제한)", "본문/제25조")
    a = answer_hits("바로일손에서 벌점이 쌓이면 며칠이나 신청을 못 하고, 벌점은 언제 없어져요?", hits).answer
    assert "7일 동안" in a.answer and "180일이 지나면 없어진다" in a.answer, a.answer


def test_a_part_answered_by_another_clause_does_not_join() -> None:
    hits = _hits(PENALTY, "제25조 (벌점과 이용 제한)", "본문/제25조") + [
        Hit(h.chunk, 0.9, 1) for h in _hits(REFUND, "제12조 (환불)", "본문/제12조")]
    # (related_floor 0.25 keeps the outcome's display to the clauses that score it; at the default 0.20 both
    # clauses are shown as related, which is right for a related outcome — this test is about what an answer joins)
    a = answer_hits("바로일손에서 벌점이 쌓이면 며칠이나 신청을 못 해요? 환불은 언제 돼요?", hits,
                    generator=ExtractiveAnswerer(related_floor=0.25)).answer
    assert "3영업일" not in a.answer or "7일 동안" not in a.answer, a.answer


FEES = """별표 1 이용요금
구분 | 내용 | 금액
주 3일반 | 월, 수, 금요일 이용 | 월 26만원
주 5일반 | 월요일부터 금요일까지 이용 | 월 38만원
차량 이용 | 등원과 귀가에 회사 차량 이용 | 월 4만원
연장 돌봄 | 약속한 귀가 시각부터 30분이 지난 뒤 | 10분마다 2천원"""
VAN = """제9조(차량 운행)
① 회사는 등원과 귀가에 어린이 통학버스로 신고한 차량을 운행하며, 운전자 외에 선생님 1명이 함께 탄다.
② 운행을 마치면 함께 탄 선생님은 차 안에 남은 아동이 없는지 맨 뒷좌석까지 확인한다."""


def test_a_part_asking_a_figure_takes_the_row_of_the_table_the_answer_quotes() -> None:
    # "차까지 타면 얼마 더 내요?": its best unit by words is the sentence about the van, which states no fee; the
    # fee is the row of the table the answer already quotes
    hits = [clause_hit("약관", 0, "별표 1 (이용요금)", "별표 1", FEES, block="appendix", chunk_id="fees"),
            clause_hit("약관", 1, "제9조 (차량 운행)", "본문/제9조", VAN, score=0.9, chunk_id="van")]
    a = answer_hits("주 3일반은 한 달에 얼마예요? 차까지 타면 얼마 더 내요?", hits).answer
    assert "월 26만원" in a.answer and "월 4만원" in a.answer, a.answer
    one = answer_hits("주 3일반은 한 달에 얼마예요?", hits).answer
    assert "월 4만원" not in one.answer  # one question: one row


def test_which_parts_ask_whether_something_costs() -> None:
    from jogak.lexicon.quantities import asks_a_charge

    assert asks_a_charge("처음 등록할 때 따로 내는 돈도 있어요?")
    assert asks_a_charge("작은도서관도 돈 내야 돼요?")
    assert asks_a_charge("밥값은 따로 내요?")
    assert not asks_a_charge("돈을 돌려받을 수 있어요?")  # a refund
    assert not asks_a_charge("수수료를 받을 수 있어요?")  # whether one may charge: no figure asked
    assert not asks_a_charge("수강료는 얼마예요?")  # "얼마": figure_asked reads it


ENTRY = """별표 1 입장료
구분 | 기준 | 요금
입장료 | 어른 | 8,000원
입장료 | 만 65세 이상 | 5,000원
단체 요금 | 어린이 1명 | 12,000원
1. 단체 요금은 15명 이상 단체의 어린이에게만 적용하며, 인솔자는 입장료를 내지 아니한다."""


def test_a_part_asking_whether_it_costs_is_answered_by_costing_nothing() -> None:
    # "선생님들도 입장료를 내야 해요?": the note saying the leaders pay nothing answers it — no other 입장료 row joins
    hits = [clause_hit("약관", 0, "별표 1 (입장료)", "별표 1", ENTRY, block="appendix", chunk_id="entry")]
    a = answer_hits("단체 요금은 아이 한 명당 얼마예요? 따라가는 선생님들도 입장료를 내야 해요?", hits).answer
    assert "12,000원" in a.answer and "내지 아니한다" in a.answer, a.answer
    assert "5,000원" not in a.answer and "8,000원" not in a.answer, a.answer


LOTTERY = """제18조의2(복권의 발행)
① 모금회는 사회복지사업을 지원하기 위한 재원을 마련하려고 복권을 발행할 수 있다.
② 복권의 종류와 발행 방법은 대통령령으로 정한다.
③ 복권의 당첨금을 받을 권리는 지급일부터 3개월간 행사하지 아니하면 소멸하며, 소멸한 당첨금은 모금회의 재원이 된다."""


def test_parts_sharing_their_best_unit_each_bring_their_next() -> None:
    hits = _hits(LOTTERY, "제18조의2 (복권의 발행)", "본문/제18조의2")
    a = answer_hits("모금회도 복권을 팔 수 있어요? 당첨됐는데 안 찾아가면 그 돈은 어떻게 돼요?", hits).answer
    assert "복권을 발행할 수 있다" in a.answer and "3개월간" in a.answer, a.answer
    # the rule itself: both parts rank ③ first (a60-46: 복권, 당첨금, 재원); the part whose next unit scores near its
    # best offers it, the other (its next far below) offers none
    u = {k: SimpleNamespace(key=k, score=s) for k, s in (("③", 0.65), ("①", 0.55), ("⑤", 0.2))}
    first = ("복권을 팔 수 있어요?", [u["③"], u["①"]])
    second = ("안 찾아가면 어떻게 돼요?", [SimpleNamespace(key="③", score=0.33), u["⑤"]])
    assert shared_parts([first, second], 0.8) == [u["①"]]
    assert shared_parts([first, ("환불은요?", [u["⑤"]])], 0.8) == []  # no shared best: nothing
    assert shared_parts([first, second], 0.0) == []
