"""Grammar types: numbering schemes and block words are *data* (see ko.py, en.py); this module holds
the small machinery that turns a scheme's match into a label, an ordinal and a path component."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳㉑㉒㉓㉔㉕㉖㉗㉘㉙㉚㉛㉜㉝㉞㉟㊱㊲㊳㊴㊵㊶㊷㊸㊹㊺㊻㊼㊽㊾㊿"
PAREN_DIGITS = "⑴⑵⑶⑷⑸⑹⑺⑻⑼⑽⑾⑿⒀⒁⒂⒃⒄⒅⒆⒇"
GANADA = "가나다라마바사아자차카타파하"
ROMAN_VALUES = (("m", 1000), ("cm", 900), ("d", 500), ("cd", 400), ("c", 100), ("xc", 90), ("l", 50),
                ("xl", 40), ("x", 10), ("ix", 9), ("v", 5), ("iv", 4), ("i", 1))


def roman_to_int(s: str) -> int | None:
    s = s.lower()
    if not s or not re.fullmatch(r"m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})", s):
        return None
    total, i = 0, 0
    for sym, val in ROMAN_VALUES:
        while s.startswith(sym, i):
            total += val
            i += len(sym)
    return total or None


def int_to_roman(n: int) -> str:
    out = []
    for sym, val in ROMAN_VALUES:
        while n >= val:
            out.append(sym)
            n -= val
    return "".join(out)


def letter_ordinal(s: str) -> int | None:
    if len(s) == 1 and s.isascii() and s.isalpha():
        return ord(s.lower()) - ord("a") + 1
    return None


def ganada_ordinal(s: str) -> int | None:
    i = GANADA.find(s)
    return i + 1 if i >= 0 and len(s) == 1 else None


def circled_ordinal(s: str) -> int | None:
    i = CIRCLED.find(s)
    if i >= 0:
        return i + 1
    i = PAREN_DIGITS.find(s)
    return i + 1 if i >= 0 else None


_UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
          "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS = {"twenty": 20, "thirty": 30, "forty": 40}
# "ARTICLE ONE", "Article Twenty-Three": number words as a regex alternative (longest first)
NUMBER_WORDS = (r"(?:(?:twenty|thirty|forty)(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?|"
                r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|eleven|twelve|"
                r"one|two|three|four|five|six|seven|eight|nine|ten)")


def words_to_int(s: str) -> int | None:
    """"One" → 1, "TWENTY-THREE" → 23 (up to forty-nine)."""
    parts = s.lower().replace("-", " ").split()
    if len(parts) == 1:
        w = parts[0]
        if w in _UNITS:
            return _UNITS.index(w) + 1
        return _TENS.get(w)
    if len(parts) == 2 and parts[0] in _TENS and parts[1] in _UNITS[:9]:
        return _TENS[parts[0]] + _UNITS.index(parts[1]) + 1
    return None


_FULLWIDTH_ROMAN = "ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩⅪⅫ"


def roman_any(s: str) -> int | None:
    """"Ⅲ" (one full-width Roman numeral character) or "III"."""
    i = _FULLWIDTH_ROMAN.find(s)
    if len(s) == 1 and i >= 0:
        return i + 1
    return roman_to_int(s) if s.isascii() and s.isupper() else None


def any_int(s: str) -> int | None:
    """Digits, a Roman numeral or a number word."""
    if s.isdigit():
        return int(s)
    return roman_to_int(s) or words_to_int(s)


ORDINALS: dict[str, Callable[[str], int | None]] = {
    "int": lambda s: int(s) if s.isdigit() else None,
    "roman": roman_to_int,
    "letter": letter_ordinal,
    "ganada": ganada_ordinal,
    "circled": circled_ordinal,
    "introman": any_int,
    "roman_any": roman_any,
}


@dataclass(frozen=True)
class Scheme:
    """One numbering style, e.g. Korean 항 "①" or English "(a)".

    ``pattern`` must match at the start of a stripped line and capture the number in group ``n``
    (and optionally a sub-number ``m`` for 제N조의M). ``kind`` is the node kind it creates. ``rank`` orders
    schemes that may nest (lower = outer); schemes with the same ``family`` compete for one level.
    ``path`` formats the path component from the number, e.g. "제{n}항".
    """

    name: str
    kind: str
    pattern: str
    ordinal: str = "int"  # key into ORDINALS
    rank: int = 50
    path: str = "{label}"  # format with label, n, m (and letter for ganada)
    titled: bool = False  # may carry "(title)" or a short title after the label
    anchored: bool = False  # attaches to the block/chapter level, never nested under items
    dotted: bool = False  # "4.2.1": nests by numeric prefix
    inline: bool = False  # may start mid-line after a sentence end ("...한다. ② ...")
    # a heading only when the rest of its line is a short title ("1. 개인정보의 처리 목적"), which becomes the
    # node's title; "1. 성명: 홍길동" is no such heading
    whole_line_title: bool = False
    restarts: bool = False  # numbering restarts inside each chapter, so paths keep the chapter
    regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "regex", re.compile(self.pattern))

    def number(self, n: str, m: str | None = None) -> tuple[int, ...] | None:
        if self.dotted:
            try:
                return tuple(int(x) for x in n.split("."))
            except ValueError:
                return None
        v = ORDINALS[self.ordinal](n)
        if v is None:
            return None
        sub = int(m) if m and m.isdigit() else 0
        return (v, sub)


@dataclass(frozen=True)
class BlockWord:
    """A word that opens a block: an appendix (부록/Schedule), the addenda (부칙), an FAQ."""

    kind: str  # appendix | addenda | faq | footnotes
    words: tuple[str, ...]
    needs_id: bool = False  # "부록A" needs an identifier; "부칙" does not
    block_type: str = "body"


def successor(prev: tuple[int, ...], cur: tuple[int, ...], dotted: bool = False) -> bool:
    """Is ``cur`` the next number after ``prev``? (N,M) → (N,M+1) or (N+1,0); dotted x.y → x.(y+1)."""
    if dotted:
        return len(prev) == len(cur) and prev[:-1] == cur[:-1] and cur[-1] == prev[-1] + 1
    pn, pm = prev[0], prev[1] if len(prev) > 1 else 0
    cn, cm = cur[0], cur[1] if len(cur) > 1 else 0
    if cn == pn and cm == pm + 1:
        return True
    if cn == pn and pm == 0 and cm >= 2:  # 제43조 → 제43조의2 (의1 is not used)
        return True
    return cn == pn + 1 and cm == 0


def is_first(cur: tuple[int, ...], dotted: bool = False) -> bool:
    if dotted:
        return cur[-1] == 1
    return cur[0] == 1 and (len(cur) < 2 or cur[1] == 0)
