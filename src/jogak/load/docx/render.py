"""Rendering a paragraph (``w:p``) to lines: runs, fields, breaks, footnote references, numbering label.

One line per paragraph; a manual line break (``w:br``/``w:cr``) starts a new line of the same paragraph; a
tab is one space; hidden runs, field instructions and deleted text are not text; empty paragraphs give no
line (and consume no list number). Page changes and footnote marks are kept as offsets in the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from jogak.load.builder import bold_prefix
from jogak.load.docx.numbering import Level, Numbering
from jogak.load.docx.ooxml import MC_ALT, MC_FALLBACK, W, indent_left, on, to_int, val
from jogak.load.docx.styles import Styles, heading_level, run_bold, run_size, ui_name


@dataclass
class _Seg:
    """One rendered line of a paragraph (before stripping)."""

    chars: list[str] = field(default_factory=list)
    bold: list[bool] = field(default_factory=list)
    marks: list[tuple[int, str]] = field(default_factory=list)
    pages: list[tuple[int, int]] = field(default_factory=list)  # (offset, page) page changes
    first_size: float | None = None
    first_bold: bool | None = None


class Ctx:
    """What rendering carries from paragraph to paragraph: styles, list counters, the current page and
    the footnote/endnote references met so far."""

    def __init__(self, styles: Styles, numbering: Numbering, page_mode: str | None) -> None:
        self.styles = styles
        self.numbering = numbering
        self.page_mode = page_mode  # "rendered" | None
        self.page = 1
        self.note_refs: list[tuple[str, str, str | None]] = []  # (kind, id, custom label) in order
        self.note_first_page: dict[tuple[str, str], int] = {}


@dataclass
class Line:
    text: str
    cues: dict[str, Any]
    marks: list[tuple[int, str]]
    pages: list[tuple[int, int]]
    page: int


def _hidden(r: Any) -> bool:
    rpr = r.find(W + "rPr")
    return rpr is not None and bool(on(rpr.find(W + "vanish")))


class _ParaRenderer:
    def __init__(self, ctx: Ctx, para_style: str | None) -> None:
        self.ctx = ctx
        self.style = para_style
        self.segs: list[_Seg] = [_Seg()]
        self.field_stack: list[str] = []  # "instr" | "result"
        self.pending_custom: tuple[str, str] | None = None

    @property
    def seg(self) -> _Seg:
        return self.segs[-1]

    def emit(self, s: str, bold: bool, size: float | None) -> None:
        if not s:
            return
        seg = self.seg
        if seg.first_bold is None and s.strip():
            seg.first_bold = bold
            seg.first_size = size
        for ch in s:
            seg.chars.append(ch)
            seg.bold.append(bold)

    def newline(self) -> None:
        self.segs.append(_Seg())

    def page_break(self) -> None:
        self.ctx.page += 1
        self.seg.pages.append((len(self.seg.chars), self.ctx.page))

    def in_instr(self) -> bool:
        return bool(self.field_stack) and self.field_stack[-1] == "instr"

    def container(self, el: Any) -> None:
        for child in el:
            tag = child.tag if isinstance(child.tag, str) else ""
            if tag == W + "r":
                self.run(child)
            elif tag in (W + "hyperlink", W + "ins", W + "smartTag", W + "customXml", W + "moveTo",
                         W + "fldSimple", W + "bdo", W + "dir"):
                self.container(child)
            elif tag == W + "sdt":
                content = child.find(W + "sdtContent")
                if content is not None:
                    self.container(content)
            elif tag == MC_ALT:
                fb = child.find(MC_FALLBACK)
                if fb is not None:
                    self.container(fb)

    def field_char(self, c: Any) -> None:
        """Complex fields: text between begin and separate is the instruction (not text)."""
        t = c.get(W + "fldCharType")
        if t == "begin":
            self.field_stack.append("instr")
        elif t == "separate" and self.field_stack:
            self.field_stack[-1] = "result"
        elif t == "end" and self.field_stack:
            self.field_stack.pop()

    def run(self, r: Any) -> None:
        if _hidden(r):
            return
        bold = run_bold(r, self.ctx.styles, self.style)
        size = run_size(r, self.ctx.styles, self.style)
        for c in r:
            tag = c.tag if isinstance(c.tag, str) else ""
            if tag == W + "fldChar":
                self.field_char(c)
                continue
            if self.in_instr():
                continue
            if tag == W + "t":
                self.text(c.text or "", bold, size)
            elif tag == W + "tab" or tag == W + "ptab":
                self.emit(" ", bold, size)
            elif tag in (W + "br", W + "cr"):
                self.line_break(c.get(W + "type"), bold, size)
            elif tag == W + "lastRenderedPageBreak":
                if self.ctx.page_mode == "rendered":
                    self.page_break()
            elif tag == W + "noBreakHyphen":
                self.emit("-", bold, size)
            elif tag == W + "softHyphen":
                pass
            elif tag == W + "sym":
                code = to_int(int(c.get(W + "char") or "0", 16) if re.fullmatch(r"[0-9A-Fa-f]{1,6}", c.get(W + "char") or "") else 0)
                if code and not (0xE000 <= code <= 0xF8FF):
                    self.emit(chr(code), bold, size)
            elif tag in (W + "footnoteReference", W + "endnoteReference"):
                self.note_reference(c, "f" if tag == W + "footnoteReference" else "e")
            # footnoteRef/endnoteRef (inside the notes part), separators, drawings: no text

    def text(self, text: str, bold: bool, size: float | None) -> None:
        if self.pending_custom is not None:
            # the text after a reference with a custom mark is the mark itself, not body text
            kind, nid = self.pending_custom
            self.pending_custom = None
            label = text.strip()
            self.ctx.note_refs.append((kind, nid, label or None))
            self.seg.marks.append((len(self.seg.chars), f"{kind}:{nid}"))
            return
        self.emit(text, bold, size)

    def line_break(self, typ: str | None, bold: bool, size: float | None) -> None:
        if typ == "page":
            pass  # an explicit break does not number pages (see jogak.load.docx.body)
        elif typ == "column":
            self.emit(" ", bold, size)
        else:
            self.newline()

    def note_reference(self, c: Any, kind: str) -> None:
        nid = c.get(W + "id") or ""
        if c.get(W + "customMarkFollows") in ("1", "true", "on"):
            self.pending_custom = (kind, nid)
        else:
            self.ctx.note_refs.append((kind, nid, None))
            self.seg.marks.append((len(self.seg.chars), f"{kind}:{nid}"))
        self.ctx.note_first_page.setdefault((kind, nid), self.ctx.page)


@dataclass
class _ParaFormat:
    """What a paragraph's lines share: style, heading level/role, numbering, indent."""

    style_name: str | None
    level: int | None
    role: str | None
    num: tuple[str, int] | None
    label: str | None
    lvl: Level | None
    bullet: bool
    x0: float | None
    prefix_bold: bool


def _num_of(ppr: Any, sid: str | None, styles: Styles) -> tuple[str, int] | None:
    """(numId, ilvl) from the paragraph's own ``w:numPr`` (ilvl falls back to the style's), else the style's."""
    num: tuple[str, int] | None = None
    if ppr is not None and ppr.find(W + "numPr") is not None:
        np_ = ppr.find(W + "numPr")
        nid = val(np_, "numId")
        if nid is not None:
            ilvl = val(np_, "ilvl")
            if ilvl is None:
                sn = styles.first(sid, "num")
                ilvl_i = sn[1] if sn else 0
            else:
                ilvl_i = to_int(ilvl)
            num = (nid, ilvl_i)
    if num is None:
        num = styles.first(sid, "num")
    return num


def _x0(ppr: Any, sid: str | None, styles: Styles, lvl: Level | None) -> float | None:
    """Left indent: the paragraph's own, else its style's, else its numbering level's."""
    x0 = styles.first(sid, "ind_left")
    if ppr is not None and ppr.find(W + "ind") is not None:
        left = indent_left(ppr.find(W + "ind"))
        if left is not None:
            x0 = left
    if x0 is None and lvl is not None:
        x0 = lvl.ind_left
    return x0


def render_paragraph(p: Any, ctx: Ctx) -> list[Line]:
    ppr = p.find(W + "pPr")
    sid = val(ppr, "pStyle") or ctx.styles.default_para
    style = ctx.styles.by_id.get(sid or "")
    style_name = ui_name(style.name) if style else None
    start_page = ctx.page
    outline_v = val(ppr, "outlineLvl")
    outline = to_int(outline_v) if outline_v is not None else ctx.styles.first(sid, "outline")
    level, role = heading_level(style_name, outline)
    num = _num_of(ppr, sid, ctx.styles)
    rr = _ParaRenderer(ctx, sid)
    rr.container(p)
    if not any("".join(s.chars).strip() for s in rr.segs) and not any(s.marks for s in rr.segs):
        # empty paragraph: it still consumes page breaks, but produces no line and no list number
        return []
    label = None
    lvl = None
    bullet = False
    if num is not None:
        label, lvl, bullet = ctx.numbering.next_label(num[0], num[1])
    para_mark_bold = None
    if ppr is not None and ppr.find(W + "rPr") is not None:
        para_mark_bold = on(ppr.find(W + "rPr").find(W + "b"))
    # a numbering label counts as bold when its level, the paragraph mark or the style is bold
    prefix_bold = bool(lvl and lvl.bold) or bool(para_mark_bold) or bool(ctx.styles.first(sid, "bold"))
    fmt = _ParaFormat(style_name=style_name, level=level, role=role, num=num, label=label, lvl=lvl,
                      bullet=bullet, x0=_x0(ppr, sid, ctx.styles, lvl), prefix_bold=prefix_bold)
    out: list[Line] = []
    page = start_page
    for k, seg in enumerate(rr.segs):
        page = _seg_line(k, seg, fmt, page, out)
    return out


def _seg_line(k: int, seg: _Seg, fmt: _ParaFormat, page: int, out: list[Line]) -> int:
    """Append the ``k``-th line of a paragraph to ``out``; return the page its end is on."""
    text = "".join(seg.chars)
    bold = list(seg.bold)
    marks = list(seg.marks)
    pages = list(seg.pages)
    prefix = ""
    prefix_bold = False
    label, lvl = fmt.label, fmt.lvl
    if k == 0 and label is not None and not fmt.bullet and label:
        sep = "" if (lvl and lvl.suff == "nothing") else " "
        prefix = label + sep
        prefix_bold = fmt.prefix_bold
    lead = len(text) - len(text.lstrip())
    body = text.strip()
    line_text = prefix + body
    flags = [prefix_bold] * len(prefix) + bold[lead: lead + len(body)]
    shift = len(prefix) - lead
    marks = [(max(0, min(o + shift, len(line_text))), key) for o, key in marks]
    pages_adj = [(max(0, min(o + shift, len(line_text))), pg) for o, pg in pages]
    line_start_page = page
    if pages_adj and pages_adj[0][0] == 0:
        line_start_page = pages_adj[0][1]
        pages_adj = [pp for pp in pages_adj if pp[0] > 0]
    if pages:
        page = pages[-1][1]
    if not line_text:
        if marks and out:
            # a mark on an otherwise empty line belongs to the end of the previous line
            prev = out[-1]
            prev.marks.extend((len(prev.text), key) for _, key in marks)
        return page
    bp = bold_prefix(flags, line_text)
    cues: dict[str, Any] = {
        "style": fmt.style_name,
        "heading_level": fmt.level,
        "role": fmt.role,
        "bold": bp > 0 or bool(seg.first_bold),
        "bold_prefix": bp,
        "font_size": seg.first_size,
        "x0": fmt.x0,
        "indent": fmt.num[1] if (fmt.num is not None and lvl is not None) else 0,
    }
    if k == 0 and lvl is not None:
        cues["numbering"] = None if fmt.bullet else (label or None)
        if fmt.level is None and fmt.role is None:
            cues["role"] = "list_item"
    out.append(Line(text=line_text, cues=cues, marks=marks, pages=pages_adj, page=line_start_page))
    return page
