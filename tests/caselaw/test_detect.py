"""Detection: decisions and casebooks yes; statutes, contracts, policies no. Random text never crashes."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.caselaw.helpers import check_invariants, raw_doc, text_doc

from jogak.load import load
from jogak.structure.caselaw import detect, parse_caselaw

STATUTE = """제1장 총칙
제1조(목적) 이 법은 사업자가 그 거래상의 지위를 남용하여 불공정한 내용의 약관을 작성하여 거래에 사용하는 것을 방지한다.
제2조(정의) 이 법에서 사용하는 용어의 뜻은 다음과 같다.
1. "약관"이란 그 명칭이나 형태 또는 범위에 상관없이 계약의 한쪽 당사자가 마련한 것을 말한다.
2. "사업자"란 계약의 한쪽 당사자로서 상대 당사자에게 약관을 계약의 내용으로 할 것을 제안하는 자를 말한다.
제3조(약관의 작성 및 설명의무 등) ① 사업자는 고객이 약관의 내용을 쉽게 알 수 있도록 작성하여야 한다.
부칙 <제20240호, 2024. 2. 6.>
이 법은 공포 후 3개월이 경과한 날부터 시행한다. (대법원 2003. 7. 24. 선고 2001다48781 판결 참조)
"""


def test_statute_text_is_not_case_law() -> None:
    assert not detect(text_doc(STATUTE, "statute.txt"))


@pytest.mark.corpus
@pytest.mark.parametrize("name", ["약관의규제에관한법률_법률.md", "근로기준법_법률.md"])
def test_corpus_statutes_are_not_case_law(corpora_dir: Path, name: str) -> None:
    path = corpora_dir / "korean_statutes" / name
    if not path.exists():
        pytest.skip(f"{path} not found")
    assert not detect(load(path))


def test_example_documents_are_not_case_law(examples_dir: Path) -> None:
    files = [p for p in sorted(examples_dir.rglob("*")) if p.suffix in {".md", ".txt", ".docx", ".html"}
             and "caselaw" not in p.parts]
    for p in files:
        assert not detect(load(p)), p


def test_law_go_kr_text_layout() -> None:
    """law.go.kr's text layout: a citation line, 【판시사항】 markers, 【전 문】."""
    text = (
        "대법원 2005. 11. 25. 선고 2005다35554 판결\n[보증채무금]\n"
        "【판시사항】\n[1] 계속적 보증계약에서 보증인의 책임 범위\n[2] 책임 제한의 요건\n"
        "【판결요지】\n[1] 보증인은 원칙적으로 채무 전부에 대하여 책임을 진다.\n[2] 다만 신의칙에 따라 제한할 수 있다.\n"
        "【참조조문】\n[1] 민법 제428조 / [2] 민법 제2조\n"
        "【전 문】\n【원고, 피상고인】 원고\n【피고, 상고인】 피고\n【주 문】\n상고를 기각한다.\n"
        "【이 유】\n상고이유를 본다. 원심의 판단은 정당하다. 그러므로 주문과 같이 판결한다.\n\n대법관 김가나(재판장) 이다라(주심)\n"
    )
    doc = text_doc(text, "2005다35554.txt")
    assert detect(doc)
    root = parse_caselaw(doc)
    case = root.attrs["case"]
    assert case["case_number"] == "2005다35554" and case["decision_date"] == "2005-11-25"
    assert case["title"] == "보증채무금" and case["court"] == "대법원" and case["judgment_type"] == "판결"
    assert case["problems"] == []
    assert [c.path for c in root.children] == ["판시사항", "판결요지", "참조조문", "판례내용"]
    assert [c.path for c in root.find("판례내용").children] == [
        "판례내용/당사자", "판례내용/주문", "판례내용/이유", "판례내용/관여법관"]
    assert root.find("판결요지/[2]").attrs["aligned"] == ["판시사항/[2]", "참조조문/[2]"]
    check_invariants(root, doc.text)


_alphabet = st.sampled_from(
    [*"가나다라마바사판결요지참조조문례내용【】<>[]()（）0123456789.,/· \n\t#-:",
     "판시사항", "판결요지", "참조판례", "\n## 판례내용\n", "【이 유】", "【주 문】", "[1] ", "[2] ", "가. ",
     "\n(대법원 2003. 7. 24. 선고 2001다48781 판결)\n", "2000므1257(본소), 1264(반소)", "대법관 김가나",
     "---\n사건번호: 98다1\n---\n", "\n<쟁점>\n", "\n<판결요지>\n", "(1)", "2003. 13. 24."]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_alphabet, max_size=80).map("".join))
def test_random_text_never_crashes(text: str) -> None:
    doc = raw_doc(text)
    if detect(doc):
        root = parse_caselaw(doc)
        check_invariants(root, doc.text)
    check_invariants(parse_caselaw(doc), doc.text)  # callable on anything


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=400))
def test_arbitrary_unicode_never_crashes(text: str) -> None:
    doc = raw_doc(text)
    detect(doc)
    check_invariants(parse_caselaw(doc), doc.text)
