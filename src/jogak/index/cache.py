"""A persistent embedding cache keyed by (model name, sha256(text)), in one SQLite file.

Vectors are stored as raw float32 bytes. Several processes may share the file (WAL mode, busy timeout),
so tests and benchmarks can point every store at one cache and never re-embed the same passage.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    model TEXT NOT NULL,
    h BLOB NOT NULL,
    dim INTEGER NOT NULL,
    v BLOB NOT NULL,
    PRIMARY KEY (model, h)
) WITHOUT ROWID;
"""


def text_key(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


class EmbeddingCache:
    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(str(self.path), timeout=60, check_same_thread=False,
                                     isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute(_SCHEMA)

    def get_many(self, model: str, texts: Sequence[str]) -> list[np.ndarray | None]:
        keys = [text_key(t) for t in texts]
        found: dict[bytes, np.ndarray] = {}
        with self._lock:
            for i in range(0, len(keys), 500):
                part = list(dict.fromkeys(keys[i : i + 500]))
                q = f"SELECT h, v FROM vectors WHERE model=? AND h IN ({','.join('?' * len(part))})"
                for h, v in self._conn.execute(q, [model, *part]):
                    found[bytes(h)] = np.frombuffer(v, dtype=np.float32)
        return [found.get(k) for k in keys]

    def put_many(self, model: str, texts: Sequence[str], vectors: np.ndarray) -> None:
        rows = [(model, text_key(t), int(v.shape[0]), np.asarray(v, dtype=np.float32).tobytes())
                for t, v in zip(texts, vectors, strict=True)]
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?)", rows)
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM vectors").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()
