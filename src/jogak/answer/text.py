"""Answer units: a chunk's raw text cut into the pieces an answer can quote.

A *unit* is a sentence, a list item, a table row or an FAQ answer, with its offsets inside the chunk
(``chunk.text[start:end]`` is the verbatim quote) and the context a reader needs to understand it: the
heading above it, the paragraph marker (①) it sits in, the FAQ question it answers, the table header,
or the lead sentence of a list ("다음 각 호의 경우에는 …"). Context is used for scoring and for
narrowing a citation; it is never glued into the quote.

Rules, in order, per line of the chunk:

- heading lines (제N조 (…), 자주 묻는 질문, 부칙, 부록A, Section 4.2, Schedule A, <판결요지>, …) open a
  new context and are not answer units;
- table rows (two or more ``|`` or a tab) are one unit each; the first row of a table is its header,
  ``|---|`` rules are skipped;
- ``Q.`` lines are FAQ questions (context); ``A.`` lines, with their continuation lines, are one unit;
- list items (``1.``, ``가.``, ``(1)``) start a new unit whose lead is the sentence that introduced the
  list;
- other lines are prose: soft line breaks are joined (PDF wraps mid-sentence), paragraph markers
  (① … ⑳, also in mid-line) start paragraphs, and sentences end at ``다.``/``요.``/``.``/``?``/``!``
  followed by white space — never after a number alone (``2003. 7. 24.``, ``1.``) or an abbreviation.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from jogak.chunk.articles import normalise_heading
from jogak.model import Chunk, Segment

CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"

# Headings a citation can name. Korean statute/policy headings, appendix/schedule headings, FAQ, 부칙,
# case-law section headings, English section/article headings, markdown '#'.
_HEADING = re.compile(
    r"""^[ \t]*(?:
        \#{1,6}\s+\S.*
      | 제\s*\d+\s*(?:조|장|절|관)(?:\s*의\s*\d+)?(?:\s*[(（][^)）\n]*[)）])?\s*$
      | 제\s*\d+\s*조(?:\s*의\s*\d+)?\s*[(（][^)）\n]*[)）].*
      | 자주\s*묻는\s*질문.*
      | 부\s*칙(?:\s*[(<（].*)?\s*$
      | (?:부록|별표|별지|첨부)\s*[A-Za-z0-9가-힣]{0,3}\s*(?:[(（][^)）\n]*[)）])?\s*$
      | [<【\[]\s*(?:판시사항|판결요지|참조조문|참조판례|전문|이유|주문|쟁점|사실관계|판단)\s*[>】\]]\s*$
      | (?:판시사항|판결요지|참조조문|참조판례|주\s*문|이\s*유)\s*$
      | (?:Section|SECTION|Article|ARTICLE|Clause|CLAUSE)\s+\d+(?:\.\d+)*\b.{0,80}$
      | (?:Schedule|SCHEDULE|Exhibit|EXHIBIT|Annex|ANNEX|Appendix|APPENDIX)\s+[A-Z0-9]{1,3}\b.{0,80}$
      | (?:Frequently\s+Asked\s+Questions|FAQ)\s*$
    )""",
    re.VERBOSE,
)
_APPENDIX_HEAD = re.compile(r"^(?:부록|별표|별지|첨부)\s*[A-Za-z0-9]{0,3}|^(?:Schedule|Exhibit|Annex|Appendix)\s+[A-Z0-9]{1,3}",
                            re.IGNORECASE)
_TABLE_RULE = re.compile(r"^[\s|:+\-=]+$")
_FAQ_Q = re.compile(r"^[ \t]*(?:Q\s*\d*\s*[.:)．]|질문\s*[:：]|문\s*[:：])\s*")
_FAQ_A = re.compile(r"^[ \t]*(?:A\s*\d*\s*[.:)．]|답변\s*[:：]|답\s*[:：])\s*")
_ITEM = re.compile(r"^[ \t]*(?:\d{1,2}\.(?!\d)|[가-하]\.|\(\d{1,2}\)|\d{1,2}\)|[a-z]\)|\([a-z]\)|[-•·▪]\s)\s*")
_HOLDING = re.compile(r"^[ \t]*\[\d{1,2}\]\s*")
_CIRCLED_IN = re.compile(rf"(?:(?<=\s)|^)([{CIRCLED}])\s*")
# A sentence ends at . ? ! 。 followed by white space or the end — checked further in _ends_sentence.
_SENT_END = re.compile(r"[.?!。](?:[\"'”’)\]]*)(?=\s|$)")
_ABBREV = {
    "q", "a", "no", "nos", "e.g", "i.e", "etc", "inc", "ltd", "co", "corp", "sec", "secs", "cf", "vs",
    "st", "mr", "mrs", "ms", "dr", "art", "para", "p", "pp", "u.s", "n.a", "s.a", "jan", "feb", "mar",
    "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
}
# Pointer sentences: they only say where the answer is ("부록A 참조", "see Schedule B").
_POINTER = re.compile(
    r"""(?:
        (?:부록|별표|별지|첨부|각주)\s*[A-Za-z0-9가-힣]{0,3}(?:\s*제\s*\d+\s*조)?\s*(?:의\s*)?
            (?:을|를|에)?\s*(?:참조|참고|에\s*따른다|를\s*따른다|과\s*같다|와\s*같다|에서\s*정한다|에\s*정한다|로\s*정한다)
      | (?:제\s*\d+\s*조(?:\s*제\s*\d+\s*항)?)\s*(?:을|를)?\s*(?:참조|참고)
      | \b(?:see|refer\s+to|as\s+set\s+(?:out|forth)\s+in|set\s+out\s+in|specified\s+in)\s+
            (?:Schedule|Exhibit|Annex|Appendix|Section|Clause|Article|footnote)\b
    )""",
    re.VERBOSE | re.IGNORECASE,
)


# Sections that state questions or list contents, not answers: a case's 쟁점/판시사항 restate the issue
# (and so match a question best), a table of contents matches everything.
QUESTION_SECTIONS = frozenset({"쟁점", "판시사항", "목차", "차례", "contents", "table of contents"})
_TOC_LEADERS = re.compile(r"(?:·{3,}|\.{5,}|…{2,}).*(?:·{3,}|\.{5,}|…{2,})")


def is_question_section(heading: str) -> bool:
    h = heading.strip().strip("<>【】[]()#").strip().lower()
    return h in QUESTION_SECTIONS


# Revision notes of Korean statutes ("<개정 2012.2.1>", "<신설 2018.3.20>", "[본조신설 2019.1.15]") and
# deleted provisions ("삭제 <2017.11.28>"): annotations of the text's history, never an answer. A line that
# ends with one still ends where its sentence ends (the list after it is a list, not a continuation).
_REVISION = re.compile(
    r"[<\[]\s*(?:개정|신설|전문개정|본조신설|본조개정|제목개정|타법개정|일부개정|시행일|종전)[^>\]\n]{0,120}[>\]]")
_REVISION_TAIL = re.compile(rf"(?:\s*{_REVISION.pattern})+\s*$")
_DELETED = re.compile(r"^\s*(?:[{CIRCLED}]\s*)?삭제\s*(?:[<\[][^>\]\n]{0,40}[>\]])?\s*[.。]?\s*$")


def is_annotation(text: str) -> bool:
    """Only revision notes, or a deleted provision ("삭제 <2017.11.28>")."""
    t = text.strip()
    return bool(t) and (not _REVISION.sub("", t).strip(" ,.") or bool(_DELETED.match(t)))


POINTER_MAX_LEAD = 60  # characters before the reference in a pointer sentence
# "7.1 Governing Law." — a section caption run into its first sentence; it is merged with that sentence.
_CAPTION = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[A-Z]\.)\s+[A-Z][\w'’ ,&/-]{0,60}\.$")


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
                and not is_question_section(self.heading) and not _TOC_LEADERS.search(self.text)
                and not is_annotation(self.text))

    def display(self) -> str:
        """The unit as an answer shows it: whitespace normalised; table rows as "header: cell" pairs."""
        if self.kind == "table_row" and self.cells:
            if self.header_cells and len(self.header_cells) == len(self.cells):
                return ", ".join(f"{h}: {c}" if h else c for h, c in zip(self.header_cells, self.cells,
                                                                         strict=True))
            return ", ".join(self.cells)
        return normalise_ws(self.text)


def normalise_ws(s: str) -> str:
    """Collapse white space; a line break inside Hangul text (a PDF wrap mid-word) joins without a
    space only when the loader marked nothing — we cannot know, so a single space is used."""
    return " ".join(s.split())


def is_pointer(sentence: str) -> bool:
    """A sentence whose content is only a reference to another place ("지연 일수별 보상 금액은 부록A
    참조.", "See Schedule B."). Short sentences that end with the reference qualify; a sentence that
    states a rule and also mentions the appendix does not."""
    s = normalise_ws(sentence)
    matches = list(_POINTER.finditer(s))
    if not matches:
        return False
    m = matches[-1]
    tail = s[m.end():].strip(" .。)")
    # The reference must close the sentence (nothing substantive after it), and what comes before it
    # must be short: "지연 일수별 보상 금액은 부록A 참조." points; a full rule that ends "…, calculated as
    # set forth in Schedule 1." states something itself.
    return len(tail) <= 4 and len(s[: m.start()]) <= POINTER_MAX_LEAD


def refers(sentence: str) -> bool:
    """The sentence mentions another place as where details are ("… as set forth in Schedule 1")."""
    return _POINTER.search(normalise_ws(sentence)) is not None


def is_heading_line(line: str) -> bool:
    return bool(_HEADING.match(line))


def heading_name(line: str) -> str:
    line = line.strip().lstrip("#").strip()
    return normalise_heading(line)


def _table_cells(line: str) -> list[str]:
    if "|" in line:
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
    else:
        parts = [p.strip() for p in line.split("\t")]
    return parts


def _is_table_row(line: str) -> bool:
    return line.count("|") >= 2 or " | " in line or ("\t" in line.strip() and len([p for p in line.split("\t") if p.strip()]) >= 2)


def _ends_sentence(text: str, dot: int) -> bool:
    """Whether the terminator at ``dot`` closes a sentence (not a number, date part or abbreviation)."""
    ch = text[dot]
    if ch in "?!。":
        return True
    j = dot
    while j > 0 and not text[j - 1].isspace() and text[j - 1] not in "(（[":
        j -= 1
    token = text[j:dot]
    if not token:
        return False
    if token.isdigit():  # "1." item numbers, "2003. 7. 24." dates — but "… in Schedule 1. The Parties"
        before = text[:j].rstrip()
        nxt = text[dot + 1 :].lstrip()[:1]
        return bool(before) and before[-1].isalpha() and nxt.isascii() and nxt.isupper()
    if token.lower().rstrip(".") in _ABBREV:
        return False
    return not (len(token) == 1 and token.isalpha() and token.isupper())


def split_sentences(text: str, base: int = 0) -> list[tuple[int, int]]:
    """Sentence spans (``base``-relative offsets) of a prose run; leading/trailing space trimmed."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENT_END.finditer(text):
        if not _ends_sentence(text, m.start()):
            continue
        end = m.end()
        spans.append((start, end))
        start = end
    if start < len(text):
        spans.append((start, len(text)))
    out = []
    for s, e in spans:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            out.append((base + s, base + e))
    return out


def _merge_captions(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    carry: int | None = None
    for s, e in spans:
        if carry is not None:
            s, carry = carry, None
        if _CAPTION.match(text[s:e]) and (s, e) != spans[-1]:
            carry = s
            continue
        out.append((s, e))
    return out


def chunk_segments(chunk: Chunk) -> list[Segment]:
    """The chunk's clause segments (``chunk.metadata.segments``) re-based to chunk-relative offsets, clipped
    to the chunk (none for recursive chunks)."""
    md = chunk.metadata
    base, n = md.char_start, len(chunk.text)
    out = [Segment(path=sg.path, cite=sg.cite, start=sg.start - base, end=min(sg.end - base, n))
           for sg in md.segments if 0 <= sg.start - base < n]
    return sorted(out, key=lambda x: x.start)


def chunk_units(chunk: Chunk) -> list[Unit]:
    """``split_units`` over a chunk's text with the clause boundaries the chunker recorded at cut time."""
    return split_units(chunk.text, chunk_segments(chunk))


def _segment_cues(text: str, segments: list[Segment]) -> tuple[set[int], dict[int, str]]:
    """Line starts where a clause begins (a unit never runs across them), and the parent clauses whose
    own text is a single title line before their children ("3. Payment and Refunds", "1. 개인정보의 처리 목적"): those
    lines are headings, whatever their numbering looks like."""
    starts: set[int] = set()
    titles: dict[int, str] = {}
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
            titles[sg.start] = own
    return starts, titles


def split_units(text: str, segments: list[Segment] | None = None) -> list[Unit]:
    """Cut a chunk's raw text into units (see the module docstring for the rules). ``segments`` (from
    ``chunk_segments``) adds the clause boundaries the chunker knew: a unit never spans two clauses, and a
    clause that is only a title line over its sub-clauses is a heading."""
    seg_starts, seg_titles = _segment_cues(text, segments or [])
    units: list[Unit] = []
    heading = ""
    marker = ""
    lead = ""
    faq_q = ""
    table_header: list[str] = []
    block_prefix = ""  # "부록A" once an appendix heading has been seen in this chunk
    in_table = False
    prose: list[tuple[int, int]] = []  # pending prose lines (offsets), joined as one run
    answer_run: list[tuple[int, int]] = []  # pending FAQ answer lines
    item_run: list[tuple[int, int]] = []
    item_ko = False  # the current list is lettered 가. 나. 다. (so "다." can open an item)

    def flush_prose() -> None:
        nonlocal marker, lead
        if not prose:
            return
        s0, e0 = prose[0][0], prose[-1][1]
        run = text[s0:e0]
        # Paragraph markers split the run into paragraphs; sentences inside each.
        cuts = [m.start(1) for m in _CIRCLED_IN.finditer(run)]
        bounds = [0, *[c for c in cuts if c > 0], len(run)]
        for a, b in itertools.pairwise(bounds):
            para = run[a:b]
            m = _CIRCLED_IN.match(para.lstrip())
            off = a
            if m:
                marker = m.group(1)
                lead = ""
                skip = len(para) - len(para.lstrip()) + m.end()
                off = a + skip
                para = run[off:b]
            for s, e in _merge_captions(text, split_sentences(para, s0 + off)):
                sent = text[s:e]
                units.append(Unit(s, e, sent, "sentence", heading, marker, pointer=is_pointer(sent)))
                if not is_annotation(sent):
                    lead = normalise_ws(f"{lead} {sent}")
        prose.clear()

    def flush_answer() -> None:
        if not answer_run:
            return
        s, e = answer_run[0][0], answer_run[-1][1]
        m = _FAQ_A.match(text[s:e])
        if m:
            s += m.end()
        body = text[s:e].strip()
        if body:
            s = text.index(body[:1], s)
            e = s + len(body)
            units.append(Unit(s, e, text[s:e], "faq_a", heading, "", faq_q))
        answer_run.clear()

    def flush_item() -> None:
        if not item_run:
            return
        s, e = item_run[0][0], item_run[-1][1]
        m = _ITEM.match(text[s:e])
        ms = s + m.end() if m else s
        body = text[ms:e].rstrip()
        if body.strip():
            ms += len(body) - len(body.lstrip())
            units.append(Unit(ms, ms + len(body.strip()), text[ms:ms + len(body.strip())], "item",
                              heading, marker, lead, pointer=is_pointer(body),
                              item=m.group(0).strip() if m else ""))
        item_run.clear()

    def flush_all() -> None:
        flush_prose()
        flush_answer()
        flush_item()

    for ls, le in _line_spans(text):
        raw = text[ls:le]
        line = raw.strip()
        if not line:
            flush_all()
            in_table = False
            continue
        first = ls + (len(raw) - len(raw.lstrip()))
        if first in seg_starts or ls in seg_starts:
            flush_all()  # a new clause: whatever was open ends here
            if first in seg_titles or ls in seg_titles:
                heading = normalise_heading(line)
                marker = lead = faq_q = ""
                units.append(Unit(first, le, text[first:le], "heading", heading))
                continue
        if _is_table_row(raw):
            flush_all()
            if _TABLE_RULE.match(line):
                continue
            cells = _table_cells(raw)
            s = ls + (len(raw) - len(raw.lstrip()))
            if not in_table:
                in_table = True
                table_header = cells
                units.append(Unit(s, le, text[s:le], "table_header", heading, marker, lead))
            else:
                units.append(Unit(s, le, text[s:le].rstrip(), "table_row", heading, marker, lead,
                                  header_cells=list(table_header), cells=cells))
            continue
        in_table = False
        if is_heading_line(raw) and not _FAQ_A.match(raw):
            flush_all()
            name = heading_name(line)
            if _APPENDIX_HEAD.match(name):
                block_prefix = _APPENDIX_HEAD.match(name).group(0).strip()
                heading = name
            elif block_prefix and name.startswith("제"):
                heading = f"{block_prefix} {name}"
            else:
                heading = name
            marker = ""
            lead = ""
            faq_q = ""
            s = ls + (len(raw) - len(raw.lstrip()))
            units.append(Unit(s, le, text[s:le], "heading", heading))
            continue
        if _FAQ_Q.match(raw):
            flush_all()
            m = _FAQ_Q.match(raw)
            faq_q = line[m.end() - (len(raw) - len(raw.lstrip())):].strip() if m else line
            s = ls + (len(raw) - len(raw.lstrip()))
            units.append(Unit(s, le, text[s:le], "faq_q", heading, "", faq_q))
            continue
        if _FAQ_A.match(raw):
            flush_all()
            answer_run.append((ls, le))
            continue
        if answer_run:
            answer_run.append((ls, le))
            continue
        if _HOLDING.match(raw):
            flush_all()
            m = _HOLDING.match(raw)
            marker = raw[m.start():m.end()].strip() if m else ""
            body_start = ls + (m.end() if m else 0)
            prose.append((body_start, le))
            continue
        im = _ITEM.match(raw)
        if im and not _CIRCLED_IN.match(line):
            ko_letter = bool(re.match(r"[가-하]\.", line))
            prev_open = (prose and not _ended(text, prose[-1][1])) or (
                item_run and ko_letter and not item_ko)
            if not prev_open and (not ko_letter or line.startswith("가.") or item_ko):
                flush_all()
                item_ko = ko_letter
                item_run.append((ls, le))
                continue
        if item_run and not _CIRCLED_IN.match(line):
            item_run.append((ls, le))
            continue
        flush_item()
        if _CIRCLED_IN.match(line) and prose and _ended(text, prose[-1][1]):
            flush_prose()
        prose.append((ls + (len(raw) - len(raw.lstrip())), le))
    flush_all()
    units.sort(key=lambda u: u.start)
    return units


_INLINE_FAQ = re.compile(r"(?<=[.?!。])[ \t]+(?=(?:Q|A)\s*\d*[.:)．]\s)")


def _line_spans(text: str) -> list[tuple[int, int]]:
    """Line spans; a line holding several "Q. … A. …" pairs (a Markdown paragraph) is cut before each
    marker so that every question and answer starts its own line."""
    spans: list[tuple[int, int]] = []
    pos = 0
    for raw in text.split("\n"):
        ls, le = pos, pos + len(raw)
        pos = le + 1
        cuts = [m.end() for m in _INLINE_FAQ.finditer(raw)] if ("Q" in raw and "A" in raw) else []
        if cuts and (_FAQ_Q.match(raw) or _FAQ_A.match(raw)):
            prev = 0
            for c in cuts:
                spans.append((ls + prev, ls + c))
                prev = c
            spans.append((ls + prev, le))
        else:
            spans.append((ls, le))
    return spans


def _ended(text: str, end: int) -> bool:
    t = text[:end].rstrip()
    tail = _REVISION_TAIL.search(t)
    if tail and tail.start() > 0:
        t = t[: tail.start()].rstrip()
    return bool(t) and t[-1] in ".?!。:"


def hangul_ratio(text: str) -> float:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 0.0
    return sum(1 for c in letters if "\uac00" <= c <= "\ud7a3" or "\u3131" <= c <= "\u318e") / len(letters)


def detect_lang(*texts: str) -> str:
    """"ko" when Hangul makes up at least a fifth of the letters, else "en"."""
    joined = " ".join(texts)
    return "ko" if hangul_ratio(joined) >= 0.2 else "en"
