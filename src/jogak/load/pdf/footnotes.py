"""Footnotes at page bottoms: split off the body and moved after it.

Lines below the body in a smaller font that start with a label matching a superscript mark on that page
open a footnote; following small lines continue it until the next such label. The block is cut from the
page's lines; the caller appends the notes after the body (``Document.body_end``).
"""

from __future__ import annotations

import re

from jogak.load.pdf.lines import VLine
from jogak.load.pdf.pages import Page

Note = tuple[int, str, list[VLine]]  # (page, label, lines)


def note_label(text: str) -> str | None:
    m = re.match(r"^(\d{1,3}|[*†‡§¶]{1,3}|[a-z])(?:[).]|\s|(?=[^\d\s]))", text)
    return m.group(1) if m else None


def _block_start(lines: list[VLine], page_marks: set[str], body_size: float) -> int | None:
    """Index of the first small-font line below the last body line that starts with a marked label."""
    for k in range(len(lines)):
        v = lines[k]
        rest = lines[k:]
        if v.table or v.size >= body_size - 0.4:
            continue
        if not all((not r.table) and r.size < body_size - 0.4 for r in rest):
            continue
        lab = note_label(v.text)
        if lab in page_marks:
            return k
    return None


def split_footnotes(pages: list[Page], body_size: float) -> list[Note]:
    """Cut each page's footnote block off its lines (in place); return the notes in page order."""
    notes: list[Note] = []
    for p in pages:
        page_marks = {lab for v in p.lines for _, lab in v.marks}
        if not page_marks:
            continue
        lines = p.lines
        cut = _block_start(lines, page_marks, body_size)
        if cut is None:
            continue
        cur: tuple[str, list[VLine]] | None = None
        for v in lines[cut:]:
            lab = note_label(v.text)
            if lab is not None and lab in page_marks and (cur is None or lab != cur[0]):
                if cur:
                    notes.append((p.number, cur[0], cur[1]))
                cur = (lab, [v])
            elif cur is not None:
                cur[1].append(v)
        if cur:
            notes.append((p.number, cur[0], cur[1]))
        p.lines = lines[:cut]
    return notes
