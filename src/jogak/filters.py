"""Metadata filters as an operator dispatch table, below both index and retrieve.

The index writes every chunk's filter columns (``filter_columns``, ``COLUMNS``) into Chroma and the BM25
index and filters ``Store.chunks``; retrieval applies the caller's and the question's filters.

A filter is ``(key, op, value)``. The same filter list is translated

* to a Chroma ``where`` clause (``to_chroma``) — dense retrieval filters inside the vector search, and
* to a numpy mask over the lexical index's columns (``to_mask``) — BM25 filters inside its scoring, and
* to a predicate on one chunk's columns (``matches``) — clause lookup and xref following obey filters too.

Keys: doc_title, source, doc_id, block_type, path (prefix: the node and everything under it, including
chunks that cover it through ``paths``), decision_date (ISO dates; "2010" means the whole year), court,
case_number, article. Ops: eq, in, gte, lte, contains (substring for text, element for lists).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from jogak.grammar.definitions import definitions_in

if TYPE_CHECKING:
    import numpy as np

OPS = ("eq", "in", "nin", "gte", "lte", "contains")


@dataclass(frozen=True, slots=True)
class FieldSpec:
    key: str
    column: str
    kind: str  # str | list | prefix | date


FIELDS: dict[str, FieldSpec] = {
    "doc_title": FieldSpec("doc_title", "doc_title", "str"),
    "source": FieldSpec("source", "source", "str"),
    "doc_id": FieldSpec("doc_id", "doc_id", "str"),
    "block_type": FieldSpec("block_type", "block_type", "str"),
    "path": FieldSpec("path", "path_prefixes", "prefix"),
    "decision_date": FieldSpec("decision_date", "decision_date", "date"),
    "court": FieldSpec("court", "court", "str"),
    "case_number": FieldSpec("case_number", "case_numbers", "list"),
    "article": FieldSpec("article", "article", "str"),
    # The day whose versions answer (issue 15): not a column test — retrieval resolves it against the
    # collection's version timelines into the documents in force that day (``jogak.retrieve.asof``).
    "as_of": FieldSpec("as_of", "effective_from", "asof"),
}
KEY_ALIASES = {"title": "doc_title", "doc": "doc_title", "date": "decision_date", "case": "case_number",
               "block": "block_type", "layer": "block_type", "asof": "as_of", "as-of": "as_of"}

# Columns every chunk row carries (Chroma metadata and the lexical index's columns). COLUMNS_VERSION names their
# schema: a store whose rows were written under another one gets them recomputed at its next ingest.
# 2: defines; 3: defines holds the terms a clause introduces ("(이하 "…"라 한다)"); 4: and the definitions read with a
# gloss ('"퇴비"(堆肥)란') or in the older Acts' '5. "…"는 …을 말한다' (the writer's pointers stay until a re-ingest)
COLUMNS_VERSION = "4"
COLUMNS = ("chunk_id", "doc_id", "doc_title", "source", "block_type", "path", "path_prefixes", "decision_date",
           "decision_ymd", "court", "case_numbers", "article", "chunk_no", "pointers", "kind", "clause", "work",
           "effective_from", "promulgated", "defines")


@dataclass(slots=True)
class Filter:
    key: str
    op: str
    value: Any
    origin: str = "explicit"  # explicit | question
    phrase: str | None = None  # for filters read from the question: the words that set it

    def __post_init__(self) -> None:
        self.key = KEY_ALIASES.get(self.key, self.key)
        if self.key not in FIELDS:
            raise ValueError(f"unknown filter key '{self.key}' (choose from {', '.join(FIELDS)})")
        if self.op not in OPS:
            raise ValueError(f"unknown filter operator '{self.op}' (choose from {', '.join(OPS)})")
        if self.op in ("in", "nin"):
            if isinstance(self.value, str):
                self.value = [v.strip() for v in self.value.split(",") if v.strip()]
            self.value = list(self.value)
            if self.op == "nin" and FIELDS[self.key].kind != "str":
                raise ValueError(f"'nin' applies to single-valued fields, not '{self.key}'")
        elif FIELDS[self.key].kind == "date":
            self.value = normalise_date(str(self.value), self.op)
        elif FIELDS[self.key].kind == "asof":
            self.value = as_of_value(self.value)
        elif FIELDS[self.key].kind == "prefix":
            self.value = str(self.value).strip().strip("/")

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"key": self.key, "op": self.op, "value": self.value, "origin": self.origin}
        if self.phrase:
            d["phrase"] = self.phrase
        return d

    def __str__(self) -> str:
        v = ",".join(self.value) if isinstance(self.value, list) else self.value
        return f"{self.key}={self.op}:{v}"


def parse_filter(spec: str) -> Filter:
    """``KEY=OP:VALUE`` (or ``KEY=VALUE`` for eq); ``in`` and ``nin`` (not in) take comma-separated values."""
    if "=" not in spec:
        raise ValueError(f"filter '{spec}' is not KEY=OP:VALUE")
    key, rest = spec.split("=", 1)
    op, value = "eq", rest
    m = re.match(r"^(eq|in|nin|gte|lte|contains):(.*)$", rest, re.S)
    if m:
        op, value = m.group(1), m.group(2)
    return Filter(key.strip(), op, value.strip())


def coerce_filters(filters: Any) -> list[Filter]:
    """Accept a list of Filter / "k=op:v" strings / dicts, or a mapping {key: value | {op: value}}."""
    if not filters:
        return []
    out: list[Filter] = []
    if isinstance(filters, dict):
        for k, v in filters.items():
            if isinstance(v, dict):
                out.extend(Filter(k, op, val) for op, val in v.items())
            elif isinstance(v, list | tuple | set):
                out.append(Filter(k, "in", list(v)))
            else:
                out.append(Filter(k, "eq", v))
        return out
    for f in filters:
        if isinstance(f, Filter):
            out.append(f)
        elif isinstance(f, str):
            out.append(parse_filter(f))
        elif isinstance(f, dict):
            out.append(Filter(f["key"], f.get("op", "eq"), f["value"], f.get("origin", "explicit"),
                              f.get("phrase")))
        else:
            raise ValueError(f"cannot read filter {f!r}")
    return out


# ─── dates ──────────────────────────────────────────────────────────────────────────────────────


def normalise_date(value: str, op: str) -> str:
    """"2010" → 2010-01-01 (gte) / 2010-12-31 (lte); "2010-05" likewise; "2010.5.3" → 2010-05-03."""
    v = value.strip()
    m = re.match(r"^(\d{4})(?:[-./](\d{1,2}))?(?:[-./](\d{1,2}))?\.?$", v)
    if not m:
        return v
    y, mo, d = m.group(1), m.group(2), m.group(3)
    if mo is None:
        return f"{y}-12-31" if op == "lte" else f"{y}-01-01"
    if d is None:
        if op == "lte":
            import calendar

            return f"{y}-{int(mo):02d}-{calendar.monthrange(int(y), int(mo))[1]:02d}"
        return f"{y}-{int(mo):02d}-01"
    return f"{y}-{int(mo):02d}-{int(d):02d}"


# The as-of values that mean "the version before the one in force today": asked about the old rule ("개정
# 전에는") — a work the collection holds no earlier version of cannot answer — or about an event before the
# change ("시행되기 전에 쌓인 포인트") — the version in force today answers when no earlier one is held (its
# transitional provisions say how the change applies).
BEFORE_CURRENT = "before-current"
BEFORE_CHANGE = "before-change"


def as_of_value(value: Any) -> str:
    """An as-of day: "2022-05-01"; "2022-05" and "2022" mean their last day (the state the period ended
    in); "before-current" stays. Anything else is an error."""
    v = str(value).strip()
    if v in (BEFORE_CURRENT, BEFORE_CHANGE):
        return v
    d = normalise_date(v, "lte")
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", d):
        raise ValueError(f"as_of '{value}' is not a date (YYYY-MM-DD)")
    import datetime as _dt

    try:
        _dt.date.fromisoformat(d)
    except ValueError:
        raise ValueError(f"as_of '{value}' is not a date (YYYY-MM-DD)") from None
    return d


def date_int(iso: str | None) -> int | None:
    if not iso:
        return None
    digits = re.sub(r"\D", "", str(iso))[:8]
    return int(digits) if len(digits) == 8 else None


# ─── per-row columns ────────────────────────────────────────────────────────────────────────────


def path_prefixes(path: str | None, paths: Iterable[str] = ()) -> list[str]:
    out: list[str] = []
    for p in [path, *paths]:
        if not p:
            continue
        parts = [x for x in p.split("/") if x]
        for i in range(1, len(parts) + 1):
            pre = "/".join(parts[:i])
            if pre not in out:
                out.append(pre)
    return out


def filter_columns(chunk: Any) -> dict[str, Any]:
    """The filterable columns of one chunk (values may be None or lists)."""
    md = chunk.metadata
    case = md.case.to_dict() if md.case else {}
    numbers = [str(x) for x in (case.get("case_numbers") or [])]
    if case.get("case_number") and str(case["case_number"]) not in numbers:
        numbers.insert(0, str(case["case_number"]))
    date = case.get("decision_date")
    return {
        "chunk_id": chunk.id,
        "doc_id": md.doc_id,
        "doc_title": md.doc_title,
        "source": md.source,
        "block_type": md.block_type,
        "path": md.path,
        "path_prefixes": path_prefixes(md.path, md.paths),
        "decision_date": str(date) if date else None,
        "decision_ymd": date_int(date),
        "court": case.get("court"),
        "case_numbers": numbers,
        "article": md.article or None,
        "chunk_no": md.chunk_no,
        "clause": md.clause,
        # a version's work and start (chunk schema 2.1): the as-of filter reads the collection's timelines
        "work": md.work,
        "effective_from": md.effective_from,
        "promulgated": md.promulgated,
        # the terms the chunk's definitions items define ("6. "제대혈위탁"이란 …"): a question asking what a
        # term means is answered by its definition (retrieve/lookup.py), found by the term, not by its wording
        "defines": sorted(set(definitions_in(chunk.text))),
    }


def chroma_metadata(cols: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """Chroma accepts scalars and non-empty lists only: drop Nones and empty lists."""
    out = {k: v for k, v in cols.items() if v is not None and v != []}
    out.update(extra)
    return out


# ─── the dispatch table ─────────────────────────────────────────────────────────────────────────


def _cell_values(cell: Any) -> list[Any]:
    if cell is None:
        return []
    return list(cell) if isinstance(cell, list | tuple) else [cell]


def _pred_eq(cell: Any, v: Any, kind: str) -> bool:
    return any(str(x) == str(v) for x in _cell_values(cell))


def _pred_in(cell: Any, v: list[Any] | frozenset[str], kind: str) -> bool:
    vs = v if isinstance(v, frozenset) else {str(x) for x in v}
    return any(str(x) in vs for x in _cell_values(cell))


def _pred_nin(cell: Any, v: list[Any] | frozenset[str], kind: str) -> bool:
    return not _pred_in(cell, v, kind)


def _pred_gte(cell: Any, v: Any, kind: str) -> bool:
    return any(x is not None and str(x) >= str(v) for x in _cell_values(cell))


def _pred_lte(cell: Any, v: Any, kind: str) -> bool:
    return any(x is not None and str(x) <= str(v) for x in _cell_values(cell))


def _pred_contains(cell: Any, v: Any, kind: str) -> bool:
    if kind in ("list", "prefix"):
        return any(str(v) in str(x) for x in _cell_values(cell))
    return cell is not None and str(v) in str(cell)


PREDICATES: dict[str, Callable[[Any, Any, str], bool]] = {
    "eq": _pred_eq,
    "in": _pred_in,
    "nin": _pred_nin,
    "gte": _pred_gte,
    "lte": _pred_lte,
    "contains": _pred_contains,
}

_NOTHING = "\u0000no-match"

Distinct = Callable[[str], Iterable[Any]]


def _resolve(col: str, pred: Callable[[Any], bool], distinct: Distinct | None) -> list[str]:
    vals = sorted({str(x) for x in (distinct(col) if distinct else [])} if distinct else set())
    return [x for x in vals if pred(x)] or [_NOTHING]


def _chroma_eq(spec: FieldSpec, v: Any, distinct: Distinct | None) -> dict[str, Any]:
    if spec.kind in ("list", "prefix"):
        return {spec.column: {"$contains": str(v)}}
    if spec.kind == "date":
        return {"decision_ymd": {"$eq": date_int(v) or -1}}
    return {spec.column: {"$eq": str(v)}}


def _chroma_in(spec: FieldSpec, v: list[Any], distinct: Distinct | None) -> dict[str, Any]:
    if spec.kind in ("list", "prefix"):
        parts = [{spec.column: {"$contains": str(x)}} for x in v] or [{spec.column: {"$contains": _NOTHING}}]
        return parts[0] if len(parts) == 1 else {"$or": parts}
    if spec.kind == "date":
        return {"decision_ymd": {"$in": [date_int(x) or -1 for x in v]}}
    return {spec.column: {"$in": [str(x) for x in v] or [_NOTHING]}}


def _chroma_nin(spec: FieldSpec, v: list[Any], distinct: Distinct | None) -> dict[str, Any]:
    return {spec.column: {"$nin": [str(x) for x in v] or [_NOTHING]}}


def _chroma_cmp(op: str) -> Callable[[FieldSpec, Any, Distinct | None], dict[str, Any]]:
    def fn(spec: FieldSpec, v: Any, distinct: Distinct | None) -> dict[str, Any]:
        if spec.kind == "date":
            return {"decision_ymd": {f"${op}": date_int(v) or 0}}
        # Chroma compares numbers only: resolve the matching string values locally.
        pred = PREDICATES[op]
        return _chroma_in(spec, _resolve(spec.column, lambda x: pred(x, v, "str"), distinct), None)

    return fn


def _chroma_contains(spec: FieldSpec, v: Any, distinct: Distinct | None) -> dict[str, Any]:
    # Chroma has no substring operator on metadata: resolve matching values from the local state.
    vals = _resolve(spec.column, lambda x: str(v) in x, distinct)
    if spec.kind in ("list", "prefix"):
        parts = [{spec.column: {"$contains": x}} for x in vals]
        return parts[0] if len(parts) == 1 else {"$or": parts}
    return {spec.column: {"$in": vals}}


CHROMA: dict[str, Callable[[FieldSpec, Any, Distinct | None], dict[str, Any]]] = {
    "eq": _chroma_eq,
    "in": _chroma_in,
    "nin": _chroma_nin,
    "gte": _chroma_cmp("gte"),
    "lte": _chroma_cmp("lte"),
    "contains": _chroma_contains,
}


def to_chroma(filters: list[Filter], distinct: Distinct | None = None,
              extra: list[dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """A Chroma ``where`` for the filters (ANDed), plus any extra clauses (generation guards)."""
    clauses = [CHROMA[f.op](FIELDS[f.key], f.value, distinct) for f in filters]
    clauses.extend(extra or [])
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}


def matches(filters: list[Filter], cols: dict[str, Any]) -> bool:
    for f in filters:
        spec = FIELDS[f.key]
        if not PREDICATES[f.op](cols.get(spec.column), f.value, spec.kind):
            return False
    return True


def to_mask(filters: list[Filter], column: Callable[[str], np.ndarray], n: int,
            codes: Callable[[str], tuple[np.ndarray, list[Any]]] | None = None) -> np.ndarray | None:
    """Boolean mask over ``n`` rows; ``column(name)`` returns an object array of cells, ``codes(name)`` (when
    given: a loaded index's memo) the same column factorized. Each predicate is decided once per distinct
    cell and the mask is a vectorized lookup — a title filter over half a million chunks costs a few
    thousand predicate calls, not a Python loop over every row."""
    if not filters:
        return None
    import numpy as np  # heavy: not imported by the store's light paths (``jogak docs``)

    codes = codes or (lambda name: factorize(list(column(name))))
    mask = np.ones(n, dtype=bool)
    for f in filters:
        spec = FIELDS[f.key]
        pred = PREDICATES[f.op]
        value = frozenset(str(x) for x in f.value) if f.op in ("in", "nin") else f.value  # one set, not one per cell
        row_codes, uniques = codes(spec.column)
        hit = np.fromiter((pred(cell, value, spec.kind) for cell in uniques), dtype=bool, count=len(uniques))
        mask &= hit[row_codes]
    return mask


def factorize(cells: list[Any]) -> tuple[np.ndarray, list[Any]]:
    """(a code per cell, the distinct cells in first-seen order); list cells are compared as tuples."""
    import numpy as np

    index: dict[Any, int] = {}
    uniques: list[Any] = []
    out = np.empty(len(cells), dtype=np.int32)
    for i, cell in enumerate(cells):
        key = tuple(cell) if isinstance(cell, list) else cell
        j = index.get(key)
        if j is None:
            j = index[key] = len(uniques)
            uniques.append(cell)
        out[i] = j
    return out, uniques


@dataclass(slots=True)
class FilterSet:
    """Explicit filters plus those read from the question, kept apart for echoing."""

    explicit: list[Filter] = field(default_factory=list)
    from_question: list[Filter] = field(default_factory=list)

    @property
    def all(self) -> list[Filter]:
        return [*self.explicit, *self.from_question]
