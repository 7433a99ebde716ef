"""Dense retrieval in a collection of up to ``EXACT_ALL_MAX`` rows is exact: the ranking is the cosine order
over every stored vector, so two processes (or two loads of the store) always agree, where an approximate
HNSW graph may order near-ties differently (real store on disk, hash embedder, real Chroma)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "index"))

from fakes import HashEmbedder

from jogak.filters import parse_filter
from jogak.index import open_store
from jogak.retrieve import SearchOptions, candidates
from jogak.retrieve.scope import open_scope

TEXT = "\n\n".join(f"제{i}조 (규칙 {i})\n회원은 {i}일 안에 반품 {i % 7}회와 교환 {i % 5}회를 신청할 수 있다."
                   for i in range(1, 41))


@pytest.fixture()
def store(tmp_path: Path):
    (tmp_path / "정책.txt").write_text("정책\n\n" + TEXT, encoding="utf-8")
    (tmp_path / "약관.txt").write_text("약관\n\n" + TEXT.replace("회원", "고객"), encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=HashEmbedder())
    assert not st.ingest([str(tmp_path / "정책.txt"), str(tmp_path / "약관.txt")]).failed
    yield st
    st.close()


def _dense(store, q: str, filters=None) -> list[tuple[str, float]]:
    opts = SearchOptions.from_config({}, lexicon=False)
    sc = open_scope(store, q, 10, filters, opts)
    qvec = store.embedder.embed_query(q)
    return candidates._dense_list(sc, qvec, sc.filters, sc.mask)


def candidates_wanted(store, q: str) -> int:
    return open_scope(store, q, 10, None, SearchOptions.from_config({}, lexicon=False)).n_candidates


def _brute(store, q: str, keep=None) -> list[tuple[str, float]]:
    lex = store.lexical()
    got = store.vectors.coll().get(ids=list(lex.rows), include=["embeddings"])
    m = np.asarray(got["embeddings"], dtype=np.float64)
    qv = np.asarray(store.embedder.embed_query(q), dtype=np.float64)
    sims = m @ qv / (np.linalg.norm(m, axis=1) * np.linalg.norm(qv))
    ranked = sorted(zip(got["ids"], sims, strict=True), key=lambda kv: -kv[1])
    return [(k, float(s)) for k, s in ranked if keep is None or keep(k)]


def _same_ranking(got: list[tuple[str, float]], want: list[tuple[str, float]]) -> None:
    """``got`` is the head of ``want``: the same similarities in order, each row at its own similarity
    (rows of equal similarity may come in either order)."""
    assert got
    sims = dict(want)
    assert [round(s, 5) for _, s in got] == [round(s, 5) for _, s in want[: len(got)]]
    assert all(abs(sims[k] - s) < 1e-5 for k, s in got)


def test_the_dense_list_is_the_exact_cosine_order(store) -> None:
    q = "반품은 며칠 안에 몇 번 신청할 수 있나요?"
    got = _dense(store, q)
    assert len(got) == min(len(store.lexical().rows), candidates_wanted(store, q))
    _same_ranking(got, _brute(store, q))
    assert store.lexical().memo("dense_matrix", lambda: None) is not None  # scored over the cached matrix


def test_a_filter_is_applied_to_the_exact_search(store) -> None:
    q = "교환 신청"
    rows = store.lexical().rows
    titles = dict(zip(rows, store.lexical().column("doc_title"), strict=True))
    got = _dense(store, q, [parse_filter("doc_title=약관")])
    assert got and all(titles[k] == "약관" for k, _ in got)
    _same_ranking(got, _brute(store, q, keep=lambda k: titles[k] == "약관"))


def test_the_same_ranking_after_reopening(store, tmp_path: Path) -> None:
    q = "고객이 반품 신청"
    first = _dense(store, q)
    store.close()
    again = open_store(tmp_path / "db", embedder=HashEmbedder())
    try:
        assert _dense(again, q) == first
    finally:
        again.close()


def test_above_the_limit_the_vector_store_answers(store, monkeypatch) -> None:
    monkeypatch.setattr(candidates, "EXACT_ALL_MAX", 0)
    q = "반품은 며칠 안에 몇 번 신청할 수 있나요?"
    got = _dense(store, q)
    assert got and {k for k, _ in got} <= set(store.lexical().rows)
