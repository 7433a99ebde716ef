from __future__ import annotations

import pytest

from jogak.load import load, load_bytes

from .helpers import FIX, check_invariants, line_texts


@pytest.fixture(scope="module", params=["page.html", "page_utf8.html"])
def doc(request):
    return load(FIX / request.param)


def test_expected_text(doc) -> None:
    check_invariants(doc)
    assert doc.text == (FIX / "page.expected.txt").read_text(encoding="utf-8")
    assert doc.metadata["title"] == "하루마켓 배송 정책"


def test_charset_from_meta() -> None:
    assert load(FIX / "page.html").metadata["encoding"] == "cp949"  # <meta charset="euc-kr">


def test_chrome_dropped(doc) -> None:
    for s in ("본문 아님", "font-family", "홈", "©", "↩"):
        assert s not in doc.text


def test_cues(doc) -> None:
    by = dict(zip(line_texts(doc), doc.lines, strict=True))
    assert by["배송 정책"].heading_level == 1 and by["배송 정책"].style == "h1"
    assert by["제1조 (배송 기간)"].heading_level == 2
    assert by["① 주문 후 2일 이내에 발송한다."].bold_prefix == 1
    item = by["1. 일반 배송: 2~3일"]
    assert item.role == "list_item" and item.numbering == "1." and item.indent == 0
    sub = by["a. 제주: 추가 3,000원"]
    assert sub.numbering == "a." and sub.indent == 1
    assert by["5. 해외 배송: 별도 안내"].numbering == "5."
    assert by["당일 출고는 오후 2시 주문까지"].numbering is None
    rows = [t for t, ln in by.items() if ln.role == "table_row"]
    assert rows == ["구분 | 금액", "기본 | 3,000원", "5만원 이상 | 무료 (일부 제외)"]
    assert by["배송비"].role == "caption"
    assert by["  들여쓰기 유지"].role == "code"


def test_footnotes(doc) -> None:
    f1, f2 = doc.footnotes
    assert doc.text[f1.start : f1.end] == "1 「전자상거래법」 제13조 참고."
    assert doc.text[f2.start : f2.end] == "2 국가별로 다르다."
    assert doc.text[: f1.marks[0].offset].endswith("배송 기준을 정한다.")
    assert doc.text[: f2.marks[0].offset].endswith("해외 배송: 별도 안내")
    assert doc.body_end is not None and doc.body_end < f1.start
    assert all(ln.role == "footnote" for ln in doc.lines if ln.start > doc.body_end)


def test_misc_html() -> None:
    src = (
        "<p>a<br>b</p><div hidden>secret</div><p style='display:none'>gone</p>"
        "<ol start=3 reversed><li>x</li><li>y</li></ol><ol type=I><li>r</li><li>s</li></ol>"
        "<p>Hello\n   world <span style='font-weight:700'>x</span></p>"
        "<aside class='sidebar'>menu</aside><table><tr><td>1</td><td>2</td></tr></table>"
    )
    doc = load_bytes(src.encode(), "x.html")
    check_invariants(doc)
    assert line_texts(doc) == ["a", "b", "3. x", "2. y", "I. r", "II. s", "Hello world x", "1 | 2"]


def test_garbage_html_does_not_crash() -> None:
    for src in [b"<", b"<<<>>>", b"<table><tr><td>", b"\xff\xfe<\x00p\x00>\x00", b"<a href='#'>x</a>"]:
        doc = load_bytes(src, "x.html")
        check_invariants(doc)
