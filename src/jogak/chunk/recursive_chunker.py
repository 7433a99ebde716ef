"""Seed 001's strategy: recursive 500/100 split per document, seed 000's article tags."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from jogak.chunk.articles import ArticleTagger, HeadingGrammar
from jogak.chunk.base import BaseChunker
from jogak.chunk.recursive import SEPARATORS, RecursiveSplitter
from jogak.model import Chunk, Document


class RecursiveChunker(BaseChunker):
    strategy = "recursive"

    def __init__(
        self,
        size: int = 500,
        overlap: int = 100,
        separators: Sequence[str] = SEPARATORS,
        grammar: HeadingGrammar | None = None,
    ) -> None:
        self.splitter = RecursiveSplitter(size, overlap, separators)
        self.grammar = grammar or HeadingGrammar()

    def chunk_document(self, doc: Document) -> Iterator[Chunk]:
        tagger = ArticleTagger(doc.text, self.grammar)
        for no, (s, e) in enumerate(self.splitter.split_spans(doc.text)):
            yield self.make_chunk(doc, no, s, e, article=tagger.tag(s, e))
