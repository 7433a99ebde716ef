"""A casebook in seed 002's format (tests/fixtures/caselaw/민법판례집_sample.txt): table of contents, then
nine decisions under titles such as "민법의 법원：관습법 (1)" with "(대법원 … 판결)" headers and <쟁점>,
<판결요지> … markers."""

from __future__ import annotations

import pytest
from tests.caselaw.helpers import CASEBOOK, CASEBOOK_EXPECTED, check_invariants

from jogak.load import load
from jogak.structure.caselaw import citation_text, detect, iter_cases, parse_caselaw


@pytest.fixture(scope="module")
def book():
    doc = load(CASEBOOK)
    return doc, parse_caselaw(doc)


def test_detected_and_shaped(book) -> None:
    doc, root = book
    assert detect(doc)
    assert root.kind == "document" and root.path == ""
    toc = root.children[0]
    assert (toc.kind, toc.path, toc.label) == ("text", "목차", "목차")
    assert "case" not in toc.attrs
    cases = root.children[1:]
    assert [c.kind for c in cases] == ["case"] * len(CASEBOOK_EXPECTED)
    assert root.attrs["casebook"]["cases"] == [e[0] for e in CASEBOOK_EXPECTED]
    assert root.attrs["warnings"] == []
    check_invariants(root, doc.text)


def test_case_metadata(book) -> None:
    _, root = book
    cases = list(iter_cases(root))
    assert len(cases) == len(CASEBOOK_EXPECTED) >= 8
    for node, (num, title, date, court, jt, en_banc, ctype, nums) in zip(cases, CASEBOOK_EXPECTED, strict=True):
        case = node.attrs["case"]
        assert (node.label, node.path, node.title) == (num, num, title)
        assert case["case_number"] == num and case["case_numbers"] == nums
        assert case["title"] == title  # the "(1)" counter is dropped
        assert case["decision_date"] == date and case["court"] == court
        assert case["judgment_type"] == jt and case["en_banc"] is en_banc and case["case_type"] == ctype
        assert case["problems"] == []
        assert num in case["full_case_name"] and "  " not in case["full_case_name"]
    first = cases[0].attrs["case"]
    assert first["full_case_name"] == "대법원 2003. 7. 24. 선고 2001다48781 전원합의체 판결"
    assert citation_text(first) == "(참고 판례: 대법원 2003. 7. 24. 선고 2001다48781 전원합의체 판결)"
    joined = root.find("2000므1257").attrs["case"]
    assert joined["full_case_name"] == "대법원 2001. 5. 8. 선고 2000므1257(본소), 1264(반소) 판결"


def test_sections_and_paths(book) -> None:
    doc, root = book
    case = root.find("2001다48781")
    assert [c.path for c in case.children] == ["2001다48781/쟁점", "2001다48781/판결요지"]
    h2 = root.find("2001다48781/판결요지/[2]")
    assert h2.kind == "holding" and h2.attrs["cite"] == "판결요지 [2]"
    assert doc.text[h2.char_start : h2.char_end].startswith("[2] 제정민법이")
    assert doc.text[h2.char_start : h2.char_end].endswith("효력을 인정할 수 없다.")
    # older decisions number their holdings 가., 나.
    older = root.find("90다카9619/판결요지")
    assert [h.path for h in older.children] == ["90다카9619/판결요지/가", "90다카9619/판결요지/나"]
    assert older.children[1].attrs["cite"] == "판결요지 나."
    assert root.find("90다카9619/참조조문/나").attrs["aligned"] == ["90다카9619/판결요지/나"]
    # a 헌법재판소 decision has 결정요지
    assert root.find("2004헌마554/결정요지/[2]").attrs["cite"] == "결정요지 [2]"
    # the reasons of the long case are parsed into 1., 2. (가., 나., 다.), 3.
    reason = root.find("2002다1178/판결이유")
    assert [p.path.rsplit("/", 1)[1] for p in reason.children] == ["1", "2", "3"]
    assert reason.children[0].title == "관습법의 성립과 효력에 대하여"
    assert [p.label for p in root.find("2002다1178/판결이유/2").children] == ["가.", "나.", "다."]
    assert root.find("2002다1178/판결이유/2/나").attrs["cite"] == "판결이유 2. 나."


def test_long_case_spans_several_chunks(book) -> None:
    _, root = book
    long_case = root.find("2002다1178")
    assert long_case.char_end - long_case.char_start > 2000  # several 500-character chunks


def test_references_link_inside_the_collection(book) -> None:
    _, root = book
    statutes = root.find("2002다1178/참조조문").attrs["statutes"]
    assert {"law": "헌법", "article": "제36조 제1항", "holding": 3} in statutes
    assert {"law": "민법", "article": "제31조", "holding": 3} in statutes
    ref = root.find("2002다1178/참조판례/[1]").refs[0]
    assert ref.target_path == "2001다48781" and ref.reason is None
    # a citation written across a wrapped line still resolves
    targets = {r.target_path for r in root.find("2005다35554/참조판례/[2]").refs}
    assert targets == {"99다70860", "90다카9619"}
    # a citation inside the reasons links too; a case not in the book stays unresolved
    assert [r.target_path for r in root.find("2002다1178/판결이유/1").refs] == ["2001다48781"]
    unresolved = root.find("2002다1178/참조판례/[3]").refs[0]
    assert unresolved.target_path is None and unresolved.reason == "other document"
    # the case's own header is not a reference
    assert all(not r.text.startswith("대법원 2003. 7. 24.") for r in root.find("2001다48781").refs)


def test_toc_alone_is_not_a_case() -> None:
    from tests.caselaw.helpers import text_doc

    toc = CASEBOOK.read_text(encoding="utf-8").split("\n\n민법의 법원：관습법 (1)  \n")[0]
    doc = text_doc(toc, "toc.txt")
    assert not detect(doc)
