"""Leaf matching ("small-to-big"): every leaf of a chunk — a 항, 호, 목 or numbered sub-clause, with its
article breadcrumb (``jogak.chunk.contextualize.leaves``) — is embedded and tokenized at ingest and
matched on its own, so a long article is found through the one paragraph that answers.

The leaves live beside the BM25 index, in the same directory (written once, renamed into place, flipped
with the generation that made them): ``leaves.json`` (each leaf's row, path and tokens), ``leaf_vectors.npy``
(float16, one row per leaf; absent for a lexical-only collection) and ``leaf_bm25/``. A rebuild (another
document ingested or removed) carries the leaves of untouched rows over from the active directory, so a
leaf is embedded once, at ingest, never at query time.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

FILE = "leaves.json"
VECTORS = "leaf_vectors.npy"
BM25_DIR = "leaf_bm25"


@dataclass
class LeafRows:
    """Leaves as a writer collects them: per leaf its row key, path, tokens and vector (or None)."""

    rows: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    tokens: list[list[str]] = field(default_factory=list)
    vectors: list[Any] = field(default_factory=list)

    def add(self, row: str, path: str, tokens: list[str], vector: Any) -> None:
        self.rows.append(row)
        self.paths.append(path)
        self.tokens.append(tokens)
        self.vectors.append(vector)

    def __len__(self) -> int:
        return len(self.rows)


class LeafIndex:
    """The leaves of one lexical snapshot: ``row[j]`` is the lexical row index of leaf ``j``."""

    def __init__(self, rows: np.ndarray, paths: list[str], tokens: list[list[str]], vectors: np.ndarray | None,
                 bm25: Any) -> None:
        self.row = rows
        self.paths = paths
        self.tokens = tokens
        self.vectors = vectors  # float32 (n, dim), unit length, or None
        self.bm25 = bm25

    def __len__(self) -> int:
        return len(self.paths)

    @classmethod
    def build(cls, row_keys: list[str], data: LeafRows) -> LeafIndex | None:
        import numpy as np

        pos = {k: i for i, k in enumerate(row_keys)}
        keep = [j for j, r in enumerate(data.rows) if r in pos]
        if not keep:
            return None
        rows = np.array([pos[data.rows[j]] for j in keep], dtype=np.int32)
        vecs = [data.vectors[j] for j in keep]
        vectors = np.vstack(vecs).astype(np.float32) if all(v is not None for v in vecs) else None
        tokens = [data.tokens[j] for j in keep]
        return cls(rows, [data.paths[j] for j in keep], tokens, vectors, _bm25(tokens))

    def rows_data(self, row_keys: list[str]) -> LeafRows:
        """The leaves as writer rows again (row keys instead of indices): what a rebuild carries over."""
        out = LeafRows()
        for j, i in enumerate(self.row):
            out.add(row_keys[int(i)], self.paths[j], self.tokens[j],
                    self.vectors[j] if self.vectors is not None else None)
        return out

    def save(self, d: Path) -> None:
        import numpy as np

        with (d / FILE).open("w", encoding="utf-8") as fh:
            json.dump({"row": [int(i) for i in self.row], "paths": self.paths, "tokens": self.tokens}, fh,
                      ensure_ascii=False)
        if self.vectors is not None:
            np.save(d / VECTORS, self.vectors.astype(np.float16))
        if self.bm25 is not None:
            (d / BM25_DIR).mkdir()
            self.bm25.save(str(d / BM25_DIR), show_progress=False)

    @classmethod
    def load(cls, d: Path) -> LeafIndex | None:
        if not (d / FILE).is_file():
            return None  # written before leaves existed: search runs without them
        import numpy as np

        with (d / FILE).open(encoding="utf-8") as fh:
            data = json.load(fh)
        vectors = np.load(d / VECTORS).astype(np.float32) if (d / VECTORS).is_file() else None
        bm25 = None
        if (d / BM25_DIR).is_dir():
            import bm25s

            bm25 = bm25s.BM25.load(str(d / BM25_DIR), show_progress=False, verbosity=0)
        return cls(np.array(data["row"], dtype=np.int32), data["paths"], data["tokens"], vectors, bm25)

    # ── matching ──────────────────────────────────────────────────────────────────────────────────
    def dense(self, qvec: Any, n: int, mask: np.ndarray | None) -> list[tuple[int, float]]:
        """Top ``n`` (leaf, cosine) among leaves whose row ``mask`` allows."""
        if self.vectors is None or qvec is None:
            return []
        import numpy as np

        q = np.asarray(qvec, dtype=np.float32).reshape(-1)
        if q.shape[0] != self.vectors.shape[1]:
            return []
        scores = self.vectors @ q
        return _top(scores, n, None if mask is None else mask[self.row])

    def lexical(self, qtoks: list[str], n: int, mask: np.ndarray | None) -> list[tuple[int, float]]:
        if self.bm25 is None or not qtoks:
            return []
        import numpy as np

        scores = np.asarray(self.bm25.get_scores(qtoks), dtype=np.float32)
        allowed = scores > 0
        if mask is not None:
            allowed &= mask[self.row]
        return _top(np.where(allowed, scores, -np.inf), n, None)


def _top(scores: np.ndarray, n: int, allowed: np.ndarray | None) -> list[tuple[int, float]]:
    import numpy as np

    if allowed is not None:
        scores = np.where(allowed, scores, -np.inf)
    finite = int(np.isfinite(scores).sum())
    n = min(n, finite)
    if n <= 0:
        return []
    idx = np.argpartition(-scores, n - 1)[:n]
    idx = idx[np.argsort(-scores[idx], kind="stable")]
    return [(int(j), float(scores[j])) for j in idx]


def _bm25(tokens: list[list[str]]) -> Any:
    if not tokens:
        return None
    import bm25s

    bm25 = bm25s.BM25(k1=1.2, b=0.75)
    bm25.index([t if t else [""] for t in tokens], show_progress=False)
    return bm25
