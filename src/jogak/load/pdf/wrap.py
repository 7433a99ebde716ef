"""Was there a space at each line break? The wrap mode of a document, read off its layout.

Used when visual lines are re-joined into paragraphs (``jogak.load.joining``): Latin words always get
one space; between Hangul the document's wrap mode (word or character) and, in a character-wrapped
document, the geometry of the break and the words on both sides (``jogak.load.spacing``) decide.
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections import defaultdict
from typing import Any

from jogak.load.joining import join_wrapped, needs_decision
from jogak.load.pdf.lines import Char, Para, VLine
from jogak.load.spacing import space_at_break

# never starts a line (kinsoku): a wrapper pulls the character before it down with it
_NO_LINE_START = frozenset(",.;:!?)]}」』）］｝〉》】〕”’%％·ㆍ")
_RUN = re.compile(r"[A-Za-z0-9][A-Za-z0-9,.%'’-]*")


def _gaps(v: VLine) -> tuple[list[float], list[float]]:
    """Gaps between consecutive glyphs of a line: (between words, inside words)."""
    words: list[float] = []
    inside: list[float] = []
    prev: Char | None = None
    spaced = False
    for c in v.chars:
        if not c.text.strip():
            spaced = True
            continue
        if prev is not None:
            g = c.x0 - prev.x1
            sz = min(c.size, prev.size) or v.size or 10.0
            if g <= 3.0 * sz:
                (words if spaced or g > (v.space_thr or 0.22 * sz) else inside).append(g)
        prev = c
        spaced = False
    return words, inside


def _text_right(lines: list[VLine], right: float, body_size: float) -> float:
    """The right text margin, read off lines that end in a letter or digit.

    Wrappers let closing punctuation hang past the margin ("…이하 "회사"" ending a few points further
    right), so lines ending in punctuation do not count, and a lone line sticking out does not either:
    the margin is the rightmost end that at least two lines reach (within half a character)."""
    ends = sorted((v.x1 for v in lines if not (v.cells or v.table) and v.chars and v.text[-1:].isalnum()
                   and v.size >= body_size - 0.5), reverse=True)
    for k, x in enumerate(ends):
        if x > right + 0.5 * body_size:
            continue
        support = sum(1 for y in ends[k:k + 8] if x - y <= 0.5 * body_size)
        if support >= min(2, len(ends)):
            return x
    return right


class WrapAnalysis:
    """Was there a space at each line break? Decided per document from the layout, then per break.

    A document wraps either by word (어절: HWP's and Word's default for Korean, always for English) or by
    character (글자 단위, reportlab's CJK wrap): with word wrapping every break fell on a space, with
    character wrapping most breaks fall inside a word. Justified lines reach the margin either way, so the
    signal is the line's *natural* width: its glyph extent minus the stretch justification added (gaps
    between words wider than the document's normal space, gaps between glyphs wider than normal letter
    spacing — both measured on lines that do not reach the margin, which are not stretched). The room
    left at the end of a line, ``slack``, is then compared with what the next line starts with (its first
    glyph, or its first Latin/number run, which character wrappers keep whole, plus any closing
    punctuation that may not start a line):

    * slack ≥ a space + the next glyph: a character wrapper would have put that glyph on this line, so
      the document wraps by word. With word wrapping a fifth to a half of all breaks show this (fewer when
      the engine shrinks spaces); with character wrapping none can. When at least two breaks and 10 % of
      them do, the document is ``"word"`` and every break is a space.
    * otherwise the document is ``"char"``; a break is a space when the next glyph alone would have
      fitted (slack ≥ the next glyph), or a space glyph was drawn at the break, and else the words on
      both sides decide (:func:`jogak.load.spacing.space_at_break`, Kiwi): a morpheme running across the
      break keeps it joined, a particle or ending before it makes it a word boundary, nouns stay
      together.

    ``summary()`` (``Document.metadata["wrap"]``) reports the mode and the counts behind it.
    """

    def __init__(self, lines: list[VLine], right: float, body_size: float) -> None:
        self.body_size = body_size or 10.0
        self.right = _text_right(lines, right, self.body_size)
        loose_w: dict[float, list[float]] = defaultdict(list)
        loose_i: dict[float, list[float]] = defaultdict(list)
        all_w: dict[float, list[float]] = defaultdict(list)
        all_i: dict[float, list[float]] = defaultdict(list)
        for v in lines:
            if v.cells or v.table or not v.chars:
                continue
            w, i = _gaps(v)
            key = round(v.size * 2) / 2
            all_w[key] += w
            all_i[key] += i
            if v.x1 < right - 3 * (v.size or self.body_size):  # short of the margin: not stretched
                loose_w[key] += w
                loose_i[key] += i
        self.space: dict[float, float] = {}
        self.letter: dict[float, float] = {}
        for key in set(all_w) | set(all_i):
            if len(loose_w[key]) >= 3:
                self.space[key] = statistics.median(loose_w[key])
                # an engine that shrinks spaces to fit one more word (HWP) sets full lines tighter than
                # loose ones: a line "had room" only beyond the narrowest space it actually used
                full = sorted(set(all_w[key]) - set(loose_w[key]))
                if len(full) >= 10:
                    self.space[key] = min(self.space[key], full[len(full) // 10])
            elif all_w[key]:
                self.space[key] = sorted(all_w[key])[len(all_w[key]) // 5]
            if len(loose_i[key]) >= 5:
                self.letter[key] = statistics.median(loose_i[key])
            elif all_i[key]:
                self.letter[key] = statistics.median(all_i[key])
        self.junctions: list[tuple[VLine, VLine]] = []
        self.mode = "none"
        self.word_evidence = 0
        self.kiwi_calls = 0

    # ── geometry ───────────────────────────────────────────────────────────────────────────────
    def _space_w(self, v: VLine) -> float:
        return self.space.get(round(v.size * 2) / 2, 0.3 * (v.size or self.body_size))

    def slack(self, a: VLine) -> float:
        """Room left at the end of ``a`` had it been set with natural spacing (points)."""
        key = round(a.size * 2) / 2
        w, i = _gaps(a)
        sp = self._space_w(a)
        lt = self.letter.get(key, 0.0)
        return self.right - a.x1 + sum(g - sp for g in w) + sum(g - lt for g in i)

    @staticmethod
    def need(b: VLine) -> float:
        """Width of what a wrapper could not have split off the start of ``b``."""
        vis = [c for c in b.chars if c.text.strip()]
        if not vis:
            return b.first_w
        m = _RUN.match(b.text)
        k = 1
        if m and len(m.group(0)) > 1:  # a Latin word or a number is kept whole
            n = len(m.group(0))
            k, cum = 0, 0
            while k < len(vis) and cum < n:
                cum += len(vis[k].text)
                k += 1
        while k < len(vis) and vis[k].text in _NO_LINE_START:
            k += 1
        k = max(1, min(k, len(vis)))
        return vis[k - 1].x1 - vis[0].x0

    # ── decisions ──────────────────────────────────────────────────────────────────────────────
    def add_para(self, para: Para) -> None:
        for a, b in itertools.pairwise(para.lines):
            if a.table or b.table or a.cells or b.cells or not a.chars or not b.chars:
                continue
            if a.trail_space or b.lead_space or not needs_decision(a.text, b.text):
                continue
            self.junctions.append((a, b))

    def decide(self) -> None:
        n = len(self.junctions)
        if n == 0:
            return
        w = 0
        for a, b in self.junctions:
            size = a.size or self.body_size
            if self.slack(a) >= self._space_w(a) + self.need(b) + 0.2 * size:
                w += 1
        self.word_evidence = w
        self.mode = "word" if w >= 2 and w >= 0.1 * n else "char"

    @staticmethod
    def undecided(text: str, nxt: str) -> bool:
        return needs_decision(text, nxt)

    def space_at(self, a: VLine, b: VLine, text: str) -> bool:
        """Was there a space at the break between ``a`` and ``b``? (``text``: the paragraph so far)."""
        if self.mode == "word":
            return True
        if a.chars and b.chars and self.slack(a) >= self.need(b) + 0.2 * (a.size or self.body_size):
            return True  # the next glyph would have fitted: the break fell on a space
        self.kiwi_calls += 1
        return space_at_break(text, b.text)

    def join_cell(self, lines: list[str]) -> str:
        """A table cell's wrapped lines (no geometry): the document's mode, else the words decide."""
        return join_wrapped(lines, lambda out, ln: self.mode == "word" or space_at_break(out, ln))

    def summary(self) -> dict[str, Any]:
        return {"mode": self.mode, "breaks": len(self.junctions), "word_evidence": self.word_evidence,
                "space_width": {str(k): round(v, 2) for k, v in sorted(self.space.items())}}
