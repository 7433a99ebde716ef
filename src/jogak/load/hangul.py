"""What the HWP 5.0 and HWPX loaders share: 한글's number formats, paragraph numbering counters, and the
rendering of paragraphs, table rows and notes into ``DocBuilder`` lines.

Both formats describe the same document model (Hancom's OWPML is the XML form of the HWP 5.0 records), so
the format readers only walk their own container and call ``ParaBuf``/``HangulDoc``; everything that
decides text and layout cues lives here, which is why an HWP and an HWPX of the same content give the
same ``Document``. The cues mirror the DOCX loader's: ``heading_level`` for 개요 (outline) paragraphs,
``role="list_item"`` + ``numbering`` for numbered paragraphs (the label is rendered into the text, as
한글 shows it), bullets not in the text, ``bold``/``bold_prefix``/``font_size`` from the character shapes,
``x0`` = left margin in points, ``role="table_row"`` rows with cells joined by ``" | "``, footnotes and
endnotes as footnote blocks after ``body_end`` linked to their marks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jogak.grammar import numbering as num
from jogak.load.builder import DocBuilder, bold_prefix
from jogak.model import Document

# HWP 5.0 number format codes (문단 번호/개요 번호 모양) and their OWPML names
FORMAT_NAMES = (
    "DIGIT", "CIRCLED_DIGIT", "ROMAN_CAPITAL", "ROMAN_SMALL", "LATIN_CAPITAL", "LATIN_SMALL",
    "CIRCLED_LATIN_CAPITAL", "CIRCLED_LATIN_SMALL", "HANGUL_SYLLABLE", "CIRCLED_HANGUL_SYLLABLE",
    "HANGUL_JAMO", "CIRCLED_HANGUL_JAMO", "HANGUL_PHONETIC", "IDEOGRAPH", "CIRCLED_IDEOGRAPH",
)


def format_number(n: int, fmt: str) -> str:
    """``n`` as 한글 draws it in number format ``fmt`` (an OWPML name such as ``HANGUL_SYLLABLE``)."""
    cyc = (n - 1) % 14
    table: dict[str, Callable[[], str]] = {
        "CIRCLED_DIGIT": lambda: num.circled(n),
        "ROMAN_CAPITAL": lambda: num.int_to_roman(n, upper=True),
        "ROMAN_SMALL": lambda: num.int_to_roman(n),
        "LATIN_CAPITAL": lambda: num.letters_repeated(n).upper(),
        "LATIN_SMALL": lambda: num.letters_repeated(n),
        "CIRCLED_LATIN_CAPITAL": lambda: chr(0x24B6 + (n - 1) % 26),
        "CIRCLED_LATIN_SMALL": lambda: chr(0x24D0 + (n - 1) % 26),
        "HANGUL_SYLLABLE": lambda: num.ganada(n),
        "CIRCLED_HANGUL_SYLLABLE": lambda: chr(0x326E + cyc),
        "HANGUL_JAMO": lambda: num.chosung(n),
        "CIRCLED_HANGUL_JAMO": lambda: chr(0x3260 + cyc),
        "HANGUL_PHONETIC": lambda: num.sino_korean(n),
        "IDEOGRAPH": lambda: num.sino_korean(n, ideographic=True),
    }
    fn = table.get(fmt)
    if n <= 0 or fn is None:
        return str(n)
    return fn() or str(n)


@dataclass
class Level:
    fmt: str = "DIGIT"
    template: str = "^1."  # ^N stands for level N's number
    start: int = 1


@dataclass
class NumberingDef:
    levels: dict[int, Level] = field(default_factory=dict)  # 1-based level → Level


class Counters:
    """Paragraph numbering as 한글 counts it: one counter set per numbering definition; a paragraph at
    level k counts up level k and restarts every deeper level."""

    def __init__(self, defs: dict[str, NumberingDef]) -> None:
        self.defs = defs
        self.counts: dict[str, dict[int, int]] = {}

    def next_label(self, num_id: str, level: int) -> str | None:
        d = self.defs.get(num_id)
        if d is None or level not in d.levels:
            return None
        cnt = self.counts.setdefault(num_id, {})
        lv = d.levels[level]
        cnt[level] = cnt.get(level, lv.start - 1) + 1
        for deeper in [k for k in cnt if k > level]:
            del cnt[deeper]
        out = []
        t = lv.template
        i = 0
        while i < len(t):
            if t[i] == "^" and i + 1 < len(t) and t[i + 1].isdigit():
                k = int(t[i + 1])
                ref = d.levels.get(k)
                if ref is not None:
                    out.append(format_number(cnt.get(k, ref.start), ref.fmt))
                i += 2
                continue
            out.append(t[i])
            i += 1
        return "".join(out).strip() or None


# ─── paragraphs ──────────────────────────────────────────────────────────────────────────────────


@dataclass
class Seg:
    """One rendered line of a paragraph (a manual line break starts the next)."""

    chars: list[str] = field(default_factory=list)
    bold: list[bool] = field(default_factory=list)
    marks: list[tuple[int, str]] = field(default_factory=list)
    first_size: float | None = None
    first_bold: bool | None = None


@dataclass
class OutLine:
    text: str
    cues: dict[str, Any]
    marks: list[tuple[int, str]]
    page: int | None = None


class ParaBuf:
    """Collects one paragraph's text as the format reader walks its runs."""

    def __init__(self) -> None:
        self.segs: list[Seg] = [Seg()]

    @property
    def seg(self) -> Seg:
        return self.segs[-1]

    def text(self, s: str, bold: bool, size: float | None) -> None:
        seg = self.seg
        if seg.first_bold is None and s.strip():
            seg.first_bold = bold
            seg.first_size = size
        seg.chars.extend(s)
        seg.bold.extend([bold] * len(s))

    def newline(self) -> None:
        self.segs.append(Seg())

    def mark(self, key: str) -> None:
        self.seg.marks.append((len(self.seg.chars), key))

    def empty(self) -> bool:
        return not any("".join(s.chars).strip() for s in self.segs) and not any(s.marks for s in self.segs)

    def flat(self) -> tuple[str, list[tuple[int, str]]]:
        """All lines joined with a space (a table cell, a caption)."""
        text = ""
        marks: list[tuple[int, str]] = []
        for seg in self.segs:
            t = "".join(seg.chars)
            body = t.strip()
            lead = len(t) - len(t.lstrip())
            if not body and not seg.marks:
                continue
            off = len(text) + (1 if text and body else 0)
            marks.extend((max(0, min(off + o - lead, off + len(body))), k) for o, k in seg.marks)
            if body:
                text = f"{text} {body}" if text else body
        return text, marks


def finish_paragraph(buf: ParaBuf, *, label: str | None, cues: dict[str, Any], label_bold: bool) -> list[OutLine]:
    """Strip the paragraph's lines, put the numbering label before the first, compute ``bold_prefix``."""
    out: list[OutLine] = []
    for k, seg in enumerate(buf.segs):
        text = "".join(seg.chars)
        prefix = f"{label} " if (k == 0 and label) else ""
        lead = len(text) - len(text.lstrip())
        body = text.strip()
        line_text = prefix + body
        shift = len(prefix) - lead
        marks = [(max(0, min(o + shift, len(line_text))), key) for o, key in seg.marks]
        if not line_text:
            if marks and out:  # a mark on an otherwise empty line belongs to the end of the previous one
                prev = out[-1]
                prev.marks.extend((len(prev.text), key) for _, key in marks)
            continue
        flags = [label_bold] * len(prefix) + seg.bold[lead: lead + len(body)]
        bp = bold_prefix(flags, line_text)
        c = dict(cues)
        c.update(bold=bp > 0 or bool(seg.first_bold), bold_prefix=bp, font_size=seg.first_size)
        if k > 0:
            c.pop("numbering", None)
        out.append(OutLine(text=line_text, cues=c, marks=marks))
    return out


def row_line(cells: list[tuple[str, list[tuple[int, str]], int, bool]]) -> OutLine | None:
    """A table row from (text, marks, bold_prefix, bold) cells, joined with " | " (empty cells keep their
    place); the row's bold cues are its first cell's. None when the row is empty."""
    if not any(t or m for t, m, _bp, _b in cells):
        return None
    text = ""
    marks: list[tuple[int, str]] = []
    for k, (t, m, _bp, _b) in enumerate(cells):
        if k:
            text += " | "
        marks.extend((len(text) + o, key) for o, key in m)
        text += t
    bp, bold = (cells[0][2], cells[0][3]) if cells else (0, False)
    return OutLine(text=text, cues={"role": "table_row", "bold": bold, "bold_prefix": bp}, marks=marks)


Cell = tuple[int, int, int, int, str, list[tuple[int, str]], int, bool]  # row, col, spans, text, marks, bp, bold


def table_rows(cells: list[Cell]) -> list[OutLine]:
    """Rows in reading order: cells by column; a cell spanning rows appears in its first row and leaves an
    empty place in the rows below (as the DOCX loader renders vertically merged cells)."""
    by_row: dict[int, list[tuple[int, str, list[tuple[int, str]], int, bool]]] = {}
    for row, col, rowspan, _colspan, text, marks, bp, bold in cells:
        by_row.setdefault(row, []).append((col, text, marks, bp, bold))
        for r in range(row + 1, row + rowspan):
            by_row.setdefault(r, []).append((col, "", [], 0, False))
    out: list[OutLine] = []
    for r in sorted(by_row):
        ordered = sorted(by_row[r], key=lambda c: c[0])
        ln = row_line([(t, m, bp, b) for _c, t, m, bp, b in ordered])
        if ln is not None:
            out.append(ln)
    return out


# ─── the document ────────────────────────────────────────────────────────────────────────────────


@dataclass
class _Note:
    kind: str  # "f" | "e"
    key: str
    lines: list[OutLine]
    page: int | None


class HangulDoc:
    """Body lines and notes in reading order; ``build`` turns them into a ``Document``."""

    def __init__(self, fmt: str) -> None:
        self.fmt = fmt
        self.body: list[OutLine] = []
        self.notes: list[_Note] = []
        self.page = 1
        self.explicit_breaks = 0
        self._n = {"f": 0, "e": 0}

    def new_page(self) -> None:
        self.page += 1
        self.explicit_breaks += 1

    def add(self, lines: list[OutLine]) -> None:
        for ln in lines:
            ln.page = self.page
            self.body.append(ln)

    def note_key(self, kind: str) -> str:
        self._n[kind] += 1
        return f"{kind}:{self._n[kind]}"

    def add_note(self, kind: str, key: str, lines: list[OutLine]) -> None:
        self.notes.append(_Note(kind, key, lines, self.page))

    def build(self, source: str, *, metadata: dict[str, Any], warnings: list[str]) -> Document:
        paged = self.explicit_breaks > 0
        b = DocBuilder(self.fmt)
        for ln in self.body:
            b.add_line(ln.text, page=ln.page if paged else None, marks=ln.marks, **ln.cues)
        counters = {"f": 0, "e": 0}
        for note in self.notes:
            counters[note.kind] += 1
            n = counters[note.kind]
            label = str(n) if note.kind == "f" else format_number(n, "ROMAN_SMALL")
            lines: list[tuple[str, dict[str, Any]]] = [
                (ln.text, {"font_size": ln.cues.get("font_size")}) for ln in note.lines]
            if lines:
                lines[0] = (f"{label} {lines[0][0]}", lines[0][1])
            else:
                lines = [(label, {})]
            b.add_footnote(label, lines, page=note.page if paged else None, key=note.key)
        if paged:
            warnings.append("page numbers count explicit page and section breaks only (the file's own layout "
                            "is not recomputed), so text that overflowed a page naturally is numbered with the "
                            "page before")
        metadata = {"page_source": "explicit" if paged else None, **metadata}
        doc = b.build(source, n_pages=self.page if paged else 0, metadata=metadata, warnings=warnings)
        if not doc.text.strip():
            doc.warnings.append("no text")
        return doc
