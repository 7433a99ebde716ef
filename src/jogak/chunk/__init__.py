"""Chunking: Document (+ clause tree) → Chunks with provenance fixed at cut time."""

from __future__ import annotations

import sys as _sys
import types as _types
from collections.abc import Iterable

from jogak.chunk.articles import ArticleTagger, HeadingGrammar
from jogak.chunk.base import BaseChunker, doc_id_for
from jogak.chunk.recursive import SEPARATORS, RecursiveSplitter
from jogak.chunk.recursive_chunker import RecursiveChunker
from jogak.model import Chunk, Document

STRATEGIES = ("recursive", "structure")

__all__ = [
    "SEPARATORS",
    "STRATEGIES",
    "ArticleTagger",
    "BaseChunker",
    "HeadingGrammar",
    "RecursiveChunker",
    "RecursiveSplitter",
    "chunk",
    "doc_id_for",
    "get_chunker",
]


def get_chunker(strategy: str = "recursive", size: int = 500, overlap: int = 100, **kw) -> BaseChunker:
    if strategy == "recursive":
        return RecursiveChunker(size=size, overlap=overlap, **kw)
    if strategy == "structure":
        from jogak.chunk.hierarchical import HierarchicalChunker

        return HierarchicalChunker(size=size, overlap=overlap, **kw)
    raise ValueError(f"unknown chunking strategy '{strategy}' (choose from {', '.join(STRATEGIES)})")


def chunk(
    docs: Document | Iterable[Document],
    size: int = 500,
    overlap: int = 100,
    strategy: str = "recursive",
    id_prefix: str | None = "policy",
    **options,
) -> list[Chunk]:
    """Chunk documents one at a time (two documents never share a chunk).

    With ``id_prefix`` (default ``"policy"``), ids are numbered across the batch in seed 000's shape
    (``policy-002``); the same inputs always give the same ids. With ``id_prefix=None`` ids stay
    document-qualified (``{doc_id}-{chunk_no:03d}``), which is what a store uses so that adding a
    document never renumbers the others. ``chunk_no`` counts within the document.
    """
    if isinstance(docs, Document):
        docs = [docs]
    chunker = get_chunker(strategy, size=size, overlap=overlap, **options)
    out = list(chunker.chunk(docs))
    if id_prefix:
        for i, c in enumerate(out):
            c.id = f"{id_prefix}-{i:03d}"
    return out


class _CallableModule(_types.ModuleType):
    """``jogak.chunk`` is both this package and the function ``jogak.chunk(docs)`` (see jogak.load)."""

    def __call__(self, docs, *args, **kwargs) -> list[Chunk]:
        return chunk(docs, *args, **kwargs)


_sys.modules[__name__].__class__ = _CallableModule
