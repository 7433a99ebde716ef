"""Filters read from the question itself (rule-based, no LLM): dates, courts, a named document.

"2010년 이후 판례" → decision_date gte 2010-01-01; "1995년 이전" → decision_date lte 1995-12-31;
"대법원 판결만" → court eq 대법원; "멤버십정책에서 …" → doc_title eq 멤버십정책 (only for titles that exist
in the store — or a name that belongs to one title alone, "근로기준법에서" for "근로기준법_법률" — followed by
a locative particle: a bare "멤버십정책 제3조" is a clause lookup, not a filter).
Each filter keeps the phrase that set it, so the output can echo why the search was narrowed; the phrase
is cut from the text the retrievers see.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from jogak.filters import Filter
from jogak.retrieve.structural import title_aliases

_Y = r"((?:19|20)\d{2})"


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern[str]
    build: Callable[[re.Match[str]], list[Filter]]


def _date(op: str, value: str, phrase: str) -> Filter:
    return Filter("decision_date", op, value, origin="question", phrase=phrase)


def _range(m: re.Match[str]) -> list[Filter]:
    a, b = sorted((m.group(1), m.group(2)))
    return [_date("gte", a, m.group(0).strip()), _date("lte", b, m.group(0).strip())]


def _year(m: re.Match[str]) -> list[Filter]:
    return [_date("gte", m.group(1), m.group(0).strip()), _date("lte", m.group(1), m.group(0).strip())]


_COURT = r"(대법원|헌법재판소|특허법원|[가-힣]{2,6}고등법원|[가-힣]{2,6}지방법원|[가-힣]{2,6}행정법원)"

RULES: list[_Rule] = [
    _Rule(re.compile(rf"{_Y}\s*년?\s*(?:부터|~|-|에서)\s*{_Y}\s*년\s*(?:까지|사이)?(?:의|에)?"), _range),
    _Rule(re.compile(rf"{_Y}\s*년\s*(?:이후|以後|부터|이래|후)(?:의|에|로|에\s*나온)?"),
          lambda m: [_date("gte", m.group(1), m.group(0).strip())]),
    _Rule(re.compile(rf"{_Y}\s*년\s*(?:이전|以前|까지|전)(?:의|에|에\s*나온)?"),
          lambda m: [_date("lte", m.group(1), m.group(0).strip())]),
    _Rule(re.compile(rf"{_Y}\s*년\s*(?:에\s*)?(?:선고된|선고|판결된|나온)"), _year),
    _Rule(re.compile(rf"(?i)\b(?:since|from)\s+{_Y}\b"), lambda m: [_date("gte", m.group(1), m.group(0))]),
    _Rule(re.compile(rf"(?i)\bafter\s+{_Y}\b"),
          lambda m: [_date("gte", str(int(m.group(1)) + 1), m.group(0))]),
    _Rule(re.compile(rf"(?i)\bbefore\s+{_Y}\b"),
          lambda m: [_date("lte", str(int(m.group(1)) - 1), m.group(0))]),
    _Rule(re.compile(rf"(?i)\b(?:until|through)\s+{_Y}\b"), lambda m: [_date("lte", m.group(1), m.group(0))]),
    _Rule(re.compile(rf"{_COURT}\s*(?:의\s*)?(?:판결|판례|결정)(?:들)?\s*(?:만|에서만|중에서)"),
          lambda m: [Filter("court", "eq", m.group(1), origin="question", phrase=m.group(0).strip())]),
]

_PARTICLE = r"(?:에서는|에서만|에서|에선|에는|에\s*따르면|에\s*의하면|상으로는|상|기준으로|만)"


_TITLE_OF: dict[str, dict[str, str]] = {}


@functools.lru_cache(maxsize=256)
def _title_regex(titles: tuple[str, ...]) -> re.Pattern[str] | None:
    """One alternation over the given titles (longest first, spaces optional), each followed by a particle."""
    if not titles:
        return None
    groups: dict[str, str] = {}
    parts = []
    for j, title in enumerate(sorted(titles, key=len, reverse=True)):
        loose = r"\s*".join(re.escape(ch) for ch in title if not ch.isspace())
        groups[f"t{j}"] = title
        parts.append(f"(?P<t{j}>{loose})")
    rx = re.compile(rf"(?<![\w])(?:{'|'.join(parts)})\s*{_PARTICLE}")
    _TITLE_OF[rx.pattern] = groups
    return rx


class TitleFinder:
    """The names a question may use for the collection's documents, found without trying each one: a name
    is a candidate only where its first two letters occur in the question (spaces ignored), and the
    particle pattern is compiled over the candidates alone. An alternation over all of Korean law's 5,674
    titles cost ~40 ms per question; this costs microseconds. Build it once per snapshot."""

    def __init__(self, titles: Iterable[str]) -> None:
        self.aliases = title_aliases(titles)
        self._by_start: dict[str, list[tuple[str, str]]] = {}
        for alias in self.aliases:
            dense = "".join(alias.split())
            if len(dense) >= 2:
                self._by_start.setdefault(dense[:2], []).append((dense, alias))

    def candidates(self, query: str) -> tuple[str, ...]:
        q = "".join(query.split())
        found = {alias for i in range(len(q) - 1) for dense, alias in self._by_start.get(q[i:i + 2], ())
                 if q.startswith(dense, i)}
        return tuple(sorted(found))


def extract(query: str, doc_titles: Iterable[str] | TitleFinder = ()) -> tuple[list[Filter], str]:
    """(filters found in the question, the question with those phrases removed). ``doc_titles``: the
    collection's titles, or a ``TitleFinder`` built over them once."""
    filters: list[Filter] = []
    spans: list[tuple[int, int]] = []

    def free(s: int, e: int) -> bool:
        return all(e <= a or s >= b for a, b in spans)

    for rule in RULES:
        for m in rule.pattern.finditer(query):
            if free(m.start(), m.end()):
                filters.extend(rule.build(m))
                spans.append((m.start(), m.end()))
    finder = doc_titles if isinstance(doc_titles, TitleFinder) else TitleFinder(doc_titles)
    aliases = finder.aliases
    rx = _title_regex(finder.candidates(query))
    if rx is not None:
        for m in rx.finditer(query):
            title = aliases[_TITLE_OF[rx.pattern][m.lastgroup or ""]]
            if free(m.start(), m.end()):
                filters.append(Filter("doc_title", "eq", title, origin="question", phrase=m.group(0).strip()))
                spans.append((m.start(), m.end()))
                break  # one named document per question
    cleaned = query
    for s, e in sorted(spans, reverse=True):
        cleaned = cleaned[:s] + " " + cleaned[e:]
    cleaned = re.sub(r"\s+", " ", cleaned).strip()
    if not re.search(r"\w", cleaned):
        cleaned = query
    return filters, cleaned
