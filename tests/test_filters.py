"""Filters: parsing, the Chroma translation, the numpy mask, and their agreement."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jogak.filters import (
    Filter,
    coerce_filters,
    factorize,
    matches,
    normalise_date,
    parse_filter,
    path_prefixes,
    to_chroma,
    to_mask,
)


def test_parse_filter_forms() -> None:
    f = parse_filter("decision_date=gte:2010")
    assert (f.key, f.op, f.value) == ("decision_date", "gte", "2010-01-01")
    assert parse_filter("decision_date=lte:1995").value == "1995-12-31"
    assert parse_filter("court=대법원").op == "eq"
    f = parse_filter("block_type=in:body,appendix")
    assert f.value == ["body", "appendix"]
    assert parse_filter("path=eq:/본문/제7조/").value == "본문/제7조"
    assert parse_filter("title=contains:멤버십").key == "doc_title"
    with pytest.raises(ValueError):
        parse_filter("color=eq:red")
    assert parse_filter("doc_title=Terms: 2024").value == "Terms: 2024"  # a colon without an op is data
    with pytest.raises(ValueError):
        parse_filter("court")


def test_coerce_mapping_and_dicts() -> None:
    fs = coerce_filters({"court": "대법원", "block_type": ["body", "appendix"],
                         "decision_date": {"gte": "2010", "lte": "2015-06"}})
    assert [str(f) for f in fs] == ["court=eq:대법원", "block_type=in:body,appendix",
                                    "decision_date=gte:2010-01-01", "decision_date=lte:2015-06-30"]
    assert coerce_filters([{"key": "court", "op": "eq", "value": "대법원"}])[0].value == "대법원"


def test_dates() -> None:
    assert normalise_date("2000.5.3", "eq") == "2000-05-03"
    assert normalise_date("2024-02", "lte") == "2024-02-29"


def test_to_chroma_shapes() -> None:
    distinct = {"doc_title": ["멤버십정책", "반품교환환불정책"]}.get
    w = to_chroma([Filter("court", "eq", "대법원"), Filter("decision_date", "gte", "2010")],
                  lambda c: distinct(c) or [])
    assert w == {"$and": [{"court": {"$eq": "대법원"}}, {"decision_ymd": {"$gte": 20100101}}]}
    assert to_chroma([Filter("path", "eq", "본문/제7조")]) == {"path_prefixes": {"$contains": "본문/제7조"}}
    assert to_chroma([Filter("doc_title", "contains", "멤버십")], lambda c: distinct(c) or []) == {
        "doc_title": {"$in": ["멤버십정책"]}}
    assert to_chroma([Filter("case_number", "eq", "2000다11621")]) == {
        "case_numbers": {"$contains": "2000다11621"}}
    assert to_chroma([]) is None


ROWS = [
    {"doc_title": "반품교환환불정책", "block_type": "body", "path_prefixes": ["본문", "본문/제2조"],
     "decision_date": None, "court": None, "case_numbers": [], "source": "a.pdf"},
    {"doc_title": "반품교환환불정책", "block_type": "appendix", "path_prefixes": ["부록A", "부록A/제1조"],
     "decision_date": None, "court": None, "case_numbers": [], "source": "a.pdf"},
    {"doc_title": "판례", "block_type": "body", "path_prefixes": ["판결요지"], "decision_date": "2001-03-27",
     "court": "대법원", "case_numbers": ["2000다11621"], "source": "c.md"},
    {"doc_title": "판례", "block_type": "body", "path_prefixes": ["판결요지"], "decision_date": "1994-11-08",
     "court": "서울고등법원", "case_numbers": ["94나1234"], "source": "d.md"},
]


def _mask(filters):
    cols = {k: np.array([r.get(k) for r in ROWS] + [None], dtype=object)[:-1] for k in ROWS[0]}
    return to_mask(filters, lambda c: cols[c], len(ROWS))


def test_mask_and_matches() -> None:
    assert list(_mask([Filter("path", "eq", "본문")])) == [True, False, False, False]
    assert list(_mask([Filter("decision_date", "gte", "2000")])) == [False, False, True, False]
    assert list(_mask([Filter("decision_date", "lte", "1995")])) == [False, False, False, True]
    assert list(_mask([Filter("court", "eq", "대법원")])) == [False, False, True, False]
    assert list(_mask([Filter("case_number", "eq", "2000다11621")])) == [False, False, True, False]
    assert list(_mask([Filter("block_type", "in", ["appendix"]), Filter("doc_title", "contains", "반품")])) == [
        False, True, False, False]
    assert _mask([]) is None


_filters = st.one_of(
    st.builds(Filter, st.just("block_type"), st.sampled_from(["eq", "in", "contains"]),
              st.sampled_from(["body", "appendix", "app", ["body"], ["appendix", "body"]]).map(
                  lambda v: v)),
    st.builds(Filter, st.just("decision_date"), st.sampled_from(["gte", "lte"]),
              st.sampled_from(["1990", "1995", "2000-06", "2001-03-27", "2010"])),
    st.builds(Filter, st.just("court"), st.sampled_from(["eq", "contains"]), st.sampled_from(["대법원", "고등"])),
    st.builds(Filter, st.just("path"), st.sampled_from(["eq", "contains"]), st.sampled_from(["본문", "부록A", "제1조"])),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_filters, max_size=3))
def test_mask_agrees_with_matches(fs) -> None:
    try:
        fs = [Filter(f.key, f.op, f.value) for f in fs]
    except (ValueError, TypeError):
        return
    m = _mask(fs)
    expect = [matches(fs, r) for r in ROWS]
    assert (list(m) if m is not None else [True] * len(ROWS)) == expect
    # the factorized path (a predicate per distinct cell, as a loaded index decides it) agrees
    codes = {k: factorize([r.get(k) for r in ROWS]) for k in ROWS[0]}
    m2 = to_mask(fs, lambda c: np.array([]), len(ROWS), lambda c: codes[c])
    assert (list(m2) if m2 is not None else [True] * len(ROWS)) == expect


def test_factorize_keeps_list_cells_and_first_seen_order() -> None:
    codes, uniques = factorize(["a", ["x", "y"], None, "a", ["x", "y"], ["y"]])
    assert list(codes) == [0, 1, 2, 0, 1, 3]
    assert uniques == ["a", ["x", "y"], None, ["y"]]


def test_path_prefixes() -> None:
    assert path_prefixes("본문/제7조/제2항", ["본문/제8조"]) == ["본문", "본문/제7조", "본문/제7조/제2항", "본문/제8조"]
    assert path_prefixes(None) == []


def test_nin_excludes_and_only_applies_to_single_valued_fields() -> None:
    f = parse_filter("doc_title=nin:판례,없는문서")
    assert f.op == "nin" and f.value == ["판례", "없는문서"]
    assert list(_mask([f])) == [True, True, False, False]
    assert to_chroma([f]) == {"doc_title": {"$nin": ["판례", "없는문서"]}}
    with pytest.raises(ValueError, match="single-valued"):
        Filter("path", "nin", ["본문"])
