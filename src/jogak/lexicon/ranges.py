"""Numeric conditions: the amounts a question states ("공연 5일 전에", "8일 남기고", "67세") and the ranges a
table row or list item states as its condition ("공연일 9일 전부터 7일 전까지", "10일 전까지", "만 65세 이상",
"3만원 이상 5만원 미만"), so the answerer can prefer the row whose range holds the question's amount over its
neighbours, which share every word but the numbers.

Amounts are normalised to a dimension (days, months, hours, minutes, age, won, percent); a week counts 7 days, a
year 12 months. "A일 전까지" (up to A days before) means A days or more before; "A일 이내" / "A일까지" (within A
days) means A or fewer.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["NATIVE_NUMBER", "Amount", "Span", "fits_range", "meets_condition", "question_amounts", "spans"]


@dataclass(frozen=True, slots=True)
class Amount:
    value: float
    dim: str


@dataclass(frozen=True, slots=True)
class Span:
    """``lo`` ≤ value ≤ ``hi`` (``None``: unbounded); ``*_open`` excludes the bound itself."""

    dim: str
    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False
    hi_open: bool = False

    def contains(self, a: Amount) -> bool:
        if a.dim != self.dim:
            return False
        if self.lo is not None and (a.value < self.lo or (self.lo_open and a.value == self.lo)):
            return False
        return not (self.hi is not None and (a.value > self.hi or (self.hi_open and a.value == self.hi)))


# unit → (dimension, factor)
_UNITS: dict[str, tuple[str, float]] = {
    "일": ("day", 1), "주": ("day", 7), "주일": ("day", 7), "개월": ("month", 1), "달": ("month", 1),
    "년": ("month", 12), "시간": ("hour", 1), "분": ("minute", 1), "세": ("age", 1), "살": ("age", 1),
    "원": ("won", 1), "만원": ("won", 10_000), "퍼센트": ("percent", 1), "%": ("percent", 1),
    "초": ("minute", 1 / 60),
}
_U = r"만\s?원|원|주일|주|개월|달|년|시간|분|초(?!과)|세|살|퍼센트|%|일(?!요일|째|차|자)"
_N = r"\d[\d,]*(?:\.\d+)?"
_AMOUNT = re.compile(rf"(?P<num>{_N})\s*(?P<unit>{_U})")
# everyday counts a customer writes in words
_WORDS = {"하루": ("day", 1), "이틀": ("day", 2), "사흘": ("day", 3), "나흘": ("day", 4), "닷새": ("day", 5),
          "일주일": ("day", 7), "보름": ("day", 15), "한 달": ("month", 1), "한달": ("month", 1),
          "두 달": ("month", 2), "석 달": ("month", 3)}
_WORD_RE = re.compile("|".join(sorted(map(re.escape, _WORDS), key=len, reverse=True)))
# native numerals before a counter that takes them ("다섯 살", "열한 살", "세 시간", "두 해"); the numeral must
# stand on its own ("이 세 시간" yes, "구세 시간" no)
_TENS = {"열": 10, "스물": 20, "스무": 20, "서른": 30, "마흔": 40, "쉰": 50, "예순": 60, "일흔": 70, "여든": 80,
         "아흔": 90}
_ONES = {"한": 1, "하나": 1, "두": 2, "둘": 2, "세": 3, "셋": 3, "석": 3, "네": 4, "넷": 4, "다섯": 5, "여섯": 6,
         "일곱": 7, "여덟": 8, "아홉": 9}
_NATIVE_UNITS = {"살": ("age", 1), "시간": ("hour", 1), "해": ("month", 12), "달": ("month", 1)}
_TENS_RX = "|".join(sorted(_TENS, key=len, reverse=True))
_ONES_RX = "|".join(sorted(_ONES, key=len, reverse=True))
# a native numeral word standing on its own: "다섯", "열한", "스물다섯" (shared with quantities' counters)
NATIVE_NUMBER = rf"(?<![가-힣])(?:(?:{_TENS_RX})(?:{_ONES_RX})?|(?:{_ONES_RX}))"
_NATIVE_RE = re.compile(
    rf"(?<![가-힣])(?P<tens>{_TENS_RX})?(?P<ones>{_ONES_RX})?"
    r"\s*(?P<unit>살(?!림)|시간|(?:해|달)(?=[^가-힣]|$|동안|간|에|이|가|은|는|을|도|째|짜리|만|쯤))")


def _native(m: re.Match[str]) -> Amount | None:
    tens, ones, unit = m["tens"], m["ones"], m["unit"]
    if not tens and not ones:
        return None
    if unit in ("해", "달") and (tens or ones not in ("한", "두", "세", "네")):
        return None  # "열 달" is rare, "다섯 해" literary; "세 해" and "한 해" are everyday
    dim, factor = _NATIVE_UNITS[unit]
    return Amount(float(_TENS.get(tens or "", 0) + _ONES.get(ones or "", 0)) * factor, dim)


def _amount(num: str, unit: str) -> Amount:
    dim, factor = _UNITS[re.sub(r"\s+", "", unit)]
    return Amount(float(num.replace(",", "")) * factor, dim)


# "한 달에 몇 번", "1년에 얼마", "하루마다": a rate's period, not the asker's situation
_RATE = re.compile(r"\s*(?:에(?![서가-힣])|에는|마다|당(?![가-힣]))")


def question_amounts(question: str) -> list[Amount]:
    """The amounts a question states, digits or everyday words ("5일", "3주" = 21 days, "이틀", "67세"); not
    the period of a rate ("한 달에 몇 번", "1년에 얼마")."""
    found = [(_amount(m["num"], m["unit"]), m.end()) for m in _AMOUNT.finditer(question)]
    found += [(Amount(float(v), d), m.end()) for m in _WORD_RE.finditer(question) for d, v in [_WORDS[m.group(0)]]]
    found += [(a, m.end()) for m in _NATIVE_RE.finditer(question) if (a := _native(m)) is not None]
    return list(dict.fromkeys(a for a, end in found if not _RATE.match(question, end)))


_A = rf"(?P<a>{_N})\s*(?P<ua>{_U})"
_B = rf"(?:만\s*)?(?P<b>{_N})\s*(?P<ub>{_U})"  # "만 6세 이상 만 13세 미만"
_Build = Callable[[Amount, "Amount | None"], Span]
# each pattern with the range it states (from A and, where it has one, B), most specific first; a match is
# consumed so "A일 전부터 B일 전까지" is not also read as "B일 전까지"
_SPAN_RULES: list[tuple[re.Pattern[str], _Build]] = [
    (re.compile(rf"{_A}\s*전\s*부터\s*{_B}\s*전\s*까지"),
     lambda a, b: Span(a.dim, min(a.value, b.value), max(a.value, b.value)) if b else Span(a.dim)),
    (re.compile(rf"{_A}\s*전\s*부터\s*(?:전날|전일)"), lambda a, _: Span(a.dim, 1.0, a.value)),
    (re.compile(rf"{_A}\s*전\s*부터\s*당일"), lambda a, _: Span(a.dim, 0.0, a.value)),
    (re.compile(rf"{_A}\s*(?:이상|부터)\s*{_B}\s*미만"),
     lambda a, b: Span(a.dim, a.value, b.value if b else None, hi_open=True)),
    (re.compile(rf"{_A}\s*(?:이상|부터|초과)\s*{_B}\s*(?:이하|까지)"),
     lambda a, b: Span(a.dim, a.value, b.value if b else None)),
    # "3일~5일", "3~5일" (the unit written once)
    (re.compile(rf"(?P<a>{_N})\s*(?P<ua>{_U})?\s*[~∼〜-]\s*{_B}"),
     lambda a, b: Span(a.dim, a.value, b.value if b else None)),
    (re.compile(rf"{_A}\s*전\s*까지"), lambda a, _: Span(a.dim, a.value, None)),
    (re.compile(rf"{_A}\s*(?:이상|부터)"), lambda a, _: Span(a.dim, a.value, None)),
    (re.compile(rf"{_A}\s*(?:초과|(?:이|가|을|를)?\s*넘(?:게|으면|는|어|은))"),
     lambda a, _: Span(a.dim, a.value, None, lo_open=True)),
    (re.compile(rf"{_A}\s*(?:이|가)?\s*지나(?:면|서|도)"), lambda a, _: Span(a.dim, a.value, None)),
    (re.compile(rf"{_A}\s*(?:이하|이내|안에|까지)"), lambda a, _: Span(a.dim, None, a.value)),
    (re.compile(rf"{_A}\s*미만"), lambda a, _: Span(a.dim, None, a.value, hi_open=True)),
]
_DAY_WORD = re.compile(r"(?:전날|전일)\s*(?:부터|까지)?|당일")  # the day before: 1 day; the day itself: 0


def spans(text: str) -> list[Span]:
    """The ranges a condition states ("공연일 9일 전부터 7일 전까지" → 7–9 days; "10일 전까지" → 10 days or more;
    "만 65세 이상" → age ≥ 65; "전날" → 1 day, "당일" → 0)."""
    return [sp for sp, _ in _spans_at(text)]


def _spans_at(text: str) -> list[tuple[Span, int]]:
    """Each range with the offset where its wording ends."""
    out: list[tuple[Span, int]] = []
    taken = [False] * len(text)
    for rx, build in [*_SPAN_RULES, (_DAY_WORD, None)]:
        for m in rx.finditer(text):
            if any(taken[m.start():m.end()]):
                continue
            if build is None:
                v = 0.0 if m.group(0).startswith("당일") else 1.0
                out.append((Span("day", v, v), m.end()))
            else:
                g = m.groupdict()
                b = _amount(g["b"], g["ub"]) if g.get("b") else None
                a = _amount(g["a"], g.get("ua") or g["ub"])
                if b is not None and a.dim != b.dim:
                    continue
                out.append((build(a, b), m.end()))
            taken[m.start():m.end()] = [True] * (m.end() - m.start())
    return out


def fits_range(amounts: list[Amount], text: str) -> bool | None:
    """Whether a condition's ranges hold one of the question's amounts: True (some range of that dimension
    holds one), False (the text states ranges of the dimension, none holds any), None (nothing to compare)."""
    if not amounts:
        return None
    dims = {a.dim for a in amounts}
    rel = [s for s in spans(text) if s.dim in dims]
    if not rel:
        return None
    return any(s.contains(a) for s in rel for a in amounts)


# a range right before 의 qualifies a noun ("1년 이하의 징역", "10일 이내의 기간"): no condition on the reader
_ATTRIBUTIVE = re.compile(r"\s*의(?![가-힣])")


def meets_condition(amounts: list[Amount], text: str) -> float | None:
    """How closely a sentence states, as a condition, a range that holds one of the question's amounts ("만 6세
    미만인 아이는" for "다섯 살 딸", "10분 넘게 늦어지면" for "20분째 안 와요"): the distance from the amount to
    the range's nearest bound, in the amount's unit (0: "7일 이상" for "7일"; 4: "3일 이상" for it); None when
    no such range holds one, ``math.inf`` when the sentence states such ranges and none holds ("만 6세 이상
    만 13세 미만인 아이가" for "다섯 살"). Ranges that qualify a noun ("1년 이하의 징역") are no condition."""
    best: float | None = None
    stated = False
    dims = {a.dim for a in amounts}
    for sp, end in _spans_at(text):
        if sp.dim not in dims or (sp.lo is None and sp.hi is None) or _ATTRIBUTIVE.match(text, end):
            continue
        stated = True
        for a in amounts:
            if sp.contains(a):
                gap = min(abs(a.value - b) for b in (sp.lo, sp.hi) if b is not None)
                best = gap if best is None else min(best, gap)
    return math.inf if best is None and stated else best
