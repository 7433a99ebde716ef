"""Page furniture: folios and running headers/footers, dropped from the text and reported.

Folios ("- 3 -", "3", "Page 3 of 10", "3 / 10", "3쪽") among the first/last two lines of a page in the
top/bottom band, and running headers/footers (same text with digits normalised, at the same height on at
least two pages — half the pages in longer documents —, not larger than body text) are removed; each is
reported as (page, text, kind) with kind "folio", "header" or "footer".
"""

from __future__ import annotations

import re
from collections import defaultdict

from jogak.load.pdf.lines import VLine
from jogak.load.pdf.pages import Page

_FOLIO = [
    re.compile(r"^[-–—]\s*\d{1,4}\s*[-–—]$"),
    re.compile(r"^\d{1,4}$"),
    re.compile(r"^(?:page|p\.?)\s*\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$", re.I),
    re.compile(r"^\d{1,4}\s*/\s*\d{1,4}$"),
    re.compile(r"^[-–—]?\s*\d{1,4}\s*쪽\s*[-–—]?$"),
    re.compile(r"^[-–—]\s*\d{1,4}\s*/\s*\d{1,4}\s*[-–—]$"),
    re.compile(r"^[ivxlcdm]{1,6}$", re.I),
]

Furniture = tuple[int, str, str]  # (page, text as printed, "folio" | "header" | "footer")


def _norm_furniture(s: str) -> str:
    return re.sub(r"\d+", "#", " ".join(s.split()))


def _is_folio(s: str) -> bool:
    s = " ".join(s.split())
    return any(p.match(s) for p in _FOLIO)


def _band(v: VLine, p: Page) -> str | None:
    if v.bottom <= p.height * 0.12:
        return "top"
    if v.top >= p.height * 0.88:
        return "bottom"
    return None


def _edge_ids(p: Page) -> set[int]:
    """The first and last two text lines of a page (where a folio may sit)."""
    body_lines = [v for v in p.lines if not v.table]
    edge_ids = set()
    if body_lines:
        edge_ids = {id(body_lines[0]), id(body_lines[-1])}
        if len(body_lines) > 1:
            edge_ids |= {id(body_lines[1]), id(body_lines[-2])}
    return edge_ids


def remove_furniture(pages: list[Page], body_size: float) -> list[Furniture]:
    """Drop folios and running headers/footers from ``pages`` (in place); return what was dropped."""
    furniture: list[Furniture] = []
    removed_ids: set[int] = set()
    sig_pages: dict[tuple[str, int, str], set[int]] = defaultdict(set)
    for p in pages:
        for v in p.lines:
            b = _band(v, p)
            if b and not v.table and v.size <= body_size + 0.5:
                sig_pages[(_norm_furniture(v.text), round(v.top / 4), b)].add(p.number)
    for p in pages:
        edge_ids = _edge_ids(p)
        for v in p.lines:
            b = _band(v, p)
            if not b or v.table:
                continue
            if _is_folio(v.text) and id(v) in edge_ids:
                furniture.append((p.number, v.text, "folio"))
                removed_ids.add(id(v))
                continue
            if v.size > body_size + 0.5:
                continue
            key = (_norm_furniture(v.text), round(v.top / 4), b)
            near = set()
            for dk in (-1, 0, 1):
                near |= sig_pages.get((key[0], key[1] + dk, b), set())
            if len(near) >= 2 and (len(pages) < 4 or len(near) >= 0.5 * len(pages)):
                furniture.append((p.number, v.text, "header" if b == "top" else "footer"))
                removed_ids.add(id(v))
    for p in pages:
        p.lines = [v for v in p.lines if id(v) not in removed_ids]
    return furniture
