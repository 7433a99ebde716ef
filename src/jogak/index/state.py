"""The collection's manifest: one SQLite database holding documents, generations, chunk rows and trees.

Every SQL statement of the store lives here. A document's chunks are written under a fresh generation
(``pending``), made ``active`` in one transaction with the document row and the BM25 directory pointer,
and ``retired`` generations are deleted afterwards; readers see only the rows of active generations (the
``ACTIVE`` join). ``meta`` holds the store-wide pointers: the active BM25 directory (and the previous one,
kept for readers that loaded it), the next generation number, the embedder and the tokenizer version.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sqlite3
import threading
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from jogak.model import Chunk

SCHEMA = """
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
# the chunk rows readers see: those of each document's active generation
ACTIVE = "chunks c JOIN docs d ON c.doc_id = d.doc_id AND c.gen = d.gen"
_BATCH = 500  # SQLite host parameters per IN (...) query


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
class Row:
    """One chunk as the store writes it: row key, chunk, BM25 tokens, filter columns, embedded text."""

    row: str
    chunk: Chunk
    tokens: list[str]
    cols: dict[str, Any]
    embed_text: str
    # the chunk's leaves (jogak.index.leaves): (path, embed text, tokens) each, and their vectors once embedded
    leaves: list[tuple[str, str, list[str]]] = field(default_factory=list)
    leaf_vectors: list[Any] = field(default_factory=list)


def now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def row_key(chunk_id: str, gen: int) -> str:
    return f"{chunk_id}@{gen}"


def store_id(state_dir: Path) -> str:
    """The store's id (keeps the Chroma collection names of two stores apart), created on first open."""
    p = state_dir / "store.json"
    try:
        return json.loads(p.read_text(encoding="utf-8"))["store_id"]
    except (FileNotFoundError, KeyError, json.JSONDecodeError):
        pass
    state_dir.mkdir(parents=True, exist_ok=True)
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


def _in(n: int) -> str:
    return f"({','.join('?' * n)})"


class Manifest:
    """``state.sqlite`` of one collection (WAL, one connection shared by the store's threads under
    ``lock``) and its ``write.lock`` (one writing process at a time)."""

    def __init__(self, coll_dir: Path) -> None:
        self.dir = coll_dir
        self.lock = threading.RLock()
        self.db = sqlite3.connect(str(coll_dir / "state.sqlite"), timeout=60, check_same_thread=False,
                                  isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        with self.lock:
            self.db.close()

    @contextlib.contextmanager
    def txn(self) -> Iterator[sqlite3.Connection]:
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    @contextlib.contextmanager
    def write_lock(self) -> Iterator[None]:
        fh = (self.dir / "write.lock").open("a")
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
            fh.close()

    # ─── reading ────────────────────────────────────────────────────────────────────────────

    def meta(self, key: str, default: str | None = None) -> str | None:
        r = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return r[0] if r else default

    def snapshot(self) -> Snapshot:
        with self.lock:
            self.db.execute("BEGIN")
            try:
                lex = self.meta("lexical")
                hidden = [r[0] for r in self.db.execute("SELECT gen FROM gens WHERE state != 'active'")]
                n = self.db.execute("SELECT COUNT(*) FROM docs").fetchone()[0]
                emb = self.meta("embedder")
                dim = self.meta("dim")
            finally:
                self.db.execute("COMMIT")
        return Snapshot(lex, sorted(hidden), int(n), emb, int(dim) if dim else None)

    def documents(self) -> list[DocInfo]:
        with self.lock:
            rows = self.db.execute(
                "SELECT doc_id, source, doc_title, sha256, n_chunks, ingested_at, path, case_json, strategy, "
                "format, n_pages, embedded, gen FROM docs ORDER BY source").fetchall()
        return [DocInfo(r[0], r[1], r[2] or "", r[3] or "", r[4] or 0, r[5] or "", r[6] or "",
                        json.loads(r[7]) if r[7] else None, r[8] or "", r[9] or "", r[10] or 0, bool(r[11]),
                        r[12])
                for r in rows]

    def document_text(self, doc_id: str) -> str | None:
        with self.lock:
            r = self.db.execute("SELECT text FROM docs WHERE doc_id=?", (doc_id,)).fetchone()
        return r[0] if r else None

    def doc_config(self, doc_id: str) -> str | None:
        r = self.db.execute("SELECT chunk_config FROM docs WHERE doc_id=?", (doc_id,)).fetchone()
        return r[0] if r else None

    def n_embedded_docs(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM docs WHERE embedded=1").fetchone()[0])

    def tree_and_text(self, doc_id: str) -> tuple[str, str | None] | None:
        """The stored tree (JSON) of the document's active generation and the document's text."""
        with self.lock:
            r = self.db.execute(
                "SELECT t.tree, d.text FROM trees t JOIN docs d ON t.doc_id = d.doc_id AND t.gen = d.gen "
                "WHERE t.doc_id=?", (doc_id,)).fetchone()
        return (r[0], r[1]) if r else None

    def chunk_data(self, rows: list[str]) -> list[tuple[str, str]]:
        """(row key, chunk JSON) of the rows that exist; the caller holds ``lock``."""
        out: list[tuple[str, str]] = []
        for i in range(0, len(rows), _BATCH):
            part = rows[i : i + _BATCH]
            out.extend(self.db.execute(f"SELECT row, data FROM chunks WHERE row IN {_in(len(part))}", part))
        return out

    def active_rows_of(self, chunk_ids: list[str]) -> dict[str, str]:
        """chunk id → row key of its active generation."""
        rows: dict[str, str] = {}
        with self.lock:
            for i in range(0, len(chunk_ids), _BATCH):
                part = chunk_ids[i : i + _BATCH]
                q = f"SELECT c.chunk_id, c.row FROM {ACTIVE} WHERE c.chunk_id IN {_in(len(part))}"
                rows.update(dict(self.db.execute(q, part).fetchall()))
        return rows

    def active_columns(self, doc_id: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        """(row key, filter columns) of the active chunks in document order, optionally of one document."""
        q = (f"SELECT c.row, c.cols FROM {ACTIVE}" + (" WHERE c.doc_id = ?" if doc_id else "")
             + " ORDER BY c.doc_id, c.chunk_no")
        with self.lock:
            return [(r, json.loads(cols)) for r, cols in self.db.execute(q, (doc_id,) if doc_id else ())]

    def active_index_rows(self) -> list[tuple[str, str, str, str]]:
        """(row key, tokens JSON, columns JSON, doc id) of the active chunks, in document order."""
        with self.lock:
            return self.db.execute(f"SELECT c.row, c.tokens, c.cols, c.doc_id FROM {ACTIVE} "
                                   "ORDER BY c.doc_id, c.chunk_no").fetchall()

    def iter_index_rows(self, page: int = 5000) -> Iterator[tuple[str, str, str, str]]:
        """``active_index_rows`` read page by page (a big collection's rows are not all held at once)."""
        with self.lock:
            cur = self.db.execute(f"SELECT c.row, c.tokens, c.cols, c.doc_id FROM {ACTIVE} "
                                  "ORDER BY c.doc_id, c.chunk_no")
            while batch := cur.fetchmany(page):
                yield from batch

    def index_rows_of_gens(self, gens: list[int]) -> Iterator[tuple[str, str, str, str]]:
        """(row key, tokens JSON, columns JSON, doc id) of the rows of (pending) generations, in order."""
        with self.lock:
            for i in range(0, len(gens), _BATCH):
                part = gens[i : i + _BATCH]
                yield from self.db.execute(f"SELECT row, tokens, cols, doc_id FROM chunks WHERE gen IN "
                                           f"{_in(len(part))} ORDER BY gen, chunk_no", part).fetchall()

    # ─── the BM25 directories (local files here; a shared manifest keeps them in its database) ──

    def publish_lexical(self, index: Any, parent: Path) -> str:
        """Save a new BM25 directory where readers find it; returns its id (not yet the active one)."""
        return index.save(parent)

    def fetch_lexical(self, lexical_id: str, parent: Path) -> Path:
        """The local directory of a BM25 index (a shared manifest downloads it first)."""
        return parent / lexical_id

    def drop_lexical(self, keep: set[str | None]) -> None:
        """Forget stored BM25 indexes outside ``keep`` (local directories are collected by the caller)."""

    def active_chunk_data(self) -> list[tuple[str, str, str]]:
        """(row key, chunk JSON, columns JSON) of every active chunk."""
        with self.lock:
            return self.db.execute(f"SELECT c.row, c.data, c.cols FROM {ACTIVE}").fetchall()

    def active_row_keys(self, embedded_only: bool = False) -> set[str]:
        with self.lock:
            return {r[0] for r in self.db.execute(
                f"SELECT c.row FROM {ACTIVE}" + (" WHERE d.embedded=1" if embedded_only else ""))}

    def embedded_doc_ids(self) -> set[str]:
        with self.lock:
            return {r[0] for r in self.db.execute("SELECT doc_id FROM docs WHERE embedded=1")}

    def count(self) -> int:
        with self.lock:
            return int(self.db.execute(f"SELECT COUNT(*) FROM {ACTIVE}").fetchone()[0])

    def inactive_gens(self) -> list[int]:
        """Pending or retired generations (a crashed writer's leftovers, or rows not yet deleted)."""
        return [r[0] for r in self.db.execute("SELECT gen FROM gens WHERE state != 'active'")]

    # ─── writing (inside ``txn``) ───────────────────────────────────────────────────────────

    def allocate_gens(self, db: sqlite3.Connection, n: int) -> int:
        """The first of ``n`` fresh generation numbers."""
        nxt = int(self.meta("next_gen", "1") or 1)
        db.execute("INSERT OR REPLACE INTO meta VALUES ('next_gen', ?)", (str(nxt + n),))
        return nxt

    def write_pending(self, db: sqlite3.Connection, gen: int, doc_id: str, rows: Iterable[Row],
                      tree: dict[str, Any] | None) -> None:
        """A document's new chunk rows (and tree) under generation ``gen``, invisible to readers."""
        db.execute("INSERT INTO gens VALUES (?, ?, 'pending')", (gen, doc_id))
        db.executemany("INSERT OR REPLACE INTO chunks VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [
            (r.row, r.chunk.id, doc_id, gen, r.chunk.metadata.chunk_no,
             json.dumps(r.chunk.to_dict(), ensure_ascii=False), json.dumps(r.tokens, ensure_ascii=False),
             json.dumps(r.cols, ensure_ascii=False)) for r in rows])
        if tree is not None:
            db.execute("INSERT OR REPLACE INTO trees VALUES (?, ?, ?)",
                       (doc_id, gen, json.dumps(tree, ensure_ascii=False)))

    def activate(self, db: sqlite3.Connection, gen: int, doc_id: str, doc: tuple[Any, ...]) -> int | None:
        """Make ``gen`` the document's active generation (``doc``: the docs row after doc_id and gen);
        returns the generation it retires, if any."""
        old = db.execute("SELECT gen FROM docs WHERE doc_id=?", (doc_id,)).fetchone()
        if old:
            db.execute("UPDATE gens SET state='retired' WHERE gen=?", (old[0],))
        db.execute("UPDATE gens SET state='active' WHERE gen=?", (gen,))
        db.execute("INSERT OR REPLACE INTO docs VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", (doc_id, gen, *doc))
        return old[0] if old else None

    def retire(self, db: sqlite3.Connection, doc_id: str, gen: int) -> None:
        """Remove a document: its generation is retired and its row deleted (rows are purged later)."""
        db.execute("UPDATE gens SET state='retired' WHERE gen=?", (gen,))
        db.execute("DELETE FROM docs WHERE doc_id=?", (doc_id,))

    def set_lexical(self, db: sqlite3.Connection, lexical_id: str) -> None:
        """Point readers at a new BM25 directory; the previous one is kept for readers that loaded it."""
        prev = self.meta("lexical")
        db.execute("INSERT OR REPLACE INTO meta VALUES ('lexical', ?)", (lexical_id,))
        if prev:
            db.execute("INSERT OR REPLACE INTO meta VALUES ('lexical_prev', ?)", (prev,))

    def set_meta(self, db: sqlite3.Connection, key: str, value: str) -> None:
        db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def set_tokens(self, db: sqlite3.Connection, updates: list[tuple[str, str]]) -> None:
        """(tokens JSON, row key) pairs."""
        db.executemany("UPDATE chunks SET tokens=? WHERE row=?", updates)

    def set_cols(self, db: sqlite3.Connection, updates: list[tuple[str, str]]) -> None:
        """(columns JSON, row key) pairs."""
        db.executemany("UPDATE chunks SET cols=? WHERE row=?", updates)

    def delete_gens(self, gens: Iterable[int]) -> None:
        with self.txn() as db:
            for g in gens:
                db.execute("DELETE FROM chunks WHERE gen=?", (g,))
                db.execute("DELETE FROM trees WHERE gen=?", (g,))
                db.execute("DELETE FROM gens WHERE gen=?", (g,))
