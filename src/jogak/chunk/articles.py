"""Seed 000's ``article`` tag, computed from the chunk's offsets in the document.

Three rules (seed 000 §3): collect every heading line inside the chunk; a chunk that does not start with
a heading inherits the clause before it (first); a trailing heading-only clause is dropped (its content
is in the next chunk); de-duplicated in order. Heading positions come from one scan of the document, so
repeated text can never confuse the lookup (seed 000 used ``text.find(chunk)``, which does).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Any

from jogak.grammar.patterns import ARTICLE_HEADING_LINE, ARTICLE_HEADING_RE

# The flat grammar of the recursive strategy (configurable: ``chunk.headings`` in jogak.yaml).
# An article heading is "제N조" / "제N조의M", optionally followed by a parenthesised title; running
# text such as "제3조에 따라" is not a heading because the label must be followed by "(" or line end.
DEFAULT_HEADING_PATTERNS: tuple[str, ...] = (
    ARTICLE_HEADING_LINE,
    r"자주\s*묻는\s*질문.*",
    r"부\s*칙.*",
)
# Patterns whose match is normalised to "label (title)" — the way citations show a clause.
_ARTICLE = ARTICLE_HEADING_RE


@dataclass(frozen=True, slots=True)
class Heading:
    start: int  # offset of the heading line's first non-space character
    end: int  # end of the heading line (before the newline)
    head_end: int  # end of label + title; text after it on the same line is clause content
    name: str  # "제3조 (하루포인트 적립)", "자주 묻는 질문 (FAQ)", "부칙"


@dataclass
class HeadingGrammar:
    patterns: tuple[str, ...] = DEFAULT_HEADING_PATTERNS
    _regex: re.Pattern[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        alts = "|".join(f"(?:{p})" for p in self.patterns)
        self._regex = re.compile(rf"^[ \t]*(?P<h>{alts})", re.MULTILINE)

    @classmethod
    def from_config(cls, section: dict[str, Any] | None) -> HeadingGrammar:
        pats = (section or {}).get("headings")
        return cls(tuple(pats)) if pats else cls()

    def find(self, text: str, start: int = 0, end: int | None = None) -> list[Heading]:
        end = len(text) if end is None else end
        out: list[Heading] = []
        for m in self._regex.finditer(text, start, end):
            s = m.start("h")
            line_end = text.find("\n", s)
            line_end = end if line_end == -1 or line_end > end else line_end
            line = text[s:line_end]
            m = _ARTICLE.match(line)
            head_end = s + m.end() if m else line_end
            out.append(Heading(s, line_end, head_end, normalise_heading(line)))
        return out


def normalise_heading(line: str) -> str:
    """"제1조(목적)" → "제1조 (목적)"; a heading with body on the same line keeps only label+title."""
    line = " ".join(line.split())
    m = _ARTICLE.match(line)
    if not m:
        return line
    label = f"제{m.group('n')}조" + (f"의{m.group('m')}" if m.group("m") else "")
    title = (m.group("title") or "").strip()
    return f"{label} ({title})" if title else label


class ArticleTagger:
    """Tags chunks of one document. Build once per document; ``tag`` is O(log n) per chunk."""

    def __init__(self, text: str, grammar: HeadingGrammar | None = None) -> None:
        self.text = text
        self.headings = (grammar or HeadingGrammar()).find(text)
        self._starts = [h.start for h in self.headings]

    def headings_in(self, start: int, end: int) -> list[Heading]:
        lo = bisect.bisect_left(self._starts, start)
        hi = bisect.bisect_left(self._starts, end)
        return self.headings[lo:hi]

    def tag(self, start: int, end: int) -> str:
        inside = self.headings_in(start, end)
        names = [h.name for h in inside]
        starts_with_heading = bool(inside) and not self.text[start : inside[0].start].strip()
        if not starts_with_heading:
            i = bisect.bisect_left(self._starts, start) - 1
            if i >= 0:
                names.insert(0, self.headings[i].name)
        # A chunk that ends on a heading line holds none of that clause's content.
        if inside and names and names[-1] == inside[-1].name:
            last = inside[-1]
            if last.head_end >= end or not self.text[last.head_end : end].strip():
                names.pop()
        return ", ".join(dict.fromkeys(names))

    def count_headings(self, start: int, end: int) -> int:
        return len(self.headings_in(start, end))


def split_articles(article: str) -> list[str]:
    """seed 000's comma-joined ``article`` tag → its clauses (commas inside parentheses kept)."""
    out, depth, cur = [], 0, []
    for ch in article:
        if ch in "(（":
            depth += 1
        elif ch in ")）":
            depth = max(0, depth - 1)
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return [a for a in out if a]
