"""Styles of styles.xml: the basedOn chain, and what a paragraph or run inherits from it.

A style contributes its outline level, numbering (``w:numPr``), bold, font size and left indent; the first
style in the chain that sets a property decides (``Styles.first``), document defaults (``w:docDefaults``)
come last. ``heading_level`` reads "Heading N"/"제목 N" style names and outline levels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from jogak.load.docx.ooxml import W, indent_left, on, to_int, val


@dataclass
class Style:
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
class Styles:
    by_id: dict[str, Style] = field(default_factory=dict)
    default_para: str | None = None
    default_bold: bool = False
    default_size: float | None = None

    def chain(self, sid: str | None) -> list[Style]:
        out: list[Style] = []
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


def parse_styles(root: Any) -> Styles:
    styles = Styles()
    if root is None:
        return styles
    rpr_default = root.find(f"{W}docDefaults/{W}rPrDefault/{W}rPr")
    if rpr_default is not None:
        styles.default_bold = bool(on(rpr_default.find(W + "b")))
        sz = val(rpr_default, "sz")
        styles.default_size = to_int(sz) / 2 if sz else None
    for s in root.findall(W + "style"):
        sid = s.get(W + "styleId") or ""
        name = val(s, "name") or sid
        ppr = s.find(W + "pPr")
        rpr = s.find(W + "rPr")
        outline = val(ppr, "outlineLvl")
        num = None
        if ppr is not None and ppr.find(W + "numPr") is not None:
            np_ = ppr.find(W + "numPr")
            nid = val(np_, "numId")
            if nid is not None:
                num = (nid, to_int(val(np_, "ilvl"), 0))
        sz = val(rpr, "sz")
        ind = ppr.find(W + "ind") if ppr is not None else None
        left = indent_left(ind) if ind is not None else None
        st = Style(sid=sid, name=name, type=s.get(W + "type") or "", based_on=val(s, "basedOn"),
                    outline=to_int(outline) if outline is not None else None, num=num,
                    bold=on(rpr.find(W + "b")) if rpr is not None else None,
                    size=to_int(sz) / 2 if sz else None, ind_left=left)
        styles.by_id[sid] = st
        if s.get(W + "default") in ("1", "true") and st.type == "paragraph":
            styles.default_para = sid
    return styles


def run_bold(r: Any, styles: Styles, para_style: str | None) -> bool:
    """Is run ``r`` bold: its own w:b, else its character style, else the paragraph style chain, else the
    document default."""
    rpr = r.find(W + "rPr")
    if rpr is not None:
        b = on(rpr.find(W + "b"))
        if b is not None:
            return b
        rs = val(rpr, "rStyle")
        if rs:
            v = styles.first(rs, "bold")
            if v is not None:
                return bool(v)
    v = styles.first(para_style, "bold")
    if v is not None:
        return bool(v)
    return styles.default_bold


def run_size(r: Any, styles: Styles, para_style: str | None) -> float | None:
    """Font size of run ``r`` in points, resolved like ``run_bold``."""
    rpr = r.find(W + "rPr")
    if rpr is not None:
        sz = val(rpr, "sz")
        if sz:
            return to_int(sz) / 2
        rs = val(rpr, "rStyle")
        if rs:
            v = styles.first(rs, "size")
            if v is not None:
                return v
    v = styles.first(para_style, "size")
    return v if v is not None else styles.default_size


def ui_name(name: str) -> str:
    """Built-in style names are stored lowercase ("heading 1"); show them as Word does ("Heading 1")."""
    try:
        from docx.styles import BabelFish

        return BabelFish.internal2ui(name)
    except Exception:  # pragma: no cover
        return name


def heading_level(style_name: str | None, outline: int | None) -> tuple[int | None, str | None]:
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
