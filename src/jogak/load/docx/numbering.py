"""Word's automatic numbering: number formats and the list counters of numbering.xml.

``format_number`` renders a counter in a ``w:numFmt`` (decimal, decimalEnclosedCircle ①, ganada 가, chosung
ㄱ, lower/upperLetter, lower/upperRoman, koreanDigital, koreanCounting, ideographDigital, decimalFullWidth,
decimalEnclosedParen/Fullstop, ordinal …). ``Numbering`` reads abstract numbering definitions, ``w:num``
instances with level overrides and start overrides, and renders each numbered paragraph's label from its
level's ``lvlText`` template (``%1.``, ``(%1)``, ``제%1조``, ``%1.%2.``) with counters per ``numId`` and level
restarts. The numbering systems themselves (가나다, ①, Roman, letters, Sino-Korean) are ``jogak.grammar.numbering``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jogak.grammar.numbering import (
    PAREN_DIGITS,
    chosung,
    circled,
    ganada,
    int_to_roman,
    korean_counting,
    letters_repeated,
    sino_korean,
)
from jogak.load.docx.ooxml import W, indent_left, on, to_int, val
from jogak.load.docx.styles import Styles


def _fullwidth(n: int) -> str:
    return "".join(chr(0xFF10 + int(d)) for d in str(n))


def _ordinal(n: int) -> str:
    suf = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suf}"


def _ideographic(n: int) -> str:
    return sino_korean(n, ideographic=True)


# w:numFmt → formatter; a number the style cannot show is written in digits (Word does the same)
_FORMATS: dict[str, Callable[[int], str]] = {
    "decimal": str,
    "decimalHalfWidth": str,
    "decimalZero": lambda n: f"{n:02d}",
    "upperRoman": lambda n: int_to_roman(n, upper=True) or str(n),
    "lowerRoman": lambda n: int_to_roman(n) or str(n),
    "upperLetter": lambda n: (letters_repeated(n) or str(n)).upper(),
    "lowerLetter": lambda n: letters_repeated(n) or str(n),
    "decimalEnclosedCircle": lambda n: circled(n) or str(n),
    "decimalEnclosedCircleChinese": lambda n: circled(n) or str(n),
    "decimalEnclosedParen": lambda n: PAREN_DIGITS[n - 1] if 1 <= n <= len(PAREN_DIGITS) else f"({n})",
    "decimalEnclosedFullstop": lambda n: chr(0x2488 + n - 1) if 1 <= n <= 20 else f"{n}.",  # ⒈ … ⒛
    "ganada": lambda n: ganada(n) or str(n),
    "chosung": lambda n: chosung(n) or str(n),
    "koreanDigital": sino_korean,
    "koreanLegal": sino_korean,
    "koreanCounting": lambda n: korean_counting(n) or str(n),
    "ideographDigital": _ideographic,
    "koreanDigital2": _ideographic,
    "chineseCounting": _ideographic,
    "chineseCountingThousand": _ideographic,
    "ideographTraditional": _ideographic,
    "japaneseCounting": _ideographic,
    "decimalFullWidth": _fullwidth,
    "decimalFullWidth2": _fullwidth,
    "ordinal": _ordinal,
    "none": lambda n: "",
}


def format_number(n: int, fmt: str) -> str:
    """``n`` as Word shows it in number format ``fmt`` (``w:numFmt``); unknown formats as digits."""
    return _FORMATS.get(fmt or "decimal", str)(n)


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
