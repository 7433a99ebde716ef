"""Visual lines: pdfplumber characters grouped into lines, spaces from gaps, superscript marks removed.

Characters are grouped into lines by vertical overlap (so raised superscripts stay on their line), ordered
by x with spaces inserted from gaps; a gap over 3 × the font size inside a line is a column gap (the line
becomes a borderless table row, cells joined with ``" | "``). Smaller raised characters attached to a
word are footnote marks: removed from the text and kept as (offset, label).
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections import Counter
from dataclasses import dataclass, field

from jogak.grammar.numbering import CIRCLED_CLASS, GANADA_RANGE, ROMAN_CHAR_CLASS
from jogak.grammar.patterns import label

_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demibold|demi|extrabold|ultrabold|-bd|,bd|\bbd\b", re.I)
_MARK_TEXT = re.compile(r"^(?:\d{1,3}|[*†‡§¶]{1,3}|[a-z])$")
# a structural label at the start of a line (its width is a hanging indent; it starts a new paragraph)
LABEL = re.compile(
    rf"^(?:{CIRCLED_CLASS}|{label('[조장절관편]', branch=True)}(?:\s|\(|$)|\d{{1,3}}[.)]\s|\d{{1,3}}(?:\.\d{{1,3}})+\.?\s|{GANADA_RANGE}[.)]\s|"
    rf"\(\d{{1,3}}\)|\({GANADA_RANGE}\)|{ROMAN_CHAR_CLASS}|[-•·※▶■□○●◎◇◆▷]\s|[A-Z][.)]\s|[a-z][.)]\s|부\s*칙|\[?\s*부\s*록|\[?\s*별\s*[표지]|"
    r"(?:Article|Section|ARTICLE|SECTION|Schedule|SCHEDULE|Exhibit|EXHIBIT)\s)"
)
_COLUMN_GAP = "\x00"  # placeholder for a column gap while a line is laid out (resolved to " | ")


@dataclass
class Char:
    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    font: str

    @property
    def bold(self) -> bool:
        return bool(_BOLD_FONT.search(self.font))


@dataclass
class VLine:
    """One visual line on a page."""

    page: int
    chars: list[Char]  # in x order, marks excluded
    text: str
    flags: list[bool]  # bold per text character
    marks: list[tuple[int, str]]  # (offset in text, label) of removed superscripts
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    lead_space: bool = False
    trail_space: bool = False
    cells: bool = False  # a borderless table row (column gaps)
    table: bool = False  # a row of a ruled table
    label_w: float = 0.0  # width of a leading structural label (hanging indent)
    first_w: float = 0.0  # width of the first character
    first_word_w: float = 0.0
    baseline: float = 0.0
    cell_lines: list[list[str]] | None = None  # a ruled table row: each cell's wrapped lines
    space_thr: float = 0.0  # a gap wider than this (points) between glyphs is a space

    @property
    def bold(self) -> bool:
        s = self.text.lstrip()
        k = len(self.text) - len(s)
        return bool(self.flags[k: k + 1] and self.flags[k])


@dataclass
class Para:
    lines: list[VLine] = field(default_factory=list)


def dominant(values: list[float]) -> float:
    if not values:
        return 0.0
    c = Counter(round(v * 2) / 2 for v in values)
    return c.most_common(1)[0][0]


def group_lines(chars: list[Char]) -> list[list[Char]]:
    chars = sorted(chars, key=lambda c: ((c.top + c.bottom) / 2, c.x0))
    lines: list[list[Char]] = []
    bands: list[list[float]] = []  # [top, bottom] of the main characters of each line
    for c in chars:
        h = max(c.bottom - c.top, 0.1)
        placed = False
        for k in range(len(lines) - 1, max(len(lines) - 3, -1), -1):
            t, b = bands[k]
            ov = min(b, c.bottom) - max(t, c.top)
            if ov >= 0.5 * min(h, b - t):
                lines[k].append(c)
                if h >= (b - t) * 0.9:
                    bands[k] = [min(t, c.top), max(b, c.bottom)] if h > (b - t) * 1.1 else [t, b]
                placed = True
                break
        if not placed:
            lines.append([c])
            bands.append([c.top, c.bottom])
    return lines


def _space_threshold(main: list[Char], size: float) -> float:
    """The gap between two glyphs of a line above which there was a space (points).

    Normally 0.22 em. Engines that shrink spaces to fit one more word (HWP's 최소 공백) leave word gaps
    of about 0.15 em, so the threshold comes down to 0.11 em when the line's glyphs otherwise sit close
    together (median gap inside words + 0.09 em): kerning and letter-spacing justification stay inside
    words."""
    if not size:
        return 0.0
    xs = sorted(main, key=lambda c: c.x0)
    gaps = sorted(b.x0 - a.x1 for a, b in itertools.pairwise(xs) if b.x0 - a.x1 < 0.22 * size)
    base = gaps[len(gaps) // 2] if len(gaps) >= 3 else 0.0
    return min(0.22 * size, max(0.11 * size, base + 0.09 * size))


@dataclass
class _Layout:
    """A line's characters laid out left to right: text (with spaces and column-gap markers), bold flag
    per character, removed marks (offset, label) and the characters kept."""

    out: list[str] = field(default_factory=list)
    flags: list[bool] = field(default_factory=list)
    marks: list[tuple[int, str]] = field(default_factory=list)
    kept: list[Char] = field(default_factory=list)


def _lay_out(chars: list[Char], size: float, baseline: float, thr: float) -> _Layout:
    # superscript marks: smaller, raised, short, attached to a preceding word
    is_mark = [bool(c.text.strip()) and c.size <= 0.8 * size and c.bottom < baseline - 0.2 * size
               for c in chars]
    lay = _Layout()
    out, flags, kept = lay.out, lay.flags, lay.kept
    prev: Char | None = None
    i = 0
    n = len(chars)
    while i < n:
        c = chars[i]
        if is_mark[i]:
            taken = _take_mark_run(chars, i, is_mark, lay)
            if taken is not None:
                i, prev = taken
                continue
        if prev is not None and c.text != " " and (not out or out[-1] != " "):
            gap = c.x0 - prev.x1
            sz = min(c.size, prev.size) or size
            if gap > 3.0 * sz and kept:
                out.append(_COLUMN_GAP)
                flags.append(False)
            elif gap > thr * sz / size if size else gap > 0.22 * sz:
                out.append(" ")
                flags.append(False)
        if c.text == " " and out and out[-1] == " ":
            i += 1
            prev = c
            continue
        for ch in c.text:
            out.append(ch)
            flags.append(c.bold)
        kept.append(c)
        prev = c
        i += 1
    return lay


def _take_mark_run(chars: list[Char], i: int, is_mark: list[bool], lay: _Layout) -> tuple[int, Char] | None:
    """A run of raised small characters at ``i``: a footnote mark attached to the word before it is removed
    (recorded in ``lay.marks``); a raised label at the line start (a footnote's own number) is kept as
    text. Returns (index after the run, character to measure the next gap from), or None when the run is
    neither and is laid out as ordinary characters."""
    c = chars[i]
    n = len(chars)
    j = i
    label = ""
    while j < n and is_mark[j]:
        label += chars[j].text
        j += 1
    label = label.strip()
    kept = lay.kept
    attached = bool(kept) and kept[-1].text.strip() != ""
    if _MARK_TEXT.match(label) and attached:
        lay.marks.append((len(lay.out), label))
        # measure the next gap from the mark's right edge: no space appears where it was
        return j, Char(text="", x0=chars[j - 1].x0, x1=chars[j - 1].x1, top=c.top, bottom=c.bottom,
                       size=kept[-1].size, font=kept[-1].font)
    if not kept and _MARK_TEXT.match(label):
        for ch in chars[i:j]:
            lay.out.append(ch.text)
            lay.flags.append(ch.bold)
            kept.append(ch)
        lay.out.append(" ")
        lay.flags.append(False)
        return j, chars[j - 1]
    return None


def _resolve_cells(body: str, flags: list[bool], marks: list[tuple[int, str]]
                   ) -> tuple[str, list[bool], list[tuple[int, str]]]:
    """Column gaps become ``" | "`` between stripped cells; flags and mark offsets follow."""
    parts = body.split(_COLUMN_GAP)
    new = ""
    new_flags: list[bool] = []
    pos_map: list[int] = []
    k = 0
    for pi, part in enumerate(parts):
        if pi:
            new += " | "
            new_flags += [False] * 3
        stripped = part.strip(" ")
        lp = len(part) - len(part.lstrip(" "))
        for q in range(len(part)):
            pos_map.append(len(new) + max(0, min(q - lp, len(stripped))))
        new += stripped
        new_flags += flags[k + lp: k + lp + len(stripped)]
        k += len(part) + 1
        pos_map.append(len(new))
    marks = [(pos_map[o] if o < len(pos_map) else len(new), lab) for o, lab in marks]
    return new, new_flags, marks


def _label_width(body: str, kept: list[Char], first: Char) -> float:
    """Width from the line start to the first character after a leading structural label (0 if none)."""
    m = LABEL.match(body)
    if not m:
        return 0.0
    # x of the first character after the label and its space
    lab_len = len(m.group(0).rstrip())
    nonspace = [c for c in kept if c.text.strip()]
    cum = 0
    for c in nonspace:
        cum += len(c.text)
        if cum >= lab_len:
            nxt = [d for d in nonspace if d.x0 > c.x1 - 0.1]
            return (nxt[0].x0 - first.x0) if nxt else 0.0
    return 0.0


def build_vline(page: int, chars: list[Char]) -> VLine | None:
    chars = sorted(chars, key=lambda c: c.x0)
    main = [c for c in chars if c.text.strip()]
    if not main:
        return None
    size = dominant([c.size for c in main])
    big = [c for c in main if c.size >= 0.9 * size] or main
    baseline = statistics.median(c.bottom for c in big)
    thr = _space_threshold(main, size)
    lay = _lay_out(chars, size, baseline, thr)
    kept = lay.kept
    text = "".join(lay.out)
    lead_space = text.startswith(" ")
    trail_space = text.endswith(" ")
    cells = _COLUMN_GAP in text
    # strip and re-map
    lead = len(text) - len(text.lstrip(" "))
    body = text.strip(" ")
    flags = lay.flags[lead: lead + len(body)]
    marks = [(max(0, min(o - lead, len(body))), lab) for o, lab in lay.marks]
    if cells:
        body, flags, marks = _resolve_cells(body, flags, marks)
    if not body.strip():
        return None
    vis = [c for c in kept if c.text.strip()]
    first = vis[0]
    fw_end = first.x1
    for c in vis[1:]:
        if c.x0 - fw_end > thr:
            break
        fw_end = c.x1
    return VLine(page=page, chars=kept, text=body, flags=flags, marks=marks, x0=first.x0,
                 x1=vis[-1].x1, top=min(c.top for c in big), bottom=max(c.bottom for c in big),
                 size=size, lead_space=lead_space, trail_space=trail_space, cells=cells,
                 label_w=_label_width(body, kept, first), first_w=first.x1 - first.x0,
                 first_word_w=fw_end - first.x0, baseline=baseline, space_thr=thr)
