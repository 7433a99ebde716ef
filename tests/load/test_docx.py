from __future__ import annotations

import io
import zipfile

import pytest

from jogak.load import load, load_bytes
from jogak.load.docx import format_number
from jogak.load.errors import CorruptFileError, LoadError, OversizeError

from .helpers import FIX, check_invariants, line_texts


@pytest.fixture(scope="module")
def doc():
    return load(FIX / "contract.docx")


def _by(doc):
    return dict(zip(line_texts(doc), doc.lines, strict=True))


def test_expected_text(doc) -> None:
    check_invariants(doc)
    assert doc.text == (FIX / "contract.docx.expected.txt").read_text(encoding="utf-8")
    for gone in ("숨은 글", "삭제된 글", "참조되지 않는 각주"):
        assert gone not in doc.text


def test_table_in_document_order(doc) -> None:
    texts = line_texts(doc)
    assert texts[0] == "물품공급계약서" and doc.lines[0].role == "title"
    assert texts[1:4] == ["구분 | 갑 (공급자) | 을 (구매자)", "상호 | 주식회사 하루 | 누리상사", "주소 | 서울시 중구"]
    assert all(ln.role == "table_row" for ln in doc.lines[1:4])
    assert doc.lines[1].bold_prefix == 2 and doc.lines[1].style == "Table Grid"


def test_headings_and_numbering(doc) -> None:
    by = _by(doc)
    h = by["제1조 (목적)"]
    assert h.heading_level == 1 and h.style == "Heading 1" and h.bold
    assert by["① 단순 변심에 의한 반품은 7일 이내에 신청한다."].numbering == "①"
    assert by["③ 적립금·쿠폰으로 결제한 금액은 환불되지 않는다."].numbering == "③"
    item = by["2. 사용으로 가치가 감소한 경우"]
    assert item.numbering == "2." and item.indent == 1 and item.role == "list_item"
    assert by["나. 라벨을 제거한 경우"].numbering == "나." and by["나. 라벨을 제거한 경우"].indent == 2
    art = by["제4조 (인도)"]
    assert art.numbering == "제4조" and art.bold_prefix == 3 and art.bold
    bullet = by["글머리 항목"]
    assert bullet.role == "list_item" and bullet.numbering is None
    lead = by["주의: 굵은 머리말 뒤의 본문."]
    assert lead.bold and lead.bold_prefix == 3
    assert "첫 줄" in by and "둘째 줄 (수동 줄바꿈)" in by


def test_footnotes_and_endnotes(doc) -> None:
    f1, f2, e1 = doc.footnotes
    assert (f1.label, f2.label, e1.label) == ("1", "2", "i")
    assert doc.text[f1.start : f1.end] == "1 「전자상거래 등에서의 소비자보호에 관한 법률」 제17조."
    assert doc.text[f2.start : f2.end] == "2 영업일은 토요일과 공휴일을 제외한다.\n둘째 문단도 각주에 속한다."
    (m,) = f1.marks
    assert doc.text[: m.offset].endswith("조건을 정한다.") and m.end is None
    assert doc.text[m.offset :].startswith(" 이어지는 문장.")
    assert doc.text[: f2.marks[0].offset].endswith("계산한다.")
    assert doc.body_end == doc.text.index("\n1 「전자상거래")
    assert any("never referenced" in w for w in doc.warnings)


def test_explicit_page_breaks_give_no_page_numbers(doc) -> None:
    """Without Word's layout (rendered breaks) the pages are unknown: no "p.1" for everything before the
    first explicit break (issue 18)."""
    assert doc.n_pages == 0 and doc.metadata["page_source"] is None
    assert doc.page_at(doc.text.index("부록A")) is None
    assert all(f.page is None for f in doc.footnotes)
    assert any(w.startswith("no page numbers: Word saved no page layout") for w in doc.warnings)


def test_number_formats() -> None:
    assert [format_number(n, "decimalEnclosedCircle") for n in (1, 20, 21)] == ["①", "⑳", "㉑"]
    assert [format_number(n, "ganada") for n in (1, 2, 14)] == ["가", "나", "하"]
    assert [format_number(n, "chosung") for n in (1, 3)] == ["ㄱ", "ㄷ"]
    assert format_number(4, "lowerRoman") == "iv" and format_number(9, "upperRoman") == "IX"
    assert format_number(28, "lowerLetter") == "bb" and format_number(3, "upperLetter") == "C"
    assert format_number(12, "koreanDigital") == "십이"


def test_corrupt_docx() -> None:
    with pytest.raises(CorruptFileError) as ei:
        load(FIX / "corrupt.docx")
    assert ei.value.message.startswith("corrupt DOCX")
    # a valid zip that is not a Word document
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("hello.txt", "hi")
    with pytest.raises(LoadError):
        load_bytes(buf.getvalue(), "x.docx")
    # a truncated real document
    data = (FIX / "contract.docx").read_bytes()
    with pytest.raises(CorruptFileError):
        load_bytes(data[: len(data) // 2], "x.docx")


def test_zip_bomb_is_refused() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("word/document.xml", b"<a/>")
        z.writestr("word/big.bin", b"\0" * (60 * 1024 * 1024))
    with pytest.raises(OversizeError) as ei:
        load_bytes(buf.getvalue(), "bomb.docx")
    assert "zip bomb" in ei.value.message


def test_example_contract(examples_dir) -> None:
    path = examples_dir / "contracts" / "물품매매계약서.docx"
    if not path.exists():
        pytest.skip("examples/contracts not generated yet")
    d = load(path)
    check_invariants(d)
    by = _by(d)
    rows = [t for t, ln in by.items() if ln.role == "table_row"]
    assert rows and rows[0].startswith("구분 | 매도인 | 매수인")
    assert line_texts(d).index(rows[0]) < line_texts(d).index("제1조 (목적)")  # parties table first
    assert len(d.footnotes) >= 3 and all(f.marks for f in d.footnotes)
    assert by["제1조 (목적)"].bold
