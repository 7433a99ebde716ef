"""HWP 5.0 loader: the real sample documents in ../shared/corpora/hwp_samples (footnotes, tables, captions,
lists, outline numbering, page breaks; the encrypted and the 배포용 documents give one-line typed errors)
and python-hwpx's HWP conversion of the DOCX contract (same clause paths as the DOCX and the HWPX)."""

from __future__ import annotations

import pytest

from jogak.load import load, load_bytes
from jogak.load.errors import CorruptFileError, EncryptedFileError, UnsupportedTypeError

from .helpers import FIX, check_invariants, line_texts
from .test_hwpx import clause_paths


@pytest.fixture(scope="module")
def samples(corpora_dir):
    d = corpora_dir / "hwp_samples"
    if not d.is_dir():
        pytest.skip(f"{d} not found")
    return d


def _by(doc):
    return dict(zip(line_texts(doc), doc.lines, strict=True))


def test_same_content_as_docx_gives_the_same_tree(examples_dir) -> None:
    hwp = load(FIX / "물품매매계약서.hwp")
    check_invariants(hwp)
    assert hwp.format == "hwp"
    docx = load(examples_dir / "contracts" / "물품매매계약서.docx")
    assert line_texts(hwp) == line_texts(docx)
    assert clause_paths(hwp) == clause_paths(docx) == clause_paths(load(FIX / "물품매매계약서.hwpx"))
    assert [m.offset for f in hwp.footnotes for m in f.marks] == [m.offset for f in docx.footnotes for m in f.marks]


def test_footnotes_and_endnotes(samples) -> None:
    d = load(samples / "footnote-endnote.hwp")
    check_invariants(d)
    assert line_texts(d)[:2] == ["각주참조", "미주참조"]
    notes = {f.label: d.text[f.start:f.end] for f in d.footnotes}
    assert notes == {"1": "1 각주입니다.", "2": "2 각주 두 번째입니다.", "i": "i 미주입니다.", "ii": "ii 미주 두 번째입니다."}
    marks = {f.label: [m.offset for m in f.marks] for f in d.footnotes}
    assert marks["1"] == marks["2"] == [len("각주참조")]
    assert marks["i"] == [len("각주참조\n미주참조")]
    assert all(ln.role == "footnote" for ln in d.lines if ln.start >= d.body_end + 1)


def test_tables_captions_and_text_around_them(samples) -> None:
    d = load(samples / "sample-5017.hwp")
    check_invariants(d)
    texts = line_texts(d)
    by = _by(d)
    # the paragraph "표<table>표끝<table>" keeps its text around its tables, rows in reading order
    i = texts.index("표")
    assert texts[i + 1: i + 5] == ["A0 | B0", "A1 | B10 B11", "표끝", "table2"]
    assert by["A0 | B0"].role == "table_row"
    # a caption below its table, with the table's own number
    assert by["표 3 2x2짜리표"].role == "caption"
    assert by["한글 2005 예제 파일입니다."].font_size == 20
    assert any("private-use" in w for w in d.warnings)  # a PUA glyph 한글's own preview drops too
    assert d.page_at(d.text.index("다음 페이지")) == 2


def test_lists_and_outline_numbering(samples) -> None:
    d = load(samples / "lists.hwp")
    check_invariants(d)
    by = _by(d)
    pairs = list(zip(line_texts(d), d.lines, strict=True))
    assert [t for t, ln in pairs if ln.role == "list_item" and ln.numbering is None][:3] == ["1", "2", "3"]  # bullets
    assert [t for t, ln in pairs if ln.numbering][:6] == ["1. 1", "2. 2", "가. 2-1", "3. 3", "가. 3-1", "나. 3-2"]
    item = next(ln for t, ln in pairs if t == "가. 2-1")
    assert item.numbering == "가." and item.indent == 1
    # 개요 (outline) paragraphs: heading levels, the document's own 제N장/제N절 numbering
    assert by["제1장 2"].heading_level == 1 and by["제1절 2-1"].heading_level == 2
    assert by["제1항 3-2-1"].heading_level == 3 and by["제1장 2"].style == "개요 1"
    assert "I. 1" in by and "IV. 4" in by  # a numbering in Roman capitals


def test_page_breaks(samples) -> None:
    d = load(samples / "paragraph-split-page.hwp")
    assert line_texts(d) == ["가나다", "라마바", "new page"]
    assert [ln.page for ln in d.lines] == [1, 1, 2]
    assert d.metadata["page_source"] == "explicit"


def test_headers_footers_are_not_text(samples) -> None:
    d = load(samples / "headerfooter.hwp")
    assert line_texts(d) == ["첫 페이지"]


@pytest.mark.parametrize(("name", "words"), [("password-12345.hwp", "password"), ("viewtext.hwp", "배포용")])
def test_protected_documents_give_one_line_errors(samples, name: str, words: str) -> None:
    with pytest.raises(EncryptedFileError) as ei:
        load(samples / name)
    assert words in ei.value.message and "\n" not in str(ei.value)
    assert ei.value.code == "encrypted"


def test_bad_files() -> None:
    data = (FIX / "물품매매계약서.hwp").read_bytes()
    with pytest.raises(CorruptFileError):
        load_bytes(data[: len(data) // 3], "cut.hwp")
    with pytest.raises(CorruptFileError, match="OLE"):
        load_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 2000, "x.hwp")
    with pytest.raises(CorruptFileError, match="it is a zip"):
        load_bytes((FIX / "hwpx_features.hwpx").read_bytes(), "renamed.hwp")
    with pytest.raises(UnsupportedTypeError, match="HWP 3"):
        load_bytes(b"HWP Document File V3.00 \x1a\x01\x02\x03\x04\x05" + b"\0" * 100, "old.hwp")
