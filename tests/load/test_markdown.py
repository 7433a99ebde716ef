from __future__ import annotations

import pytest

from jogak.load import load, load_bytes

from .helpers import FIX, check_invariants, line_texts


@pytest.fixture(scope="module")
def doc():
    return load(FIX / "policy.md")


def test_expected_text(doc) -> None:
    check_invariants(doc)
    assert doc.text == (FIX / "policy.md.expected.txt").read_text(encoding="utf-8")


def test_front_matter(doc) -> None:
    assert doc.metadata["title"] == "하루마켓 반품 정책"
    assert doc.metadata["effective"] == "2024-03-01"  # JSON-safe
    assert doc.metadata["tags"] == ["반품", "환불"]
    assert "---" not in doc.text and "version" not in doc.text
    assert "주석" not in doc.text  # HTML comment dropped


def test_headings_and_bold_markers(doc) -> None:
    by_text = dict(zip(line_texts(doc), doc.lines, strict=True))
    assert by_text["반품·교환·환불 정책"].heading_level == 1
    assert by_text["제1조 (목적)"].heading_level == 5
    para = next(ln for t, ln in by_text.items() if t.startswith("① 단순"))
    assert para.bold_prefix == 1 and para.bold
    assert "<개정 2010.5.17>" in doc.text  # amendment tags are text, not HTML
    item = next(ln for t, ln in by_text.items() if t.startswith("1. 고객"))
    assert item.indent == 2 and item.bold_prefix == 0
    sub = next(ln for t, ln in by_text.items() if t.startswith("가. 포장"))
    assert sub.indent == 4


def test_lists_and_table(doc) -> None:
    by_text = dict(zip(line_texts(doc), doc.lines, strict=True))
    assert by_text["첫째 항목 이어지는 줄"].role == "list_item"
    nested = by_text["1. 하위 번호 항목"]
    assert nested.role == "list_item" and nested.numbering == "1." and nested.indent == 2
    rows = [t for t, ln in by_text.items() if ln.role == "table_row"]
    assert rows == ["구분 | 배송비 | 비고", "단순 변심 | 3,000원 | 왕복 6,000원", "상품 하자 | 무료 | 회사 부담 | 즉시"]
    assert by_text["단순 변심 | 3,000원 | 왕복 6,000원"].bold_prefix == len("단순 변심")


def test_footnotes(doc) -> None:
    assert [f.label for f in doc.footnotes] == ["1", "note"]
    f1, f2 = doc.footnotes
    assert doc.text[f1.start : f1.end].startswith("1 「전자상거래 등에서의")
    assert doc.text[f2.start : f2.end] == "note 사용 여부는 회사가 판단한다."
    (m1,) = f1.marks
    assert doc.text[:m1.offset].endswith("절차를 정한다.") and m1.end is None
    (m2,) = f2.marks
    assert doc.text[:m2.offset].endswith("현저히 감소한 경우")
    assert doc.body_end is not None and doc.text[: doc.body_end].endswith("| 즉시")
    assert "[^" not in doc.text
    for ln in doc.lines:
        if ln.start > doc.body_end:
            assert ln.role == "footnote"


def test_inline_rendering() -> None:
    src = (
        "**Bold lead** then *em* and __strong__ and snake_case_name and 5 * 3 = 15\n\n"
        "A [link](http://x.y/(a)) ![alt](i.png) <https://a.b> &amp; &#x2460; <b>tag</b> `**kept**`\n\n"
        "별표 \\* 와 \\_ 와 1\\. 그리고 <개정 2020.1.1> <br> 다음\n"
    )
    doc = load_bytes(src.encode(), "x.md")
    check_invariants(doc)
    assert line_texts(doc) == [
        "Bold lead then em and strong and snake_case_name and 5 * 3 = 15",
        "A link alt https://a.b & ① tag **kept**",
        "별표 * 와 _ 와 1. 그리고 <개정 2020.1.1>",
        "다음",
    ]
    assert doc.lines[0].bold_prefix == len("Bold lead")


def test_fenced_code_setext_and_rules() -> None:
    src = "Title\n=====\n\nSub\n---\n\n```python\n# not a heading\n  x = 1\n```\n\n***\n\ntext\n"
    doc = load_bytes(src.encode(), "x.md")
    check_invariants(doc)
    assert line_texts(doc) == ["Title", "Sub", "# not a heading", "  x = 1", "text"]
    assert doc.lines[0].heading_level == 1 and doc.lines[1].heading_level == 2
    assert doc.lines[2].role == "code"


def test_structural_lines_are_not_joined() -> None:
    src = "① 첫째 항\n② 둘째 항\n제3조 (제목)\n본문 줄\n이어지는 줄\n"
    doc = load_bytes(src.encode(), "x.md")
    assert line_texts(doc) == ["① 첫째 항", "② 둘째 항", "제3조 (제목)", "본문 줄 이어지는 줄"]


def test_english_clause_lines_are_not_joined() -> None:
    src = ("## 2. Accounts\n2.1 You must be 18.\n2.2 Keep your password\nsafe at all times.\n(a) first;\n"
           "(iv) fourth\n9의2. 개정으로 넣은 호\n")
    doc = load_bytes(src.encode(), "x.md")
    assert line_texts(doc) == ["2. Accounts", "2.1 You must be 18.", "2.2 Keep your password safe at all times.",
                               "(a) first;", "(iv) fourth", "9의2. 개정으로 넣은 호"]


def test_front_matter_bad_yaml_is_a_warning() -> None:
    doc = load_bytes(b"---\na: [unclosed\n---\nbody\n", "x.md")
    assert doc.text == "body"
    assert any("front matter" in w for w in doc.warnings)


@pytest.mark.corpus
def test_korean_statutes(corpora_dir) -> None:
    files = sorted((corpora_dir / "korean_statutes").glob("*.md"))
    if not files:
        pytest.skip("no statutes in the corpus folder")
    for f in files:
        doc = load(f)
        check_invariants(doc)
        assert doc.metadata.get("법령ID")
        texts = line_texts(doc)
        assert "**" not in doc.text and "\\." not in doc.text
        assert all(t.strip() == t and t for t in texts)
        heads = [t for t, ln in zip(texts, doc.lines, strict=True) if ln.heading_level == 5]
        assert len(heads) > 40 and all(t.startswith("제") for t in heads)
        hang = [ln for t, ln in zip(texts, doc.lines, strict=True) if t[:1] in "①②③④⑤⑥⑦⑧⑨⑩"]
        assert sum(ln.bold_prefix == 1 for ln in hang) > 80  # 부칙 writes some 항 without bold
        ho = [ln for t, ln in zip(texts, doc.lines, strict=True) if ln.indent == 2]
        assert len(ho) > 60
        assert "<개정" in doc.text
