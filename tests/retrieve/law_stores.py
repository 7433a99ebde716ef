"""Shared scaffolding for the structural retrieval stages' tests: a real store on disk of small law files (hash
embedder, real BM25) and the "title 제N조" labels of ranked entries."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "index"))

from fakes import HashEmbedder

from jogak.index import open_store
from jogak.retrieve import SearchOptions, search


def law_store(tmp_path: Path, files: dict[str, str]) -> Iterator[Any]:
    """A store holding ``files`` (name → markdown text), ingested without failures; closed after use."""
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=HashEmbedder())
    assert not st.ingest([str(p) for p in sorted(tmp_path.glob("*.md"))]).failed
    yield st
    st.close()


def labels(store: Any, entries: list[Any]) -> list[str]:
    """"이웃돌봄법 제12조" for each entry: its chunk's document title and first article number."""
    chunks = store.chunk_map([e.key for e in entries])
    return [f"{chunks[e.key].metadata.doc_title} {chunks[e.key].metadata.article.split()[0]}" for e in entries]


def prior_hits(store: Any, question: str, k: int = 5, **overrides: Any) -> list[Any]:
    """The hits of ``question`` with the fused (RRF × prior) score left as ranked — no reranker, no article heads
    (whose dense vector of a hash embedder says nothing) — so a prior's factor shows in ``scores["rrf"]``."""
    opts = SearchOptions.from_config({}, **{"article_dense": False, "rerank": None, **overrides})
    return search(store, question, k=k, options=opts).hits


def rrf_of(store: Any, question: str, path: str, **overrides: Any) -> float:
    """The fused score of the hit whose path starts with ``path``."""
    return next(h.scores["rrf"] for h in prior_hits(store, question, **overrides)
                if (h.chunk.metadata.path or "").startswith(path))

