"""Shared helpers for the case-law tests: loading, tree invariants, expected corpus values."""

from __future__ import annotations

from pathlib import Path

from jogak.model import Document, Node

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "caselaw"
CASEBOOK = FIXTURES / "민법판례집_sample.txt"

# The six corpus decisions: what a reader finds in each file (front matter and text), checked by hand.
CORPUS_EXPECTED = {
    "민사/대법원/대법원_1998-03-13_97다41868.md": {
        "case_number": "97다41868", "decision_date": "1998-03-13", "court": "대법원", "title": "소유권이전등기",
        "case_type": "민사", "judgment_type": "판결", "full_case_name": "대법원 1998. 3. 13. 선고 97다41868 판결",
        "holdings": 0, "reason_parts": 0,
    },
    "민사/대법원/대법원_2000-06-09_98다54397.md": {
        "case_number": "98다54397", "decision_date": "2000-06-09", "court": "대법원", "title": "구상금",
        "case_type": "민사", "judgment_type": "판결", "full_case_name": "대법원 2000. 6. 9. 선고 98다54397 판결",
        "holdings": 4, "reason_parts": 3,
    },
    "민사/대법원/대법원_2000-11-10_2000다24061.md": {
        "case_number": "2000다24061", "decision_date": "2000-11-10", "court": "대법원", "title": "소유권이전등기등",
        "case_type": "민사", "judgment_type": "판결",
        "full_case_name": "대법원 2000. 11. 10. 선고 2000다24061 판결", "holdings": 3, "reason_parts": 3,
    },
    "민사/대법원/대법원_2002-09-24_2000다22812.md": {
        "case_number": "2000다22812", "decision_date": "2002-09-24", "court": "대법원", "title": "소유권이전등기등",
        "case_type": "민사", "judgment_type": "판결",
        "full_case_name": "대법원 2002. 9. 24. 선고 2000다22812 판결", "holdings": 3, "reason_parts": 4,
    },
    "민사/대법원/대법원_2002-09-27_2000다10048.md": {
        "case_number": "2000다10048", "decision_date": "2002-09-27", "court": "대법원", "title": "소유권이전등기등",
        "case_type": "민사", "judgment_type": "판결",
        "full_case_name": "대법원 2002. 9. 27. 선고 2000다10048 판결", "holdings": 2, "reason_parts": 3,
    },
    "일반행정/대법원/대법원_1999-03-09_98두18565.md": {
        "case_number": "98두18565", "decision_date": "1999-03-09", "court": "대법원",
        "title": "부정당업자제재처분취소", "case_type": "일반행정", "judgment_type": "판결",
        "full_case_name": "대법원 1999. 3. 9. 선고 98두18565 판결", "holdings": 4, "reason_parts": 0,
    },
}

# The casebook sample (tests/fixtures/caselaw): 사건번호 → expected metadata, in order.
CASEBOOK_EXPECTED = [
    ("2001다48781", "민법의 법원：관습법", "2003-07-24", "대법원", "판결", True, "민사", ["2001다48781"]),
    ("2002다1178", "민법의 법원：관습법", "2005-07-21", "대법원", "판결", True, "민사", ["2002다1178"]),
    ("99다70860", "신의성실의 원칙：강행법규 위반과의 관계", "2000-06-09", "대법원", "판결", False, "민사",
     ["99다70860"]),
    ("2012다89399", "신의성실의 원칙：강행법규 위반과의 관계", "2013-12-18", "대법원", "판결", True, "민사",
     ["2012다89399"]),
    ("90다카9619", "신의성실의 원칙：실효의 원칙", "1990-08-28", "대법원", "판결", False, "민사", ["90다카9619"]),
    ("2005다35554", "보증：근보증의 책임범위 제한", "2005-11-25", "대법원", "판결", False, "민사", ["2005다35554"]),
    ("2000므1257", "이혼：재산분할청구권", "2001-05-08", "대법원", "판결", False, "가사",
     ["2000므1257", "2000므1264"]),
    ("2004헌마554", "기본권：수도 이전과 관습헌법", "2004-10-21", "헌법재판소", "결정", True, "헌법",
     ["2004헌마554", "2004헌마566"]),
    ("97다53366", "소멸시효：시효이익의 포기", "1998-02-27", "대법원", "판결", False, "민사", ["97다53366"]),
]

# examples/caselaw/민법판례집.txt (written by the samples engineer), read by hand from its headers.
SHARED_CASEBOOK_EXPECTED = [
    ("2001다48781", "민법의 법원：관습법", "2003-07-24", "대법원", "판결", True, "민사", ["2001다48781"]),
    ("2002다1178", "민법의 법원：관습법", "2005-07-21", "대법원", "판결", True, "민사", ["2002다1178"]),
    ("99다70860", "신의성실의 원칙：강행법규 위반과의 관계", "2000-06-09", "대법원", "판결", False, "민사",
     ["99다70860"]),
    ("2012다89399", "신의성실의 원칙：강행법규 위반과의 관계", "2013-12-18", "대법원", "판결", True, "민사",
     ["2012다89399"]),
    ("90다카9619", "신의성실의 원칙：실효의 원칙", "1990-08-28", "대법원", "판결", False, "민사", ["90다카9619"]),
    ("2004다31302", "신의성실의 원칙：사정변경의 원칙", "2007-03-29", "대법원", "판결", False, "민사", ["2004다31302"]),
    ("2012다13637", "신의성실의 원칙：사정변경의 원칙", "2013-09-26", "대법원", "판결", True, "민사", ["2012다13637"]),
    ("86다카2472", "권리남용의 금지：권리남용의 요건", "1987-03-10", "대법원", "판결", False, "민사", ["86다카2472"]),
    ("94다40444", "보증：계속적 보증인의 책임 제한", "1995-06-30", "대법원", "판결", False, "민사", ["94다40444"]),
    ("95헌가6", "혼인：동성동본 금혼 규정의 위헌성", "1997-07-16", "헌법재판소", "결정", False, "헌법", ["95헌가6"]),
]


def text_doc(text: str, source: str = "sample.txt", metadata: dict | None = None) -> Document:
    from jogak.load.text import load_bytes

    doc = load_bytes(text.encode("utf-8"), source)
    doc.source = source
    doc.doc_title = Path(source).stem
    if metadata:
        doc.metadata.update(metadata)
    return doc


def raw_doc(text: str, source: str = "random.txt") -> Document:
    """A Document straight from a string (no loader checks): for property tests."""
    return Document(source=source, doc_title=Path(source).stem, text=text, format="text")


def check_invariants(root: Node, text: str) -> None:
    """Spans nest, siblings do not overlap and come in order, paths are unique, body_start is inside."""
    paths: set[str] = set()
    for node in root.walk():
        assert 0 <= node.char_start <= node.char_end <= len(text), node.path
        assert node.body_start is not None and node.char_start <= node.body_start <= node.char_end, node.path
        assert node.path not in paths, f"duplicate path {node.path!r}"
        paths.add(node.path)
        assert "cite" in node.attrs, node.path
        prev_end = node.char_start
        for i, ch in enumerate(node.children, 1):
            assert ch.sibling_order == i, ch.path
            assert node.char_start <= ch.char_start and ch.char_end <= node.char_end, ch.path
            assert ch.char_start >= prev_end, f"{ch.path} overlaps its previous sibling"
            prev_end = ch.char_end
            if node.path:
                assert ch.path.startswith(node.path + "/"), ch.path
        for ref in node.refs:
            assert text[ref.start : ref.end] == ref.text
            assert node.char_start <= ref.start <= ref.end <= node.char_end, (node.path, ref.text)
