"""Moved to ``jogak.filters`` (below index and retrieve, which both read the operator table); this name
stays for code written against it."""

from __future__ import annotations

from jogak.filters import (
    COLUMNS,
    FIELDS,
    KEY_ALIASES,
    OPS,
    PREDICATES,
    FieldSpec,
    Filter,
    FilterSet,
    chroma_metadata,
    coerce_filters,
    date_int,
    filter_columns,
    matches,
    normalise_date,
    parse_filter,
    path_prefixes,
    to_chroma,
    to_mask,
)

__all__ = ["COLUMNS", "FIELDS", "KEY_ALIASES", "OPS", "PREDICATES", "FieldSpec", "Filter", "FilterSet",
           "chroma_metadata", "coerce_filters", "date_int", "filter_columns", "matches", "normalise_date",
           "parse_filter", "path_prefixes", "to_chroma", "to_mask"]
