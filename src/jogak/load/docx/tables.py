"""Tables: one line per row, cells joined with ``" | "``.

A cell's paragraphs (and nested tables' rows) are joined with a space; content controls are unwrapped;
horizontally merged cells appear once, vertically merged continuation cells are empty.
"""

from __future__ import annotations

from typing import Any

from jogak.load.docx.ooxml import W
from jogak.load.docx.render import Ctx, Line, render_paragraph


def _render_cell_text(tc: Any, ctx: Ctx) -> tuple[str, list[tuple[int, str]], list[tuple[int, int]], int, bool]:
    """A cell's content as one string: paragraphs (and nested table rows) joined with a space."""
    text = ""
    marks: list[tuple[int, str]] = []
    pages: list[tuple[int, int]] = []
    bp = 0
    first_bold: bool | None = None
    for child in tc:
        if child.tag == W + "p":
            lines = render_paragraph(child, ctx)
        elif child.tag == W + "tbl":
            lines = []
            for row_text, row_marks, row_pages, _rbp, _rb, row_page in render_table_rows(child, ctx):
                lines.append(Line(text=row_text, cues={}, marks=row_marks, pages=row_pages, page=row_page))
        elif child.tag == W + "sdt":
            content = child.find(W + "sdtContent")
            sub_text, sub_marks, sub_pages, sub_bp, sub_b = _render_cell_text(content, ctx) if content is not None \
                else ("", [], [], 0, False)
            lines = [Line(text=sub_text, cues={"bold_prefix": sub_bp, "bold": sub_b}, marks=sub_marks,
                          pages=sub_pages, page=ctx.page)] if sub_text else []
        else:
            continue
        for ln in lines:
            if not ln.text:
                continue
            off = len(text) + (1 if text else 0)
            if not text:
                bp = ln.cues.get("bold_prefix", 0)
                first_bold = ln.cues.get("bold")
            text = (text + " " + ln.text) if text else ln.text
            marks.extend((off + o, k) for o, k in ln.marks)
            pages.extend((off + o, pg) for o, pg in ln.pages)
    return text, marks, pages, bp, bool(first_bold)


Row = tuple[str, list[tuple[int, str]], list[tuple[int, int]], int, bool, int]


def render_table_rows(tbl: Any, ctx: Ctx) -> list[Row]:
    """Rows as (text, marks, page changes, bold_prefix, bold, start page)."""
    rows: list[Row] = []
    for tr in tbl.findall(W + "tr"):
        start_page = ctx.page
        cells: list[tuple[str, list[tuple[int, str]], list[tuple[int, int]], int, bool]] = []
        for tc in _row_cells(tr):
            tcpr = tc.find(W + "tcPr")
            vmerge = tcpr.find(W + "vMerge") if tcpr is not None else None
            if vmerge is not None and (vmerge.get(W + "val") in (None, "continue")):
                cells.append(("", [], [], 0, False))
                continue
            cells.append(_render_cell_text(tc, ctx))
        if not any(c[0] for c in cells) and not any(c[1] for c in cells):
            continue
        text = ""
        marks: list[tuple[int, str]] = []
        pages: list[tuple[int, int]] = []
        for k, (ct, cm, cp, _bp, _b) in enumerate(cells):
            if k:
                text += " | "
            off = len(text)
            text += ct
            marks.extend((off + o, key) for o, key in cm)
            pages.extend((off + o, pg) for o, pg in cp)
        bp, b = (cells[0][3], cells[0][4]) if cells else (0, False)
        if pages and pages[0][0] == 0:
            start_page = pages[0][1]
        pages = [pp for pp in pages if pp[0] > 0]
        rows.append((text, marks, pages, bp, b, start_page))
    return rows


def _row_cells(tr: Any) -> list[Any]:
    out = []
    for c in tr:
        if c.tag == W + "tc":
            out.append(c)
        elif c.tag in (W + "sdt", W + "customXml"):
            content = c.find(W + "sdtContent") if c.tag == W + "sdt" else c
            if content is not None:
                out.extend(x for x in content if x.tag == W + "tc")
    return out
