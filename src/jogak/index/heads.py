"""Article heads: one passage per clause — its document title and the opening of its text — that says what
the clause is about (``jogak.retrieve.articles`` ranks clauses by it, ``retrieve.article_dense``).

A head is embedded like any passage, so its vector lives in the store's embedding cache, keyed by its text
(``jogak.index.cache``, or the shared database's cache table): an ingest into a collection that uses heads
(the default; ``index.article_heads: false`` or ``retrieve.article_dense: false`` turns them off) ends by
embedding the heads the cache does not hold yet — the new documents' and, after an ingest that found every file unchanged, any left out before —
so a search reads them back instead of embedding every clause at its first query. The head text and the
grouping of rows into clauses are defined here once, for both.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jogak.index.lexical import LexicalIndex

HEAD_CHARS = 300  # how much of the clause's opening text its head carries
# heads are used unless the config says otherwise (``retrieve.SearchOptions.article_dense`` reads this too);
# on since session 26: retrieval MRR up on 15 used sets and on three of the four untouched ones (README)
ARTICLE_HEADS_DEFAULT = True
# the head matrix is read whole once a snapshot and every query scans it (as the exact dense search does up to
# ``retrieve.candidates.EXACT_ALL_MAX`` rows); a larger collection has no heads
HEADS_MAX_ROWS = 20_000
_STEP = 32  # heads per embedder call


def head_text(doc_title: str | None, first_chunk_text: str) -> str:
    """The head of a clause whose first chunk reads ``first_chunk_text`` (white space collapsed)."""
    body = " ".join((first_chunk_text or "").split())[:HEAD_CHARS]
    return f"{doc_title or ''}\n{body}"


def wanted(config: Mapping[str, Any]) -> bool:
    """Whether a collection with this config embeds its clause heads at ingest."""
    index = config.get("index") or {}
    if "article_heads" in index:
        return bool(index["article_heads"])
    return bool((config.get("retrieve") or {}).get("article_dense", ARTICLE_HEADS_DEFAULT))


def clause_heads(store: Any, lex: LexicalIndex) -> tuple[list[list[int]], list[str]]:
    """The clauses of a lexical snapshot: per clause its rows (indices into ``lex.rows``) in chunk order,
    and its head text, built from its first chunk."""
    n = len(lex.rows)
    clause, doc, title, no = (lex.column("clause"), lex.column("doc_id"), lex.column("doc_title"),
                              lex.column("chunk_no"))
    groups: dict[tuple[str, str], list[int]] = {}
    for i in range(n):
        if clause[i] and doc[i]:
            groups.setdefault((doc[i], clause[i]), []).append(i)
    members = [sorted(rows, key=lambda i: no[i] or 0) for rows in groups.values()]
    first = [lex.rows[m[0]] for m in members]
    chunks = store.chunk_map(first)
    texts = [head_text(title[m[0]], c.text if (c := chunks.get(key)) else "")
             for m, key in zip(members, first, strict=True)]
    return members, texts


def missing(embedder: Any, texts: list[str]) -> int:
    """How many of the head ``texts`` the embedder's cache does not hold (all of them without a cache)."""
    cache = getattr(embedder, "cache", None)
    if cache is None:
        return len(texts)
    return sum(v is None for v in cache.get_many(embedder.name, texts))


def fill(store: Any, progress: Any = None) -> int:
    """Embed (into the cache) the heads of the active collection the cache does not hold yet; returns how many.
    Nothing for a collection of more than HEADS_MAX_ROWS rows or without an embedder."""
    emb = store.embedder
    lex = store.lexical()
    if emb is None or not len(lex.rows) or len(lex.rows) > HEADS_MAX_ROWS:
        return 0
    _, texts = clause_heads(store, lex)
    cache = getattr(emb, "cache", None)
    todo = texts if cache is None else [t for t, v in zip(texts, cache.get_many(emb.name, texts), strict=True)
                                        if v is None]
    for i in range(0, len(todo), _STEP):
        emb.embed_passages(todo[i : i + _STEP])
        if progress is not None:
            progress("embed heads", min(i + _STEP, len(todo)), len(todo), "")
    return len(todo)
