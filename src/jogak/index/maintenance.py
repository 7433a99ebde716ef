"""Keeping a collection consistent: BM25 rebuilds, purging retired generations and what a crashed writer
left, re-tokenizing after a tokenizer change, removing a document, and the consistency check.

Every function here that changes the collection runs under the store's write lock (taken by the caller,
or by ``remove`` itself).
"""

from __future__ import annotations

import json
import shutil
from array import array
from typing import TYPE_CHECKING, Any

from jogak.filters import COLUMNS, COLUMNS_VERSION, filter_columns
from jogak.index.ingest import Progress
from jogak.index.leaves import FILE as LEAF_FILE
from jogak.index.leaves import LeafRows
from jogak.index.lexical import TOKENIZER_VERSION, LexicalIndex, lexical_text, tokenize
from jogak.index.state import Manifest, Row
from jogak.model import Chunk

if TYPE_CHECKING:
    from jogak.index.store import Store


class _Shared:
    """One object per distinct column value: the columns of half a million rows repeat a few thousand titles,
    ids, dates and path lists, and ``json.loads`` makes a new object for every cell. The columns are only
    read (filter masks), so rows may share a list."""

    def __init__(self) -> None:
        self._strs: dict[str, str] = {}
        self._lists: dict[tuple[Any, ...], list[Any]] = {}

    def __call__(self, v: Any) -> Any:
        if isinstance(v, str):
            return self._strs.setdefault(v, v)
        if isinstance(v, list) and all(isinstance(x, str | int | float | None) for x in v):
            return self._lists.setdefault(tuple(v), [self(x) for x in v])
        return v


def build_lexical(store: Store, exclude_docs: set[str], extra: list[tuple[int, list[Row]]],
                  pending_gens: list[int] | None = None, leaves: LeafRows | None = None) -> str:
    """Write a new BM25 directory: the active rows of every document not in ``exclude_docs``, then the rows
    of ``pending_gens`` (staged in the manifest), then the ``extra`` rows (new generations in memory);
    returns its id (not yet the active one). Tokens become integer ids as they are read, so a collection
    of half a million chunks is indexed from compact lists rather than from every token string. The leaves
    of kept rows are carried over from the active directory (``jogak.index.leaves``); ``leaves`` are those
    of the new rows."""
    rows: list[str] = []
    # one int32 array per row: 4 bytes a token instead of a list's 8-byte pointer (measured: 36 vs 58 MB per
    # 100 K rows of the statute corpus, ~0.1 GB less at its 520 K chunks)
    ids: list[array[int]] = []
    vocab: dict[str, int] = {}
    cols: dict[str, list[Any]] = {c: [] for c in COLUMNS}

    shared = _Shared()

    def add(row: str, toks: list[str], cd: dict[str, Any]) -> None:
        rows.append(row)
        ids.append(array("i", [vocab.setdefault(t, len(vocab)) for t in (toks or [""])]))
        for c in COLUMNS:
            cols[c].append(shared(cd.get(c)))

    m = store.manifest
    for row, toks, cj, doc_id in m.iter_index_rows():
        if doc_id not in exclude_docs:
            add(row, json.loads(toks), json.loads(cj))
    for row, toks, cj, _doc in m.index_rows_of_gens(pending_gens or []):
        add(row, json.loads(toks), json.loads(cj))
    kept = _kept_leaves(store, set(rows))
    for _, rs in extra:
        for r in rs:
            add(r.row, r.tokens, r.cols)
            vecs = r.leaf_vectors or [None] * len(r.leaves)
            for (path, _text, toks), v in zip(r.leaves, vecs, strict=True):
                kept.add(r.row, path, toks, v)
    if leaves:
        for j, r in enumerate(leaves.rows):
            kept.add(r, leaves.paths[j], leaves.tokens[j], leaves.vectors[j])
    index = LexicalIndex.build_from_ids(rows, ids, vocab, cols, kept)
    return m.publish_lexical(index, store.coll_dir / "lexical")


def _kept_leaves(store: Store, keep: set[str]) -> LeafRows:
    """The active directory's leaves of the rows in ``keep`` (none when it has no leaves)."""
    out = LeafRows()
    lexical_id = store.manifest.meta("lexical")
    if lexical_id is None:
        return out
    # look before loading: the whole active index (its rows, columns and BM25 arrays: 1.3 GB for every
    # statute) was loaded into the writer only to learn that it has no leaves
    where = store.manifest.fetch_lexical(lexical_id, store.coll_dir / "lexical")
    if not (where / LEAF_FILE).is_file():
        return out
    lex = store.lexical()
    li = lex.leaves()
    if li is None:
        return out
    old = li.rows_data(lex.rows)
    for j, r in enumerate(old.rows):
        if r in keep:
            out.add(r, old.paths[j], old.tokens[j], old.vectors[j])
    return out


def purge(store: Store, gens: list[int]) -> None:
    """Delete the rows of retired or orphaned generations (Chroma first, then the manifest)."""
    if not gens:
        return
    if store.vectors.exists():
        store.vectors.delete_gens(gens)
    store.manifest.delete_gens(gens)
    store.forget_chunks()
    gc_lexical_dirs(store)


def gc(store: Store) -> None:
    """Under the write lock: drop what a crashed writer left (pending or retired generations)."""
    purge(store, store.manifest.inactive_gens())
    gc_lexical_dirs(store)


def gc_lexical_dirs(store: Store) -> None:
    keep = {store.manifest.meta("lexical"), store.manifest.meta("lexical_prev")}
    store.manifest.drop_lexical(keep)
    lex_dir = store.coll_dir / "lexical"
    if not lex_dir.is_dir():
        return
    for d in lex_dir.iterdir():
        if d.name not in keep:
            # an unreferenced directory, or a temp dir from a crashed writer
            shutil.rmtree(d, ignore_errors=True)


def tokenizer_stale(manifest: Manifest) -> bool:
    """True when the BM25 index was built by an older tokenizer (the next ingest rebuilds it)."""
    v = manifest.meta("tokenizer")
    return v is not None and v != TOKENIZER_VERSION


def columns_stale(manifest: Manifest) -> bool:
    """True when the rows' filter columns predate ``COLUMNS_VERSION`` (a store written before a column such as
    ``defines`` existed: its lookups miss until the next ingest recomputes them)."""
    return manifest.meta("tokenizer") is not None and manifest.meta("columns") != COLUMNS_VERSION


def retokenize_if_needed(store: Store, progress: Progress) -> None:
    """The BM25 tokens were made by an older tokenizer, or the rows' filter columns by an older column
    schema (``COLUMNS_VERSION``: a column added since, such as ``defines``): recompute them from the active
    chunks and swap in a rebuilt index (readers keep using the old directory until the flip)."""
    m = store.manifest
    tokens_ok, cols_ok = m.meta("tokenizer") == TOKENIZER_VERSION, m.meta("columns") == COLUMNS_VERSION
    if tokens_ok and cols_ok:
        return
    rows = m.active_chunk_data()
    if rows:
        tokens, cols = [], []
        for j, (row, data, old_cols) in enumerate(rows):
            c = Chunk.from_dict(json.loads(data))
            if not tokens_ok:
                tokens.append((json.dumps(tokenize(lexical_text(c)), ensure_ascii=False), row))
            if not cols_ok:  # the writer's extra columns (pointers, kind) are kept as they were
                cols.append((json.dumps({**json.loads(old_cols or "{}"), **filter_columns(c)},
                                        ensure_ascii=False), row))
            if j % 200 == 0:
                progress("retokenize" if not tokens_ok else "columns", j, len(rows), "")
        with m.txn() as db:
            m.set_tokens(db, tokens)
            m.set_cols(db, cols)
        new_lex = build_lexical(store, exclude_docs=set(), extra=[])
    with m.txn() as db:
        if rows:
            m.set_lexical(db, new_lex)
        m.set_meta(db, "tokenizer", TOKENIZER_VERSION)
        m.set_meta(db, "columns", COLUMNS_VERSION)


def remove(store: Store, doc_id_or_source: str) -> bool:
    """Remove one document (by doc_id, file name or unique title). False when there is no such document."""
    with store.manifest.write_lock():
        info = store.document(doc_id_or_source)
        if info is None:
            return False
        new_lex = build_lexical(store, exclude_docs={info.doc_id}, extra=[])
        with store.manifest.txn() as db:
            store.manifest.retire(db, info.doc_id, info.gen)
            store.manifest.set_lexical(db, new_lex)
        purge(store, [info.gen])
    return True


def check(store: Store) -> dict[str, Any]:
    """Consistency report: every active chunk is in BM25 (and in Chroma when embedded), nothing else."""
    snap = store.snapshot()
    lex = store.lexical(snap)
    m = store.manifest
    with m.lock:  # one reading of the manifest
        active = m.active_row_keys()
        embedded_docs = m.embedded_doc_ids()
        embedded_rows = m.active_row_keys(embedded_only=True)
    lex_rows = set(lex.rows)
    out: dict[str, Any] = {"documents": snap.n_docs, "chunks": len(active), "bm25_rows": len(lex_rows),
                           "bm25_consistent": lex_rows == active, "hidden_generations": snap.hidden_gens}
    if embedded_docs or store.vectors.exists():
        visible = store.vectors.visible(snap.hidden_gens)
        out["dense_rows"] = len(visible)
        out["dense_consistent"] = visible == embedded_rows
    return out
