"""The store is what retrieval needs of one: ``jogak.index.Store`` satisfies ``SearchableStore``."""

from __future__ import annotations

from pathlib import Path

from jogak.index import open_store
from jogak.retrieve import SearchableStore


def test_store_is_searchable(tmp_path: Path) -> None:
    st = open_store(tmp_path / "db", embedder=False)
    try:
        assert isinstance(st, SearchableStore)
    finally:
        st.close()


def test_an_object_without_dense_search_is_not() -> None:
    class LexicalOnly:
        embedder = None

        def snapshot(self): ...
        def lexical(self, snap=None): ...
        def tokenizer_stale(self): ...
        def columns_stale(self): ...
        def dense_info(self, snap=None): ...
        def distinct(self, column): ...
        def chunk_map(self, rows): ...

    assert not isinstance(LexicalOnly(), SearchableStore)
