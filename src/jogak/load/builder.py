"""Assemble a ``Document`` line by line, keeping offsets, pages and footnote marks consistent.

Every loader renders its format to a sequence of logical lines. ``DocBuilder.add_line`` appends one
line (text joined with ``\\n``), records its ``Line`` cues, the pages its characters came from and the
footnote marks that sit inside it (offsets relative to the line). ``start_footnotes`` closes the body
flow (``Document.body_end``) and ``add_footnote`` appends a footnote's lines after it. ``build`` resolves
marks to footnotes by label and returns the ``Document``; the invariants (lines tile the text, page spans
sorted and contiguous) hold by construction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jogak.load.joining import compose_hangul, composed_offset
from jogak.model import Document, Footnote, FootnoteMark, Line, PageSpan


@dataclass(slots=True)
class _PendingMark:
    offset: int
    label: str
    end: int | None = None
    kind: str = "footnote"  # "footnote" | "endnote"


@dataclass(slots=True)
class _PendingNote:
    label: str
    start: int
    end: int
    page: int | None
    kind: str = "footnote"
    key: str | None = None  # matching key for marks (defaults to label)


@dataclass
class DocBuilder:
    fmt: str
    parts: list[str] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    pos: int = 0
    # page spans as [page, start, end], merged when contiguous and same page
    _pages: list[list[int]] = field(default_factory=list)
    _marks: list[_PendingMark] = field(default_factory=list)
    _notes: list[_PendingNote] = field(default_factory=list)
    body_end: int | None = None

    # ── lines ──────────────────────────────────────────────────────────────────────────────────
    def add_line(
        self,
        text: str,
        *,
        page: int | None = None,
        page_breaks: list[tuple[int, int]] | None = None,
        marks: list[tuple[int, str]] | list[tuple[int, str, str]] | None = None,
        **cues: Any,
    ) -> Line:
        """Append one line. ``page_breaks``: (offset in line, page) where a new page starts inside it.

        ``marks``: (offset in line, label[, kind]) of footnote references dropped from the text.
        """
        if "\n" in text:
            raise ValueError("a line must not contain a newline")
        if "\x00" in text:  # a PDF/DOCX extractor's stray NUL: no store can keep it (PostgreSQL TEXT refuses it)
            text = text.replace("\x00", " ")  # same length, so offsets, marks and page breaks stay valid
        composed = compose_hangul(text)
        if composed is not text:  # decomposed Hangul: offsets inside the line move with the composition
            page_breaks = [(composed_offset(text, o), pg) for o, pg in page_breaks or ()] or None
            marks = [(composed_offset(text, m[0]), *m[1:]) for m in marks or ()] or None  # type: ignore[misc]
            text = composed
        if self.parts:
            # the newline belongs to the page of the previous line's end
            self.parts.append("\n")
            self._extend_page(None, 1)
            self.pos += 1
        start = self.pos
        self.parts.append(text)
        if page is not None or page_breaks:
            segs = [(0, page), *sorted(page_breaks or [])]
            for i, (off, pg) in enumerate(segs):
                nxt = segs[i + 1][0] if i + 1 < len(segs) else len(text)
                if nxt > off or (len(text) == 0 and i == 0):
                    self._add_page_span(pg, start + off, start + nxt)
        elif self._pages:
            self._extend_page(None, len(text))
        self.pos += len(text)
        line = Line(start=start, end=self.pos, **cues)
        if line.page is None and page is not None:
            line.page = page
        self.lines.append(line)
        for m in marks or ():
            kind = m[2] if len(m) > 2 else "footnote"  # type: ignore[misc]
            self._marks.append(_PendingMark(offset=start + m[0], label=m[1], kind=kind))
        return line

    def _add_page_span(self, page: int | None, start: int, end: int) -> None:
        if page is None:
            self._extend_page(None, end - start)
            return
        if self._pages and self._pages[-1][0] == page and self._pages[-1][2] == start:
            self._pages[-1][2] = end
        else:
            if self._pages and self._pages[-1][2] < start:
                # a gap (the newline) is given to the previous span so spans stay contiguous
                self._pages[-1][2] = start
            self._pages.append([page, start, end])

    def _extend_page(self, page: int | None, n: int) -> None:
        if self._pages:
            self._pages[-1][2] += n

    # ── footnotes ──────────────────────────────────────────────────────────────────────────────
    def start_footnotes(self) -> None:
        if self.body_end is None:
            self.body_end = self.pos

    def add_footnote(
        self,
        label: str,
        lines: list[tuple[str, dict[str, Any]]],
        *,
        page: int | None = None,
        kind: str = "footnote",
        key: str | None = None,
    ) -> None:
        """Append a footnote's lines (each ``(text, cues)``) after the body."""
        self.start_footnotes()
        start = None
        for text, cues in lines:
            cues = dict(cues)
            cues.setdefault("role", "footnote")
            ln = self.add_line(text, page=page, **cues)
            if start is None:
                start = ln.start
        if start is None:
            return
        self._notes.append(_PendingNote(label=label, start=start, end=self.pos, page=page, kind=kind,
                                        key=key))

    # ── result ─────────────────────────────────────────────────────────────────────────────────
    @property
    def text(self) -> str:
        return "".join(self.parts)

    def build(self, source: str, *, n_pages: int = 0, metadata: dict[str, Any] | None = None,
              warnings: list[str] | None = None) -> Document:
        text = self.text
        notes: list[Footnote] = []
        by_key: dict[tuple[str, str], Footnote] = {}
        for n in self._notes:
            fn = Footnote(label=n.label, start=n.start, end=n.end, page=n.page)
            notes.append(fn)
            by_key.setdefault((n.kind, n.key or n.label), fn)
        warnings = list(warnings or [])
        unmatched = []
        for m in self._marks:
            fn = by_key.get((m.kind, m.label))
            if fn is None:
                unmatched.append(m.label)
                continue
            fn.marks.append(FootnoteMark(offset=m.offset, label=fn.label, end=m.end))
        if unmatched:
            warnings.append(f"footnote marks without a footnote: {', '.join(sorted(set(unmatched)))}")
        pages = [PageSpan(page=p, start=s, end=e) for p, s, e in self._pages]
        if pages and pages[-1].end < len(text):
            last = pages[-1]
            pages[-1] = PageSpan(page=last.page, start=last.start, end=len(text))
        return Document(
            source=source,
            doc_title="",
            text=text,
            format=self.fmt,
            pages=pages,
            n_pages=n_pages,
            lines=self.lines,
            footnotes=notes,
            metadata=metadata or {},
            warnings=warnings,
            body_end=self.body_end,
        )


def bold_prefix(flags: list[bool], text: str) -> int:
    """How many leading characters of ``text`` are bold (``flags`` per character), trailing white space
    excluded — the parser reads a bold "제3조(목적)" before plain text as a heading cue."""
    n = 0
    for f in flags:
        if not f:
            break
        n += 1
    while n > 0 and text[n - 1].isspace():
        n -= 1
    return n
