"""참조조문: the statutes a decision cites, item by item ("민법 제750조, 제751조 / 같은 법 제2조") — each a
reference to another document, with the law carried over from item to item ("같은 법" → the law before)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from jogak.grammar import case as g
from jogak.model import Node, Ref
from jogak.structure.caselaw.text import UNRESOLVED, norm_ws
from jogak.structure.family import article_clause


def collect_statutes(text: str, sec: Node) -> None:
    """참조조문: each item as a reference (to another document) and as {law, article, holding} data."""
    items: list[dict[str, Any]] = []
    for holder in sec.children or [sec]:
        lo = holder.body_start if holder.body_start is not None else holder.char_start
        nums = holder.attrs.get("holdings") or [None]
        for ref, law, article in _statute_items(text, lo, holder.char_end):
            holder.refs.append(ref)
            for n in nums:
                items.append({"law": law, "article": article, "holding": n})
    sec.attrs["statutes"] = items

def _statute_items(text: str, lo: int, hi: int) -> Iterator[tuple[Ref, str | None, str | None]]:
    law: str | None = None
    art: str | None = None
    for ps, pe in _split_top(text, lo, hi):
        inside = _bracketed(text, ps, pe)  # "구 민법(… 법률 제4199호로 개정되기 전의 것)" is not an article
        arts = [m for m in g.ARTICLE_RE.finditer(text, ps, pe) if not any(a <= m.start() < b for a, b in inside)]
        if not arts:
            continue
        lead = text[ps : arts[0].start()]
        law_txt = _clean_law(lead)
        if law_txt:
            new_law = _resolve_law(law_txt, law)
            if new_law != law:
                art = None
            law = new_law
        for j, a in enumerate(arts):
            art = g.merge_article(art, a.group(0))
            start = a.start()
            if j == 0 and law_txt:
                start = ps + (len(lead) - len(lead.lstrip(" \t\n/")))
            yield (Ref(text=text[start : a.end()], start=start, end=a.end(), reason=UNRESOLVED, law=law,
                       clause=article_clause(art) if law else None), law, art)

# 판례내용 ───────────────────────────────────────────────────────────────────────────────


def _split_top(text: str, lo: int, hi: int) -> Iterator[tuple[int, int]]:
    """Pieces of ``text[lo:hi]`` split at "," "/" ";" outside brackets."""
    depth = 0
    start = lo
    for i in range(lo, hi):
        ch = text[i]
        if ch in "([［【{（":
            depth += 1
        elif ch in ")]］】}）" and depth:
            depth -= 1
        elif ch in ",/;，" and depth == 0:
            yield start, i
            start = i + 1
    yield start, hi


def _bracketed(text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """Spans of text inside (top-level) brackets in ``text[lo:hi]``."""
    spans, depth, start = [], 0, lo
    for i in range(lo, hi):
        ch = text[i]
        if ch in "([［{（":
            if depth == 0:
                start = i
            depth += 1
        elif ch in ")]］}）" and depth:
            depth -= 1
            if depth == 0:
                spans.append((start, i + 1))
    if depth:
        spans.append((start, hi))
    return spans


def _clean_law(s: str) -> str:
    # a line break right after a character is a mid-word wrap ("근로기준법 시\n행령"); after a space, a gap
    s = re.sub(r"(?<=\S)\n[ \t]*", "", s)
    s = re.sub(r"[(（][^()（）]*[)）]|\[[^\]]*\]|［[^］]*］", " ", s)
    s = re.sub(r"^[\s/,·]*(?:\[\d+\]\s*)*", "", s)
    return norm_ws(s)


def _resolve_law(law_txt: str, prev: str | None) -> str | None:
    """"같은 법 시행령" after "사립학교법" → "사립학교법 시행령"; any other name stands as written."""
    m = re.match(r"^(?:같은\s*법|동법)(.*)$", law_txt)
    if not m or prev is None:
        return law_txt
    rest = m.group(1).strip()
    return f"{prev} {rest}" if rest else prev
