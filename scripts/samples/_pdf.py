"""Render a parsed sample source to PDF with reportlab.

Features needed by the sample corpus:
- embedded NanumGothic / NanumGothicBold (Korean) or the Times base-14 fonts (English);
- CJK line wrapping (breaks may fall in the middle of a word);
- running header and folio "- N -" at the bottom centre;
- grid tables and a borderless two-column parties block;
- page footnotes: a raised, smaller digit in the body and the note text at the bottom of the page on
  which the mark lands.  Footnote placement is solved by re-running the layout until the page of
  every mark is stable (each pass reserves room at the bottom of the pages found by the last pass).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

from _source import Source, inline_tokens
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Frame,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

DEBUG = False
FONT_DIRS = [Path("/usr/share/fonts/truetype/nanum"), Path("/usr/share/fonts/nanum")]


def register_nanum() -> None:
    if "NanumGothic" in pdfmetrics.getRegisteredFontNames():
        return
    for d in FONT_DIRS:
        regular, bold = d / "NanumGothic.ttf", d / "NanumGothicBold.ttf"
        if regular.exists() and bold.exists():
            pdfmetrics.registerFont(TTFont("NanumGothic", str(regular)))
            pdfmetrics.registerFont(TTFont("NanumGothicBold", str(bold)))
            pdfmetrics.registerFontFamily(
                "NanumGothic", normal="NanumGothic", bold="NanumGothicBold",
                italic="NanumGothic", boldItalic="NanumGothicBold",
            )
            return
    raise SystemExit("NanumGothic not found: apt-get install -y fonts-nanum")


@dataclass
class Layout:
    lang: str = "ko"                      # ko -> Nanum + CJK wrap; en -> Times + word wrap
    body_size: float = 10.0
    body_leading: float = 17.0
    heading_size: float = 12.0
    part_size: float = 13.0
    title_size: float = 17.0
    para_space: float = 2.0
    heading_space_before: float = 10.0
    heading_space_after: float = 4.0
    left: float = 25 * mm
    right: float = 25 * mm
    top: float = 25 * mm
    bottom: float = 22 * mm
    indent_step: float = 10.0
    justify: bool = False
    header: Callable[[int], str | None] = lambda page: None
    folio: bool = False
    footnote_size: float = 8.0
    footnote_leading: float = 10.5
    # metadata
    title: str = ""
    author: str = ""
    subject: str = ""
    keywords: list[str] = field(default_factory=list)

    @property
    def regular(self) -> str:
        return "NanumGothic" if self.lang == "ko" else "Times-Roman"

    @property
    def bold(self) -> str:
        return "NanumGothicBold" if self.lang == "ko" else "Times-Bold"


class _Styles:
    def __init__(self, lay: Layout):
        wrap = "CJK" if lay.lang == "ko" else None
        align = TA_JUSTIFY if lay.justify else TA_LEFT
        self.lay = lay
        self.body = ParagraphStyle(
            "body", fontName=lay.regular, fontSize=lay.body_size, leading=lay.body_leading,
            alignment=align, wordWrap=wrap, spaceAfter=lay.para_space,
        )
        self.heading = ParagraphStyle(
            "heading", parent=self.body, fontName=lay.bold, fontSize=lay.heading_size,
            leading=lay.heading_size * 1.5, spaceBefore=lay.heading_space_before,
            spaceAfter=lay.heading_space_after, alignment=TA_LEFT,
        )
        self.part = ParagraphStyle(
            "part", parent=self.heading, fontSize=lay.part_size, leading=lay.part_size * 1.5,
            spaceBefore=lay.heading_space_before * 1.6, spaceAfter=lay.heading_space_after * 2,
        )
        self.title = ParagraphStyle(
            "title", parent=self.heading, fontSize=lay.title_size, leading=lay.title_size * 1.4,
            alignment=TA_CENTER, spaceBefore=0, spaceAfter=lay.title_size * 0.9,
        )
        self.center = ParagraphStyle("center", parent=self.body, alignment=TA_CENTER)
        self.right = ParagraphStyle("right", parent=self.body, alignment=TA_RIGHT)
        self.cell = ParagraphStyle(
            "cell", parent=self.body, fontSize=lay.body_size - 0.5, leading=(lay.body_size - 0.5) * 1.45,
            spaceAfter=0, alignment=TA_LEFT,
        )
        self.cell_head = ParagraphStyle("cellhead", parent=self.cell, fontName=lay.bold, alignment=TA_CENTER)
        self.footnote = ParagraphStyle(
            "footnote", fontName=lay.regular, fontSize=lay.footnote_size, leading=lay.footnote_leading,
            wordWrap=wrap, alignment=TA_LEFT,
        )
        self._levels: dict[int, ParagraphStyle] = {}

    def level(self, level: int) -> ParagraphStyle:
        if level not in self._levels:
            step = self.lay.indent_step
            if level == 0:
                st = self.body
            else:
                # 항/Sections sit flush left; 호/(a) and 목/(i) get a plain left indent (no hanging
                # indent: reportlab's hanging indents leave stray Td moves that pypdf turns into spaces)
                st = ParagraphStyle(f"level{level}", parent=self.body, leftIndent=step * (level - 1))
            self._levels[level] = st
        return self._levels[level]


def _markup(text: str, lay: Layout, numbers: dict[str, int]) -> str:
    out = []
    for kind, value in inline_tokens(text):
        if kind == "text":
            out.append(escape(value))
        elif kind == "bold":
            out.append(f"<b>{escape(value)}</b>")
        else:
            n = numbers[value]
            size = round(lay.body_size * 0.62, 1)
            rise = round(lay.body_size * 0.38, 1)
            out.append(f'<super size="{size}" rise="{rise}">{n}</super><onDraw name="fnmark" label="{value}"/>')
    return "".join(out)


class _Doc(BaseDocTemplate):
    pass


def render(src: Source, lay: Layout, out: Path, *, max_passes: int = 8) -> dict:
    """Render and write the PDF. Returns layout facts (pages, footnote pages)."""
    if lay.lang == "ko":
        register_nanum()
    numbers: dict[str, int] = {}
    for b in src.blocks:
        for kind, value in inline_tokens(b.text):
            if kind == "fn" and value not in numbers:
                numbers[value] = len(numbers) + 1
    missing = set(numbers) - set(src.footnotes)
    if missing:
        raise SystemExit(f"footnote text missing for {sorted(missing)}")

    plan: dict[int, list[str]] = {}
    floor: dict[int, list[str]] = {}   # pages that keep an (empty) footnote reservation
    seen: list[dict[int, list[str]]] = []
    for _ in range(max_passes):
        pdf, actual, pages = _render_once(src, lay, numbers, plan, floor)
        if DEBUG:
            print("pass", plan, floor, "->", actual)
        if actual == plan:
            break
        if actual in seen:
            # oscillation: a mark is pushed to the next page by its own note.  Keep the space
            # reserved on the earlier page (left blank, as TeX does) and move the note.
            for page, keys in plan.items():
                if page not in actual:
                    floor[page] = keys
        seen.append(actual)
        plan = actual
    else:
        raise SystemExit(f"footnote layout did not converge for {out}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(pdf)
    return {"pages": pages, "footnote_pages": {k: [numbers[x] for x in v] for k, v in actual.items()}}


def _render_once(src: Source, lay: Layout, numbers: dict[str, int], plan: dict[int, list[str]],
                 floor: dict[int, list[str]]):
    styles = _Styles(lay)
    buf = io.BytesIO()
    pw, ph = A4
    width = pw - lay.left - lay.right
    height = ph - lay.top - lay.bottom

    def notes_for(page: int) -> list[Paragraph]:
        paras = []
        for key in plan.get(page, []):
            text = f"{numbers[key]} {escape(src.footnotes[key])}"
            paras.append(Paragraph(text, styles.footnote))
        return paras

    def reserve(page: int) -> float:
        paras = notes_for(page)
        ghost = [Paragraph(f"{numbers[k]} {escape(src.footnotes[k])}", styles.footnote) for k in floor.get(page, [])]
        h = max(sum(p.wrap(width, ph)[1] + 2 for p in paras), sum(p.wrap(width, ph)[1] + 2 for p in ghost))
        return 10.0 + h if h else 0.0

    def on_page(canv, doc):
        page = canv.getPageNumber()
        canv.saveState()
        head = lay.header(page)
        if head:
            canv.setFont(lay.regular, 8)
            canv.setFillColor(colors.HexColor("#444444"))
            canv.drawString(lay.left, ph - 14 * mm, head)
            canv.setStrokeColor(colors.HexColor("#888888"))
            canv.setLineWidth(0.4)
            canv.line(lay.left, ph - 15.6 * mm, pw - lay.right, ph - 15.6 * mm)
        canv.restoreState()

    def on_page_end(canv, doc):
        page = canv.getPageNumber()
        canv.saveState()
        if lay.folio:
            canv.setFont(lay.regular, 9)
            canv.setFillColor(colors.black)
            canv.drawCentredString(pw / 2, 11 * mm, f"- {page} -")
        paras = notes_for(page)
        if not paras:
            canv.restoreState()
            return
        top = lay.bottom + reserve(page)
        canv.setStrokeColor(colors.black)
        canv.setLineWidth(0.5)
        canv.line(lay.left, top - 4, lay.left + 45 * mm, top - 4)
        y = top - 10.0
        for p in paras:
            _, h = p.wrap(width, ph)
            p.drawOn(canv, lay.left, y - h)
            y -= h + 2
        canv.restoreState()

    doc = _Doc(
        buf, pagesize=A4, leftMargin=lay.left, rightMargin=lay.right, topMargin=lay.top,
        bottomMargin=lay.bottom, invariant=1, title=lay.title, author=lay.author,
        subject=lay.subject, keywords=lay.keywords, creator="jogak scripts/samples",
        producer="ReportLab PDF Library - www.reportlab.com", lang="ko-KR" if lay.lang == "ko" else "en-US",
    )
    templates = []
    max_pages = 40
    for n in range(1, max_pages + 1):
        r = reserve(n)
        frame = Frame(lay.left, lay.bottom + r, width, height - r, id=f"f{n}",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        templates.append(PageTemplate(
            id=f"p{n}", frames=[frame], onPage=on_page, onPageEnd=on_page_end,
            autoNextPageTemplate=f"p{n + 1}" if n < max_pages else None,
        ))
    doc.addPageTemplates(templates)

    actual: dict[int, list[str]] = {}

    def fnmark(canv, kind, label):
        actual.setdefault(canv.getPageNumber(), [])
        if label not in actual[canv.getPageNumber()]:
            actual[canv.getPageNumber()].append(label)

    story = _story(src, lay, styles, numbers, width)
    original_init = doc.handle_documentBegin

    def begin():
        original_init()
        doc.canv.setNamedCB("fnmark", fnmark)

    doc.handle_documentBegin = begin
    doc.build(story)
    pages = doc.page
    # footnotes must appear on the page of their mark in mark order
    actual = {k: v for k, v in sorted(actual.items())}
    return buf.getvalue(), actual, pages


def _story(src: Source, lay: Layout, styles: _Styles, numbers: dict[str, int], width: float):
    story = []
    pending_break = False
    for b in src.blocks:
        if b.kind == "pagebreak":
            pending_break = True
            continue
        if pending_break:
            story.append(PageBreak())
            pending_break = False
        if b.kind == "title":
            story.append(Paragraph(_markup(b.text, lay, numbers), styles.title))
        elif b.kind == "heading":
            story.append(CondPageBreak(lay.heading_size * 1.5 + lay.heading_space_before + lay.body_leading * 2.2))
            story.append(Paragraph(_markup(b.text, lay, numbers), styles.heading))
        elif b.kind == "part":
            story.append(CondPageBreak(lay.body_leading * 5))
            story.append(Paragraph(_markup(b.text, lay, numbers), styles.part))
        elif b.kind == "para":
            story.append(Paragraph(_markup(b.text, lay, numbers), styles.level(b.level)))
        elif b.kind == "center":
            story.append(Paragraph(_markup(b.text, lay, numbers), styles.center))
        elif b.kind == "right":
            story.append(Paragraph(_markup(b.text, lay, numbers), styles.right))
        elif b.kind == "table":
            story.append(Spacer(1, 3))
            story.append(_grid_table(b.rows, styles, lay, numbers, width))
            story.append(Spacer(1, 6))
        elif b.kind == "parties":
            story.append(_parties_block(b.rows, styles, lay, numbers, width))
            story.append(Spacer(1, 8))
        else:  # pragma: no cover
            raise ValueError(b.kind)
    return story


def _grid_table(rows, styles, lay, numbers, width):
    ncols = len(rows[0])
    data = []
    for r, row in enumerate(rows):
        st = styles.cell_head if r == 0 else styles.cell
        data.append([Paragraph(_markup(c, lay, numbers), st) for c in row])
    weights = [1.0] * ncols
    if ncols == 3:
        weights = [0.9, 1.5, 1.1]
    total = sum(weights)
    col_widths = [width * w / total for w in weights]
    t = Table(data, colWidths=col_widths, repeatRows=1)
    t.setStyle(TableStyle([
        ("GRID", (0, 0), (-1, -1), 0.6, colors.black),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#E6E6E6")),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
        ("LEFTPADDING", (0, 0), (-1, -1), 4),
        ("RIGHTPADDING", (0, 0), (-1, -1), 4),
    ]))
    return t


def _parties_block(rows, styles, lay, numbers, width):
    """Render a parties table (label column + one column per party) as a two-column block."""
    header, body = rows[0], rows[1:]
    cols = []
    for j in range(1, len(header)):
        cell = [Paragraph(f"<b>{escape(header[j])}</b>", styles.cell)]
        for row in body:
            cell.append(Paragraph(f"{escape(row[0])}: {_markup(row[j], lay, numbers)}", styles.cell))
        cols.append(cell)
    t = Table([cols], colWidths=[width / len(cols)] * len(cols))
    t.setStyle(TableStyle([
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
        ("RIGHTPADDING", (0, 0), (-1, -1), 10),
    ]))
    return t


def line_breaks_report(pdf_path: Path, needle: str) -> list[tuple[int, str]]:
    """Debug helper: lines (page, text) of the PDF that start with needle (uses pypdf)."""
    from pypdf import PdfReader

    hits = []
    for i, page in enumerate(PdfReader(str(pdf_path)).pages, 1):
        for line in page.extract_text().splitlines():
            if re.match(re.escape(needle), line.strip()):
                hits.append((i, line))
    return hits
