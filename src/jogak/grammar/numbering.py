"""Numbering systems, one implementation each: 가나다, circled numbers (①), Roman numerals (ASCII and the
full-width Ⅰ…Ⅻ), Latin letters, English number words, Sino-Korean digits.

Two directions: *ordinals* read a written label back to its number ("다" → 3, "iv" → 4, "㉑" → 21) and
*formatters* write a number the way a numbering style shows it (3 → "다", 4 → "IV"). Formatters return ""
for a number the style cannot show; callers decide what to print instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# ─── symbol tables ─────────────────────────────────────────────────────────────────────────────

GANADA = "가나다라마바사아자차카타파하"  # 목 and Korean list letters (법제처 drafting order)
CHOSUNG = "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ"
CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳㉑㉒㉓㉔㉕㉖㉗㉘㉙㉚㉛㉜㉝㉞㉟㊱㊲㊳㊴㊵㊶㊷㊸㊹㊺㊻㊼㊽㊾㊿"  # 1–50
PAREN_DIGITS = "⑴⑵⑶⑷⑸⑹⑺⑻⑼⑽⑾⑿⒀⒁⒂⒃⒄⒅⒆⒇"  # 1–20
FULLWIDTH_ROMAN = "ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩⅪⅫ"  # 1–12, one character each
KOREAN_DIGITS = "영일이삼사오육칠팔구"
IDEOGRAPH_DIGITS = "〇一二三四五六七八九"
KOREAN_COUNTING = ("하나", "둘", "셋", "넷", "다섯", "여섯", "일곱", "여덟", "아홉", "열")

# Regex character classes for the tables above.
GANADA_CLASS = f"[{GANADA}]"
CIRCLED_CLASS = "[①-⑳㉑-㉟㊱-㊿]"  # ① … ㊿ (three Unicode blocks)
PAREN_DIGIT_CLASS = "[⑴-⒇]"
FULLWIDTH_ROMAN_CLASS = f"[{FULLWIDTH_ROMAN}]"
ROMAN_CHAR_CLASS = "[ⅰ-ⅿⅠ-Ⅿ]"  # any Unicode Roman numeral character, small or capital (ⅰ … ⅿ, Ⅰ … Ⅿ)
# Any syllable from 가 to 하 — most of Hangul, not only the 14 letters of GANADA. Label pre-filters use it
# where an order check (ganada_ordinal) follows, and 참조조문's "가목" where any letter is accepted.
GANADA_RANGE = "[가-하]"

_ROMAN_VALUES = (("m", 1000), ("cm", 900), ("d", 500), ("cd", 400), ("c", 100), ("xc", 90), ("l", 50),
                 ("xl", 40), ("x", 10), ("ix", 9), ("v", 5), ("iv", 4), ("i", 1))
_ROMAN_SHAPE = re.compile(r"m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})")

_UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
          "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS = {"twenty": 20, "thirty": 30, "forty": 40}
# "ARTICLE ONE", "Article Twenty-Three": number words as a regex alternative (longest first)
NUMBER_WORDS = (r"(?:(?:twenty|thirty|forty)(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?|"
                r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|eleven|twelve|"
                r"one|two|three|four|five|six|seven|eight|nine|ten)")


# ─── ordinals: written label → number ──────────────────────────────────────────────────────────


def roman_to_int(s: str) -> int | None:
    """"iv" / "IV" → 4; None when ``s`` is no well-formed Roman numeral."""
    s = s.lower()
    if not s or not _ROMAN_SHAPE.fullmatch(s):
        return None
    total, i = 0, 0
    for sym, val in _ROMAN_VALUES:
        while s.startswith(sym, i):
            total += val
            i += len(sym)
    return total or None


def roman_any(s: str) -> int | None:
    """"Ⅲ" (one full-width Roman numeral character) or upper-case "III"."""
    i = FULLWIDTH_ROMAN.find(s)
    if len(s) == 1 and i >= 0:
        return i + 1
    return roman_to_int(s) if s.isascii() and s.isupper() else None


def letter_ordinal(s: str) -> int | None:
    if len(s) == 1 and s.isascii() and s.isalpha():
        return ord(s.lower()) - ord("a") + 1
    return None


def ganada_ordinal(s: str) -> int | None:
    i = GANADA.find(s)
    return i + 1 if i >= 0 and len(s) == 1 else None


def circled_ordinal(s: str) -> int | None:
    """"③" → 3, "⑶" → 3; ASCII digits as they are (a statute prints paragraphs above ⑮ as "<16>")."""
    if s.isascii() and s.isdigit():  # ("①".isdigit() is True)
        return int(s)
    i = CIRCLED.find(s)
    if i >= 0:
        return i + 1
    i = PAREN_DIGITS.find(s)
    return i + 1 if i >= 0 else None


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


def any_int(s: str) -> int | None:
    """Digits, a Roman numeral or a number word."""
    if s.isdigit():
        return int(s)
    return roman_to_int(s) or words_to_int(s)


# Ordinal readers by name (a Scheme's ``ordinal`` field names one).
ORDINALS: dict[str, Callable[[str], int | None]] = {
    "int": lambda s: int(s) if s.isdigit() else None,
    "roman": roman_to_int,
    "letter": letter_ordinal,
    "ganada": ganada_ordinal,
    "circled": circled_ordinal,
    "introman": any_int,
    "roman_any": roman_any,
}


# ─── formatters: number → label ────────────────────────────────────────────────────────────────


def int_to_roman(n: int, upper: bool = False) -> str:
    """4 → "iv" ("IV" with ``upper``); "" for n < 1."""
    out = []
    for sym, val in _ROMAN_VALUES:
        while n >= val:
            out.append(sym)
            n -= val
    s = "".join(out)
    return s.upper() if upper else s


def ganada(n: int) -> str:
    """1 → "가", 14 → "하", 15 → "가" again (lists cycle through the 14 letters); "" for n < 1."""
    return GANADA[(n - 1) % len(GANADA)] if n > 0 else ""


def chosung(n: int) -> str:
    """1 → "ㄱ", cycling like ``ganada``; "" for n < 1."""
    return CHOSUNG[(n - 1) % len(CHOSUNG)] if n > 0 else ""


def circled(n: int, limit: int = len(CIRCLED)) -> str:
    """3 → "③" for 1 ≤ n ≤ ``limit`` (at most 50); "" otherwise."""
    return CIRCLED[n - 1] if 1 <= n <= min(limit, len(CIRCLED)) else ""


def letters_repeated(n: int) -> str:
    """Word's letter numbering: a … z, aa … zz, aaa … (the letter repeats); "" for n < 1."""
    if n <= 0:
        return ""
    k, r = divmod(n - 1, 26)
    return chr(97 + r) * (k + 1)


def letters_bijective(n: int) -> str:
    """CSS/HTML letter numbering: a … z, aa, ab … (base 26 without zero); "" for n < 1."""
    s = ""
    while n > 0:
        n, r = divmod(n - 1, 26)
        s = chr(97 + r) + s
    return s


def sino_korean(n: int, ideographic: bool = False) -> str:
    """12 → "십이" (Hangul) or "十二" (ideographs), as Word's koreanDigital / ideographDigital show it."""
    digits = IDEOGRAPH_DIGITS if ideographic else KOREAN_DIGITS
    if n == 0:
        return digits[0]
    names = "万千百十" if ideographic else "만천백십"
    out = ""
    for u, name in zip((10000, 1000, 100, 10), names, strict=True):
        q, n = divmod(n, u)
        if q:
            out += ("" if q == 1 else digits[q]) + name
    if n:
        out += digits[n]
    return out


def korean_counting(n: int) -> str:
    """1 → "하나" … 10 → "열"; "" beyond."""
    return KOREAN_COUNTING[n - 1] if 1 <= n <= len(KOREAN_COUNTING) else ""
