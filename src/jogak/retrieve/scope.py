"""One search's view of the collection, and the first stage: the filters in force.

``open_scope`` takes the snapshot every later stage reads (so a concurrent ingest cannot mix two states
into one result), coerces the caller's filters, reads more from the question (``query_filters``: "2010년
이후 판례", "멤버십정책에서") and turns them all into one mask over the BM25 rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from jogak.filters import FIELDS, Filter, coerce_filters, to_mask
from jogak.index.versions import Timelines, lexical_timelines
from jogak.retrieve import asof
from jogak.retrieve.options import SearchOptions
from jogak.retrieve.query_filters import TitleFinder, extract
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
    shown: list[Filter] = field(default_factory=list)  # what ``filters`` echoes (the as-of day, not its doc ids)
    as_of: asof.AsOf | None = None

    @property
    def timelines(self) -> Timelines:
        return self.as_of.timelines if self.as_of is not None else {}

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
    given = coerce_filters(filters)
    explicit = [f for f in given if f.key != "as_of"]
    warnings: list[str] = []
    snap = store.snapshot()
    lex = store.lexical(snap)
    if opts.bm25 and store.tokenizer_stale():
        warnings.append("the BM25 index was built by an older tokenizer; run `jogak ingest` again to rebuild it")
    if store.columns_stale():
        warnings.append("the store's chunk columns predate this version (defined-term lookup is off); "
                        "run `jogak ingest` again to recompute them")
    doc_titles = lex.memo("doc_titles", lambda: sorted({t for t in lex.columns.get("doc_title", []) if t}))
    from_q: list[Filter] = []
    rq = query
    if opts.query_filters:
        from_q, rq = extract(query, lex.memo("title_finder", lambda: TitleFinder(doc_titles)))
        # a question filter on a key the caller already fixed is dropped: explicit wins
        fixed = {f.key for f in explicit}
        from_q = [f for f in from_q if f.key not in fixed and _has_values(lex, f.key)]
        if not opts.title_filter:
            from_q = [f for f in from_q if f.key != "doc_title"]
    shown = [*explicit, *from_q]
    when, rq = _as_of(lex, query, rq, [f for f in given if f.key == "as_of"], shown, opts)
    warnings.extend(when.warnings)
    all_filters = list(shown)
    if when.allowed is not None:
        # the shorter list: a collection of all Korean law excludes a few dozen versions not in force
        # today, and 5,600 allowed ids in every mask and Chroma query cost seconds
        if when.excluded and len(when.excluded) < len(when.allowed):
            all_filters.append(Filter("doc_id", "nin", when.excluded, origin="as_of"))
        else:
            all_filters.append(Filter("doc_id", "in", when.allowed, origin="as_of"))
    if when.filter is not None:
        shown.append(when.filter)
    if len(all_filters) == 1 and all_filters[0].origin == "as_of":  # only the versions in force: the same
        f = all_filters[0]  # mask for every question of the snapshot on that day
        key = f"as_of_mask:{f.op}:{hash(tuple(f.value))}"
        mask = lex.memo(key, lambda: _frozen(to_mask(all_filters, lex.column, len(lex), lex.codes)))
    else:
        mask = to_mask(all_filters, lex.column, len(lex), lex.codes)
    return Scope(store, opts, query, k, snap, lex, all_filters, rq, mask, doc_titles, warnings, shown, when)


def _frozen(mask: Any) -> Any:
    """A shared mask is read-only, so no stage can change it for the next question."""
    if mask is not None:
        mask.flags.writeable = False
    return mask


def _as_of(lex: LexicalIndex, query: str, rq: str, given: list[Filter], shown: list[Filter],
           opts: SearchOptions) -> tuple[asof.AsOf, str]:
    """The versions in force on the day (the caller's, the question's, else today); the question's date
    phrase is cut from what the retrievers see."""
    tl = lexical_timelines(lex)
    q_filter, span, compare = asof.from_question(query) if opts.query_filters and tl else (None, None, False)
    chosen = given[-1] if given else q_filter
    titles = {str(x) for f in shown if f.key == "doc_title" and f.op in ("eq", "in")
              for x in (f.value if isinstance(f.value, list) else [f.value])}
    doc_ids = lex.memo("doc_id_set", lambda: {str(x) for x in lex.columns.get("doc_id") or [] if x})
    if chosen is None and not compare and not titles:  # the common case: today, every document
        when = lex.memo(f"as_of_today:{asof.today()}", lambda: asof.resolve(tl, None, False, doc_ids, None))
        when = replace(when, warnings=list(when.warnings))
    else:
        when = asof.resolve(tl, chosen, compare, doc_ids, titles or None)
    # the date phrase leaves the retrievers' text only when it changed what they search
    if (chosen is q_filter and q_filter is not None and span is not None and q_filter.phrase
            and when.allowed is not None):
        cut = re.sub(r"\s+", " ", rq.replace(q_filter.phrase, " ")).strip()
        rq = cut if re.search(r"\w", cut) else rq
    return when, rq


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
