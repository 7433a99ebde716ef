"""Tables of contents: their entries look like headings but open nothing.

Two forms: a list with page numbers after a "목차" / "TABLE OF CONTENTS" line (skipped line by line while
entries keep ending in a page number), and a list without page numbers (web 약관/처리방침 pages, linked
lists) recognised because its entries come back, in order, as the real headings further down.
"""

from __future__ import annotations

import re

from jogak.grammar import Grammar, Scheme
from jogak.grammar.patterns import TOC_LEADER_RE
from jogak.model import Line
from jogak.structure.candidates import CandidateReader
from jogak.structure.layout import Body

_SPACE_RE = re.compile(r"\s+")
_PAGE_RE = re.compile(r"\s\d+\s*$")
_ENTRY_RE = re.compile(r"(?:\s|\.)(?:\d+|[ivxlc]+)\s*$")
_DECOR_RE = re.compile(r"[\s\[\]<>【】〈〉《》()#*]+")


class TocFilter:
    def __init__(self, body: Body, reader: CandidateReader, schemes: tuple[Scheme, ...], g: Grammar) -> None:
        self.body = body
        self.reader = reader
        self.schemes = schemes
        self.g = g
        self.in_toc = False
        self._heads = tuple(_SPACE_RE.sub("", w) for w in g.toc_words)
        self.listed = self._repeated_heading_lists()

    def skip(self, ln: Line, raw: str) -> bool:
        """Is this line part of a table of contents? (Call once per body line, in order.)"""
        return ln.start in self.listed or self._paged(raw)

    def _paged(self, raw: str) -> bool:
        """A table of contents lists headings with page numbers; its entries are not headings."""
        s = raw.strip()
        if (self._toc_head(s) and len(s) <= 20) or (any(w in s for w in self.g.toc_words) and (
                s.upper().startswith(("TABLE OF", "목차")) or _PAGE_RE.search(s))):
            self.in_toc = True
            return True
        if self.in_toc:
            if len(s) < 200 and _ENTRY_RE.search(s):
                return True
            self.in_toc = False
        return False

    def _toc_head(self, s: str) -> bool:
        """Does the line open with a table-of-contents word ("목차", "[목 차]", "TABLE OF CONTENTS")? Not a
        heading that merely holds one: "제21조 (차례)" is an article about 차례 (ancestral rites)."""
        return _DECOR_RE.sub("", s).startswith(self._heads)

    def _repeated_heading_lists(self) -> set[int]:
        """A run of short heading-like lines ("제1조(목적)" / "1. 개인정보의 처리 목적" …) whose first two lines
        come back, in order, as lines further down. Those later lines are the headings; the run is only a list
        of them. Returns the start offsets of the run's lines."""
        lines = [ln for ln in self.body.lines if ln.start < self.body.body_end and ln.role != "footnote"]
        texts = [_SPACE_RE.sub("", TOC_LEADER_RE.sub("", self.body.raw(ln))) for ln in lines]
        first_at: dict[str, list[int]] = {}
        for i, t in enumerate(texts):
            if t:
                first_at.setdefault(t, []).append(i)
        out: set[int] = set()
        i = 0
        while i < len(lines):
            run = []
            j = i
            while j < len(lines) and texts[j] and self._heading_like(lines[j]):
                run.append(j)
                j += 1
            for m in range(len(run) - 1):  # the list may follow a "목차" line or the title in the same run
                a, b = texts[run[m]], texts[run[m + 1]]
                # the list ends where its first entry comes back (the real heading may follow it directly)
                later_a = [k for k in first_at[a] if k > run[m + 1]]
                later_b = [k for k in first_at[b] if later_a and k > later_a[0]]
                toc_word = m > 0 and any(w in texts[run[m - 1]] for w in self.g.toc_words)
                if later_a and later_b and (toc_word or (self._opens_something(lines[run[m]])
                                                         and self._opens_something(lines[run[m + 1]]))):
                    out.update(lines[k].start for k in run[m:] if k < later_a[0])
                    if toc_word:  # the line saying "목차" goes with its list
                        out.add(lines[run[m - 1]].start)
                    break
            i = max(j, i + 1)
        return out

    def _opens_something(self, ln: Line) -> bool:
        """Is this line only a heading that opens an article, a section, a chapter or a block? (Statute
        addenda repeat whole lines like "제1조(시행일) 이 법은 … 시행한다." — those are no list entries.)"""
        cands = self.reader.read(self.body.text, ln.start + self.body.lead(ln), ln.end, ln, self.schemes)
        return any(c.title_only_line and (c.kind in ("appendix", "addenda") or (
            c.scheme is not None and c.scheme.anchored)) for c in cands)

    def _heading_like(self, ln: Line) -> bool:
        s = self.body.raw(ln).strip()
        if not s or len(s) > 60 or ln.role == "table_row" or re.search(r"다\.(?:\s|$)", s):
            return False
        return (not s.endswith(self.g.sentence_end) and not s.endswith((".", ":", "。"))) \
            or bool(TOC_LEADER_RE.search(s))
