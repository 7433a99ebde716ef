"""Filters read from the question."""

from __future__ import annotations

from jogak.retrieve.query_filters import extract

TITLES = ["멤버십정책", "반품교환환불정책"]


def _f(q):
    fs, rest = extract(q, TITLES)
    return [(f.key, f.op, f.value) for f in fs], rest


def test_dates_and_courts() -> None:
    fs, rest = _f("2010년 이후 판례 중 보험 직접청구권")
    assert fs == [("decision_date", "gte", "2010-01-01")] and "2010" not in rest and "보험" in rest
    assert _f("1995년 이전 판결에서 매도청구권")[0] == [("decision_date", "lte", "1995-12-31")]
    assert _f("2000년부터 2005년까지 선고된 재건축 사건")[0] == [
        ("decision_date", "gte", "2000-01-01"), ("decision_date", "lte", "2005-12-31")]
    fs, rest = _f("대법원 판결만 보여줘: 부정당업자 제재")
    assert fs == [("court", "eq", "대법원")] and "부정당업자" in rest
    assert _f("cases decided after 2010 about insurance")[0] == [("decision_date", "gte", "2011-01-01")]
    assert _f("before 1995")[0] == [("decision_date", "lte", "1994-12-31")]


def test_named_document_needs_a_particle() -> None:
    fs, rest = _f("멤버십정책에서 포인트 유효기간은?")
    assert fs == [("doc_title", "eq", "멤버십정책")] and rest == "포인트 유효기간은?"
    assert _f("멤버십 정책에서 포인트")[0] == [("doc_title", "eq", "멤버십정책")]
    assert _f("반품교환환불정책 제2조 알려줘")[0] == []  # a clause lookup, not a filter


def test_echo_phrase_and_origin() -> None:
    fs, _ = extract("2010년 이후 판례", TITLES)
    d = fs[0].to_dict()
    assert d["origin"] == "question" and d["phrase"] == "2010년 이후"


def test_plain_question_untouched() -> None:
    assert _f("단순 변심인데 반품 배송비 얼마예요?") == ([], "단순 변심인데 반품 배송비 얼마예요?")
    assert _f("7일 이내에 반품")[0] == []
