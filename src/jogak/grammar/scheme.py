"""The machinery that turns grammar data into labels, ordinals and path components: ``Scheme`` (one
numbering style), ``BlockWord`` (a word opening a block) and the numbering-order checks the parser uses."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from jogak.grammar.numbering import ORDINALS


@dataclass(frozen=True)
class Scheme:
    """One numbering style, e.g. Korean 항 "①" or English "(a)".

    ``pattern`` must match at the start of a stripped line and capture the number in group ``n``
    (and optionally a sub-number ``m`` for 제N조의M). ``kind`` is the node kind it creates. ``rank`` orders
    schemes that may nest (lower = outer); schemes with the same ``family`` compete for one level.
    ``path`` formats the path component from the number, e.g. "제{n}항".
    """

    name: str
    kind: str
    pattern: str
    ordinal: str = "int"  # key into numbering.ORDINALS
    rank: int = 50
    path: str = "{label}"  # format with label, n, sub ("의2"), raw (the number as written)
    # the node's label, formatted from: n, sub ("의2"), raw, numeral (n for digits, else raw in capitals),
    # written (the match, spaces collapsed) and compact (the match without spaces)
    label: str = "{written}"
    titled: bool = False  # may carry "(title)" or a short title after the label
    anchored: bool = False  # attaches to the block/chapter level, never nested under items
    dotted: bool = False  # "4.2.1": nests by numeric prefix
    inline: bool = False  # may start mid-line after a sentence end ("...한다. ② ...")
    # a heading only when the rest of its line is a short title ("1. 개인정보의 처리 목적"), which becomes the
    # node's title; "1. 성명: 홍길동" is no such heading
    whole_line_title: bool = False
    restarts: bool = False  # numbering restarts inside each chapter, so paths keep the chapter
    word_label: bool = False  # the label is a word ("제3항", "제2호") even though the scheme is not anchored
    regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "regex", re.compile(self.pattern))

    def format_label(self, matched: str, raw: str, number: tuple[int, ...]) -> str:
        """"제 3 조의 2" → "제3조의2", "ARTICLE iv" → "Article IV", "(a)" → "(a)"."""
        written = " ".join(matched.split()).rstrip()
        sub = f"의{number[1]}" if len(number) > 1 and number[1] else ""
        numeral = str(number[0]) if raw.isdigit() else " ".join(raw.upper().split())
        return self.label.format(n=number[0], sub=sub, raw=raw, numeral=numeral, written=written,
                                 compact=written.replace(" ", ""))

    def number(self, n: str, m: str | None = None) -> tuple[int, ...] | None:
        if self.dotted:
            try:
                return tuple(int(x) for x in n.split("."))
            except ValueError:
                return None
        v = ORDINALS[self.ordinal](n)
        if v is None:
            return None
        sub = int(m) if m and m.isdigit() else 0
        return (v, sub)


@dataclass(frozen=True)
class BlockWord:
    """A word that opens a block: an appendix (부록/Schedule), the addenda (부칙), an FAQ."""

    kind: str  # appendix | addenda | faq | footnotes
    words: tuple[str, ...]
    needs_id: bool = False  # "부록A" needs an identifier; "부칙" does not
    block_type: str = "body"


def successor(prev: tuple[int, ...], cur: tuple[int, ...], dotted: bool = False) -> bool:
    """Is ``cur`` the next number after ``prev``? (N,M) → (N,M+1) or (N+1,0); dotted x.y → x.(y+1)."""
    if dotted:
        return len(prev) == len(cur) and prev[:-1] == cur[:-1] and cur[-1] == prev[-1] + 1
    pn, pm = prev[0], prev[1] if len(prev) > 1 else 0
    cn, cm = cur[0], cur[1] if len(cur) > 1 else 0
    if cn == pn and cm == pm + 1:
        return True
    if cn == pn and pm == 0 and cm >= 2:  # 제43조 → 제43조의2 (의1 is not used)
        return True
    return cn == pn + 1 and cm == 0


def is_first(cur: tuple[int, ...], dotted: bool = False) -> bool:
    if dotted:
        return cur[-1] == 1
    return cur[0] == 1 and (len(cur) < 2 or cur[1] == 0)
