"""Footnotes and endnotes, appended after the body in order of first reference.

``w:footnoteReference`` has no text, so a mark is an offset (custom marks are removed from the text too).
Notes are numbered in order of first reference (footnotes 1, 2, 3…; endnotes i, ii, iii… as Word shows
them, or the custom mark) and added as ``"<label> <text>"`` lines; separator/continuation entries are
skipped, unreferenced notes dropped with a warning. A note's page is the page of its first mark.
"""

from __future__ import annotations

from typing import Any

from jogak.load.builder import DocBuilder
from jogak.load.docx.numbering import format_number
from jogak.load.docx.ooxml import W
from jogak.load.docx.render import Ctx, render_paragraph
from jogak.load.docx.tables import render_table_rows


def _note_elements(notes_roots: dict[str, Any]) -> dict[tuple[str, str], Any]:
    """(kind "f"/"e", id) → the note element, without separators."""
    note_els: dict[tuple[str, str], Any] = {}
    for rt, root in notes_roots.items():
        kind = "f" if rt == "footnotes" else "e"
        for fn in root.findall(W + ("footnote" if kind == "f" else "endnote")):
            if fn.get(W + "type") in ("separator", "continuationSeparator", "continuationNotice"):
                continue
            note_els[(kind, fn.get(W + "id") or "")] = fn
    return note_els


def _note_lines(el: Any, ctx: Ctx) -> list[tuple[str, dict[str, Any]]]:
    # a note is rendered without pages: its page is where it is referenced
    note_ctx = Ctx(ctx.styles, ctx.numbering, None)
    lines: list[tuple[str, dict[str, Any]]] = []
    for child in el:
        if child.tag == W + "p":
            for ln in render_paragraph(child, note_ctx):
                lines.append((ln.text, {"style": ln.cues.get("style"), "font_size": ln.cues.get("font_size")}))
        elif child.tag == W + "tbl":
            for text, *_rest in render_table_rows(child, note_ctx):
                lines.append((text, {}))
    return lines


def emit_notes(b: DocBuilder, ctx: Ctx, notes_roots: dict[str, Any], paged: bool, warnings: list[str]) -> None:
    order: list[tuple[str, str, str | None]] = []
    seen: set[tuple[str, str]] = set()
    for kind, nid, custom in ctx.note_refs:
        if (kind, nid) not in seen:
            seen.add((kind, nid))
            order.append((kind, nid, custom))
    note_els = _note_elements(notes_roots)
    counters = {"f": 0, "e": 0}
    if order:
        b.start_footnotes()
    missing = []
    for kind, nid, custom in order:
        el = note_els.get((kind, nid))
        if el is None:
            missing.append(f"{kind}{nid}")
            continue
        if custom:
            label = custom
        else:
            counters[kind] += 1
            label = str(counters[kind]) if kind == "f" else format_number(counters[kind], "lowerRoman")
        page = ctx.note_first_page.get((kind, nid)) if paged else None
        lines = _note_lines(el, ctx)
        if lines:
            lines[0] = (f"{label} {lines[0][0]}", lines[0][1])
        else:
            lines = [(label, {})]
        b.add_footnote(label, lines, page=page, key=f"{kind}:{nid}")
    if missing:
        warnings.append(f"notes referenced but not found: {', '.join(missing)}")
    unreferenced = [k for k in note_els if k not in seen]
    if unreferenced:
        warnings.append(f"{len(unreferenced)} note(s) never referenced in the body were dropped")
