"""Seed 001's chunk-size experiment, per document (chunks never span two documents)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from jogak.chunk.articles import ArticleTagger, HeadingGrammar
from jogak.chunk.recursive import RecursiveSplitter
from jogak.model import Document


def run_experiment(
    docs: Sequence[Document], settings: Iterable[tuple[int, int]], grammar: HeadingGrammar | None = None
) -> list[dict[str, Any]]:
    grammar = grammar or HeadingGrammar()
    taggers = [ArticleTagger(d.text, grammar) for d in docs]
    rows = []
    for size, overlap in settings:
        splitter = RecursiveSplitter(size, overlap)
        lengths: list[int] = []
        heads: list[int] = []
        for d, tagger in zip(docs, taggers, strict=True):
            for s, e in splitter.split_spans(d.text):
                lengths.append(e - s)
                heads.append(tagger.count_headings(s, e))
        n = len(lengths)
        rows.append({
            "size": size,
            "overlap": overlap,
            "count": n,
            "avg_len": round(sum(lengths) / n) if n else 0,
            "min_len": min(lengths) if n else 0,
            "max_len": max(lengths) if n else 0,
            "no_heading": sum(1 for h in heads if h == 0),
            "three_plus_headings": sum(1 for h in heads if h >= 3),
        })
    return rows
