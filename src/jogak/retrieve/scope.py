"""One search's view of the collection, and the first stage: the filters in force.

``open_scope`` takes the snapshot every later stage reads (so a concurrent ingest cannot mix two states
into one result), coerces the caller's filters, reads more from the question (``query_filters``: "2010년
이후 판례", "멤버십정책에서") and turns them all into one mask over the BM25 rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from jogak.filters import FIELDS, Filter, coerce_filters, to_mask
from jogak.retrieve.options import SearchOptions
from jogak.retrieve.query_filters import extract
from jogak.retrieve.searchable import SearchableStore

if TYPE_CHECKING:
    import numpy as np

    from jogak.index.lexical import LexicalIndex
    from jogak.index.state import Snapshot


@dataclass
class Entry:
    """A candidate row on its way to becoming a hit."""

    row: int  # index into the lexical snapshot
    key: str  # store row key ("chunk_id@gen")
    score: float
    matched: list[str]
    via: str | None = None
    scores: dict[str, float] = field(default_factory=dict)
    leaf: str | None = None  # the leaf that matched best (leaf lists), its path
    also: list[str] = field(default_factory=list)  # row keys of the same clause folded into this hit


@dataclass
class Scope:
    store: SearchableStore
    opts: SearchOptions
    query: str  # as asked
    k: int
    snap: Snapshot
    lex: LexicalIndex
    filters: list[Filter]  # explicit ones, then those read from the question
    rq: str  # the question minus filter phrases: what the retrievers see
    mask: np.ndarray | None  # rows the filters allow (None: all)
    doc_titles: list[str]
    warnings: list[str]

    @property
    def n(self) -> int:
        return len(self.lex)

    @property
    def n_candidates(self) -> int:
        return max(int(self.opts.n_candidates), 4 * self.k)

    @property
    def row_of(self) -> dict[str, int]:
        lex = self.lex
        return lex.memo("row_of", lambda: {key: i for i, key in enumerate(lex.rows)})


def open_scope(store: SearchableStore, query: str, k: int, filters: Any, opts: SearchOptions) -> Scope:
    explicit = coerce_filters(filters)
    warnings: list[str] = []
    snap = store.snapshot()
    lex = store.lexical(snap)
    if opts.bm25 and store.tokenizer_stale():
        warnings.append("the BM25 index was built by an older tokenizer; run `jogak ingest` again to rebuild it")
    doc_titles = lex.memo("doc_titles", lambda: sorted({t for t in lex.columns.get("doc_title", []) if t}))
    from_q: list[Filter] = []
    rq = query
    if opts.query_filters:
        from_q, rq = extract(query, doc_titles)
        # a question filter on a key the caller already fixed is dropped: explicit wins
        fixed = {f.key for f in explicit}
        from_q = [f for f in from_q if f.key not in fixed and _has_values(lex, f.key)]
    all_filters = [*explicit, *from_q]
    mask = to_mask(all_filters, lex.column, len(lex))
    return Scope(store, opts, query, k, snap, lex, all_filters, rq, mask, doc_titles, warnings)


def _has_values(lex: LexicalIndex, key: str) -> bool:
    """A filter read from the question applies only when the collection has that field at all: "2025년
    이후" in a question about store policies must not filter every policy chunk out by decision date."""
    column = FIELDS[key].column

    def any_value() -> bool:
        return any(v not in (None, []) for v in (lex.columns.get(column) or []))

    return lex.memo(f"has:{key}", any_value)


def row_id(key: str) -> str:
    """The chunk id of a row key ("chunk_id@gen")."""
    return key.rsplit("@", 1)[0]
