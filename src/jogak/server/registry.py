"""The collections a server process serves: one reader ``Store`` per collection, opened on first use.

Each ``Store`` is bound to a single collection (its own manifest, BM25 directory and Chroma collection);
the registry only maps a *checked* collection name to that object. Ingest jobs get their own writer
``Store`` (a separate SQLite connection); readers see the writer's work only when the manifest flips.

One embedder is shared by every store of the process (wrapped in a lock: the model is not documented to
be thread-safe, and a query embedding takes milliseconds).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import Any

from jogak.server.settings import COLLECTION_RE, ServerSettings

log = logging.getLogger("jogak.server")


class LockedEmbedder:
    """An embedder whose calls are serialised (the same model object is used by all threads)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self._lock = threading.Lock()

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed_passages(self, texts: Any) -> Any:
        with self._lock:
            return self.inner.embed_passages(texts)

    def embed_query(self, text: str) -> Any:
        with self._lock:
            return self.inner.embed_query(text)


class Collections:
    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self._readers: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._open_locks: dict[str, threading.Lock] = {}
        self.embedder_reason: str | None = None
        self._embedder: Any = self._make_embedder(settings.embedder)
        self.store_config = {k: settings.section(k) for k in ("embed", "index", "retrieve", "chunk")}

    def _make_embedder(self, arg: Any) -> Any:
        if arg is False:
            self.embedder_reason = "dense retrieval disabled"
            return False
        if arg is None:
            from jogak.index.embed import EmbedderUnavailable, build_embedder

            try:
                arg = build_embedder(self.settings.section("embed"))
            except EmbedderUnavailable as e:
                self.embedder_reason = str(e)
                log.warning("%s", e)
                return False
        return LockedEmbedder(arg)

    # ── names ──
    def names(self) -> list[str]:
        """Existing collections (those with a manifest), sorted."""
        root = self.settings.state_path / "collections"
        if not root.is_dir():
            return []
        return sorted(p.name for p in root.iterdir()
                      if COLLECTION_RE.match(p.name) and (p / "state.sqlite").is_file())

    def exists(self, name: str) -> bool:
        return bool(COLLECTION_RE.match(name)) and (
            self.settings.state_path / "collections" / name / "state.sqlite").is_file()

    # ── stores ──
    def _open(self, name: str, create: bool) -> Any:
        from jogak.index import open_store

        return open_store(self.settings.store, name, state_dir=self.settings.state_dir or None,
                          embedder=self._embedder, create=create, config=self.store_config)

    def reader(self, name: str) -> Any | None:
        """The collection's shared reader store, or None when the collection does not exist."""
        st = self._readers.get(name)
        if st is not None:
            return st
        if not self.exists(name):
            return None
        with self._lock:
            lock = self._open_locks.setdefault(name, threading.Lock())
        with lock:
            st = self._readers.get(name)
            if st is None:
                st = self._open(name, create=False)
                prime(st)
                self._readers[name] = st
        return st

    def writer(self, name: str) -> Any:
        """A fresh store for one ingest/removal (created when missing); close it when done."""
        return self._open(name, create=True)

    def close(self) -> None:
        with self._lock:
            for st in self._readers.values():
                with contextlib.suppress(Exception):
                    st.close()
            self._readers.clear()


def prime(store: Any) -> None:
    """Resolve the store's lazy parts (embedder, Chroma client, BM25) once, before threads share it."""
    try:
        _ = store.embedder
        snap = store.snapshot()
        store.lexical(snap)
        use, _why = store.dense_info(snap)
        if use:
            store.dense_search(store.embedder.embed_query("준비"), 1, None, snap)
    except Exception as e:  # a broken vector store must not stop the collection from being served
        log.warning("priming collection '%s' failed: %s", getattr(store, "collection", "?"), e)
