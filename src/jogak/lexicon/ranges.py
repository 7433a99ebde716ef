"""Numeric conditions: the amounts a question states ("공연 5일 전에", "8일 남기고", "67세") and the ranges a
table row or list item states as its condition ("공연일 9일 전부터 7일 전까지", "10일 전까지", "만 65세 이상",
"3만원 이상 5만원 미만"), so the answerer can prefer the row whose range holds the question's amount over its
neighbours, which share every word but the numbers.

Amounts are normalised to a dimension (days, months, hours, minutes, age, won, percent); a week counts 7 days, a
year 12 months. "A일 전까지" (up to A days before) means A days or more before; "A일 이내" / "A일까지" (within A
days) means A or fewer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Amount", "Span", "fits_range", "question_amounts", "spans"]


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
}
_U = r"만\s?원|원|주일|주|개월|달|년|시간|분|세|살|퍼센트|%|일(?!요일|째|차|자)"
_N = r"\d[\d,]*(?:\.\d+)?"
_AMOUNT = re.compile(rf"(?P<num>{_N})\s*(?P<unit>{_U})")
# everyday counts a customer writes in words
_WORDS = {"하루": ("day", 1), "이틀": ("day", 2), "사흘": ("day", 3), "나흘": ("day", 4), "닷새": ("day", 5),
          "일주일": ("day", 7), "보름": ("day", 15), "한 달": ("month", 1), "한달": ("month", 1),
          "두 달": ("month", 2), "석 달": ("month", 3)}
_WORD_RE = re.compile("|".join(sorted(map(re.escape, _WORDS), key=len, reverse=True)))


def _amount(num: str, unit: str) -> Amount:
    dim, factor = _UNITS[re.sub(r"\s+", "", unit)]
    return Amount(float(num.replace(",", "")) * factor, dim)


def question_amounts(question: str) -> list[Amount]:
    """The amounts a question states, digits or everyday words ("5일", "3주" = 21 days, "이틀", "67세")."""
    out = [_amount(m["num"], m["unit"]) for m in _AMOUNT.finditer(question)]
    out += [Amount(float(v), d) for d, v in (_WORDS[m.group(0)] for m in _WORD_RE.finditer(question))]
    return out


_A = rf"(?P<a>{_N})\s*(?P<ua>{_U})"
_B = rf"(?P<b>{_N})\s*(?P<ub>{_U})"
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
    (re.compile(rf"{_A}\s*초과"), lambda a, _: Span(a.dim, a.value, None, lo_open=True)),
    (re.compile(rf"{_A}\s*(?:이하|이내|안에|까지)"), lambda a, _: Span(a.dim, None, a.value)),
    (re.compile(rf"{_A}\s*미만"), lambda a, _: Span(a.dim, None, a.value, hi_open=True)),
]
_DAY_WORD = re.compile(r"(?:전날|전일)\s*(?:부터|까지)?|당일")  # the day before: 1 day; the day itself: 0


def spans(text: str) -> list[Span]:
    """The ranges a condition states ("공연일 9일 전부터 7일 전까지" → 7–9 days; "10일 전까지" → 10 days or more;
    "만 65세 이상" → age ≥ 65; "전날" → 1 day, "당일" → 0)."""
    out: list[Span] = []
    taken = [False] * len(text)
    for rx, build in [*_SPAN_RULES, (_DAY_WORD, None)]:
        for m in rx.finditer(text):
            if any(taken[m.start():m.end()]):
                continue
            if build is None:
                v = 0.0 if m.group(0).startswith("당일") else 1.0
                out.append(Span("day", v, v))
            else:
                g = m.groupdict()
                b = _amount(g["b"], g["ub"]) if g.get("b") else None
                a = _amount(g["a"], g.get("ua") or g["ub"])
                if b is not None and a.dim != b.dim:
                    continue
                out.append(build(a, b))
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
