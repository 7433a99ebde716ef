"""Word's automatic numbering: number formats and the list counters of numbering.xml.

``format_number`` renders a counter in a ``w:numFmt`` (decimal, decimalEnclosedCircle ①, ganada 가, chosung
ㄱ, lower/upperLetter, lower/upperRoman, koreanDigital, koreanCounting, ideographDigital, decimalFullWidth,
decimalEnclosedParen/Fullstop, ordinal …). ``Numbering`` reads abstract numbering definitions, ``w:num``
instances with level overrides and start overrides, and renders each numbered paragraph's label from its
level's ``lvlText`` template (``%1.``, ``(%1)``, ``제%1조``, ``%1.%2.``) with counters per ``numId`` and level
restarts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from jogak.load.docx.ooxml import W, indent_left, on, to_int, val
from jogak.load.docx.styles import Styles

_GANADA = "가나다라마바사아자차카타파하"
_CHOSUNG = "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ"
_KOREAN_DIGITS = "영일이삼사오육칠팔구"
_IDEO_DIGITS = "〇一二三四五六七八九"
_KOREAN_COUNTING = ["하나", "둘", "셋", "넷", "다섯", "여섯", "일곱", "여덟", "아홉", "열"]


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


@dataclass
class Level:
    start: int = 1
    fmt: str = "decimal"
    text: str | None = "%1."
    is_lgl: bool = False
    suff: str = "tab"
    bold: bool | None = None
    restart: int | None = None
    ind_left: float | None = None


class Numbering:
    def __init__(self, root: Any, styles: Styles) -> None:
        self.abstract: dict[str, dict[int, Level]] = {}
        self.num_abs: dict[str, str] = {}
        self.overrides: dict[str, dict[int, Level | int]] = {}
        self.counters: dict[str, dict[int, int]] = {}
        self.styles = styles
        self.style_link: dict[str, str] = {}
        if root is None:
            return
        for an in root.findall(W + "abstractNum"):
            aid = an.get(W + "abstractNumId") or ""
            self.abstract[aid] = {lv_ilvl: lv for lv_ilvl, lv in (self._level(x) for x in an.findall(W + "lvl"))}
            link = val(an, "numStyleLink")
            if link:
                self.style_link[aid] = link
        for n in root.findall(W + "num"):
            nid = n.get(W + "numId") or ""
            self.num_abs[nid] = val(n, "abstractNumId") or ""
            ov: dict[int, Level | int] = {}
            for lo in n.findall(W + "lvlOverride"):
                il = to_int(lo.get(W + "ilvl"))
                lvl = lo.find(W + "lvl")
                if lvl is not None:
                    ov[il] = self._level(lvl)[1]
                so = val(lo, "startOverride")
                if so is not None:
                    ov.setdefault(il, to_int(so, 1))
                    if isinstance(ov[il], Level):
                        ov[il].start = to_int(so, 1)  # type: ignore[union-attr]
            self.overrides[nid] = ov

    @staticmethod
    def _level(lvl: Any) -> tuple[int, Level]:
        il = to_int(lvl.get(W + "ilvl"))
        lt = lvl.find(W + "lvlText")
        rpr = lvl.find(W + "rPr")
        ppr = lvl.find(W + "pPr")
        left = None
        if ppr is not None and ppr.find(W + "ind") is not None:
            left = indent_left(ppr.find(W + "ind"))
        restart = val(lvl, "lvlRestart")
        return il, Level(
            start=to_int(val(lvl, "start"), 1),
            fmt=val(lvl, "numFmt") or "decimal",
            text=lt.get(W + "val") if lt is not None else None,
            is_lgl=lvl.find(W + "isLgl") is not None,
            suff=val(lvl, "suff") or "tab",
            bold=on(rpr.find(W + "b")) if rpr is not None else None,
            restart=to_int(restart) if restart is not None else None,
            ind_left=left,
        )

    def _levels(self, nid: str) -> dict[int, Level]:
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
                if isinstance(o, Level):
                    levels[il] = o
                elif il in levels:
                    base = levels[il]
                    levels[il] = Level(start=o, fmt=base.fmt, text=base.text, is_lgl=base.is_lgl,
                                        suff=base.suff, bold=base.bold, restart=base.restart,
                                        ind_left=base.ind_left)
        return levels

    def level_info(self, nid: str, ilvl: int) -> Level | None:
        return self._levels(nid).get(ilvl)

    def next_label(self, nid: str, ilvl: int) -> tuple[str | None, Level | None, bool]:
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
