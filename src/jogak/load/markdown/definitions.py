"""Pass 1: footnote definitions (``[^n]: …``, with indented continuation paragraphs) and link reference
definitions (``[label]: url``) are taken out of the body; fenced code is left alone."""

from __future__ import annotations

from dataclasses import dataclass, field

from jogak.load.joining import display_width
from jogak.load.markdown.syntax import FENCE, FN_DEF, REF_DEF, block_start


@dataclass
class Definitions:
    body: list[str] = field(default_factory=list)  # the lines left for the block pass
    notes: dict[str, list[str]] = field(default_factory=dict)  # label → lines ("" between paragraphs)
    note_order: list[str] = field(default_factory=list)
    refs: dict[str, str] = field(default_factory=dict)  # lower-cased label → the definition line


def collect_definitions(src: list[str], warnings: list[str]) -> Definitions:
    d = Definitions()
    i = 0
    fence: str | None = None
    while i < len(src):
        ln = src[i]
        if fence is None:
            fm_ = FENCE.match(ln)
            if fm_:
                fence = fm_.group(2)[0] * 3
                d.body.append(ln)
                i += 1
                continue
        else:
            if ln.strip().startswith(fence):
                fence = None
            d.body.append(ln)
            i += 1
            continue
        m = FN_DEF.match(ln)
        if m:
            label = m.group(1)
            parts, i = _footnote_lines(src, i + 1, m.group(2))
            if label not in d.notes:
                d.note_order.append(label)
                d.notes[label] = parts
            else:
                warnings.append(f"footnote [^{label}] defined twice; the first definition is used")
            continue
        m = REF_DEF.match(ln)
        if m and not ln.lstrip().startswith("[^"):
            d.refs[m.group(1).lower()] = m.group(0)
            i += 1
            continue
        d.body.append(ln)
        i += 1
    return d


def _footnote_lines(src: list[str], i: int, first: str) -> tuple[list[str], int]:
    """A definition's lines from ``src[i]`` on: lazy and indented continuations, and further paragraphs
    when the next non-blank line is indented. Returns (lines, index after the definition)."""
    parts = [first]
    while i < len(src):
        nxt = src[i]
        if nxt.strip() == "":
            # blank line: continue only if the next non-blank is indented
            k = i
            while k < len(src) and src[k].strip() == "":
                k += 1
            if k < len(src) and display_width(src[k]) >= 2 and not FN_DEF.match(src[k]):
                parts.append("")
                i = k
                continue
            break
        if display_width(nxt) >= 2 or not block_start(nxt):
            if FN_DEF.match(nxt):
                break
            parts.append(nxt.strip())
            i += 1
            continue
        break
    return parts, i
