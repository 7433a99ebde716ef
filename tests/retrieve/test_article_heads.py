"""Article heads (retrieve/articles.py): with ``article_dense`` on, every clause is also ranked by one vector
of its document title and opening text; all chunks of a clause share its head's score; filters hold; off by
default; the heads are embedded at ingest when the collection asks for them, and a search that would have to
embed too many itself, or a collection too large, goes without them and says so (real store on disk, hash
embedder, real Chroma, the store's own embedding cache)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "index"))

from fakes import HashEmbedder

from jogak.filters import parse_filter
from jogak.index import open_store
from jogak.index.heads import clause_heads, head_text
from jogak.retrieve import SearchOptions, articles, candidates
from jogak.retrieve.articles import HEAD_CHARS
from jogak.retrieve.scope import open_scope

# 제3조 is long: its opening names what it is about, its tail is far from it
LONG = "회원은 위약금 없이 계약을 해지할 수 있다. " + " ".join(f"{i}. 세부 절차 {i}에 관한 사항을 따른다." for i in range(1, 120))
TEXT = ("제1조 (목적)\n이 약관은 서비스 이용 조건을 정한다.\n\n"
        "제2조 (요금)\n월 이용료는 9,900원이다.\n\n"
        f"제3조 (해지)\n{LONG}\n\n"
        "제4조 (환불)\n남은 기간의 이용료를 돌려준다.\n")


def _open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **index: bool):
    monkeypatch.delenv("JOGAK_EMBED_CACHE", raising=False)  # the store's own cache: what ingest put there
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "이용약관.txt").write_text("이용약관\n\n" + TEXT, encoding="utf-8")
    (tmp_path / "운영정책.txt").write_text("운영정책\n\n" + TEXT.replace("회원", "고객"), encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=HashEmbedder(), config={"chunk": {"max_chars": 400}, "index": index})
    assert not st.ingest([str(tmp_path / "이용약관.txt"), str(tmp_path / "운영정책.txt")]).failed
    return st


@pytest.fixture()
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    st = _open(tmp_path, monkeypatch, article_heads=False)  # heads embedded at the first search, not at ingest
    yield st
    st.close()


def _lists(store, q: str, filters=None, **opts):
    sc = open_scope(store, q, 10, filters, SearchOptions.from_config({}, lexicon=False, **opts))
    return sc, candidates.retrieve_candidates(sc).lists


def test_each_chunk_ranks_by_its_clause_head(store) -> None:
    q = "위약금 없이 해지할 수 있나요"
    _, lists = _lists(store, q, article_dense=True)
    heads = lists["article_dense"]
    assert heads
    lex = store.lexical()
    clause, doc, title = lex.column("clause"), lex.column("doc_id"), lex.column("doc_title")
    row_of = {k: i for i, k in enumerate(lex.rows)}
    chunks = store.chunk_map(list(lex.rows))
    # the head of each clause, computed here from its first chunk
    first: dict[tuple[str, str], str] = {}
    for i in sorted(range(len(lex.rows)), key=lambda i: lex.column("chunk_no")[i] or 0):
        first.setdefault((doc[i], clause[i]), lex.rows[i])
    qv = np.asarray(store.embedder.embed_query(q), dtype=np.float64)
    want = {}
    for key, row in first.items():
        body = " ".join(chunks[row].text.split())[:HEAD_CHARS]
        v = np.asarray(store.embedder.embed_passages([f"{title[row_of[row]]}\n{body}"])[0], dtype=np.float64)
        want[key] = float(v @ qv / (np.linalg.norm(v) * np.linalg.norm(qv)))
    scores = [s for _, s in heads]
    assert scores == sorted(scores, reverse=True)
    for key, s in heads:
        i = row_of[key]
        assert s == pytest.approx(want[(doc[i], clause[i])], abs=1e-4)
    # the long 제3조 is several chunks: every one of them is listed, at its clause's one score
    long_rows = [r for r, _ in heads if str(clause[row_of[r]]).endswith("/제3조")]
    assert len(long_rows) >= 4 and len({s for r, s in heads if r in long_rows}) <= 2  # two documents


def test_a_filter_holds_and_the_list_can_be_turned_off(store) -> None:
    _, lists = _lists(store, "해지")
    assert "article_dense" in lists  # on by default
    _, lists = _lists(store, "해지", article_dense=False)
    assert "article_dense" not in lists
    sc, lists = _lists(store, "해지", filters=[parse_filter("doc_title=이용약관")], article_dense=True)
    titles = sc.lex.column("doc_title")
    assert lists["article_dense"] and all(titles[sc.row_of[r]] == "이용약관" for r, _ in lists["article_dense"])


def _heads_cached(st) -> tuple[int, int]:
    """(clause heads of the collection, how many of them the store's embedding cache holds)."""
    _, texts = clause_heads(st, st.lexical())
    found = st.embedder.cache.get_many(st.embedder.name, texts)
    return len(texts), sum(v is not None for v in found)


def test_heads_are_embedded_at_ingest_unless_the_collection_says_no(tmp_path: Path, monkeypatch) -> None:
    st = _open(tmp_path / "with", monkeypatch)  # the default
    try:
        n, cached = _heads_cached(st)
        assert n == 8 and cached == n  # 4 clauses × 2 documents, every head ready before any search
        # a search then embeds nothing: it reads the heads back
        before = st.embedder.misses
        _, lists = _lists(st, "위약금 없이 해지할 수 있나요", article_dense=True)
        assert lists["article_dense"] and st.embedder.misses == before
    finally:
        st.close()
    st = _open(tmp_path / "without", monkeypatch, article_heads=False)
    try:
        n, cached = _heads_cached(st)
        assert n == 8 and cached < n  # a short clause's head can equal its chunk's embed text; the others are not
    finally:
        st.close()
    # asked for later: ingesting the same (unchanged) files again embeds the heads left out
    st = open_store(tmp_path / "without" / "db", embedder=HashEmbedder(),
                    config={"chunk": {"max_chars": 400}, "index": {"article_heads": True}})
    try:
        rep = st.ingest([str(tmp_path / "without" / "이용약관.txt"), str(tmp_path / "without" / "운영정책.txt")])
        assert len(rep.unchanged) == 2 and _heads_cached(st) == (8, 8)
    finally:
        st.close()


def test_head_text_is_the_title_and_the_opening(store) -> None:
    members, heads = clause_heads(store, store.lexical())
    assert sum(len(m) for m in members) == len(store.lexical().rows)  # every chunk belongs to one clause
    long = [h for h in heads if "위약금" in h]
    assert len(long) == 2 and all(len(h.split("\n", 1)[1]) == HEAD_CHARS for h in long)
    assert head_text("이용약관", "제2조 (요금)\n월 이용료는\n 9,900원이다.") == "이용약관\n제2조 (요금) 월 이용료는 9,900원이다."


def test_too_many_heads_to_embed_at_search_are_skipped_with_a_warning(store, monkeypatch) -> None:
    monkeypatch.setattr(articles, "EMBED_AT_SEARCH_MAX", 1)  # the collection has 8 heads, none embedded at ingest
    sc, lists = _lists(store, "해지", article_dense=True)
    assert "article_dense" not in lists
    assert any("not embedded at ingest" in w and "article_heads" in w for w in sc.warnings)


def test_a_collection_too_large_goes_without_heads(store, monkeypatch) -> None:
    monkeypatch.setattr(articles, "HEADS_MAX_ROWS", 3)
    sc, lists = _lists(store, "해지", article_dense=True)
    assert "article_dense" not in lists  # by design: no warning on every search of a large collection
    assert not any("article heads" in w for w in sc.warnings)
