"""Indexing: embeddings (with a persistent cache), BM25 over Kiwi morphemes, and the store."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jogak.index.ingest import IngestReport
    from jogak.index.store import DocInfo, Store, StoreError

__all__ = ["DEFAULT_COLLECTION", "DEFAULT_STORE", "DocInfo", "IngestReport", "Store", "StoreError", "open_store"]

DEFAULT_STORE = "./jogak_db"
DEFAULT_COLLECTION = "default"


def open_store(store: Any = DEFAULT_STORE, collection: str = DEFAULT_COLLECTION, state_dir: Any = None,
               embedder: Any = None, create: bool = True, config: dict[str, Any] | None = None) -> Store:
    """See ``jogak.index.store.open_store``."""
    from jogak.index.store import open_store as _open

    return _open(store, collection, state_dir, embedder, create, config)


def __getattr__(name: str) -> Any:
    if name in ("Store", "DocInfo", "StoreError"):
        from jogak.index import store

        return getattr(store, name)
    if name == "IngestReport":
        from jogak.index.ingest import IngestReport

        return IngestReport
    raise AttributeError(name)
