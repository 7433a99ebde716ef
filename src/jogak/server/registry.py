"""The collections a server process serves: one reader ``Store`` per collection, opened on first use.

Each ``Store`` is bound to a single collection (its own manifest, BM25 directory and Chroma collection);
the registry only maps a *checked* collection name to that object. The server process never writes a
collection's vectors: ingest and removal run in worker processes (``jogak.server.jobs``), and so may
``jogak ingest`` in a shell next to the server.

Seeing other processes' writes. BM25 follows the manifest by itself (the active index directory is
named there). Embedded Chroma does not: a process keeps the vector index it loaded in memory and does not
notice rows another process added. So every use of a collection (``use``) compares the manifest with the
one seen when the vectors were loaded; when it changed, the process's Chroma clients are closed (under
an exclusive gate, once the searches in flight have finished) and the next search loads the index from
disk again. With a Chroma server (``http://…``) nothing needs to be re-opened.

One query embedder is shared by every store of the process (wrapped in a lock: the model is not
documented to be thread-safe, and a query embedding takes milliseconds). Ingest never uses it: workers
load their own.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator
from typing import Any

from jogak.index.names import valid_collection
from jogak.server.settings import ServerSettings

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


class Gate:
    """Many users at once, or one refresher alone; a waiting refresher goes before new users."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._users = 0
        self._refreshing = False
        self._waiting = 0

    @contextlib.contextmanager
    def shared(self) -> Iterator[None]:
        with self._cond:
            while self._refreshing or self._waiting:
                self._cond.wait()
            self._users += 1
        try:
            yield
        finally:
            with self._cond:
                self._users -= 1
                self._cond.notify_all()

    @contextlib.contextmanager
    def exclusive(self) -> Iterator[None]:
        with self._cond:
            self._waiting += 1
            try:
                while self._refreshing or self._users:
                    self._cond.wait()
            finally:
                self._waiting -= 1
            self._refreshing = True
        try:
            yield
        finally:
            with self._cond:
                self._refreshing = False
                self._cond.notify_all()


class Collections:
    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self._readers: dict[str, Any] = {}
        self._seen: dict[str, tuple[Any, ...]] = {}  # manifest signature when the vectors were loaded
        self._lock = threading.Lock()
        self._open_locks: dict[str, threading.Lock] = {}
        self._gate = Gate()
        self.refreshes = 0
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
        if self.settings.shared:
            from jogak.index.shared import collection_names

            return [n for n in collection_names(str(self.settings.state_dir)) if valid_collection(n)]
        root = self.settings.state_path / "collections"
        if not root.is_dir():
            return []
        return sorted(p.name for p in root.iterdir() if valid_collection(p.name) and (p / "state.sqlite").is_file())

    def exists(self, name: str) -> bool:
        if self.settings.shared:
            return valid_collection(name) and name in self.names()
        return valid_collection(name) and (self.settings.state_path / "collections" / name / "state.sqlite").is_file()

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
                self._seen[name] = signature(st)
                with self._gate.shared():
                    prime(st)
                self._readers[name] = st
        return st

    @contextlib.contextmanager
    def use(self, name: str) -> Iterator[Any | None]:
        """The reader store for one search or answer, with vectors no older than the manifest."""
        st = self.reader(name)
        if st is not None and not self.settings.remote and self._seen.get(name) != signature(st):
            with self._gate.exclusive():
                if self._seen.get(name) != signature(st):
                    self._refresh()
        with self._gate.shared():
            yield st

    def _refresh(self) -> None:
        """Close every reader's Chroma client (the index of this process is shared by all of them), so the
        next search loads the vectors from disk. Called with the gate held exclusively."""
        self.refreshes += 1
        for name, st in list(self._readers.items()):
            self._seen[name] = signature(st)
            with contextlib.suppress(Exception):
                st.release_vectors()
        log.info("collections changed on disk: vector indexes re-opened")

    def create(self, name: str) -> None:
        """Create an empty collection (its manifest)."""
        st = self._open(name, create=True)
        st.close()

    def close(self) -> None:
        with self._lock:
            for st in self._readers.values():
                with contextlib.suppress(Exception):
                    st.close()
            self._readers.clear()


def signature(store: Any) -> tuple[Any, ...]:
    """What changes whenever a writer commits: the active BM25 index (a new directory per commit)."""
    try:
        snap = store.snapshot()
    except Exception:  # a broken manifest: nothing to compare
        return (None,)
    return (snap.lexical_id, snap.n_docs, snap.embedder)


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
