"""The document body in order: paragraphs and tables interleaved, content controls unwrapped, pages counted.

Pages: if Word saved rendered page breaks (``w:lastRenderedPageBreak``) they define the pages ("rendered");
otherwise explicit breaks (page breaks, page-break-before, new-page section breaks) do ("explicit"); with
neither there are no pages (None).
"""

from __future__ import annotations

from typing import Any

from jogak.load.builder import DocBuilder
from jogak.load.docx.ooxml import MC_ALT, MC_FALLBACK, W, val
from jogak.load.docx.render import Ctx, Line, render_paragraph
from jogak.load.docx.styles import ui_name
from jogak.load.docx.tables import render_table_rows


def page_mode_of(body: Any) -> str | None:
    has_rendered = body.find(f".//{W}lastRenderedPageBreak") is not None
    has_explicit = (
        body.find(f".//{W}br[@{W}type='page']") is not None
        or body.find(f".//{W}pageBreakBefore") is not None
        or len(body.findall(f".//{W}pPr/{W}sectPr")) > 0
    )
    return "rendered" if has_rendered else ("explicit" if has_explicit else None)


def _section_breaks(body: Any, page_mode: str | None) -> set[int]:
    """ids of the paragraphs after which a new page starts because a section ends there.

    A paragraph-level sectPr ends a section; the next one starts on a new page unless the next section's
    type is "continuous"."""
    sect_after: set[int] = set()
    if page_mode == "explicit":
        sects = [sp for sp in body.iter(W + "sectPr")]
        for k, sp in enumerate(sects[:-1]):
            nxt_type = val(sects[k + 1], "type") or "nextPage"
            parent_p = sp.getparent().getparent() if sp.getparent() is not None else None
            if nxt_type != "continuous" and parent_p is not None and parent_p.tag == W + "p":
                sect_after.add(id(parent_p))
    return sect_after


class _BodyWalker:
    def __init__(self, b: DocBuilder, ctx: Ctx, sect_after: set[int]) -> None:
        self.b = b
        self.ctx = ctx
        self.paged = bool(ctx.page_mode)
        self.sect_after = sect_after

    def add(self, lines: list[Line]) -> None:
        for ln in lines:
            self.b.add_line(ln.text, page=ln.page if self.paged else None,
                            page_breaks=ln.pages if self.paged else None, marks=ln.marks, **ln.cues)

    def table(self, el: Any) -> None:
        tstyle_id = val(el.find(W + "tblPr"), "tblStyle")
        tstyle = self.ctx.styles.by_id.get(tstyle_id or "")
        for row in render_table_rows(el, self.ctx):
            text, marks, pages, bp, bold, page = row
            self.b.add_line(text, page=page if self.paged else None,
                            page_breaks=pages if self.paged else None,
                            marks=marks, role="table_row",
                            style=ui_name(tstyle.name) if tstyle else None, bold=bold, bold_prefix=bp)

    def walk(self, container: Any) -> None:
        for el in container:
            tag = el.tag if isinstance(el.tag, str) else ""
            if tag == W + "p":
                self.add(render_paragraph(el, self.ctx))
                if id(el) in self.sect_after:
                    self.ctx.page += 1
            elif tag == W + "tbl":
                self.table(el)
            elif tag == W + "sdt":
                content = el.find(W + "sdtContent")
                if content is not None:
                    self.walk(content)
            elif tag in (W + "customXml", W + "ins", W + "moveTo"):
                self.walk(el)
            elif tag == MC_ALT:
                fb = el.find(MC_FALLBACK)
                if fb is not None:
                    self.walk(fb)


def render_body(body: Any, ctx: Ctx, b: DocBuilder) -> None:
    """Render every body element into ``b``, advancing ``ctx.page``."""
    _BodyWalker(b, ctx, _section_breaks(body, ctx.page_mode)).walk(body)
