"""Which numbering schemes a document uses.

A grammar lists every scheme it knows; a document uses a few. English: the top level is whichever heading
style the document really uses (ARTICLE, Section, Clause or "1."), and a bare "1 Definitions" counts when
clauses "1.1", "1.2" follow it. Korean: numbered section headings ("1. 개인정보의 처리 목적") and Roman
chapters ("Ⅱ. 관리 체계") are added only on evidence; otherwise "1." stays an item (호).
"""

from __future__ import annotations

import re
from collections import Counter

from jogak.grammar import Grammar, Scheme
from jogak.model import Line
from jogak.structure.candidates import Candidate, CandidateReader
from jogak.structure.layout import Body


def choose_schemes(body: Body, reader: CandidateReader, g: Grammar, lang: str) -> tuple[Scheme, ...]:
    if lang != "en":
        return _choose_ko(body, reader, g)
    return _choose_en(body, reader, g)


def _read(body: Body, reader: CandidateReader, ln: Line, sc: Scheme) -> list[Candidate]:
    """The line's candidates when ``sc`` matches it, else none: callers only look at ``sc``'s numbered
    candidate, and the cheap match first spares reading every line of a statute in full for each scheme."""
    start = ln.start + body.lead(ln)
    if not sc.regex.match(body.text[start: ln.end]):
        return []
    return reader.read(body.text, start, ln.end, ln, (sc,))


def _choose_en(body: Body, reader: CandidateReader, g: Grammar) -> tuple[Scheme, ...]:
    counts: Counter[str] = Counter()
    for ln in body.lines:
        if ln.start >= body.body_end:
            break
        s = body.raw(ln).lstrip()
        name = next((name for name, rx in g.heading_probe_res if rx.match(s)), None)
        if name is not None:
            counts[name] += 1
    words = max(("en_section_word", "en_clause_word"), key=lambda k: counts[k])
    top = "en_article" if counts["en_article"] >= 2 else (words if counts[words] >= 2 else "en_decimal_dot")
    extra: list[Scheme] = []
    if top == "en_decimal_dot":
        # UK drafting: "1 Definitions and interpretation" (no dot) over clauses "1.1", "1.2" — the bare
        # number is a heading when the line is only a title and clause "N.1" follows it
        for sc in g.section_schemes:
            heads = _bare_heads(body, reader, sc)
            if len(heads) >= 2 and len(heads) >= counts["en_decimal_dot"]:
                extra.append(sc)
                top = sc.name
    out = []
    for sc in (*extra, *g.schemes):
        if sc.anchored and sc.kind == "article" and sc.name != top:
            if sc.name == "en_decimal_dot":  # demoted to a plain enumerated list
                out.append(Scheme(sc.name, "item", sc.pattern, rank=45, path="{n}"))
            continue
        out.append(sc)
    return tuple(out)


def _bare_heads(body: Body, reader: CandidateReader, sc: Scheme) -> list[int]:
    """Numbers of lines that open with ``sc`` as a title line and have clause "N.1" somewhere after."""
    out = []
    lines = body.body_lines()
    starts = [body.raw(ln).lstrip() for ln in lines]
    for i, ln in enumerate(lines):
        cands = _read(body, reader, ln, sc)
        if cands and cands[0].number is not None:
            n = cands[0].number[0]
            if any(re.match(rf"{n}\.1(?![\d])", t) for t in starts[i + 1 : i + 40]):
                out.append(n)
    return out


def _choose_ko(body: Body, reader: CandidateReader, g: Grammar) -> tuple[Scheme, ...]:
    """Numbered section headings are the top level only in a document without 제N조 headings, and only when
    "1." and "2." are title lines over content (a heading's layout, or a next line that is no further "N."
    line — a list of short items has its next item there); Roman chapters when two title lines use them."""
    schemes = g.schemes
    if not g.section_schemes:
        return schemes
    lines = body.body_lines("footnote", "table_row")
    article = next(sc for sc in schemes if sc.name == "ko_article")
    has_articles = any(c.scheme is article for ln in lines for c in _read(body, reader, ln, article))
    chosen: list[Scheme] = []
    for sc in g.section_schemes:
        if sc.kind == "article" and has_articles:
            continue
        numbers: list[int] = []
        for i, ln in enumerate(lines):
            cands = _read(body, reader, ln, sc)
            if not cands or cands[0].number is None:
                continue
            nxt = body.raw(lines[i + 1]).strip() if i + 1 < len(lines) else ""
            if cands[0].strong or (nxt and not sc.regex.match(nxt)):
                numbers.append(cands[0].number[0])
        if (sc.kind == "article" and {1, 2} <= set(numbers)) or (sc.kind == "chapter" and len(numbers) >= 2):
            chosen.append(sc)
    if not chosen:
        return schemes
    # tried before the item schemes whose label looks the same ("1." as 호)
    k = max(i for i, sc in enumerate(schemes) if sc.anchored) + 1
    return (*schemes[:k], *chosen, *schemes[k:])
