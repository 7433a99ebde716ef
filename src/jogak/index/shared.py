"""Collection state in PostgreSQL, so several processes on several machines serve one collection.

``open_store(store, collection, state_dir="postgresql://user@host:5432/db")`` keeps every piece of a
collection's state in that database instead of a local state directory:

* the manifest (documents, generations, chunk rows, trees, the meta pointers) — the same statements as
  ``jogak.index.state`` (written for SQLite, translated here: ``?`` → ``%s``, ``INSERT OR REPLACE`` →
  ``ON CONFLICT … DO UPDATE``), one PostgreSQL schema per collection;
* the BM25 indexes: each published index directory is stored as rows of ``lexical_files`` before the flip
  names it, and a reader downloads the active one into a local cache folder (a disposable copy, never
  state: a new replica or a wiped disk just downloads it again);
* the embedding cache (``jogak_embed_cache``, shared by the collections of the database);
* the writer lock: a PostgreSQL advisory lock held by the writer's own connection, so a writer that dies
  (kill -9, a lost machine) releases it when its connection drops, and the next writer collects what it
  left (pending generations) exactly as after a local crash.

Vectors live in the vector store named by ``store`` — a ``chroma run`` server (``http://host:port``) for
replicas on several machines. The atomic commit is unchanged: rows and vectors are written under a pending
generation, and one PostgreSQL transaction flips the generations and the BM25 pointer together.

psycopg (3, LGPL-3.0) is imported only when a shared state is used: ``pip install 'jogak[postgres]'``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import tempfile
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jogak.index.state import SCHEMA as STATE_SCHEMA
from jogak.index.state import Manifest, Snapshot, StoreError

URL_PREFIXES = ("postgresql://", "postgres://")

# the SQLite manifest's schema (one definition) with 64-bit integers, plus what only the shared store needs:
# documents' chunks by document (replicas rebuild per document) and the BM25 index's files
SCHEMA = re.sub(r"\bINTEGER\b", "BIGINT", STATE_SCHEMA) + """
CREATE INDEX IF NOT EXISTS chunks_by_doc ON chunks(doc_id, chunk_no);
CREATE TABLE IF NOT EXISTS lexical_files (id TEXT NOT NULL, name TEXT NOT NULL, part INTEGER NOT NULL,
    data BYTEA NOT NULL, PRIMARY KEY (id, name, part));
"""
GLOBAL_SCHEMA = """
CREATE TABLE IF NOT EXISTS public.jogak_store (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS public.jogak_collections (name TEXT PRIMARY KEY, schema_name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS public.jogak_embed_cache (model TEXT NOT NULL, h BYTEA NOT NULL, dim INTEGER NOT NULL,
    v BYTEA NOT NULL, PRIMARY KEY (model, h));
"""
# the primary key of every table an ``INSERT OR REPLACE`` of jogak.index.state writes
_KEYS = {"meta": ("key",), "docs": ("doc_id",), "chunks": ("row",), "trees": ("doc_id", "gen")}
_COLUMNS = {
    "meta": ("key", "value"),
    "docs": ("doc_id", "gen", "source", "doc_title", "sha256", "n_chunks", "ingested_at", "path", "format",
             "n_pages", "strategy", "chunk_config", "case_json", "embedded", "text"),
    "chunks": ("row", "chunk_id", "doc_id", "gen", "chunk_no", "data", "tokens", "cols"),
    "trees": ("doc_id", "gen", "tree"),
}
_REPLACE = re.compile(r"INSERT OR REPLACE INTO (\w+) VALUES")
_PART = 8 << 20  # bytes per stored piece of a BM25 file


def is_shared(state: Any) -> bool:
    return isinstance(state, str) and state.startswith(URL_PREFIXES)


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError as e:
        raise StoreError("a PostgreSQL state needs psycopg: pip install 'jogak[postgres]'") from e
    return psycopg


def connect(url: str) -> Any:
    psycopg = _psycopg()
    try:
        return psycopg.connect(url, autocommit=True)
    except psycopg.OperationalError as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise StoreError(f"cannot reach the PostgreSQL state at {redact(url)}: {first}") from None


def redact(url: str) -> str:
    """The URL without its password (for messages)."""
    return re.sub(r"://([^:/@]+):[^@]*@", r"://\1:***@", url)


def _translate(sql: str) -> str:
    sql = sql.replace("BEGIN IMMEDIATE", "BEGIN").replace("?", "%s")
    m = _REPLACE.search(sql)
    if m:
        table = m.group(1)
        keys = _KEYS[table]
        rest = [c for c in _COLUMNS[table] if c not in keys]
        sql = (_REPLACE.sub(f"INSERT INTO {table} VALUES", sql) + f" ON CONFLICT ({', '.join(keys)}) DO UPDATE SET "
               + ", ".join(f"{c} = EXCLUDED.{c}" for c in rest))
    return sql


class PgConnection:
    """The slice of ``sqlite3.Connection`` that ``jogak.index.state`` uses, over a psycopg connection."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Any = ()) -> Any:
        if sql.startswith("PRAGMA"):
            return self.conn.execute("SELECT 1")
        return self.conn.execute(_translate(sql), tuple(params) if params else None)

    def executemany(self, sql: str, rows: Any) -> None:
        with self.conn.cursor() as cur:
            cur.executemany(_translate(sql), list(rows))

    def executescript(self, script: str) -> None:
        self.conn.execute(script)

    def close(self) -> None:
        self.conn.close()


def _global(conn: Any) -> None:
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(7171717)")  # two first openers: one creates the tables
        conn.execute(GLOBAL_SCHEMA)


def store_id(url: str) -> str:
    """The store's id (keeps Chroma collection names of two stores apart), created on first open."""
    with contextlib.closing(connect(url)) as conn:
        _global(conn)
        conn.execute("INSERT INTO public.jogak_store VALUES ('store_id', %s) ON CONFLICT DO NOTHING",
                     (uuid.uuid4().hex[:12],))
        return conn.execute("SELECT value FROM public.jogak_store WHERE key='store_id'").fetchone()[0]


def collection_names(url: str) -> list[str]:
    with contextlib.closing(connect(url)) as conn:
        _global(conn)
        return [r[0] for r in conn.execute("SELECT name FROM public.jogak_collections ORDER BY name")]


def local_cache(url: str) -> Path:
    """This machine's disposable copy of the state (downloaded BM25 directories), per database."""
    base = os.environ.get("JOGAK_SHARED_CACHE") or str(Path(tempfile.gettempdir()) / "jogak_shared")
    return Path(base) / hashlib.sha256(url.encode()).hexdigest()[:16]


class PgManifest(Manifest):
    """A collection's manifest in its own PostgreSQL schema (see the module docstring)."""

    def __init__(self, url: str, collection: str, create: bool = True) -> None:
        self.url = url
        self.collection = collection
        self.lock = threading.RLock()
        conn = connect(url)
        _global(conn)
        self.schema = "c_" + hashlib.sha256(collection.encode()).hexdigest()[:24]
        if not create and not conn.execute("SELECT 1 FROM public.jogak_collections WHERE name=%s",
                                           (collection,)).fetchone():
            conn.close()
            raise StoreError(f"no collection '{collection}' in the PostgreSQL state {redact(url)} — run "
                             "`jogak ingest` first")
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(7171717)")
            conn.execute(f"CREATE SCHEMA IF NOT EXISTS {self.schema}")
            conn.execute(f"SET search_path TO {self.schema}")
            conn.execute(SCHEMA)
            conn.execute("INSERT INTO public.jogak_collections VALUES (%s, %s) ON CONFLICT DO NOTHING",
                         (collection, self.schema))
        conn.execute(f"SET search_path TO {self.schema}")
        self.db = PgConnection(conn)  # type: ignore[assignment]
        self.dir = None  # type: ignore[assignment]

    @contextlib.contextmanager
    def txn(self) -> Iterator[Any]:
        with self.lock:
            self.db.conn.execute("BEGIN")
            try:
                yield self.db
                self.db.conn.execute("COMMIT")
            except BaseException:
                self.db.conn.execute("ROLLBACK")
                raise

    @contextlib.contextmanager
    def write_lock(self) -> Iterator[None]:
        """One writer per collection across every machine: an advisory lock on a connection of its own
        (released by PostgreSQL when the writer's connection ends, however the writer died)."""
        key = int.from_bytes(hashlib.sha256(self.schema.encode()).digest()[:8], "big", signed=True)
        with contextlib.closing(connect(self.url)) as conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (key,))
            try:
                yield
            finally:
                with contextlib.suppress(Exception):
                    conn.execute("SELECT pg_advisory_unlock(%s)", (key,))

    def snapshot(self) -> Snapshot:
        with self.lock:
            self.db.conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            try:
                lex = self.meta("lexical")
                hidden = [r[0] for r in self.db.execute("SELECT gen FROM gens WHERE state != 'active'")]
                n = self.db.execute("SELECT COUNT(*) FROM docs").fetchone()[0]
                emb = self.meta("embedder")
                dim = self.meta("dim")
            finally:
                self.db.conn.execute("COMMIT")
        return Snapshot(lex, sorted(hidden), int(n), emb, int(dim) if dim else None)

    def iter_index_rows(self, page: int = 5000) -> Iterator[tuple[str, str, str, str]]:
        # a named (server-side) cursor streams the rows instead of fetching the collection at once
        from jogak.index.state import ACTIVE

        with self.lock, self.db.conn.transaction(), self.db.conn.cursor(name="jogak_index_rows") as cur:
            cur.itersize = page
            cur.execute(f"SELECT c.row, c.tokens, c.cols, c.doc_id FROM {ACTIVE} ORDER BY c.doc_id, c.chunk_no")
            yield from cur

    # ─── BM25 directories as rows ───────────────────────────────────────────────────────────

    def publish_lexical(self, index: Any, parent: Path) -> str:
        """Save locally (the writer's own cache), then store every file before anyone can name the id."""
        lexical_id = index.save(parent)
        folder = parent / lexical_id
        with self.txn() as db:
            for f in sorted(folder.iterdir()):
                data = f.read_bytes()
                for part, i in enumerate(range(0, max(len(data), 1), _PART)):
                    db.conn.execute("INSERT INTO lexical_files VALUES (%s, %s, %s, %s)",
                                    (lexical_id, f.name, part, data[i : i + _PART]))
        return lexical_id

    def fetch_lexical(self, lexical_id: str, parent: Path) -> Path:
        folder = parent / lexical_id
        if folder.is_dir():
            return folder
        parent.mkdir(parents=True, exist_ok=True)
        tmp = parent / f".dl-{lexical_id}-{uuid.uuid4().hex[:8]}"
        tmp.mkdir()
        try:
            with self.lock:
                rows = self.db.execute("SELECT name, part, data FROM lexical_files WHERE id=%s ORDER BY name, "
                                       "part", (lexical_id,)).fetchall()
            if not rows:
                raise StoreError(f"BM25 index {lexical_id} is missing from the PostgreSQL state")
            for name, part, data in rows:
                with (tmp / name).open("ab" if part else "wb") as fh:
                    fh.write(data)
            try:
                os.rename(tmp, folder)
            except OSError:  # another reader of this machine downloaded it first
                shutil.rmtree(tmp, ignore_errors=True)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return folder

    def drop_lexical(self, keep: set[str | None]) -> None:
        ids = [k for k in keep if k]
        with self.lock:
            self.db.execute("DELETE FROM lexical_files WHERE NOT (id = ANY(%s))", (ids,))


class PgEmbeddingCache:
    """``jogak.index.cache.EmbeddingCache`` in PostgreSQL: one cache for every replica and writer."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._lock = threading.Lock()
        self._conn = connect(url)
        _global(self._conn)

    def get_many(self, model: str, texts: Any) -> list[Any]:
        import numpy as np

        from jogak.index.cache import text_key

        keys = [text_key(t) for t in texts]
        found: dict[bytes, Any] = {}
        with self._lock:
            for i in range(0, len(keys), 500):
                part = list(dict.fromkeys(keys[i : i + 500]))
                for h, v in self._conn.execute("SELECT h, v FROM public.jogak_embed_cache WHERE model=%s AND "
                                               "h = ANY(%s)", (model, part)):
                    found[bytes(h)] = np.frombuffer(v, dtype=np.float32)
        return [found.get(k) for k in keys]

    def put_many(self, model: str, texts: Any, vectors: Any) -> None:
        import numpy as np

        from jogak.index.cache import text_key

        rows = [(model, text_key(t), int(v.shape[0]), np.asarray(v, dtype=np.float32).tobytes())
                for t, v in zip(texts, vectors, strict=True)]
        with self._lock, self._conn.cursor() as cur:
            cur.executemany("INSERT INTO public.jogak_embed_cache VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                            rows)

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM public.jogak_embed_cache").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()
