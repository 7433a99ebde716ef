"""Duplicate characters (text drawn twice for a bold effect, shadows) removed in O(n log n), and a ceiling on
the characters of one page.

pdfplumber's ``dedupe_chars`` groups characters by (upright, text, font, size), clusters each group by
position within the tolerance and keeps the first of each cluster — then restores the page order with
``sorted(deduped, key=chars.index)``, a linear search per character. A page of 80,000 tiny glyphs (a PDF
of under 1 KB) takes that many minutes. ``dedupe_page`` keeps the same characters in the same order
(the clusters and the survivor of each are pdfplumber's own), restoring the order from a position map.

``MAX_PAGE_CHARS``: the densest page of the samples, fixtures and corpora holds 3,494 characters; a page
with more than 50,000 is refused with a typed error rather than laid out (its lines and tables would
still cost seconds each, and it is not a page anyone reads).
"""

from __future__ import annotations

import itertools
from operator import itemgetter
from typing import Any

MAX_PAGE_CHARS = 50_000


class TooDense(Exception):
    def __init__(self, number: int, n_chars: int) -> None:
        super().__init__(f"page {number} holds {n_chars:,} characters (at most {MAX_PAGE_CHARS:,} per page): "
                         "too dense to read as a page of a document")


def unique_chars(chars: list[dict[str, Any]], tolerance: float = 1,
                 extra_attrs: tuple[str, ...] = ("fontname", "size")) -> list[dict[str, Any]]:
    """pdfplumber.utils.dedupe_chars with its result order restored by a position map (same output)."""
    from pdfplumber.utils.clustering import cluster_objects

    key = itemgetter("upright", "text", *extra_attrs)
    pos_key = itemgetter("doctop", "x0")
    order = {id(c): i for i, c in enumerate(chars)}
    kept = []
    for _, group in itertools.groupby(sorted(chars, key=key), key=key):
        for y_cluster in cluster_objects(list(group), itemgetter("doctop"), tolerance):
            for x_cluster in cluster_objects(y_cluster, itemgetter("x0"), tolerance):
                kept.append(sorted(x_cluster, key=pos_key)[0])
    return sorted(kept, key=lambda c: order[id(c)])


def dedupe_page(page: Any, number: int, tolerance: float = 1) -> Any:
    """The page without duplicate characters (a pdfplumber filtered page); ``TooDense`` over the ceiling."""
    chars = page.chars
    if len(chars) > MAX_PAGE_CHARS:
        raise TooDense(number, len(chars))
    keep = {id(c) for c in unique_chars(chars, tolerance)}
    return page.filter(lambda o: o.get("object_type") != "char" or id(o) in keep)
