"""The grammar tables and small parsers: 사건번호, dates, courts, citations, 참조조문 items."""

from __future__ import annotations

import datetime as dt

import pytest

from jogak.grammar import case as g


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("2020다12345", ["2020다12345"]),
        ("2017누4567", ["2017누4567"]),
        ("2011마345", ["2011마345"]),
        ("2008다카8765", ["2008다카8765"]),
        ("2000므1257(본소), 1264(반소)", ["2000므1257", "2000므1264"]),
        ("95누4902, 4919", ["95누4902", "95누4919"]),
        ("2004헌마554·566(병합)", ["2004헌마554", "2004헌마566"]),
        ("2010가합12345, 2011가합678", ["2010가합12345", "2011가합678"]),
        ("97다41868", ["97다41868"]),
        ("2001 다 48781", ["2001다48781"]),
        ("", []),
        ("사건번호 없음", []),
    ],
)
def test_case_numbers(written: str, expected: list[str]) -> None:
    assert [c.text for c in g.parse_case_numbers(written)] == expected


def test_case_number_parts_and_types() -> None:
    cn = g.parse_case_number("90다카9619")
    assert cn is not None and (cn.year, cn.code, cn.serial, cn.case_type) == (1990, "다카", "9619", "민사")
    assert g.parse_case_number("2004헌마554").case_type == "헌법"
    assert g.parse_case_number("2017누4567").case_type == "행정"
    assert g.parse_case_number("2010도1234").case_type == "형사"
    assert g.parse_case_number("2000므1257").case_type == "가사"
    assert g.parse_case_number("2000재다12").case_type == "민사"
    assert g.parse_case_number("2000뷁12").case_type is None  # unknown 사건부호: reported by the caller
    assert g.parse_case_number("다12345") is None


def test_two_digit_years() -> None:
    # 2-digit years (used until 1999) pivot at 48
    assert g.expand_year("97") == 1997
    assert g.expand_year("48") == 1948
    assert g.expand_year("05") == 2005
    assert g.expand_year("2003") == 2003


@pytest.mark.parametrize(
    ("value", "iso"),
    [
        ("2003. 7. 24.", "2003-07-24"),
        ("2003.7.24", "2003-07-24"),
        ("2003-07-24", "2003-07-24"),
        ("20030724", "2003-07-24"),
        ("2003년 7월 24일", "2003-07-24"),
        ("98. 3. 13.", "1998-03-13"),
        (dt.date(2000, 6, 9), "2000-06-09"),
        (20030724, "2003-07-24"),
    ],
)
def test_dates(value: object, iso: str) -> None:
    assert g.parse_date(value) == (iso, None)


@pytest.mark.parametrize("value", ["2003. 13. 24.", "20031324", "2003-02-30", "어제", ""])
def test_bad_dates_are_reported(value: str) -> None:
    iso, problem = g.parse_date(value)
    assert iso is None and problem


def test_courts() -> None:
    assert g.normalize_court("대법원") == ("대법원", "대법원")
    assert g.normalize_court("헌재") == ("헌법재판소", "헌법재판소")
    assert g.normalize_court("서울고법") == ("서울고등법원", "고등법원")
    assert g.normalize_court("서울중앙지방법원") == ("서울중앙지방법원", "지방법원")
    assert g.normalize_court("수원지법 안산지원") == ("수원지방법원 안산지원", "지방법원")
    assert g.normalize_court("서울가정법원") == ("서울가정법원", "가정법원")
    assert g.normalize_court("특허법원") == ("특허법원", "특허법원")
    assert g.normalize_court("달나라법원") == (None, None)
    assert g.normalize_court("") == (None, None)


def test_citations_inherit_court_and_keep_offsets() -> None:
    text = "(대법원 1999. 2. 12. 선고 98다44956 판결, 1999. 11. 26. 선고 99다34499 판결 등 참조)"
    cites = g.find_citations(text)
    assert [(c.court, c.date, c.case_numbers) for c in cites] == [
        ("대법원", "1999-02-12", ["98다44956"]),
        ("대법원", "1999-11-26", ["99다34499"]),
    ]
    for c in cites:
        assert text[c.start : c.end] == c.text


def test_citation_forms() -> None:
    [c] = g.find_citations("대법원 2003. 7. 24. 선고 2001다48781 전원합의체 판결")
    assert c.en_banc and c.judgment_type == "판결"
    [c] = g.find_citations("서울고법 1998. 10. 1. 선고 98나5014 판결")
    assert c.court == "서울고등법원" and c.case_numbers == ["98나5014"]
    [c] = g.find_citations("대법원 2004. 3. 12. 자 2003마1234 결정")
    assert c.judgment_type == "결정" and c.case_numbers == ["2003마1234"]
    [c] = g.find_citations("대법원 1997. 11. 11. 선고 95누4902, 4919 판결(공1997하, 3864)")
    assert c.case_numbers == ["95누4902", "95누4919"]
    assert g.find_citations("대구지방법원 94가합17936호로써 원고를 상대로") == []


def test_full_case_name() -> None:
    assert g.full_case_name("대법원", "2005-11-25", "2005다35554", "판결") == "대법원 2005. 11. 25. 선고 2005다35554 판결"
    assert (g.full_case_name("대법원", "2003-07-24", "2001다48781", "판결", en_banc=True)
            == "대법원 2003. 7. 24. 선고 2001다48781 전원합의체 판결")
    assert g.full_case_name("대법원", "2004-03-12", "2003마1234", "결정") == "대법원 2004. 3. 12. 자 2003마1234 결정"
    assert g.full_case_name("대법원", None, "2003마1234", "결정") is None


def test_front_matter_reader() -> None:
    fm, end = g.parse_front_matter("---\n판례일련번호: '229391'\n사건번호: 98다54397\n첨부파일: []\n---\n\n# 구상금\n")
    assert fm["판례일련번호"] == "229391" and fm["사건번호"] == "98다54397"
    assert end == len("---\n판례일련번호: '229391'\n사건번호: 98다54397\n첨부파일: []\n---\n")
    assert g.parse_front_matter("# no front matter") == ({}, 0)


def test_article_merging() -> None:
    assert g.merge_article(None, "제47조 제1항") == "제47조 제1항"
    assert g.merge_article("제47조 제1항", "제2항") == "제47조 제2항"
    assert g.merge_article("제47조 제2항", "제48조") == "제48조"
    assert g.merge_article("제5조 제1항 제2호", "제3호") == "제5조 제1항 제3호"
    assert g.normalize_article("제44조의3제7항") == "제44조의3 제7항"


def test_section_names() -> None:
    assert g.section_name("판 시 사 항") == "판시사항"
    assert g.section_name("결정요지") == "결정요지"
    assert g.section_name("전문") == "판례내용"
    assert g.section_name("제1조") is None
    assert g.body_block("주 문") == ("block", "주문")
    assert g.body_block("이 유") == ("block", "이유")
    assert g.body_block("원고, 상고인 겸 피상고인")[0] == "parties"
