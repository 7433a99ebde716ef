"""Offsets in a decision's text: trimming, line starts and ends, whitespace — the small helpers every part
of the case-law builder shares."""

from __future__ import annotations

import re
from collections.abc import Iterator

from jogak.model import Node

# The reason a reference to another document (a statute, a precedent held elsewhere) stays unresolved here
UNRESOLVED = "other document"


def trim_end(text: str, start: int, end: int, extra: str = "") -> int:
    chars = " \t\r\n\u3000" + extra
    while end > start and text[end - 1] in chars:
        end -= 1
    return end


def skip_ws(text: str, pos: int, end: int) -> int:
    while pos < end and text[pos] in " \t\r\n\u3000":
        pos += 1
    return pos


def line_starts(text: str, lo: int, hi: int) -> Iterator[int]:
    """First non-blank character of each line that starts in [lo, hi) (``lo`` counts as a start)."""
    pos = lo
    while pos < hi:
        p = pos
        while p < hi and text[p] in " \t\u3000":
            p += 1
        if p < hi and text[p] != "\n":
            yield p
        nl = text.find("\n", pos, hi)
        if nl == -1:
            return
        pos = nl + 1


def line_end(text: str, pos: int, hi: int) -> int:
    nl = text.find("\n", pos, hi)
    return hi if nl == -1 else nl


def norm_ws(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def unique(seg: str, used: dict[str, int]) -> str:
    used[seg] = used.get(seg, 0) + 1
    return seg if used[seg] == 1 else f"{seg}~{used[seg]}"


def own_spans(node: Node) -> list[tuple[int, int]]:
    spans = []
    pos = node.body_start if node.body_start is not None else node.char_start
    for ch in node.children:
        if ch.char_start > pos:
            spans.append((pos, ch.char_start))
        pos = max(pos, ch.char_end)
    if node.char_end > pos:
        spans.append((pos, node.char_end))
    return spans
