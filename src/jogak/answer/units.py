"""Answer units: a chunk's raw text cut into the pieces an answer can quote.

A *unit* is a sentence, a list item, a table row or an FAQ answer, with its offsets inside the chunk
(``chunk.text[start:end]`` is the verbatim quote) and the context a reader needs to understand it: the
heading above it, the paragraph marker (①) it sits in, the FAQ question it answers, the table header,
or the lead sentence of a list ("다음 각 호의 경우에는 …"). Context is used for scoring and for
narrowing a citation; it is never glued into the quote.

Rules, in order, per line of the chunk (the line grammar is ``jogak.answer.text``):

- a line where the chunker recorded a clause start (``chunk.metadata.segments``) ends whatever was open;
  a clause whose own text is only its title line over sub-clauses makes that line a heading;
- table rows (two or more ``|`` or a tab) are one unit each; the first row of a table is its header,
  ``|---|`` rules are skipped;
- heading lines (제N조 (…), 자주 묻는 질문, 부칙, 부록A, Section 4.2, Schedule A, <판결요지>, …) open a
  new context and are not answer units;
- ``Q.`` lines are FAQ questions (context); ``A.`` lines, with their continuation lines, are one unit;
- a court's holding marker ([1]) opens a paragraph;
- list items (``1.``, ``가.``, ``(1)``) start a new unit whose lead is the sentence that introduced the
  list;
- other lines are prose: soft line breaks are joined (PDF wraps mid-sentence), paragraph markers
  (① … ⑳, also in mid-line) start paragraphs, and sentences end where ``split_sentences`` says.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from jogak.answer.text import (
    APPENDIX_HEAD,
    CIRCLED_IN,
    FAQ_A,
    FAQ_Q,
    HOLDING,
    ITEM,
    TABLE_RULE,
    heading_name,
    is_annotation,
    is_heading_line,
    is_pointer,
    is_question_section,
    is_table_row,
    is_toc_line,
    line_ended,
    merge_captions,
    normalise_ws,
    split_sentences,
    table_cells,
)
from jogak.chunk.articles import normalise_heading
from jogak.model import Chunk, Segment

Span = tuple[int, int]
# an article's title with its first paragraph on the same line ("제9조(포인트의 소멸) 포인트의 유효기간은 …")
_TITLE_THEN_BODY = re.compile(r"^[ \t]*(?P<title>제\s*\d+\s*조(?:\s*의\s*\d+)?\s*[(（]{1,2}[^)）\n]*[)）]{1,2})[ \t]*(?P<body>[^\s)）].*)$")


@dataclass(slots=True)
class Unit:
    """One quotable piece of a chunk. Offsets are chunk-relative; ``text`` is ``chunk.text[start:end]``."""

    start: int
    end: int
    text: str
    kind: str  # sentence | item | table_row | faq_a | heading | faq_q | table_header
    heading: str = ""  # nearest heading line above, normalised ("제2조 (반품 배송비)")
    marker: str = ""  # paragraph marker the unit sits in ("①"), "" if none
    context: str = ""  # FAQ question, table header, or list lead — what makes the unit readable
    header_cells: list[str] = field(default_factory=list)  # table rows: the header's cells
    cells: list[str] = field(default_factory=list)  # table rows: this row's cells
    pointer: bool = False  # only points elsewhere ("부록A 참조")
    item: str = ""  # list item label as written ("2.", "나.", "(3)") for items

    @property
    def answerable(self) -> bool:
        return (self.kind in ("sentence", "item", "table_row", "faq_a") and not self.pointer
                and not is_question_section(self.heading) and not is_toc_line(self.text)
                and not is_annotation(self.text))

    def display(self) -> str:
        """The unit as the answerer reads it: whitespace normalised; table rows as "header: cell" pairs."""
        if self.kind == "table_row" and self.cells:
            if self.header_cells and len(self.header_cells) == len(self.cells):
                return ", ".join(f"{h}: {c}" if h else c for h, c in zip(self.header_cells, self.cells,
                                                                         strict=True))
            return ", ".join(self.cells)
        return normalise_ws(self.text)

    def shown(self) -> str:
        """The unit as an answer shows it to people: ``display`` with a list item's label ("2. 외벽 보수 …"), so
        items shown one after another stay apart ("계획기간 외벽 보수" read as one item). Scoring reads
        ``display``: a label is no evidence."""
        if self.kind == "item" and self.item:
            return f"{self.item} {self.display()}"
        return self.display()


def chunk_segments(chunk: Chunk) -> list[Segment]:
    """The chunk's clause segments (``chunk.metadata.segments``) re-based to chunk-relative offsets, clipped
    to the chunk (none for recursive chunks)."""
    md = chunk.metadata
    base, n = md.char_start, len(chunk.text)
    out = [Segment(path=sg.path, cite=sg.cite, start=sg.start - base, end=min(sg.end - base, n))
           for sg in md.segments if 0 <= sg.start - base < n]
    return sorted(out, key=lambda x: x.start)


@dataclass(frozen=True, slots=True)
class Carry:
    """What is open where a chunk starts in the middle of a clause: the clause's heading, the paragraph
    marker and the list lead in force at the end of the chunk before it. A long clause is cut into several
    chunks; without this the units of a later chunk read as if they had no article, paragraph or list."""

    heading: str = ""
    marker: str = ""
    lead: str = ""
    lettered: bool = False  # the open list is lettered 가. 나. 다.


def in_clauses(chunk: Chunk) -> bool:
    """Whether the chunk was cut from a clause the chunker recorded (``metadata.clause``) whose later chunks
    continue it. Not a court decision's: its parts (판결요지, 이유) are no clauses, a date cut at a chunk
    boundary ("1997. | 7. 8.") reads as a list item, and its chunks are read one by one.

    A chunk with no chunk before it at hand starts with nothing open: giving its units the heading of the
    clause it continues (``metadata.article``) was measured and dropped — on 8 used answer sets it turned 5
    right answers into related ones (the heading's words move scores and the confidence fitted without them)."""
    md = chunk.metadata
    return bool(md.clause and md.doc_id) and md.case is None


def chunk_units(chunk: Chunk, carry: Carry | None = None) -> list[Unit]:
    """``split_units`` over a chunk's text with the clause boundaries the chunker recorded at cut time;
    ``carry`` is what is open where the chunk starts (``chunk_end``) of the chunk before it."""
    return split_units(chunk.text, chunk_segments(chunk), carry)


def chunk_end(chunk: Chunk, carry: Carry | None = None) -> Carry:
    """What is open at the end of ``chunk`` — the ``carry`` of the chunk after it."""
    cutter = _Cutter(chunk.text, chunk_segments(chunk), carry)
    cutter.run()
    return Carry(cutter.heading, cutter.marker, cutter.lead, cutter.item_ko)


def split_units(text: str, segments: list[Segment] | None = None, carry: Carry | None = None) -> list[Unit]:
    """Cut a chunk's raw text into units (see the module docstring for the rules). ``segments`` (from
    ``chunk_segments``) adds the clause boundaries the chunker knew: a unit never spans two clauses, and a
    clause that is only a title line over its sub-clauses is a heading."""
    return _Cutter(text, segments or [], carry).run()


def _segment_cues(text: str, segments: list[Segment]) -> tuple[set[int], dict[int, int]]:
    """Line starts where a clause begins (a unit never runs across them), and the parent clauses whose
    own text is a single title line before their children ("3. Payment and Refunds", "1. 개인정보의 처리 목적"): those
    lines are headings, whatever their numbering looks like. ``titles`` maps such a clause's start to
    where its title ends — before the line's end when its first child follows on the same line
    ("제3조(약관의 게시와 개정) ① 회사는 …")."""
    starts: set[int] = set()
    titles: dict[int, int] = {}
    for i, sg in enumerate(segments):
        ls = text.rfind("\n", 0, sg.start) + 1
        if text[ls:sg.start].strip():
            continue  # the clause starts mid-line ("…한다. ② …"): the paragraph rules handle it
        starts.add(sg.start)
        own_end = min([o.start for o in segments[i + 1:] if o.start > sg.start] + [sg.end])
        own = text[sg.start:own_end].strip()
        # the clause's own text is its heading as the tree names it (the segment's cite label ends with it):
        # an item that merely has sub-items ("1. 인도 장소: … 누리물류센터") is content, not a title
        cite, own_n = normalise_ws(sg.cite), normalise_ws(own)
        parent = bool(sg.path) and any(o.path.startswith(sg.path + "/") for o in segments[i + 1:])
        if parent and own_n and "\n" not in own and (cite == own_n or cite.endswith(" " + own_n)):
            titles[sg.start] = sg.start + len(text[sg.start:own_end].rstrip())
    return starts, titles


class _Cutter:
    """One pass over a chunk's lines. Holds what is open while the lines go by: the heading and paragraph
    marker in force, the lead of a list, the FAQ question, the table header, and the pending prose, list
    item or FAQ answer lines (offsets) that become units when they end."""

    def __init__(self, text: str, segments: list[Segment], carry: Carry | None = None) -> None:
        self.text = text
        self.seg_starts, self.seg_titles = _segment_cues(text, segments)
        self.units: list[Unit] = []
        self.heading = self.marker = self.lead = self.faq_q = ""
        if carry is not None:
            self.heading, self.marker, self.lead = carry.heading, carry.marker, carry.lead
        self.table_header: list[str] = []
        self.block_prefix = ""  # "부록A" once an appendix heading has been seen in this chunk
        self.in_table = False
        self.prose: list[Span] = []  # pending prose lines, joined as one run
        self.answer_run: list[Span] = []  # pending FAQ answer lines
        self.item_run: list[Span] = []
        self.item_ko = carry.lettered if carry is not None else False  # the current list is lettered 가. 나. 다.
        # (so "다." can open an item)

    def run(self) -> list[Unit]:
        for ls, le in _line_spans(self.text):
            self._line(ls, le)
        self._flush_all()
        self.units.sort(key=lambda u: u.start)
        return self.units

    # ── one line: the first rule that takes it ─────────────────────────────────────────────────
    def _line(self, ls: int, le: int) -> None:
        raw = self.text[ls:le]
        line = raw.strip()
        if not line:
            self._flush_all()
            self.in_table = False
            return
        first = ls + (len(raw) - len(raw.lstrip()))
        if self._clause_start(ls, first, le, line):
            return
        if is_table_row(raw):
            self._table_row(raw, first, le, line)
            return
        self.in_table = False
        for rule in (self._heading, self._faq, self._holding, self._item):
            if rule(raw, line, ls, first, le):
                return
        self._prose(line, first, le)

    def _clause_start(self, ls: int, first: int, le: int, line: str) -> bool:
        if first not in self.seg_starts and ls not in self.seg_starts:
            return False
        self._flush_all()  # a new clause: whatever was open ends here
        title_end = self.seg_titles.get(first, self.seg_titles.get(ls))
        if title_end is None:
            return False
        title_end = min(title_end, le) if title_end > first else le
        self.heading = normalise_heading(self.text[first:title_end].strip())
        self.marker = self.lead = self.faq_q = ""
        self.units.append(Unit(first, title_end, self.text[first:title_end], "heading", self.heading))
        rest = self.text[title_end:le]
        if rest.strip():  # the first paragraph follows the title on the same line: prose from there
            start = title_end + (len(rest) - len(rest.lstrip()))
            self._prose(self.text[start:le].strip(), start, le)
        return True

    def _table_row(self, raw: str, first: int, le: int, line: str) -> None:
        self._flush_all()
        if TABLE_RULE.match(line):
            return
        cells = table_cells(raw)
        if not self.in_table:
            self.in_table = True
            self.table_header = cells
            self.units.append(Unit(first, le, self.text[first:le], "table_header", self.heading, self.marker,
                                   self.lead))
        else:
            self.units.append(Unit(first, le, self.text[first:le].rstrip(), "table_row", self.heading,
                                   self.marker, self.lead, header_cells=list(self.table_header), cells=cells))

    def _heading(self, raw: str, line: str, ls: int, first: int, le: int) -> bool:
        if not is_heading_line(raw) or FAQ_A.match(raw):
            return False
        self._flush_all()
        body = _TITLE_THEN_BODY.match(raw)
        if body:  # "제3조(약관의 게시와 개정) ① 회사는 …": the title is the heading, the rest is its text
            le_title = ls + body.end("title")
            line = self.text[first:le_title]
        name = heading_name(line)
        appendix = APPENDIX_HEAD.match(name)
        if appendix:
            self.block_prefix = appendix.group(0).strip()
            self.heading = name
        elif self.block_prefix and name.startswith("제"):
            self.heading = f"{self.block_prefix} {name}"
        else:
            self.heading = name
        self.marker = self.lead = self.faq_q = ""
        if body:
            self.units.append(Unit(first, le_title, line, "heading", self.heading))
            start = ls + body.start("body")
            self._prose(self.text[start:le].strip(), start, le)
            return True
        self.units.append(Unit(first, le, self.text[first:le], "heading", self.heading))
        return True

    def _faq(self, raw: str, line: str, ls: int, first: int, le: int) -> bool:
        q = FAQ_Q.match(raw)
        if q:
            self._flush_all()
            self.faq_q = line[q.end() - (first - ls):].strip()
            self.units.append(Unit(first, le, self.text[first:le], "faq_q", self.heading, "", self.faq_q))
            return True
        if FAQ_A.match(raw):
            self._flush_all()
            self.answer_run.append((ls, le))
            return True
        if self.answer_run:  # an answer's continuation line
            self.answer_run.append((ls, le))
            return True
        return False

    def _holding(self, raw: str, line: str, ls: int, first: int, le: int) -> bool:
        m = HOLDING.match(raw)
        if not m:
            return False
        self._flush_all()
        self.marker = raw[m.start():m.end()].strip()
        self.prose.append((ls + m.end(), le))
        return True

    def _item(self, raw: str, line: str, ls: int, first: int, le: int) -> bool:
        if ITEM.match(raw) and not CIRCLED_IN.match(line):
            ko_letter = bool(re.match(r"[가-하]\.", line))
            prev_open = (self.prose and not line_ended(self.text, self.prose[-1][1])) or (
                self.item_run and ko_letter and not self.item_ko)
            if not prev_open and (not ko_letter or line.startswith("가.") or self.item_ko):
                self._flush_all()
                self.item_ko = ko_letter
                self.item_run.append((ls, le))
                return True
        if self.item_run and not CIRCLED_IN.match(line):  # an item's continuation line
            self.item_run.append((ls, le))
            return True
        return False

    def _prose(self, line: str, first: int, le: int) -> None:
        self._flush_item()
        if CIRCLED_IN.match(line) and self.prose and line_ended(self.text, self.prose[-1][1]):
            self._flush_prose()
        self.prose.append((first, le))

    # ── closing what is open ───────────────────────────────────────────────────────────────────
    def _flush_all(self) -> None:
        self._flush_prose()
        self._flush_answer()
        self._flush_item()

    def _flush_prose(self) -> None:
        if not self.prose:
            return
        text = self.text
        s0, e0 = self.prose[0][0], self.prose[-1][1]
        run = text[s0:e0]
        # Paragraph markers split the run into paragraphs; sentences inside each.
        cuts = [m.start(1) for m in CIRCLED_IN.finditer(run)]
        bounds = [0, *[c for c in cuts if c > 0], len(run)]
        for a, b in itertools.pairwise(bounds):
            para = run[a:b]
            m = CIRCLED_IN.match(para.lstrip())
            off = a
            if m:
                self.marker = m.group(1)
                self.lead = ""
                off = a + len(para) - len(para.lstrip()) + m.end()
                para = run[off:b]
            for s, e in merge_captions(text, split_sentences(para, s0 + off)):
                sent = text[s:e]
                self.units.append(Unit(s, e, sent, "sentence", self.heading, self.marker,
                                       pointer=is_pointer(sent)))
                if not is_annotation(sent):
                    self.lead = normalise_ws(f"{self.lead} {sent}")
        self.prose.clear()

    def _flush_answer(self) -> None:
        if not self.answer_run:
            return
        text = self.text
        s, e = self.answer_run[0][0], self.answer_run[-1][1]
        m = FAQ_A.match(text[s:e])
        if m:
            s += m.end()
        body = text[s:e].strip()
        if body:
            s = text.index(body[:1], s)
            e = s + len(body)
            self.units.append(Unit(s, e, text[s:e], "faq_a", self.heading, "", self.faq_q))
        self.answer_run.clear()

    def _flush_item(self) -> None:
        if not self.item_run:
            return
        text = self.text
        s, e = self.item_run[0][0], self.item_run[-1][1]
        m = ITEM.match(text[s:e])
        ms = s + m.end() if m else s
        body = text[ms:e].rstrip()
        if body.strip():
            ms += len(body) - len(body.lstrip())
            n = len(body.strip())
            self.units.append(Unit(ms, ms + n, text[ms:ms + n], "item", self.heading, self.marker, self.lead,
                                   pointer=is_pointer(body), item=m.group(0).strip() if m else ""))
        self.item_run.clear()


_INLINE_FAQ = re.compile(r"(?<=[.?!。])[ \t]+(?=(?:Q|A)\s*\d*[.:)．]\s)")


def _line_spans(text: str) -> list[Span]:
    """Line spans; a line holding several "Q. … A. …" pairs (a Markdown paragraph) is cut before each
    marker so that every question and answer starts its own line."""
    spans: list[Span] = []
    pos = 0
    for raw in text.split("\n"):
        ls, le = pos, pos + len(raw)
        pos = le + 1
        cuts = [m.end() for m in _INLINE_FAQ.finditer(raw)] if ("Q" in raw and "A" in raw) else []
        if cuts and (FAQ_Q.match(raw) or FAQ_A.match(raw)):
            prev = 0
            for c in cuts:
                spans.append((ls + prev, ls + c))
                prev = c
            spans.append((ls + prev, le))
        else:
            spans.append((ls, le))
    return spans
