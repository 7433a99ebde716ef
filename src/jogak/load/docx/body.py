"""The document body in order: paragraphs and tables interleaved, content controls unwrapped, pages counted.

Pages: only when Word saved rendered page breaks (``w:lastRenderedPageBreak``: where the pages broke when
Word last laid the document out) are there page numbers ("rendered"). Explicit breaks alone (page breaks,
page-break-before, new-page sections) do not give them: every page that filled up and overflowed would
keep the number of the page before, so a 12-page contract with one break before its appendix would cite
"p.1" for every article. Without a layout there are no pages (None), and the loader says so.
"""

from __future__ import annotations

from typing import Any

from jogak.load.builder import DocBuilder
from jogak.load.docx.ooxml import MC_ALT, MC_FALLBACK, W, val
from jogak.load.docx.render import Ctx, Line, render_paragraph
from jogak.load.docx.styles import ui_name
from jogak.load.docx.tables import render_table_rows


def page_mode_of(body: Any) -> str | None:
    return "rendered" if body.find(f".//{W}lastRenderedPageBreak") is not None else None


def explicit_breaks(body: Any) -> int:
    """Explicit page breaks in the body (page breaks, page-break-before, section ends) — for the warning."""
    return (len(body.findall(f".//{W}br[@{W}type='page']")) + len(body.findall(f".//{W}pageBreakBefore"))
            + len(body.findall(f".//{W}pPr/{W}sectPr")))


class _BodyWalker:
    def __init__(self, b: DocBuilder, ctx: Ctx) -> None:
        self.b = b
        self.ctx = ctx
        self.paged = bool(ctx.page_mode)

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
    _BodyWalker(b, ctx).walk(body)
