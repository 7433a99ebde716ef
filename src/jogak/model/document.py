"""What a loader makes: a ``Document`` (plain text + page map + layout cues per line + footnotes)."""

from __future__ import annotations

import bisect
import hashlib
from dataclasses import dataclass, field
from typing import Any


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class PageSpan:
    """A run of ``Document.text`` that came from one page (1-based page number).

    Spans are sorted by ``start`` and do not overlap, but page numbers need not be monotonic: a PDF
    loader moves page-bottom footnotes after the body so that a paragraph continuing across a page
    break stays contiguous, and the footnote's span still says which page it sat on.
    """

    page: int
    start: int
    end: int


@dataclass(slots=True)
class Line:
    """Layout cues for one line of ``Document.text`` (``start``..``end`` excludes the newline).

    Loaders fill what their format knows and leave the rest ``None``; the structure parser uses the cues
    to accept or reject heading candidates.
    """

    start: int
    end: int
    page: int | None = None
    font_size: float | None = None  # PDF: dominant font size; DOCX: run size if set
    bold: bool | None = None  # the line's first characters (the would-be heading label) are bold
    x0: float | None = None  # PDF: left edge in points
    indent: int = 0  # leading whitespace in the source (text/markdown), list level (docx/html)
    heading_level: int | None = None  # markdown '#' count, html h1-6, docx "Heading N"
    style: str | None = None  # docx style name or html tag name
    role: str | None = None  # "table_row", "list_item", "footnote", "title", "caption"
    numbering: str | None = None  # docx automatic numbering label rendered into the text ("1.", "가.")
    bold_prefix: int = 0  # length of a bold run at the line start (markdown **①**, docx bold label)


@dataclass(slots=True)
class FootnoteMark:
    """Where a footnote is referenced from the body: offset of the mark and its label."""

    offset: int
    label: str
    end: int | None = None  # when the mark itself is in the text (a PDF superscript "3"), its end


@dataclass(slots=True)
class Footnote:
    """A footnote's text span inside ``Document.text`` and the marks that point at it."""

    label: str  # "3", "*", "a"
    start: int
    end: int
    page: int | None = None
    marks: list[FootnoteMark] = field(default_factory=list)


@dataclass(slots=True)
class Document:
    source: str  # file name, e.g. "하루마켓_반품교환환불정책.pdf"
    doc_title: str  # readable title, e.g. "반품교환환불정책"
    text: str
    format: str  # pdf | docx | html | markdown | text
    path: str = ""  # the path it was loaded from
    pages: list[PageSpan] = field(default_factory=list)
    n_pages: int = 0  # 0 for formats without pages
    lines: list[Line] = field(default_factory=list)
    footnotes: list[Footnote] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)  # front matter, PDF info, case metadata
    sha256: str = ""  # of the source bytes
    warnings: list[str] = field(default_factory=list)
    # body_end: where the body flow ends; after it come moved blocks (PDF footnotes, DOCX footnotes)
    body_end: int | None = None
    _page_starts: list[int] | None = field(default=None, init=False, repr=False, compare=False)

    # Page lookups are by span, not by assuming monotonic pages.
    def page_at(self, offset: int) -> int | None:
        if not self.pages:
            return None
        if self._page_starts is None or len(self._page_starts) != len(self.pages):
            self._page_starts = [p.start for p in self.pages]
        i = bisect.bisect_right(self._page_starts, offset) - 1
        if i < 0:
            return self.pages[0].page
        return self.pages[i].page

    def page_range(self, start: int, end: int) -> tuple[int | None, int | None]:
        """Smallest and largest page number touched by ``text[start:end]``."""
        if not self.pages:
            return None, None
        if end <= start:
            p = self.page_at(start)
            return p, p
        if self._page_starts is None or len(self._page_starts) != len(self.pages):
            self._page_starts = [p.start for p in self.pages]
        lo = max(bisect.bisect_right(self._page_starts, start) - 1, 0)
        pages = []
        for span in self.pages[lo:]:
            if span.start >= end:
                break
            if span.end > start or span.start == start:
                pages.append(span.page)
        if not pages:
            p = self.page_at(start)
            return p, p
        return min(pages), max(pages)
