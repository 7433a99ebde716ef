"""DOCX loader (python-docx opens the package; the WordprocessingML is read with lxml).

* Safety first: the zip is checked before python-docx sees it (not a zip / truncated →
  ``CorruptFileError``; more than 400 MB uncompressed, or a member inflating more than 200× and past
  10 MB → ``OversizeError`` "zip bomb suspected"). XML is parsed without entity resolution or network.
* Body elements in document order: paragraphs and tables interleaved (the parties block of a contract
  is often a table), content controls (``w:sdt``) unwrapped. Headers/footers (page furniture), comments,
  deleted text (``w:del``), field instructions and hidden (``w:vanish``) runs are not text. Text boxes
  and drawings are skipped.
* One line per paragraph; a manual line break (``w:br``/``w:cr``) starts a new line of the same
  paragraph; a tab is rendered as one space; empty paragraphs produce no line. Indentation is not in
  the text.
* Cues: ``style`` = paragraph style name; ``heading_level`` from "Heading N"/"제목 N" styles or an
  outline level (pPr or style chain); "Title"/"제목" → ``role="title"``; ``bold`` when the first
  content run is bold (run, character style, paragraph style and document defaults resolved);
  ``bold_prefix`` = length of the bold run at the line start (a numbering label counts as bold when its
  level or the paragraph mark is bold); ``font_size`` in points of the first content run; ``x0`` = the
  paragraph's left indent in points; ``indent`` = numbering level (``ilvl``), 0 otherwise.
* Automatic numbering (``w:numPr`` → numbering.xml, also via the style chain) is rendered into the
  text and into ``numbering``: decimal, decimalZero, decimalEnclosedCircle (①), ganada (가), chosung
  (ㄱ), lower/upperLetter, lower/upperRoman, koreanDigital, koreanCounting, ideographDigital,
  decimalFullWidth, decimalEnclosedParen/Fullstop, with ``lvlText`` templates like ``%1.``, ``(%1)``,
  ``제%1조``, ``%1.%2.``; counters per ``numId`` with level restarts and start overrides. Bullets are not
  put in the text (``role="list_item"``, ``numbering=None``); numbered paragraphs get
  ``role="list_item"`` unless they are headings.
* Tables: one line per row (header rows included), cells joined with ``" | "``, a cell's paragraphs
  joined with a space, horizontally merged cells once, vertically merged continuation cells empty,
  nested tables flattened into their cell; ``role="table_row"``, ``style`` = table style name or None.
* Footnotes from ``word/footnotes.xml`` (separator/continuation entries skipped) and endnotes from
  ``word/endnotes.xml``: ``w:footnoteReference`` has no text, so the mark is an offset
  (``FootnoteMark(offset, label)``, ``end=None``; custom marks are removed from the text too). Notes are
  numbered in order of first reference (footnotes 1, 2, 3…; endnotes i, ii, iii… as Word shows them,
  or the custom mark) and appended after ``body_end`` as ``"<label> <text>"`` lines with
  ``role="footnote"``; unreferenced notes are dropped with a warning.
* Pages: if Word saved rendered page breaks (``w:lastRenderedPageBreak``) they define the pages
  (``metadata["page_source"] = "rendered"``); otherwise explicit breaks (page breaks, page-break-before,
  new-page section breaks) do (``"explicit"``, with a warning that natural page overflow is unknown);
  with neither there are no pages. A footnote's page is the page of its first mark.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from jogak.load.builder import DocBuilder
from jogak.load.errors import CorruptFileError, OversizeError
from jogak.model import Document

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W = "{" + W_NS + "}"
MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"
MC_ALT = "{" + MC_NS + "}AlternateContent"
MC_FALLBACK = "{" + MC_NS + "}Fallback"

MAX_UNCOMPRESSED = 400 * 1024 * 1024
MAX_RATIO = 200
MAX_MEMBERS = 10_000

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, remove_comments=True)

_GANADA = "가나다라마바사아자차카타파하"
_CHOSUNG = "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ"
_KOREAN_DIGITS = "영일이삼사오육칠팔구"
_IDEO_DIGITS = "〇一二三四五六七八九"
_KOREAN_COUNTING = ["하나", "둘", "셋", "넷", "다섯", "여섯", "일곱", "여덟", "아홉", "열"]


# ─── number formats ──────────────────────────────────────────────────────────────────────────────


def _roman(n: int) -> str:
    vals = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
            (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = ""
    for v, s in vals:
        while n >= v:
            out += s
            n -= v
    return out


def _letters(n: int) -> str:
    # Word repeats the letter: a..z, aa..zz, aaa..
    if n <= 0:
        return str(n)
    k, r = divmod(n - 1, 26)
    return chr(97 + r) * (k + 1)


def _sino_korean(n: int, digits: str) -> str:
    if n == 0:
        return digits[0]
    units = [(10000, "만" if digits is _KOREAN_DIGITS else "万"), (1000, "천" if digits is _KOREAN_DIGITS else "千"),
             (100, "백" if digits is _KOREAN_DIGITS else "百"), (10, "십" if digits is _KOREAN_DIGITS else "十")]
    out = ""
    for u, name in units:
        q, n = divmod(n, u)
        if q:
            out += ("" if q == 1 else digits[q]) + name
    if n:
        out += digits[n]
    return out


def format_number(n: int, fmt: str) -> str:
    fmt = fmt or "decimal"
    if fmt in ("decimal", "decimalHalfWidth"):
        return str(n)
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt == "upperRoman":
        return _roman(n) or str(n)
    if fmt == "lowerRoman":
        return (_roman(n) or str(n)).lower()
    if fmt == "upperLetter":
        return _letters(n).upper()
    if fmt == "lowerLetter":
        return _letters(n)
    if fmt == "decimalEnclosedCircle" or fmt == "decimalEnclosedCircleChinese":
        if 1 <= n <= 20:
            return chr(0x2460 + n - 1)
        if 21 <= n <= 35:
            return chr(0x3251 + n - 21)
        if 36 <= n <= 50:
            return chr(0x32B1 + n - 36)
        return str(n)
    if fmt == "decimalEnclosedParen":
        return chr(0x2474 + n - 1) if 1 <= n <= 20 else f"({n})"
    if fmt == "decimalEnclosedFullstop":
        return chr(0x2488 + n - 1) if 1 <= n <= 20 else f"{n}."
    if fmt == "ganada":
        return _GANADA[(n - 1) % len(_GANADA)] if n > 0 else str(n)
    if fmt == "chosung":
        return _CHOSUNG[(n - 1) % len(_CHOSUNG)] if n > 0 else str(n)
    if fmt in ("koreanDigital", "koreanLegal"):
        return _sino_korean(n, _KOREAN_DIGITS)
    if fmt == "koreanCounting":
        return _KOREAN_COUNTING[n - 1] if 1 <= n <= 10 else str(n)
    if fmt in ("ideographDigital", "koreanDigital2", "chineseCounting", "chineseCountingThousand",
               "ideographTraditional", "japaneseCounting"):
        return _sino_korean(n, _IDEO_DIGITS)
    if fmt == "decimalFullWidth" or fmt == "decimalFullWidth2":
        return "".join(chr(0xFF10 + int(d)) for d in str(n))
    if fmt == "ordinal":
        suf = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suf}"
    if fmt == "none":
        return ""
    return str(n)


# ─── styles and numbering ────────────────────────────────────────────────────────────────────────


def _val(el: Any, tag: str, attr: str = "val") -> str | None:
    if el is None:
        return None
    c = el.find(W + tag)
    if c is None:
        return None
    return c.get(W + attr)


def _on(el: Any) -> bool | None:
    """Tri-state of a toggle property element (w:b, w:vanish): None when absent."""
    if el is None:
        return None
    v = el.get(W + "val")
    return v is None or v.lower() not in ("0", "false", "off", "none")


def _int(v: Any, default: int = 0) -> int:
    try:
        return int(str(v))
    except (TypeError, ValueError):
        return default


@dataclass
class _Style:
    sid: str
    name: str
    type: str
    based_on: str | None
    outline: int | None
    num: tuple[str, int] | None
    bold: bool | None
    size: float | None
    ind_left: float | None


@dataclass
class _Styles:
    by_id: dict[str, _Style] = field(default_factory=dict)
    default_para: str | None = None
    default_bold: bool = False
    default_size: float | None = None

    def chain(self, sid: str | None) -> list[_Style]:
        out: list[_Style] = []
        seen: set[str] = set()
        while sid and sid in self.by_id and sid not in seen:
            seen.add(sid)
            st = self.by_id[sid]
            out.append(st)
            sid = st.based_on
        return out

    def first(self, sid: str | None, attr: str) -> Any:
        for st in self.chain(sid):
            v = getattr(st, attr)
            if v is not None:
                return v
        return None


def _parse_styles(root: Any) -> _Styles:
    styles = _Styles()
    if root is None:
        return styles
    rpr_default = root.find(f"{W}docDefaults/{W}rPrDefault/{W}rPr")
    if rpr_default is not None:
        styles.default_bold = bool(_on(rpr_default.find(W + "b")))
        sz = _val(rpr_default, "sz")
        styles.default_size = _int(sz) / 2 if sz else None
    for s in root.findall(W + "style"):
        sid = s.get(W + "styleId") or ""
        name = _val(s, "name") or sid
        ppr = s.find(W + "pPr")
        rpr = s.find(W + "rPr")
        outline = _val(ppr, "outlineLvl")
        num = None
        if ppr is not None and ppr.find(W + "numPr") is not None:
            np_ = ppr.find(W + "numPr")
            nid = _val(np_, "numId")
            if nid is not None:
                num = (nid, _int(_val(np_, "ilvl"), 0))
        sz = _val(rpr, "sz")
        ind = ppr.find(W + "ind") if ppr is not None else None
        left = None
        if ind is not None:
            lv = ind.get(W + "left") or ind.get(W + "start")
            left = _int(lv) / 20 if lv is not None else None
        st = _Style(sid=sid, name=name, type=s.get(W + "type") or "", based_on=_val(s, "basedOn"),
                    outline=_int(outline) if outline is not None else None, num=num,
                    bold=_on(rpr.find(W + "b")) if rpr is not None else None,
                    size=_int(sz) / 2 if sz else None, ind_left=left)
        styles.by_id[sid] = st
        if s.get(W + "default") in ("1", "true") and st.type == "paragraph":
            styles.default_para = sid
    return styles


@dataclass
class _Level:
    start: int = 1
    fmt: str = "decimal"
    text: str | None = "%1."
    is_lgl: bool = False
    suff: str = "tab"
    bold: bool | None = None
    restart: int | None = None
    ind_left: float | None = None


class _Numbering:
    def __init__(self, root: Any, styles: _Styles) -> None:
        self.abstract: dict[str, dict[int, _Level]] = {}
        self.num_abs: dict[str, str] = {}
        self.overrides: dict[str, dict[int, _Level | int]] = {}
        self.counters: dict[str, dict[int, int]] = {}
        self.styles = styles
        self.style_link: dict[str, str] = {}
        if root is None:
            return
        for an in root.findall(W + "abstractNum"):
            aid = an.get(W + "abstractNumId") or ""
            self.abstract[aid] = {lv_ilvl: lv for lv_ilvl, lv in (self._level(x) for x in an.findall(W + "lvl"))}
            link = _val(an, "numStyleLink")
            if link:
                self.style_link[aid] = link
        for n in root.findall(W + "num"):
            nid = n.get(W + "numId") or ""
            self.num_abs[nid] = _val(n, "abstractNumId") or ""
            ov: dict[int, _Level | int] = {}
            for lo in n.findall(W + "lvlOverride"):
                il = _int(lo.get(W + "ilvl"))
                lvl = lo.find(W + "lvl")
                if lvl is not None:
                    ov[il] = self._level(lvl)[1]
                so = _val(lo, "startOverride")
                if so is not None:
                    ov.setdefault(il, _int(so, 1))
                    if isinstance(ov[il], _Level):
                        ov[il].start = _int(so, 1)  # type: ignore[union-attr]
            self.overrides[nid] = ov

    @staticmethod
    def _level(lvl: Any) -> tuple[int, _Level]:
        il = _int(lvl.get(W + "ilvl"))
        lt = lvl.find(W + "lvlText")
        rpr = lvl.find(W + "rPr")
        ppr = lvl.find(W + "pPr")
        left = None
        if ppr is not None and ppr.find(W + "ind") is not None:
            ind = ppr.find(W + "ind")
            lv = ind.get(W + "left") or ind.get(W + "start")
            left = _int(lv) / 20 if lv is not None else None
        restart = _val(lvl, "lvlRestart")
        return il, _Level(
            start=_int(_val(lvl, "start"), 1),
            fmt=_val(lvl, "numFmt") or "decimal",
            text=lt.get(W + "val") if lt is not None else None,
            is_lgl=lvl.find(W + "isLgl") is not None,
            suff=_val(lvl, "suff") or "tab",
            bold=_on(rpr.find(W + "b")) if rpr is not None else None,
            restart=_int(restart) if restart is not None else None,
            ind_left=left,
        )

    def _levels(self, nid: str) -> dict[int, _Level]:
        aid = self.num_abs.get(nid)
        if aid is None:
            return {}
        levels = self.abstract.get(aid, {})
        if not levels and aid in self.style_link:
            st = self.styles.first(self.style_link[aid], "num")
            if st and st[0] != nid:
                aid2 = self.num_abs.get(st[0])
                levels = self.abstract.get(aid2 or "", {})
        ov = self.overrides.get(nid, {})
        if ov:
            levels = dict(levels)
            for il, o in ov.items():
                if isinstance(o, _Level):
                    levels[il] = o
                elif il in levels:
                    base = levels[il]
                    levels[il] = _Level(start=o, fmt=base.fmt, text=base.text, is_lgl=base.is_lgl,
                                        suff=base.suff, bold=base.bold, restart=base.restart,
                                        ind_left=base.ind_left)
        return levels

    def level_info(self, nid: str, ilvl: int) -> _Level | None:
        return self._levels(nid).get(ilvl)

    def next_label(self, nid: str, ilvl: int) -> tuple[str | None, _Level | None, bool]:
        """Render the label for the next paragraph of list ``nid`` at ``ilvl``: (label, level, bullet)."""
        if nid in ("0", "") or nid not in self.num_abs:
            return None, None, False
        levels = self._levels(nid)
        lvl = levels.get(ilvl)
        if lvl is None:
            return None, None, False
        cnt = self.counters.setdefault(nid, {})
        cnt[ilvl] = cnt.get(ilvl, lvl.start - 1) + 1
        for deeper in [k for k in cnt if k > ilvl]:
            dl = levels.get(deeper)
            if dl is None or dl.restart is None or dl.restart > ilvl:
                del cnt[deeper]
        if lvl.fmt == "bullet":
            return (lvl.text or "•"), lvl, True
        if lvl.text is None:
            return format_number(cnt[ilvl], lvl.fmt), lvl, False

        def sub(m: re.Match[str]) -> str:
            k = int(m.group(1)) - 1
            lv = levels.get(k)
            if lv is None:
                return ""
            value = cnt.get(k, lv.start)
            fmt = "decimal" if (lvl.is_lgl and lv.fmt not in ("none",)) else lv.fmt
            return format_number(value, fmt)

        return re.sub(r"%([1-9])", sub, lvl.text), lvl, False


# ─── paragraph rendering ─────────────────────────────────────────────────────────────────────────


@dataclass
class _Seg:
    """One rendered line of a paragraph (before stripping)."""

    chars: list[str] = field(default_factory=list)
    bold: list[bool] = field(default_factory=list)
    marks: list[tuple[int, str]] = field(default_factory=list)
    pages: list[tuple[int, int]] = field(default_factory=list)  # (offset, page) page changes
    first_size: float | None = None
    first_bold: bool | None = None


class _Ctx:
    def __init__(self, styles: _Styles, numbering: _Numbering, page_mode: str | None) -> None:
        self.styles = styles
        self.numbering = numbering
        self.page_mode = page_mode  # "rendered" | "explicit" | None
        self.page = 1
        self.note_refs: list[tuple[str, str, str | None]] = []  # (kind, id, custom label) in order
        self.note_first_page: dict[tuple[str, str], int] = {}


def _run_bold(r: Any, ctx: _Ctx, para_style: str | None) -> bool:
    rpr = r.find(W + "rPr")
    if rpr is not None:
        b = _on(rpr.find(W + "b"))
        if b is not None:
            return b
        rs = _val(rpr, "rStyle")
        if rs:
            v = ctx.styles.first(rs, "bold")
            if v is not None:
                return bool(v)
    v = ctx.styles.first(para_style, "bold")
    if v is not None:
        return bool(v)
    return ctx.styles.default_bold


def _run_size(r: Any, ctx: _Ctx, para_style: str | None) -> float | None:
    rpr = r.find(W + "rPr")
    if rpr is not None:
        sz = _val(rpr, "sz")
        if sz:
            return _int(sz) / 2
        rs = _val(rpr, "rStyle")
        if rs:
            v = ctx.styles.first(rs, "size")
            if v is not None:
                return v
    v = ctx.styles.first(para_style, "size")
    return v if v is not None else ctx.styles.default_size


def _hidden(r: Any) -> bool:
    rpr = r.find(W + "rPr")
    return rpr is not None and bool(_on(rpr.find(W + "vanish")))


class _ParaRenderer:
    def __init__(self, ctx: _Ctx, para_style: str | None) -> None:
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

    def run(self, r: Any) -> None:
        if _hidden(r):
            return
        bold = _run_bold(r, self.ctx, self.style)
        size = _run_size(r, self.ctx, self.style)
        for c in r:
            tag = c.tag if isinstance(c.tag, str) else ""
            if tag == W + "fldChar":
                t = c.get(W + "fldCharType")
                if t == "begin":
                    self.field_stack.append("instr")
                elif t == "separate" and self.field_stack:
                    self.field_stack[-1] = "result"
                elif t == "end" and self.field_stack:
                    self.field_stack.pop()
                continue
            if self.in_instr():
                continue
            if tag == W + "t":
                text = c.text or ""
                if self.pending_custom is not None:
                    kind, nid = self.pending_custom
                    self.pending_custom = None
                    label = text.strip()
                    self.ctx.note_refs.append((kind, nid, label or None))
                    self.seg.marks.append((len(self.seg.chars), f"{kind}:{nid}"))
                    continue
                self.emit(text, bold, size)
            elif tag == W + "tab" or tag == W + "ptab":
                self.emit(" ", bold, size)
            elif tag in (W + "br", W + "cr"):
                typ = c.get(W + "type")
                if typ == "page":
                    if self.ctx.page_mode == "explicit":
                        self.page_break()
                elif typ == "column":
                    self.emit(" ", bold, size)
                else:
                    self.newline()
            elif tag == W + "lastRenderedPageBreak":
                if self.ctx.page_mode == "rendered":
                    self.page_break()
            elif tag == W + "noBreakHyphen":
                self.emit("-", bold, size)
            elif tag == W + "softHyphen":
                pass
            elif tag == W + "sym":
                code = _int(int(c.get(W + "char") or "0", 16) if re.fullmatch(r"[0-9A-Fa-f]{1,6}", c.get(W + "char") or "") else 0)
                if code and not (0xE000 <= code <= 0xF8FF):
                    self.emit(chr(code), bold, size)
            elif tag in (W + "footnoteReference", W + "endnoteReference"):
                kind = "f" if tag == W + "footnoteReference" else "e"
                nid = c.get(W + "id") or ""
                if c.get(W + "customMarkFollows") in ("1", "true", "on"):
                    self.pending_custom = (kind, nid)
                else:
                    self.ctx.note_refs.append((kind, nid, None))
                    self.seg.marks.append((len(self.seg.chars), f"{kind}:{nid}"))
                self.ctx.note_first_page.setdefault((kind, nid), self.ctx.page)
            # footnoteRef/endnoteRef (inside the notes part), separators, drawings: no text


@dataclass
class _Line:
    text: str
    cues: dict[str, Any]
    marks: list[tuple[int, str]]
    pages: list[tuple[int, int]]
    page: int


def _ui_name(name: str) -> str:
    """Built-in style names are stored lowercase ("heading 1"); show them as Word does ("Heading 1")."""
    try:
        from docx.styles import BabelFish

        return BabelFish.internal2ui(name)
    except Exception:  # pragma: no cover
        return name


def _heading_level(style_name: str | None, outline: int | None) -> tuple[int | None, str | None]:
    if style_name:
        n = style_name.strip().lower()
        m = re.fullmatch(r"(?:heading|제목)\s*([1-9])", n)
        if m:
            return int(m.group(1)), None
        if n in ("title", "제목"):
            return None, "title"
        if n in ("subtitle", "부제"):
            return None, "subtitle"
    if outline is not None and 0 <= outline <= 8:
        return outline + 1, None
    return None, None


def _render_paragraph(p: Any, ctx: _Ctx) -> list[_Line]:
    ppr = p.find(W + "pPr")
    sid = _val(ppr, "pStyle") or ctx.styles.default_para
    style = ctx.styles.by_id.get(sid or "")
    style_name = _ui_name(style.name) if style else None
    start_page = ctx.page
    if ppr is not None and _on(ppr.find(W + "pageBreakBefore")) and ctx.page_mode == "explicit":
        ctx.page += 1
        start_page = ctx.page
    outline_v = _val(ppr, "outlineLvl")
    outline = _int(outline_v) if outline_v is not None else ctx.styles.first(sid, "outline")
    level, role = _heading_level(style_name, outline)
    # numbering
    num: tuple[str, int] | None = None
    if ppr is not None and ppr.find(W + "numPr") is not None:
        np_ = ppr.find(W + "numPr")
        nid = _val(np_, "numId")
        if nid is not None:
            ilvl = _val(np_, "ilvl")
            if ilvl is None:
                sn = ctx.styles.first(sid, "num")
                ilvl_i = sn[1] if sn else 0
            else:
                ilvl_i = _int(ilvl)
            num = (nid, ilvl_i)
    if num is None:
        num = ctx.styles.first(sid, "num")
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
    x0 = ctx.styles.first(sid, "ind_left")
    if ppr is not None and ppr.find(W + "ind") is not None:
        ind = ppr.find(W + "ind")
        lv = ind.get(W + "left") or ind.get(W + "start")
        if lv is not None:
            x0 = _int(lv) / 20
    if x0 is None and lvl is not None:
        x0 = lvl.ind_left
    para_mark_bold = None
    if ppr is not None and ppr.find(W + "rPr") is not None:
        para_mark_bold = _on(ppr.find(W + "rPr").find(W + "b"))
    out: list[_Line] = []
    page = start_page
    for k, seg in enumerate(rr.segs):
        text = "".join(seg.chars)
        bold = list(seg.bold)
        marks = list(seg.marks)
        pages = list(seg.pages)
        prefix = ""
        prefix_bold = False
        if k == 0 and label is not None and not bullet and label:
            sep = "" if (lvl and lvl.suff == "nothing") else " "
            prefix = label + sep
            prefix_bold = bool(lvl and lvl.bold) or bool(para_mark_bold) or bool(
                ctx.styles.first(sid, "bold"))
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
            continue
        bp = 0
        for f in flags:
            if not f:
                break
            bp += 1
        while bp > 0 and line_text[bp - 1].isspace():
            bp -= 1
        cues: dict[str, Any] = {
            "style": style_name,
            "heading_level": level,
            "role": role,
            "bold": bp > 0 or bool(seg.first_bold),
            "bold_prefix": bp,
            "font_size": seg.first_size,
            "x0": x0,
            "indent": num[1] if (num is not None and lvl is not None) else 0,
        }
        if k == 0 and lvl is not None:
            cues["numbering"] = None if bullet else (label or None)
            if level is None and role is None:
                cues["role"] = "list_item"
        out.append(_Line(text=line_text, cues=cues, marks=marks, pages=pages_adj, page=line_start_page))
    return out


def _render_cell_text(tc: Any, ctx: _Ctx) -> tuple[str, list[tuple[int, str]], list[tuple[int, int]], int, bool]:
    """A cell's content as one string: paragraphs (and nested table rows) joined with a space."""
    text = ""
    marks: list[tuple[int, str]] = []
    pages: list[tuple[int, int]] = []
    bp = 0
    first_bold: bool | None = None
    for child in tc:
        if child.tag == W + "p":
            lines = _render_paragraph(child, ctx)
        elif child.tag == W + "tbl":
            lines = []
            for row_text, row_marks, row_pages, _rbp, _rb, row_page in _render_table_rows(child, ctx):
                lines.append(_Line(text=row_text, cues={}, marks=row_marks, pages=row_pages, page=row_page))
        elif child.tag == W + "sdt":
            content = child.find(W + "sdtContent")
            sub_text, sub_marks, sub_pages, sub_bp, sub_b = _render_cell_text(content, ctx) if content is not None \
                else ("", [], [], 0, False)
            lines = [_Line(text=sub_text, cues={"bold_prefix": sub_bp, "bold": sub_b}, marks=sub_marks,
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


_Row = tuple[str, list[tuple[int, str]], list[tuple[int, int]], int, bool, int]


def _render_table_rows(tbl: Any, ctx: _Ctx) -> list[_Row]:
    """Rows as (text, marks, page changes, bold_prefix, bold, start page)."""
    rows: list[_Row] = []
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


# ─── package ─────────────────────────────────────────────────────────────────────────────────────


def _check_zip(data: bytes, source: str) -> zipfile.ZipFile:
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError, OSError, NotImplementedError) as e:
        raise CorruptFileError(source, f"corrupt DOCX: not a readable zip archive ({_short(e)})") from None
    if len(infos) > MAX_MEMBERS:
        raise OversizeError(source, f"DOCX has {len(infos):,} zip members — zip bomb suspected")
    total = sum(i.file_size for i in infos)
    if total > MAX_UNCOMPRESSED:
        raise OversizeError(source, f"DOCX inflates to {total:,} bytes — zip bomb suspected")
    for i in infos:
        if i.file_size > 10 * 1024 * 1024 and i.file_size > MAX_RATIO * max(i.compress_size, 1):
            raise OversizeError(source, f"DOCX member {i.filename} inflates {i.file_size // max(i.compress_size, 1)}× "
                                        "— zip bomb suspected")
    names = set(zf.namelist())
    if "word/document.xml" not in names and "[Content_Types].xml" not in names:
        raise CorruptFileError(source, "corrupt DOCX: no word/document.xml (not a Word document)")
    return zf


def _short(e: BaseException) -> str:
    msg = " ".join(str(e).split()) or type(e).__name__
    return msg[:117] + "…" if len(msg) > 120 else msg


def _part_xml(part: Any) -> Any:
    try:
        return etree.fromstring(part.blob, _PARSER)
    except etree.XMLSyntaxError:
        return None


def load_bytes(data: bytes, source: str) -> Document:
    zf = _check_zip(data, source)
    # a member that fails its CRC or cannot be inflated is corruption, not a bug
    try:
        for info in zf.infolist():
            with zf.open(info) as fh:
                while fh.read(1 << 20):
                    pass
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError) as e:
        raise CorruptFileError(source, f"corrupt DOCX: {_short(e)}") from None
    import docx  # python-docx: imported lazily (the CLI must start fast)
    from docx.opc.exceptions import PackageNotFoundError

    try:
        d = docx.Document(io.BytesIO(data))
    except PackageNotFoundError:
        raise CorruptFileError(source, "corrupt DOCX: not a Word package") from None
    except (ValueError, KeyError) as e:
        raise CorruptFileError(source, f"corrupt DOCX: {_short(e)}") from None
    except etree.XMLSyntaxError as e:
        raise CorruptFileError(source, f"corrupt DOCX: broken XML ({_short(e)})") from None
    body = d.element.body
    warnings: list[str] = []
    styles_root = None
    try:
        styles_root = d.styles.element
    except Exception:  # a package without styles part
        styles_root = None
    styles = _parse_styles(styles_root)
    numbering_root = None
    notes_roots: dict[str, Any] = {}
    for rel in d.part.rels.values():
        if rel.is_external:
            continue
        rt = rel.reltype.rsplit("/", 1)[-1]
        if rt == "numbering":
            numbering_root = _part_xml(rel.target_part)
        elif rt in ("footnotes", "endnotes"):
            root = _part_xml(rel.target_part)
            if root is not None:
                notes_roots[rt] = root
            else:
                warnings.append(f"word/{rt}.xml is not well-formed XML; its notes are skipped")
    numbering = _Numbering(numbering_root, styles)
    has_rendered = body.find(f".//{W}lastRenderedPageBreak") is not None
    has_explicit = (
        body.find(f".//{W}br[@{W}type='page']") is not None
        or body.find(f".//{W}pageBreakBefore") is not None
        or len(body.findall(f".//{W}pPr/{W}sectPr")) > 0
    )
    page_mode = "rendered" if has_rendered else ("explicit" if has_explicit else None)
    ctx = _Ctx(styles, numbering, page_mode)
    # section breaks: a paragraph-level sectPr ends a section; the next one starts on a new page unless
    # the next section's type is "continuous"
    sect_after: set[int] = set()
    if page_mode == "explicit":
        sects = [sp for sp in body.iter(W + "sectPr")]
        for k, sp in enumerate(sects[:-1]):
            nxt_type = _val(sects[k + 1], "type") or "nextPage"
            parent_p = sp.getparent().getparent() if sp.getparent() is not None else None
            if nxt_type != "continuous" and parent_p is not None and parent_p.tag == W + "p":
                sect_after.add(id(parent_p))
    b = DocBuilder("docx")

    def add(lines: list[_Line]) -> None:
        for ln in lines:
            b.add_line(ln.text, page=ln.page if page_mode else None,
                       page_breaks=ln.pages if page_mode else None, marks=ln.marks, **ln.cues)

    def walk(container: Any) -> None:
        for el in container:
            tag = el.tag if isinstance(el.tag, str) else ""
            if tag == W + "p":
                add(_render_paragraph(el, ctx))
                if id(el) in sect_after:
                    ctx.page += 1
            elif tag == W + "tbl":
                tstyle_id = _val(el.find(W + "tblPr"), "tblStyle")
                tstyle = styles.by_id.get(tstyle_id or "")
                for row in _render_table_rows(el, ctx):
                    text, marks, pages, bp, bold, page = row
                    b.add_line(text, page=page if page_mode else None,
                               page_breaks=pages if page_mode else None,
                               marks=marks, role="table_row",
                               style=_ui_name(tstyle.name) if tstyle else None, bold=bold, bold_prefix=bp)
            elif tag == W + "sdt":
                content = el.find(W + "sdtContent")
                if content is not None:
                    walk(content)
            elif tag in (W + "customXml", W + "ins", W + "moveTo"):
                walk(el)
            elif tag == MC_ALT:
                fb = el.find(MC_FALLBACK)
                if fb is not None:
                    walk(fb)

    walk(body)
    n_pages = ctx.page if page_mode else 0

    # notes, in order of first reference
    order: list[tuple[str, str, str | None]] = []
    seen: set[tuple[str, str]] = set()
    for kind, nid, custom in ctx.note_refs:
        if (kind, nid) not in seen:
            seen.add((kind, nid))
            order.append((kind, nid, custom))
    note_els: dict[tuple[str, str], Any] = {}
    for rt, root in notes_roots.items():
        kind = "f" if rt == "footnotes" else "e"
        for fn in root.findall(W + ("footnote" if kind == "f" else "endnote")):
            if fn.get(W + "type") in ("separator", "continuationSeparator", "continuationNotice"):
                continue
            note_els[(kind, fn.get(W + "id") or "")] = fn
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
        page = ctx.note_first_page.get((kind, nid)) if page_mode else None
        note_ctx = _Ctx(styles, numbering, None)
        lines: list[tuple[str, dict[str, Any]]] = []
        for child in el:
            if child.tag == W + "p":
                for ln in _render_paragraph(child, note_ctx):
                    lines.append((ln.text, {"style": ln.cues.get("style"), "font_size": ln.cues.get("font_size")}))
            elif child.tag == W + "tbl":
                for text, *_rest in _render_table_rows(child, note_ctx):
                    lines.append((text, {}))
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
    if page_mode == "explicit":
        warnings.append("page numbers count explicit page breaks only (the file has no rendered page "
                        "breaks), so text that overflowed a page naturally is numbered with the page before")
    metadata: dict[str, Any] = {"page_source": page_mode}
    try:
        cp = d.core_properties
        for k in ("title", "author", "subject", "keywords"):
            v = getattr(cp, k, None)
            if v:
                metadata[k] = str(v)
        for k in ("created", "modified"):
            v = getattr(cp, k, None)
            if v:
                metadata[k] = v.isoformat()
    except Exception:
        pass
    doc = b.build(source, n_pages=n_pages, metadata=metadata, warnings=warnings)
    if not doc.text.strip():
        doc.warnings.append("no text")
    return doc
