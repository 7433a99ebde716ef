"""The body as the parser sees it: its lines with their layout cues, and small readings of them (the
document language, whether bold or font size mean "heading", a pipe-table row, a page folio)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from jogak.model import Document, Line

_HANGUL = re.compile(r"[가-힣]")
_LATIN = re.compile(r"[A-Za-z]")
# A page number standing alone on its line: "- 3 -", "3 / 12", "Page 3 of 12"
FOLIO = re.compile(r"^\s*(?:[-–—]\s*\d+\s*[-–—]|\d+\s*/\s*\d+|(?i:page)\s+\d+(?:\s+of\s+\d+)?)\s*$")
_SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with", "&"}


def detect_language(text: str) -> str:
    sample = text[:20000]
    h = len(_HANGUL.findall(sample))
    latin = len(_LATIN.findall(sample))
    return "ko" if h >= 0.2 * max(h + latin, 1) else "en"


def has_hangul(s: str) -> bool:
    return bool(_HANGUL.search(s))


@dataclass
class Body:
    """A document's text and lines up to where its body ends (footnote areas and back matter excluded)."""

    text: str
    lines: list[Line]
    body_end: int
    line_index: dict[int, int] = field(init=False, repr=False)  # line start → index in ``lines``

    def __post_init__(self) -> None:
        self.line_index = {ln.start: i for i, ln in enumerate(self.lines)}

    @classmethod
    def of(cls, doc: Document) -> Body:
        lines = doc.lines or derive_lines(doc.text)
        return cls(doc.text, lines, doc.body_end if doc.body_end is not None else len(doc.text))

    def raw(self, ln: Line) -> str:
        return self.text[ln.start : ln.end]

    def lead(self, ln: Line) -> int:
        """Leading whitespace of a line (its label starts after it)."""
        raw = self.raw(ln)
        return len(raw) - len(raw.lstrip())

    def body_lines(self, *skip_roles: str) -> list[Line]:
        """Non-empty lines before the body's end, without lines of the given roles."""
        return [ln for ln in self.lines if ln.start < self.body_end and ln.role not in skip_roles
                and self.raw(ln).strip()]

    def blank_before(self, ln: Line) -> bool:
        i = self.line_index.get(ln.start)
        return i is not None and i > 0 and not self.raw(self.lines[i - 1]).strip()

    def next_nonempty(self, ln: Line) -> str | None:
        """The stripped text of the next non-empty body line (footnotes skipped), None at the end."""
        i = self.line_index.get(ln.start)
        if i is None:
            return None
        for nxt in self.lines[i + 1 :]:
            s = self.raw(nxt).strip()
            if s and nxt.role != "footnote":
                return s
        return None

    def layout_profile(self) -> tuple[bool, float | None]:
        """Is bold informative (some lines bold, most not)? What is the body font size?"""
        body = [ln for ln in self.lines if ln.start < self.body_end and ln.end > ln.start]
        if not body:
            return False, None
        bold = sum(1 for ln in body if ln.bold)
        strong_bold = 0 < bold <= 0.6 * len(body)
        sizes = Counter(round(ln.font_size * 2) / 2 for ln in body if ln.font_size)
        body_font = sizes.most_common(1)[0][0] if sizes else None
        return strong_bold, body_font

    def shape(self, ln: Line) -> tuple:
        """A line's layout, to compare heading lines with list items."""
        return (ln.role, ln.indent, ln.style, ln.heading_level, bool(ln.bold),
                round(ln.x0) if ln.x0 is not None else None, ln.font_size, self.blank_before(ln))


def indent_of(ln: Line) -> tuple[bool, int]:
    return (ln.role == "list_item", ln.indent)


def title_case_words(words: list[str]) -> bool:
    return words[0][0].isupper() and all(w[0].isupper() or w.lower() in _SMALL_WORDS or not w[0].isalpha()
                                         for w in words)


def looks_like_pipe_row(raw: str) -> bool:
    s = raw.strip()
    return s.startswith("|") and s.endswith("|") and s.count("|") >= 3


def derive_lines(text: str) -> list[Line]:
    out, pos = [], 0
    for raw in text.split("\n"):
        indent = len(raw) - len(raw.lstrip(" \t"))
        out.append(Line(start=pos, end=pos + len(raw), indent=indent))
        pos += len(raw) + 1
    return out
