"""Unnumbered heading lines: a title alone on its line over the content it heads.

Privacy policies and notices often head their parts with nothing but a title — "개인정보의 처리 목적",
then a paragraph, then "개인정보의 처리 및 보유 기간" … Without them a numbered list inside the first part
("1. 홈페이지 회원 가입 및 관리") is read as the document's sections, and its last item swallows every part
after it. A line is such a heading when its layout says so, never by its words:

- it reads as a title: short, no sentence ending, no "label: value", no number or label of any scheme;
- a layout cue sets it off: a blank line before it, or a heading style (Markdown/HTML heading, bold, a
  larger font);
- body follows it: the next line is a sentence (or longer than any title);
- the document has no 제N조 headings (those documents are organised by their articles), the title lines
  come before any numbered section heading ("1. 개인정보의 처리 목적" would be the outer level then), the
  first line (the document's title) is never one, and there are at least ``Grammar.title_lines_min``.
"""

from __future__ import annotations

from jogak.grammar import Grammar, Scheme
from jogak.model import Line
from jogak.structure.candidates import CandidateReader
from jogak.structure.layout import Body

_NOT_HEADINGS = ("list_item", "caption", "title")  # line roles that are something else already


def find_title_lines(body: Body, reader: CandidateReader, schemes: tuple[Scheme, ...], g: Grammar) -> frozenset[int]:
    """Start offsets of the document's unnumbered heading lines (empty when it has none, or too few)."""
    if g.title_line is None:
        return frozenset()
    lines = body.body_lines("footnote", "table_row")
    found: list[int] = []
    first_numbered: int | None = None
    for i, ln in enumerate(lines):
        cands = reader.read(body.text, ln.start + body.lead(ln), ln.end, ln, schemes)
        heads = [c for c in cands if c.scheme is not None and c.scheme.anchored and c.scheme.kind == "article"]
        if any(not c.scheme.restarts for c in heads if c.scheme is not None):
            return frozenset()  # 제N조: the articles organise the document
        if heads and first_numbered is None:
            first_numbered = i
        if i > 0 and not cands and _heads_body(body, reader, g, lines, i):
            found.append(i)
    if len(found) < g.title_lines_min or (first_numbered is not None and found[0] > first_numbered):
        return frozenset()
    return frozenset(lines[i].start for i in found)


def _heads_body(body: Body, reader: CandidateReader, g: Grammar, lines: list[Line], i: int) -> bool:
    """Is line ``i`` a title set off by layout with a sentence after it?"""
    ln = lines[i]
    s = body.raw(ln).strip()
    if ln.role in _NOT_HEADINGS or i + 1 >= len(lines) or reader.section_title(s) != s:
        return False
    if not (reader.strong(ln) or body.blank_before(ln)):
        return False
    nxt = body.raw(lines[i + 1]).strip()
    return nxt.endswith(g.sentence_end) or len(nxt) > g.section_title_max
