"""Heading candidates read off single lines: label, number, title, and the running-text forms that must
never be proposed as headings ("제3조에 따라", "Section 4.2 of the Agreement")."""

from __future__ import annotations

import pytest

from jogak.grammar import EN, KO
from jogak.model import Line
from jogak.structure.candidates import Candidate, CandidateReader

KO_READER = CandidateReader(KO, "ko", strong_bold=False, body_font=None)
EN_READER = CandidateReader(EN, "en", strong_bold=False, body_font=None)


def read(text: str, reader: CandidateReader = KO_READER, line: Line | None = None, **kw: bool) -> list[Candidate]:
    g = KO if reader is KO_READER else EN
    return reader.read(text, 0, len(text), line, g.schemes, **kw)


def one(text: str, reader: CandidateReader = KO_READER) -> Candidate:
    cands = read(text, reader)
    assert len(cands) == 1, [(c.kind, c.label) for c in cands]
    return cands[0]


@pytest.mark.parametrize(("text", "label", "number", "title"), [
    ("제3조(목적) 이 약관은 정한다.", "제3조", (3, 0), "목적"),
    ("제 7 조 (위약금)", "제7조", (7, 0), "위약금"),
    ("제43조의2(특례)", "제43조의2", (43, 2), "특례"),
    ("제1조 목적", "제1조", (1, 0), "목적"),  # unbracketed title alone on the line
    ("제3조(정의) <개정 2020.1.1>", "제3조", (3, 0), "정의"),
])
def test_korean_article_headings(text: str, label: str, number: tuple[int, int], title: str) -> None:
    c = one(text)
    assert (c.kind, c.label, c.number, c.title) == ("article", label, number, title)
    assert c.scheme is not None and c.scheme.name == "ko_article"
    assert c.start == 0 and len(label) <= c.body_start <= len(text)


def test_title_only_line_and_body_start() -> None:
    with_body = one("제3조(목적) 이 약관은 정한다.")
    assert with_body.has_bracket_title and not with_body.title_only_line
    assert "제3조(목적) 이 약관은 정한다."[with_body.body_start :].strip() == "이 약관은 정한다."
    assert one("제3조(정의) <개정 2020.1.1>").title_only_line  # an amendment tag is no body


@pytest.mark.parametrize("text", [
    "제3조에 따라 환불한다",  # particle attached to the label
    "제3조 및 제4조에 따라",  # a continuation word after it
    "제3조(정의)에 따라",  # a particle after the bracketed title
    "제1조(목적) ........ 3",  # a table-of-contents entry
    "부록A에 따른다",
])
def test_running_text_is_no_heading(text: str) -> None:
    assert read(text) == []


def test_a_body_may_open_with_a_reference_after_a_bracketed_title() -> None:
    c = one("제2조(적용) 제1조에 따른 회원")
    assert (c.label, c.title) == ("제2조", "적용")


@pytest.mark.parametrize("text", ["제5조 삭제 <2024. 6. 1.>", "제10조 생략", "제3조 이 법은 공포한 날부터 시행한다."])
def test_deleted_omitted_or_sentence_is_no_title(text: str) -> None:
    c = one(text)
    assert c.kind == "article" and c.title == "" and not c.title_only_line


def test_enumerators_and_chapters() -> None:
    assert (one("① 회원은 탈퇴할 수 있다.").label, one("① 회원은 탈퇴할 수 있다.").number) == ("①", (1, 0))
    assert (one("가. 상품").kind, one("가. 상품").number) == ("subitem", (1, 0))
    assert one("9의2. 기타").number == (9, 2)  # a 호 inserted by amendment
    ch = one("제1장 총칙")
    assert (ch.kind, ch.label, ch.title, ch.title_only_line) == ("chapter", "제1장", "총칙", True)


def test_inline_paragraph_needs_its_own_scheme() -> None:
    # mid-line starts are read with at_line_start=False: only inline schemes (①) may open there
    assert [c.label for c in read("② 회원은", at_line_start=False)] == ["②"]
    assert read("1. 회원은", at_line_start=False) == []


def test_korean_blocks() -> None:
    addenda = one("부칙 <제6687호,2002.3.30>")
    assert (addenda.kind, addenda.block_label) == ("addenda", "부칙 <제6687호,2002.3.30>")
    assert one("부      칙").block_label == "부칙"  # letter-spaced on its own line
    app = one("부록A 보상 기준")
    assert (app.kind, app.block_label, app.title) == ("appendix", "부록A", "보상 기준")
    assert one("별표 1 수수료").block_label == "별표 1"
    assert one("[별지 제1호 서식]").block_label == "별지 제1호"
    assert one("자주 묻는 질문").kind == "faq"


def test_english_headings() -> None:
    art = one("ARTICLE IV - PAYMENT", EN_READER)
    assert (art.label, art.number, art.title) == ("Article IV", (4, 0), "PAYMENT")
    assert one("Article Twenty-Three", EN_READER).number == (23, 0)
    sec = one("SECTION 5. NOTICES", EN_READER)
    assert (sec.label, sec.title) == ("Section 5", "NOTICES")
    dotted = one("4.2 Payment Terms. The Supplier shall pay.", EN_READER)
    assert (dotted.label, dotted.key, dotted.title) == ("4.2", (4, 2), "Payment Terms")
    assert one("Schedule 1", EN_READER).block_label == "Schedule 1"


def test_english_running_text_is_no_heading() -> None:
    assert read("Section 4.2 of the Agreement", EN_READER) == []
    assert read("Schedule 1 shall apply", EN_READER) == []


def test_ambiguous_labels_are_proposed_by_every_scheme() -> None:
    # "(i)" is a letter (9th) or a Roman numeral (1st); the parser decides from what is open
    got = {(c.scheme.name, c.number) for c in read("(i) any loss", EN_READER) if c.scheme is not None}
    assert got == {("en_alpha_paren", (9, 0)), ("en_roman_paren", (1, 0))}
    assert one("(iv) any loss", EN_READER).number == (4, 0)


def test_section_title_rejects_items_and_sentences() -> None:
    assert KO_READER.section_title(" 개인정보의 처리 목적") == "개인정보의 처리 목적"
    assert KO_READER.section_title(" 성명: 홍길동") is None
    assert KO_READER.section_title(" 회원은 탈퇴할 수 있습니다.") is None


def test_layout_cues_make_a_candidate_strong() -> None:
    assert KO_READER.strong(Line(0, 5, heading_level=2))
    assert not KO_READER.strong(Line(0, 5, bold=True))  # bold means nothing when bold is not informative
    assert CandidateReader(KO, "ko", strong_bold=True, body_font=None).strong(Line(0, 5, bold=True))
    assert CandidateReader(KO, "ko", strong_bold=False, body_font=10.0).strong(Line(0, 5, font_size=12.0))
    assert read("제3조(목적)", line=Line(0, 7, heading_level=3))[0].strong
