from __future__ import annotations

import pytest

from jogak.load import load, load_bytes

from .helpers import FIX, check_invariants

EXPECTED = (FIX / "korean.expected.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "encoding"),
    [
        ("korean_euckr.txt", "euc-kr"),
        ("korean_utf16.txt", "utf-16-le"),
        ("korean_utf8_bom.txt", "utf-8-sig"),
    ],
)
def test_korean_encodings(name: str, encoding: str) -> None:
    doc = load(FIX / name)
    check_invariants(doc)
    assert doc.metadata["encoding"] == encoding
    assert doc.text == EXPECTED
    assert doc.format == "text"


def test_cp949_with_extension_syllables() -> None:
    doc = load(FIX / "korean_cp949.txt")
    check_invariants(doc)
    assert doc.metadata["encoding"] == "cp949"  # 똠 is outside EUC-KR
    assert doc.text == (FIX / "korean_cp949.expected.txt").read_text(encoding="utf-8")


def test_indentation_kept_in_text_and_measured() -> None:
    doc = load(FIX / "korean_euckr.txt")
    lines = {doc.text[ln.start : ln.end]: ln for ln in doc.lines}
    assert lines["\t1. 단순 변심: 7일 이내"].indent == 4
    assert lines["    2. 상품 하자: 30일 이내"].indent == 4
    assert "①" in doc.text and "「전자상거래법」" in doc.text and "적립금·쿠폰" in doc.text


def test_short_korean_cp949_is_not_misdetected() -> None:
    for s in ["제1조", "반품", "① 않는다", "가. 나. 다."]:
        doc = load_bytes(s.encode("cp949"), "short.txt")
        assert doc.text == s, (s, doc.metadata)


def test_crlf_and_cr_normalised() -> None:
    doc = load_bytes(b"a\r\nb\rc\n", "x.txt")
    check_invariants(doc)
    assert doc.text == "a\nb\nc\n"


def test_form_feed_pages() -> None:
    doc = load_bytes(b"page one\n\fpage two\n\fthree", "x.txt")
    check_invariants(doc)
    assert doc.n_pages == 3
    assert doc.page_at(doc.text.index("two")) == 2
    assert doc.page_at(doc.text.index("three")) == 3


def test_latin1_english() -> None:
    doc = load_bytes("The café's naïve résumé costs 5 €.\n".encode("cp1252"), "x.txt")
    assert "café" in doc.text and "résumé" in doc.text


def test_binary_is_rejected() -> None:
    from jogak.load.errors import LoadError

    with pytest.raises(LoadError):
        load_bytes(bytes(range(0, 32)) * 20, "x.txt")
