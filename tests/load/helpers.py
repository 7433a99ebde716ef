"""Invariants every loader's Document must satisfy (the contract the structure parser relies on)."""

from __future__ import annotations

from pathlib import Path

from jogak.model import Document

FIX = Path(__file__).resolve().parent.parent / "fixtures" / "load"


def check_invariants(doc: Document) -> None:
    text = doc.text
    # lines tile the text, one Line per line of text
    parts = text.split("\n")
    if text == "" and not doc.lines:
        parts = []
    assert len(doc.lines) == len(parts), (len(doc.lines), len(parts))
    pos = 0
    for ln, part in zip(doc.lines, parts, strict=True):
        assert ln.start == pos, (ln, pos)
        assert ln.end == pos + len(part)
        assert ln.end >= ln.start
        assert 0 <= ln.bold_prefix <= ln.end - ln.start
        pos = ln.end + 1
    # page spans: sorted, non-overlapping, contiguous, covering the text
    if doc.pages:
        assert doc.pages[0].start == 0
        assert doc.pages[-1].end == len(text)
        for a, b in zip(doc.pages, doc.pages[1:], strict=False):
            assert a.end == b.start, (a, b)
            assert a.start < a.end or a.start == a.end == 0
        assert all(1 <= p.page <= max(doc.n_pages, 1) for p in doc.pages)
    # footnotes after the body, marks inside the body
    for fn in doc.footnotes:
        assert 0 <= fn.start < fn.end <= len(text)
        if doc.body_end is not None:
            assert fn.start > doc.body_end
        for m in fn.marks:
            assert 0 <= m.offset <= (doc.body_end if doc.body_end is not None else len(text))
            if m.end is not None:
                assert m.offset < m.end <= len(text)
    if doc.footnotes:
        assert doc.body_end is not None
    for ln in doc.lines:
        if doc.body_end is not None and ln.start > doc.body_end:
            assert ln.role == "footnote"
    # no \r, no form feeds in rendered formats
    assert "\r" not in text


def line_texts(doc: Document) -> list[str]:
    return [doc.text[ln.start : ln.end] for ln in doc.lines]
