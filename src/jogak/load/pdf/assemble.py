"""Pages of visual lines → ``Document``: the stages after reading, in order.

body font size → furniture removed → footnote blocks split off → right margin, leading and heading
sizes measured → paragraphs → wrap mode decided (table cells re-joined with it) → paragraphs emitted as
lines, footnotes after the body → metadata (furniture, removed hyphens, body size, margin, wrap summary).
"""

from __future__ import annotations

from typing import Any

from jogak.load.builder import DocBuilder
from jogak.load.pdf.footnotes import Note, split_footnotes
from jogak.load.pdf.furniture import Furniture, remove_furniture
from jogak.load.pdf.lines import Para, dominant
from jogak.load.pdf.pages import Page
from jogak.load.pdf.paragraphs import (
    build_paragraphs,
    emit_para,
    heading_levels,
    join_para,
    leading_by_size,
    right_margin,
)
from jogak.load.pdf.wrap import WrapAnalysis
from jogak.model import Document


def assemble(pages: list[Page], source: str, n_pages: int) -> Document:
    warnings = [f"page {p.number} has no text layer (scanned?)" for p in pages if p.scanned]
    # every text line before furniture and footnotes are removed: the geometry statistics see them all
    text_lines = [v for p in pages for v in p.lines if not v.table]
    body_size = dominant([v.size for v in text_lines for _ in range(max(1, len(v.text) // 10))]) or 10.0
    furniture = remove_furniture(pages, body_size)
    notes = split_footnotes(pages, body_size)
    right = right_margin(text_lines, pages, body_size)
    leading = leading_by_size(pages, right)
    level_of = heading_levels(text_lines, body_size)
    paras = build_paragraphs(pages, right, leading)
    wrap = WrapAnalysis(text_lines, right, body_size)
    for para in paras:
        wrap.add_para(para)
    wrap.decide()
    _rejoin_cells(pages, wrap)
    b = DocBuilder("pdf")
    hyphens: list[list[int]] = []
    for para in paras:
        emit_para(b, para, wrap, level_of, hyphens)
    if notes:
        _emit_notes(b, notes, wrap, hyphens)
    metadata: dict[str, Any] = {
        "furniture": _furniture_report(furniture),
        "removed": {"hyphens": hyphens},
        "body_font_size": body_size,
        "right_margin": round(right, 2),
        "wrap": wrap.summary(),
    }
    return b.build(source, n_pages=n_pages, metadata=metadata, warnings=warnings)


def _rejoin_cells(pages: list[Page], wrap: WrapAnalysis) -> None:
    """Ruled-table cells' wrapped lines, re-joined with the document's wrap mode."""
    for p in pages:
        for v in p.lines:
            if v.cell_lines is not None:
                v.text = " | ".join(wrap.join_cell(cl) for cl in v.cell_lines)
                v.flags = [False] * len(v.text)


def _emit_notes(b: DocBuilder, notes: list[Note], wrap: WrapAnalysis, hyphens: list[list[int]]) -> None:
    b.start_footnotes()
    for page_no, label, lines in notes:
        text, _flags, _marks, _page_breaks = join_para(Para(lines=lines), wrap, hyphens, b.pos)
        first = lines[0]
        t = text
        # "1 text" as printed; a raised label glued to the text gets a separating space
        if not t.startswith(label + " ") and t.startswith(label):
            t = label + " " + t[len(label):].lstrip()
        b.add_footnote(label, [(t, {"font_size": first.size, "x0": round(first.x0, 2),
                                    "bold": False})], page=page_no)


def _furniture_report(furniture: list[Furniture]) -> dict[str, Any]:
    return {
        "count": len(furniture),
        "examples": list(dict.fromkeys(t for _, t, _ in furniture))[:5],
        "items": [[pg, t, kind] for pg, t, kind in furniture],
    }
