"""Seed 001's recursive character splitter, returning character spans instead of strings.

Same algorithm as LangChain's ``RecursiveCharacterTextSplitter(keep_separator="end")`` (a parity test
checks this), but every piece is a ``(start, end)`` span of the original text, so provenance comes from
the cut itself and never from searching for the chunk text afterwards.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

SEPARATORS: tuple[str, ...] = ("\n\n", "\n", ". ", " ", "")

Span = tuple[int, int]


class RecursiveSplitter:
    def __init__(
        self,
        chunk_size: int = 500,
        chunk_overlap: int = 100,
        separators: Sequence[str] = SEPARATORS,
        strip_whitespace: bool = True,
    ) -> None:
        if chunk_size <= 0:
            raise ValueError("chunk_size must be positive")
        if not 0 <= chunk_overlap < chunk_size:
            raise ValueError(f"chunk_overlap ({chunk_overlap}) must be >= 0 and < chunk_size ({chunk_size})")
        self.chunk_size = chunk_size
        self.chunk_overlap = chunk_overlap
        self.separators = tuple(separators)
        self.strip_whitespace = strip_whitespace

    def split_spans(self, text: str, start: int = 0, end: int | None = None) -> list[Span]:
        """Chunks of ``text[start:end]`` as spans into ``text``."""
        end = len(text) if end is None else end
        return self._split(text, start, end, self.separators)

    def split_text(self, text: str) -> list[str]:
        return [text[s:e] for s, e in self.split_spans(text)]

    # -- internals ---------------------------------------------------------------------------------

    def _split(self, text: str, start: int, end: int, separators: Sequence[str]) -> list[Span]:
        segment = text[start:end]
        separator = separators[-1]
        rest: Sequence[str] = ()
        for i, sep in enumerate(separators):
            if sep == "":
                separator = sep
                break
            if sep in segment:
                separator = sep
                rest = separators[i + 1 :]
                break
        pieces = _split_keep_end(segment, separator, start)
        out: list[Span] = []
        good: list[Span] = []
        for s, e in pieces:
            if e - s < self.chunk_size:
                good.append((s, e))
                continue
            if good:
                out.extend(self._merge(text, good))
                good = []
            if not rest:
                out.append((s, e))
            else:
                out.extend(self._split(text, s, e, rest))
        if good:
            out.extend(self._merge(text, good))
        return out

    def _merge(self, text: str, pieces: list[Span]) -> list[Span]:
        # Pieces are contiguous (separators were kept at their ends), so joining is taking the span.
        docs: list[Span] = []
        current: list[Span] = []
        total = 0
        for s, e in pieces:
            n = e - s
            if total + n > self.chunk_size and current:
                span = self._join(text, current)
                if span is not None:
                    docs.append(span)
                while total > self.chunk_overlap or (total + n > self.chunk_size and total > 0):
                    total -= current[0][1] - current[0][0]
                    current = current[1:]
            current.append((s, e))
            total += n
        span = self._join(text, current)
        if span is not None:
            docs.append(span)
        return docs

    def _join(self, text: str, current: list[Span]) -> Span | None:
        if not current:
            return None
        s, e = current[0][0], current[-1][1]
        if self.strip_whitespace:
            while s < e and text[s].isspace():
                s += 1
            while e > s and text[e - 1].isspace():
                e -= 1
        return (s, e) if e > s else None


def _split_keep_end(segment: str, separator: str, offset: int) -> list[Span]:
    """Split keeping each separator at the end of the piece before it; drop empty pieces."""
    if separator == "":
        return [(offset + i, offset + i + 1) for i in range(len(segment))]
    spans: list[Span] = []
    pos = 0
    for m in re.finditer(re.escape(separator), segment):
        if m.end() > pos:
            spans.append((offset + pos, offset + m.end()))
        pos = m.end()
    if pos < len(segment):
        spans.append((offset + pos, offset + len(segment)))
    return spans
