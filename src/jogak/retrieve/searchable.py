"""What retrieval needs of a store (``jogak.index.Store`` is one): a consistent snapshot, the BM25 index
with its filter columns, dense search inside Chroma, and the chunks of the rows it picked."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from jogak.index.lexical import LexicalIndex
    from jogak.index.state import Snapshot
    from jogak.model import Chunk


@runtime_checkable
class SearchableStore(Protocol):
    @property
    def embedder(self) -> Any:
        """Has ``embed_query(text) -> vector``; None when dense retrieval is unavailable."""
        ...

    def snapshot(self) -> Snapshot:
        """What one reader sees (the BM25 directory, the generations hidden from dense search)."""
        ...

    def lexical(self, snap: Snapshot | None = None) -> LexicalIndex:
        """The BM25 index of the snapshot: row keys, filter columns, ``search``."""
        ...

    def tokenizer_stale(self) -> bool:
        """True when the BM25 index was built by an older tokenizer."""
        ...

    def columns_stale(self) -> bool:
        """True when the rows' filter columns (``defines``, …) predate this version."""
        ...

    def dense_info(self, snap: Snapshot | None = None) -> tuple[bool, str | None]:
        """(dense retrieval usable, the reason when not)."""
        ...

    def dense_search(self, vector: Any, n: int, where: dict[str, Any] | None,
                     snap: Snapshot) -> list[tuple[str, float]]:
        """(row key, similarity) best first, filtered by a Chroma ``where``."""
        ...

    def dense_search_among(self, vector: Any, n: int, rows: list[str]) -> list[tuple[str, float]]:
        """(row key, similarity) best first among the given row keys, scored exactly."""
        ...

    def dense_vectors(self, rows: list[str]) -> Any:
        """The vectors of these row keys as one unit-length matrix in that order (None without vectors)."""
        ...

    def distinct(self, column: str) -> list[Any]:
        """Distinct values of a filter column (resolves substring filters for Chroma)."""
        ...

    def chunk_map(self, rows: list[str]) -> dict[str, Chunk]:
        """Row key → chunk for the rows that still exist."""
        ...

    def get_chunks(self, ids: Iterable[str]) -> list[Chunk]:
        """The active chunks of these ids, in order (ids that no longer exist are skipped)."""
        ...
