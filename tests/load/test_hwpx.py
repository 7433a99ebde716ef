"""HWPX loader: generated fixtures (scripts/fixtures/make_hwpx.py, python-hwpx) — the same content as the
DOCX contract gives the same clause paths; outline numbering, lists, merged and nested tables, notes,
line breaks and page breaks; bad packages give one-line typed errors."""

from __future__ import annotations

import io
import zipfile

import pytest

from jogak.load import load, load_bytes
from jogak.load.errors import CorruptFileError, EncryptedFileError, OversizeError
from jogak.structure import parse

from .helpers import FIX, check_invariants, line_texts


def clause_paths(doc) -> list[str]:
    out: list[str] = []

    def walk(n) -> None:
        out.append(n.path)
        for c in n.children:
            walk(c)

    walk(parse(doc).root)
    return out


@pytest.fixture(scope="module")
def features():
    return load(FIX / "hwpx_features.hwpx")


def test_same_content_as_docx_gives_the_same_tree(examples_dir) -> None:
    docx = load(examples_dir / "contracts" / "물품매매계약서.docx")
    hwpx = load(FIX / "물품매매계약서.hwpx")
    check_invariants(hwpx)
    assert hwpx.format == "hwpx"
    assert line_texts(hwpx) == line_texts(docx)
    paths = clause_paths(hwpx)
    assert paths == clause_paths(docx)
    assert "본문/제5조/제1항" in paths and any(p.startswith("각주/") for p in paths)
    assert [f.label for f in hwpx.footnotes] == [f.label for f in docx.footnotes]
    assert [m.offset for f in hwpx.footnotes for m in f.marks] == [m.offset for f in docx.footnotes for m in f.marks]
    # cues the parser reads: bold larger headings, table rows
    by = dict(zip(line_texts(hwpx), hwpx.lines, strict=True))
    assert by["제1조 (목적)"].bold and by["제1조 (목적)"].font_size == 11
    assert by["구분 | 매도인 | 매수인"].role == "table_row"
    assert hwpx.page_at(hwpx.text.index("\n부록A (") + 1) == 2  # the source's page break before the appendix


def test_outline_numbering_lists_and_tables(features) -> None:
    check_invariants(features)
    texts = line_texts(features)
    by = dict(zip(texts, features.lines, strict=True))
    # 개요 paragraphs: 한글 draws the outline number, the cue is the outline level
    assert by["1. 총칙"].heading_level == 1 and by["가. 목적"].heading_level == 2
    assert by["나. 정의"].heading_level == 2 and by["2. 부칙"].heading_level == 1
    assert by["1. 총칙"].style == "개요 1"
    # a line break splits the paragraph; a tab is a space
    assert texts[texts.index("첫째 줄") + 1] == "둘째 줄 탭 뒤"
    # rows in order; the merged cell leaves its place empty below; the nested table stays in its cell
    rows = [t for t in texts if by[t].role == "table_row"]
    assert rows == ["구분 | 내용 | 비고", "병합 | 가 | 나", " | 다 | 라 안쪽1 | 안쪽2"]
    # the endnote after body_end, linked to its mark at the end of its sentence
    (note,) = features.footnotes
    assert note.label == "i" and features.text[note.start:note.end] == "i 미주의 내용이다."
    mark = note.marks[0].offset
    assert features.text[:mark].endswith("이 문서는 한글 형식의 기능을 점검한다.")
    # the explicit page break
    assert features.page_at(features.text.index("이 문서는 공포한")) == 2
    assert features.metadata["page_source"] == "explicit"


def _package(members: dict[str, bytes], mimetype: bytes = b"application/hwp+zip") -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("mimetype", mimetype)
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def test_bad_packages_give_typed_errors() -> None:
    good = (FIX / "hwpx_features.hwpx").read_bytes()
    with pytest.raises(CorruptFileError, match="not a readable zip"):
        load_bytes(good[: len(good) // 2], "half.hwpx")
    with pytest.raises(CorruptFileError, match="mimetype"):
        load_bytes(_package({"Contents/section0.xml": b"<a/>"}, mimetype=b"application/zip"), "x.hwpx")
    with pytest.raises(CorruptFileError, match="not well-formed"):
        load_bytes(_package({"Contents/section0.xml": b"<hs:sec"}), "x.hwpx")
    with pytest.raises(CorruptFileError, match="section"):
        load_bytes(_package({"Contents/header.xml": b"<a/>"}), "x.hwpx")
    manifest = (b'<odf:manifest xmlns:odf="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><odf:file-entry '
                b'odf:full-path="Contents/section0.xml"><odf:encryption-data/></odf:file-entry></odf:manifest>')
    with pytest.raises(EncryptedFileError) as ei:
        load_bytes(_package({"META-INF/manifest.xml": manifest, "Contents/section0.xml": b"x"}), "locked.hwpx")
    assert "\n" not in str(ei.value)
    with pytest.raises(CorruptFileError, match="it is a PDF"):
        load_bytes(b"%PDF-1.7 not a zip", "x.hwpx")


def test_zip_bomb_is_refused() -> None:
    bomb = _package({"Contents/section0.xml": b"<a/>", "BinData/big.bin": b"\0" * (60 * 1024 * 1024)})
    with pytest.raises(OversizeError) as ei:
        load_bytes(bomb, "bomb.hwpx")
    assert "zip bomb" in ei.value.message
