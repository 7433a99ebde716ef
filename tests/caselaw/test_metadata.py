"""Case metadata rules: front matter wins; malformed or missing values are reported, never guessed."""

from __future__ import annotations

import datetime as dt

from tests.caselaw.helpers import check_invariants, raw_doc, text_doc

from jogak.structure.caselaw import case_for_chunk, citation_text, parse_caselaw

BODY = """# 구상금

## 판시사항

[1] 첫째 쟁점
[2] 둘째 쟁점

## 판결요지

[1] 첫째 요지이다.
[2] 둘째 요지이다.

## 판례내용

【원고, 상고인】 원고
【주 문】
상고를 기각한다.

【이 유】 상고이유를 본다. 그러므로 주문과 같이 판결한다.

대법관 김가나(재판장) 이다라(주심)
"""


def fm(**kv: str) -> str:
    return "---\n" + "".join(f"{k}: {v}\n" for k, v in kv.items()) + "---\n\n"


def test_front_matter_metadata_and_dates() -> None:
    doc = text_doc(fm(사건번호="98다54397", 사건명="구상금", 법원명="대법원", 사건종류="민사", 선고일자="20000609") + BODY)
    case = parse_caselaw(doc).attrs["case"]
    assert case["decision_date"] == "2000-06-09" and case["problems"] == []
    assert case["full_case_name"] == "대법원 2000. 6. 9. 선고 98다54397 판결"


def test_loader_metadata_is_read() -> None:
    """The Markdown loader moves front matter to ``doc.metadata`` (dates may arrive as ``date``)."""
    doc = raw_doc(BODY, "x.md")
    doc.metadata.update({"사건번호": "98다54397", "법원명": "대법원", "선고일자": dt.date(2000, 6, 9)})
    case = parse_caselaw(doc).attrs["case"]
    assert (case["case_number"], case["decision_date"], case["title"]) == ("98다54397", "2000-06-09", "구상금")
    assert case["case_type"] == "민사"  # from the 사건부호 table when 사건종류 is absent


def test_invalid_date_is_reported_not_repaired() -> None:
    doc = text_doc(fm(사건번호="98다54397", 법원명="대법원", 선고일자="2000-13-09") + BODY)
    root = parse_caselaw(doc)
    case = root.attrs["case"]
    assert case["decision_date"] is None
    assert any(p.startswith("decision_date: invalid date '2000-13-09'") for p in case["problems"])
    assert case["full_case_name"] is None
    assert root.attrs["warnings"] == case["problems"]
    assert citation_text(case) == "(참고 판례: 대법원 98다54397 판결)"


def test_missing_and_malformed_values() -> None:
    doc = text_doc(fm(판례일련번호="'1'", 사건번호="사건번호미상", 법원명="달나라법원") + BODY)
    case = parse_caselaw(doc).attrs["case"]
    assert case["case_number"] is None and case["case_numbers"] == []
    assert case["court"] is None and case["decision_date"] is None
    problems = " | ".join(case["problems"])
    assert "case_number: malformed '사건번호미상'" in problems
    assert "court: unknown court name '달나라법원'" in problems
    assert "decision_date: missing" in problems
    assert citation_text(case) == ""


def test_unknown_code_and_mismatch_are_reported() -> None:
    text = ("민법의 법원：관습법 (1)\n(대법원 2003. 7. 24. 선고 2001다48781 판결)\n<판결요지>\n요지이다.\n"
            "<판시사항>\n사항이다.\n")
    doc = text_doc(fm(사건번호="2001뷁48781", 법원명="대법원", 선고일자="2003-07-25") + text)
    case = parse_caselaw(doc).attrs["case"]
    assert case["case_number"] == "2001뷁48781"  # front matter wins …
    problems = " | ".join(case["problems"])
    assert "unknown 사건부호 '뷁'" in problems  # … but is reported
    assert "case_number: front matter '2001뷁48781' differs from text '2001다48781'" in problems
    assert "decision_date: front matter '2003-07-25' differs from text '2003-07-24'" in problems


def test_casebook_header_with_bad_date() -> None:
    text = ("목차\n관습법 (1) ······ 1\n관습법 (2) ······ 2\n\n"
            "관습법 (1)\n(대법원 2003. 13. 24. 선고 2001다48781 전원합의체 판결)\n<판결요지>\n  요지이다.\n\n"
            "관습법 (2)\n(고등법원아님 2005. 7. 21. 선고 2002다1178 판결)\n<판결요지>\n  요지이다.\n")
    doc = text_doc(text, "book.txt")
    root = parse_caselaw(doc)
    a, b = (c.attrs["case"] for c in root.children[1:])
    assert a["decision_date"] is None and a["case_number"] == "2001다48781" and a["en_banc"] is True
    assert any("month must be in 1..12" in p for p in a["problems"])
    assert a["full_case_name"] == "대법원 2003. 13. 24. 선고 2001다48781 전원합의체 판결"  # as written
    assert b["court"] is None and any("unknown court name '고등법원아님'" in p for p in b["problems"])
    assert root.attrs["warnings"] and root.attrs["warnings"][0].startswith("2001다48781: decision_date")
    check_invariants(root, doc.text)


def test_duplicate_case_in_a_casebook_keeps_unique_paths() -> None:
    case = "제목 (1)\n(대법원 2003. 7. 24. 선고 2001다48781 판결)\n<판결요지>\n  [1] 가이다.\n  [2] 나이다.\n\n"
    doc = text_doc("목차\n\n" + case + case.replace("(1)", "(2)"), "book.txt")
    root = parse_caselaw(doc)
    assert [c.path for c in root.children] == ["목차", "2001다48781", "2001다48781~2"]
    assert root.find("2001다48781~2/판결요지/[2]") is not None
    assert root.attrs["casebook"]["problems"]
    check_invariants(root, doc.text)


def test_holding_count_mismatch_is_reported() -> None:
    body = BODY.replace("[2] 둘째 요지이다.", "[2] 둘째 요지이다.\n[3] 셋째 요지이다.")
    doc = text_doc(fm(사건번호="98다54397", 법원명="대법원", 선고일자="2000-06-09") + body)
    case = parse_caselaw(doc).attrs["case"]
    assert any(p.startswith("holdings: 판시사항 has [1, 2], 판결요지 has [1, 2, 3]") for p in case["problems"])


def test_judgment_type_from_closing_and_en_banc_from_chief_justice() -> None:
    body = BODY.replace("대법관 김가나(재판장) 이다라(주심)", "대법원장 김가나(재판장) 대법관 이다라(주심)")
    body = body.replace("판결한다.", "결정한다.")
    doc = text_doc(fm(사건번호="2011마345", 법원명="대법원", 선고일자="2011-05-02") + body)
    case = parse_caselaw(doc).attrs["case"]
    assert case["judgment_type"] == "결정" and case["en_banc"] is True
    assert case["full_case_name"] == "대법원 2011. 5. 2. 자 2011마345 전원합의체 결정"


def test_high_court_bench_sitting_elsewhere_and_closing_without_period() -> None:
    # 광주고등법원's bench in 전주 (원외재판부) is a real court; "주문과 같이 판결한다" ends the line without a period
    body = BODY.replace("주문과 같이 판결한다.", "주문과 같이 판결한다\n")
    for court in ("광주고등법원(전주)", "광주고등법원 전주재판부", "광주고법(전주재판부)"):
        doc = text_doc(fm(사건번호="2018나10123", 법원명=court, 사건종류="민사", 선고일자="2019-05-16") + body)
        case = parse_caselaw(doc).attrs["case"]
        assert (case["court"], case["judgment_type"], case["problems"]) == ("광주고등법원(전주)", "판결", []), court
    assert case["full_case_name"] == "광주고등법원(전주) 2019. 5. 16. 선고 2018나10123 판결"
    doc = text_doc(fm(사건번호="2018나10123", 법원명="서울중앙지방법원(전주)", 선고일자="2019-05-16") + body)
    assert parse_caselaw(doc).attrs["case"]["problems"] == ["court: unknown court name '서울중앙지방법원(전주)' (front matter)"]


def test_case_for_chunk_drops_problems() -> None:
    doc = text_doc(fm(사건번호="98다54397", 법원명="대법원", 선고일자="2000-06-09") + BODY)
    case = parse_caselaw(doc).attrs["case"]
    small = case_for_chunk(case)
    assert "problems" not in small and small["case_number"] == "98다54397"
    assert set(small) == {"title", "court", "case_number", "case_numbers", "decision_date", "judgment_type",
                          "en_banc", "full_case_name", "case_type"}
    assert case_for_chunk(None) is None


def test_statute_items_resolve_same_law_and_old_law() -> None:
    body = BODY.replace("## 판례내용", "## 참조조문\n\n[1] 사립학교법 제28조 제2항, 같은 법 시행령 제12조 / "
                        "[2] 구 민법(1990. 1. 13. 법률 제4199호로 개정되기 전의 것) 제1000조 제1항 제1호, 제3호\n\n"
                        "## 판례내용")
    doc = text_doc(fm(사건번호="98다54397", 법원명="대법원", 선고일자="2000-06-09") + body)
    root = parse_caselaw(doc)
    assert root.find("참조조문").attrs["statutes"] == [
        {"law": "사립학교법", "article": "제28조 제2항", "holding": 1},
        {"law": "사립학교법 시행령", "article": "제12조", "holding": 1},
        {"law": "구 민법", "article": "제1000조 제1항 제1호", "holding": 2},
        {"law": "구 민법", "article": "제1000조 제1항 제3호", "holding": 2},
    ]
    assert [r.text for r in root.find("참조조문/[2]").refs][1] == "제3호"
    check_invariants(root, doc.text)


def test_parties_on_one_joined_line() -> None:
    """Markdown rendering joins the 【…】 lines; each party keeps only its own text."""
    body = BODY.replace("【원고, 상고인】 원고\n【주 문】", "【원고, 상고인】 갑 주식회사 【피고, 피상고인】 을 【주 문】")
    doc = text_doc(fm(사건번호="98다54397", 법원명="대법원", 선고일자="2000-06-09") + body)
    root = parse_caselaw(doc)
    parties = root.find("판례내용/당사자")
    assert parties.attrs["parties"] == [{"role": "원고, 상고인", "text": "갑 주식회사"},
                                        {"role": "피고, 피상고인", "text": "을"}]
    assert root.find("판례내용/주문") is not None
    check_invariants(root, doc.text)


def test_a_bracket_number_inside_a_sentence_is_not_a_holding() -> None:
    body = BODY.replace("[1] 첫째 요지이다.\n[2] 둘째 요지이다.", "원심이 든 [1] 사유는 이유 없다는 요지이다.")
    doc = text_doc(fm(사건번호="98다54397", 법원명="대법원", 선고일자="2000-06-09") + body)
    root = parse_caselaw(doc)
    assert root.find("판결요지").children == []
    # a Markdown-joined paragraph still splits when the markers run in sequence
    joined = BODY.replace("[1] 첫째 요지이다.\n[2] 둘째 요지이다.", "[1] 첫째 요지이다. [2] 둘째 요지이다.")
    root = parse_caselaw(text_doc(fm(사건번호="98다54397", 법원명="대법원", 선고일자="2000-06-09") + joined))
    assert [h.path for h in root.find("판결요지").children] == ["판결요지/[1]", "판결요지/[2]"]
