"""Decomposed Hangul (NFD: conjoining jamo, as macOS file names and some PDF producers write Korean) reads
as the syllables it spells — in the text, the clause tree, the title and the lexical tokens — and a CJK
compatibility hanja matches its unified form, without rewriting any other character."""

from __future__ import annotations

import unicodedata
from pathlib import Path

from jogak.chunk import chunk
from jogak.index.lexical import tokenize
from jogak.lexicon import content_terms
from jogak.load import load, load_bytes
from jogak.load.builder import DocBuilder
from jogak.load.joining import compose_hangul

from .helpers import check_invariants

TERMS = ("# 이용약관\n\n제1조(목적) 이 약관은 회사의 서비스 이용 조건을 정한다.\n\n"
         "제2조(환불) ① 회원은 7일 이내에 환불을 요청할 수 있다.\n② 회사는 3영업일 안에 돌려준다.\n")


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def _articles(path: Path) -> list[tuple[str, str]]:
    doc = load(path)
    return [(c.metadata.path, c.metadata.doc_title) for c in chunk(doc, strategy="structure", size=500)]


def test_decomposed_markdown_and_file_name_parse_like_composed(tmp_path: Path) -> None:
    composed = tmp_path / "약관.md"
    composed.write_text(TERMS, encoding="utf-8")
    decomposed = tmp_path / "d" / (nfd("약관") + ".md")
    decomposed.parent.mkdir()
    decomposed.write_text(nfd(TERMS), encoding="utf-8")
    assert _articles(composed) == [("본문/제1조", "약관"), ("본문/제2조", "약관")]
    assert _articles(decomposed) == _articles(composed)  # not one "Preamble" of unknown words
    doc = load(decomposed)
    check_invariants(doc)
    assert "환불을 요청할 수 있다" in doc.text and unicodedata.is_normalized("NFC", doc.text)


def test_decomposed_plain_text_is_composed_and_says_so() -> None:
    doc = load_bytes(nfd(TERMS).encode("utf-8"), "terms.txt")
    check_invariants(doc)
    assert doc.text == TERMS
    assert doc.metadata["hangul"] == "composed"
    assert "hangul" not in load_bytes(TERMS.encode("utf-8"), "terms.txt").metadata


def test_offsets_inside_a_decomposed_line_follow_the_composition() -> None:
    b = DocBuilder("pdf")
    line = "환불은 7일 이내¹ 가능"
    raw = nfd(line)
    mark_at = raw.index("¹")
    b.add_line(raw, page=1, page_breaks=[(raw.index(nfd("가")), 2)], marks=[(mark_at, "1")])
    b.start_footnotes()
    b.add_footnote("1", [("영업일 기준", {})], page=2)
    doc = b.build("x.pdf", n_pages=2)
    check_invariants(doc)
    assert doc.text.startswith(line)
    assert doc.footnotes[0].marks[0].offset == line.index("¹")
    assert [(p.page, p.start) for p in doc.pages][:2] == [(1, 0), (2, line.index("가"))]


def test_latin_text_keeps_its_exact_characters() -> None:
    # CUAD's gold offsets are into the file as written: a decomposed accent outside Hangul stays decomposed
    text = "Cafe\u0301 Agreement, Section 2"
    assert compose_hangul(text) is text
    doc = load_bytes(text.encode("utf-8"), "c.txt")
    assert doc.text == text


def test_lexical_tokens_read_composed_syllables_and_unified_hanja() -> None:
    assert tokenize(nfd("환불 기간은 며칠인가요")) == tokenize("환불 기간은 며칠인가요")
    compat = "비밀을 누설(\uf94e泄)하여서는 아니 된다"  # U+F94E, as a statute file writes 漏
    unified = "비밀을 누설(漏泄)하여서는 아니 된다"
    assert tokenize(compat) == tokenize(unified)
    assert content_terms(compat) == content_terms(unified)


def test_compatibility_hanja_are_unified_in_the_text_with_offsets_kept() -> None:
    # law.go.kr writes some hanja as compatibility ideographs (年 U+F98E, 臨 U+F9F6): the text a reader
    # searches, quotes and copies holds the unified character; one character each, so offsets are unchanged
    text = "제60조(보험료) ① 보험료는 매\uf98e 정한다. 「臨\uf9f6時」 ② 다만, ㆍ 등은 그러하지 아니하다."
    doc = load_bytes(text.encode("utf-8"), "법.txt")
    assert "매年 정한다" in doc.text and "「臨臨時」" in doc.text
    assert not any("\uf900" <= ch <= "\ufaff" for ch in doc.text)
    assert len(compose_hangul(text)) == len(text)
    assert "①" in doc.text and "ㆍ" in doc.text
