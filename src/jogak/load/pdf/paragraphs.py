"""Visual lines → paragraphs (logical lines): which line continues which, and how they are joined.

Two visual lines are one paragraph when the first reaches the right text margin (the next line's first
word would not have fitted), font size and weight match, the vertical pitch is the normal leading for
that size (paragraph spacing breaks), the next line is aligned with the paragraph (no extra indent; a
first-line indent or hanging label is allowed), and the next line does not start with a structural label.
Across a page break the previous line must also not end a sentence.
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections import defaultdict

from jogak.grammar.numbering import CIRCLED_CLASS, GANADA, GANADA_RANGE
from jogak.grammar.patterns import GANADA_LABEL_RE, label
from jogak.load.builder import DocBuilder, bold_prefix
from jogak.load.joining import is_cjk, wrap_separator
from jogak.load.pdf.lines import LABEL, Para, VLine
from jogak.load.pdf.pages import Page
from jogak.load.pdf.wrap import WrapAnalysis

# labels that always start a new line even after a full line that does not end a sentence
_STRONG_LABEL = re.compile(rf"^(?:{CIRCLED_CLASS}|{label('[조장절관편]', branch=True)}(?:\s|\(|$)|{GANADA_RANGE}[.)]\s|\({GANADA_RANGE}\)|"
                           r"[•※▶■□○●◎◇◆▷]\s|부\s*칙|\[\s*(?:부\s*록|별\s*[표지])|"
                           # unbracketed, an appendix word heads a line only when no particle follows it or
                           # its number ("별표 1 과태료", "별표"): "별표의 수수료에 따른다", "별표 1에 따른다" continue a sentence
                           rf"(?:부\s*록|별\s*[표지])(?:\s*(?:\d+(?:-\d+)?|[A-Z]|{label('호')})(?![가-힣\d])|\s*$))")
_CLAUSE_END = re.compile(r"[.:;。!?)\]」』]$|다\.?$")
_SENTENCE_END = re.compile(r"(?:[.!?。]|다\.|[.!?][\"'”’)\]])$")


def right_margin(text_lines: list[VLine], pages: list[Page], body_size: float) -> float:
    """The right edge of full body lines; one line sticking out far past the rest does not count."""
    xs = sorted((v.x1 for v in text_lines if not v.cells and v.size >= body_size - 0.5), reverse=True)
    if len(xs) >= 2 and xs[0] - xs[1] > body_size:
        return xs[1]
    return xs[0] if xs else max(p.width for p in pages)


def leading_by_size(pages: list[Page], right: float) -> dict[float, float]:
    """Normal baseline pitch per font size (half points), measured between consecutive full lines."""
    leading: dict[float, float] = {}
    pitches: dict[float, list[float]] = defaultdict(list)
    for p in pages:
        body = [v for v in p.lines if not v.table]
        for a, b in itertools.pairwise(body):
            if abs(a.size - b.size) < 0.3 and a.x1 >= right - 1.5 * a.size and not a.cells:
                pitches[round(a.size * 2) / 2].append(b.baseline - a.baseline)
    for s, ps in pitches.items():
        ps = [x for x in ps if x > 0]
        if ps:
            leading[s] = min(statistics.median(ps), sorted(ps)[len(ps) // 4])
    return leading


def heading_levels(text_lines: list[VLine], body_size: float) -> dict[float, int]:
    """Font sizes larger than the body, largest = level 1."""
    big_sizes = sorted({round(v.size * 2) / 2 for v in text_lines if v.size > body_size + 0.9}, reverse=True)
    return {s: i + 1 for i, s in enumerate(big_sizes)}


def build_paragraphs(pages: list[Page], right: float, leading: dict[float, float]) -> list[Para]:
    paras: list[Para] = []
    prev: VLine | None = None
    last_ganada: str | None = None  # the last 가./나./다. label that started a paragraph
    for p in pages:
        for v in p.lines:
            if prev is not None and _continues(prev, v, paras[-1], right, leading, last_ganada):
                paras[-1].lines.append(v)
            else:
                paras.append(Para(lines=[v]))
                m = GANADA_LABEL_RE.match(v.text)
                if m:
                    last_ganada = m.group(1)
            prev = v
    return paras


def _continues(a: VLine, b: VLine, para: Para, right: float, leading: dict[float, float],
               last_ganada: str | None = None) -> bool:
    """Is visual line ``b`` the continuation of the paragraph whose last line is ``a``?

    A line starting "다. " after a full line is usually the end of a sentence a character wrapper split
    ("…할 수 있" + "다. 다만 …"): a 가./나./다. label only starts a new line when it is 가. or the successor
    of the last such label (나. after 가.), otherwise it counts as a weak label."""
    if a.table or b.table or a.cells or b.cells:
        return False
    if abs(a.size - b.size) > 0.4:
        return False
    a_tail = a.flags[-1] if a.flags else a.bold  # a bold run-in heading "제1조(목적) 이 법은…" ends regular
    if a.bold != b.bold and a_tail != b.bold:
        return False  # a bold heading followed by body text, or body followed by a bold heading
    if _label_breaks(a, b, last_ganada):
        return False
    size = a.size or 10.0
    if not _full_line(a, b, right, size):
        return False
    if not _pitch_continues(a, b, leading, size):
        return False
    return _aligned(a, b, para, size)


def _label_breaks(a: VLine, b: VLine, last_ganada: str | None) -> bool:
    """Does the label ``b`` starts with open a new paragraph after ``a``?"""
    g = GANADA_LABEL_RE.match(b.text)
    in_sequence = g is None or g.group(1) == "가" or (
        last_ganada is not None and GANADA.find(g.group(1)) == GANADA.find(last_ganada) + 1)
    if _STRONG_LABEL.match(b.text) and in_sequence:
        return True
    # weaker labels ("(12)", "2.3", "a.", "Section") start a new line unless the previous line stops
    # mid-sentence ("… for the following twelve" + "(12) months")
    return bool(LABEL.match(b.text) and _CLAUSE_END.search(a.text))


def _full_line(a: VLine, b: VLine, right: float, size: float) -> bool:
    """The previous line must be full: the next line's first word would not have fitted after it."""
    gap = right - a.x1
    cjk_join = is_cjk(a.text[-1]) and is_cjk(b.text[0])
    need = b.first_word_w + (0.0 if cjk_join else 0.25 * size)
    # tolerance: CJK wrappers do not always fill the last character cell (kinsoku rules, rounding)
    slack = 1.0 * size if cjk_join else 0.5 * size
    return not (need + slack < gap or gap > 8 * size)


def _pitch_continues(a: VLine, b: VLine, leading: dict[float, float], size: float) -> bool:
    """On one page: the normal leading for the size. Across pages: the next page, mid-sentence."""
    if a.page == b.page:
        pitch = b.baseline - a.baseline
        lead = leading.get(round(size * 2) / 2)
        if pitch <= 0:
            return False
        if lead is not None and pitch > lead + max(1.0, 0.1 * size):
            return False
        return not (lead is None and pitch > 1.9 * size)
    if b.page != a.page + 1:
        return False
    return not (_SENTENCE_END.search(a.text) and not (b.text[:1].islower()))


def _aligned(a: VLine, b: VLine, para: Para, size: float) -> bool:
    """Aligned with the paragraph: after its first line a first-line indent or hanging label is allowed."""
    first = para.lines[0]
    if a is first:
        lo = a.x0 - 4 * size
        hi = a.x0 + max(a.label_w, 0.0) + 0.6 * size
        return lo <= b.x0 <= hi
    return not abs(b.x0 - a.x0) > 0.6 * size


def join_para(para: Para, wrap: WrapAnalysis, hyphens: list[list[int]], base: int
              ) -> tuple[str, list[bool], list[tuple[int, str]], list[tuple[int, int]]]:
    """Join a paragraph's visual lines: text, bold flags, marks, page changes (offset, page)."""
    text = ""
    flags: list[bool] = []
    marks: list[tuple[int, str]] = []
    page_breaks: list[tuple[int, int]] = []
    prev: VLine | None = None
    for v in para.lines:
        if prev is None:
            text = v.text
            flags = list(v.flags)
            marks = list(v.marks)
            prev = v
            continue
        space = prev.trail_space or v.lead_space
        if not space and wrap.undecided(text, v.text):
            space = wrap.space_at(prev, v, text)
        sep, drop = wrap_separator(text, v.text, space_in_source=space, tight=True)
        if drop:
            text = text[:-drop]
            flags = flags[:-drop]
            hyphens.append([prev.page, base + len(text)])
        off = len(text) + len(sep)
        if v.page != prev.page:
            page_breaks.append((off, v.page))
        text = text + sep + v.text
        flags = flags + [False] * len(sep) + list(v.flags)
        marks.extend((off + o, lab) for o, lab in v.marks)
        prev = v
    return text, flags, marks, page_breaks


def emit_para(b: DocBuilder, para: Para, wrap: WrapAnalysis, level_of: dict[float, int],
              hyphens: list[list[int]]) -> None:
    first = para.lines[0]
    start = b.pos + (1 if b.parts else 0)
    text, flags, marks, page_breaks = join_para(para, wrap, hyphens, start)
    bp = bold_prefix(flags, text)
    if first.table or first.cells:
        b.add_line(text, page=first.page, page_breaks=page_breaks, marks=marks, role="table_row",
                   x0=round(first.x0, 2), font_size=first.size or None, bold=bp > 0, bold_prefix=bp)
        return
    size = round(first.size * 2) / 2
    b.add_line(text, page=first.page, page_breaks=page_breaks, marks=marks, font_size=first.size,
               bold=first.bold, bold_prefix=bp, x0=round(first.x0, 2), heading_level=level_of.get(size))
