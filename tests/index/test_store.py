"""Store behaviour with a hash embedder: idempotence, atomic replacement, removal, isolation, trees."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakes import CONTRACT, HashEmbedder

from jogak.index import open_store
from jogak.retrieve import SearchOptions, search


def _store(tmp_path: Path, name: str = "default", embedder=None):
    return open_store(tmp_path / "db", name, embedder=embedder if embedder is not None else HashEmbedder())


def test_ingest_is_idempotent_and_never_reembeds(tmp_path: Path, small_corpus: Path) -> None:
    emb = HashEmbedder()
    st = _store(tmp_path, embedder=emb)
    r1 = st.ingest([small_corpus], strategy="structure")
    assert sorted(r1.added) == ["contract.txt", "policy.txt"] and not r1.failed
    n1 = st.count()
    assert n1 == r1.n_chunks > 0
    calls = emb.n_texts
    r2 = st.ingest([small_corpus], strategy="structure")
    assert sorted(r2.unchanged) == ["contract.txt", "policy.txt"]
    assert r2.n_chunks == 0 and emb.n_texts == calls  # nothing chunked, nothing embedded
    assert st.count() == n1
    chk = st.check()
    assert chk["bm25_consistent"] and chk["dense_consistent"] and chk["hidden_generations"] == []


def test_changed_file_replaces_old_chunks(tmp_path: Path, small_corpus: Path) -> None:
    st = _store(tmp_path)
    st.ingest([small_corpus], strategy="structure")
    before = {c.id: c.text for c in st.chunks(doc_id=st.document("contract.txt").doc_id)}
    (small_corpus / "contract.txt").write_text(CONTRACT.replace("서울중앙지방법원", "부산지방법원"), encoding="utf-8")
    rep = st.ingest([small_corpus], strategy="structure")
    assert rep.updated == ["contract.txt"] and rep.unchanged == ["policy.txt"]
    after = st.chunks(doc_id=st.document("contract.txt").doc_id)
    assert any("부산지방법원" in c.text for c in after)
    assert not any("서울중앙지방법원" in c.text for c in after)
    assert len(after) == len(before)
    chk = st.check()
    assert chk["bm25_consistent"] and chk["dense_consistent"]
    hits = search(st, "서울중앙지방법원 관할", k=10).hits
    assert not any("서울중앙지방법원" in h.chunk.text for h in hits)
    assert "부산지방법원" in search(st, "부산지방법원 관할 법원", k=1).hits[0].chunk.text


def test_same_name_from_another_folder_warns_before_replacing(tmp_path: Path, small_corpus: Path) -> None:
    st = _store(tmp_path)
    st.ingest([small_corpus], strategy="structure")
    other = tmp_path / "other"
    other.mkdir()
    (other / "contract.txt").write_text(CONTRACT.replace("서울중앙지방법원", "부산지방법원"), encoding="utf-8")
    rep = st.ingest([other], strategy="structure")
    assert rep.updated == ["contract.txt"]
    assert any("replaces the document of the same name" in w and "contract.txt" in w for w in rep.warnings)
    # the same file again, changed in place: an ordinary update, no warning
    (other / "contract.txt").write_text(CONTRACT, encoding="utf-8")
    rep = st.ingest([other], strategy="structure")
    assert rep.updated == ["contract.txt"] and not any("same name" in w for w in rep.warnings)


def _law(title: str, kind: str, promulgated: str, article: str) -> str:
    return (f"---\n제목: {title}\n법령구분: {kind}\n공포일자: {promulgated}\n시행일자: {promulgated}\n---\n\n"
            f"# {title}\n\n##### 제1조 (목적)\n\n{article}\n")


def test_laws_are_keyed_by_their_front_matter_not_their_file_name(tmp_path: Path) -> None:
    """Two 법률.md from two folders are two documents; the same file again is unchanged; another version
    of one law (a later 공포일자) is a document of its own; a changed file of the same version replaces it."""
    st = _store(tmp_path)
    a, b, v = tmp_path / "근로기준법", tmp_path / "최저임금법", tmp_path / "versions"
    for d in (a, b, v):
        d.mkdir()
    (a / "법률.md").write_text(_law("근로기준법", "법률", "2026-08-04", "이 법은 근로조건의 기준을 정한다."), "utf-8")
    (b / "법률.md").write_text(_law("최저임금법", "법률", "2020-05-26", "이 법은 최저임금을 정한다."), "utf-8")
    rep = st.ingest([a, b], strategy="structure")
    assert rep.added == ["법률.md", "법률.md"] and not rep.warnings
    assert sorted(d.doc_title for d in st.documents()) == ["근로기준법", "최저임금법"]
    assert st.ingest([a, b], strategy="structure").unchanged == ["법률.md", "법률.md"]
    (v / "법률@2020-01-01.md").write_text(_law("최저임금법", "법률", "2019-12-31", "이 법은 옛 최저임금을 정한다."),
                                         "utf-8")
    assert st.ingest([v], strategy="structure").added == ["법률@2020-01-01.md"]
    assert sorted(d.doc_title for d in st.documents()) == ["근로기준법", "최저임금법", "최저임금법"]
    (b / "법률.md").write_text(_law("최저임금법", "법률", "2020-05-26", "이 법은 최저임금의 기준을 정한다."), "utf-8")
    rep = st.ingest([b], strategy="structure")
    assert rep.updated == ["법률.md"] and len(st.documents()) == 3


def test_changed_chunking_reindexes(tmp_path: Path, small_corpus: Path) -> None:
    st = _store(tmp_path)
    st.ingest([small_corpus], strategy="structure")
    rep = st.ingest([small_corpus], strategy="recursive")
    assert sorted(rep.updated) == ["contract.txt", "policy.txt"]
    assert {d.strategy for d in st.documents()} == {"recursive"}


def test_documents_remove_and_tree(tmp_path: Path, small_corpus: Path) -> None:
    st = _store(tmp_path)
    st.ingest([small_corpus], strategy="structure")
    docs = {d.source: d for d in st.documents()}
    assert set(docs) == {"contract.txt", "policy.txt"}
    d = docs["contract.txt"]
    assert d.doc_title == "contract" and len(d.sha256) == 64 and d.n_chunks > 0 and d.ingested_at
    tree = st.tree(d.doc_id, with_text=True)
    assert tree is not None
    paths = []

    def walk(n):
        paths.append(n["path"])
        for c in n["children"]:
            walk(c)

    walk(tree)
    assert "본문/제7조" in paths and "부록A/제2조" in paths
    assert st.remove("contract.txt") is True
    assert st.remove("contract.txt") is False
    assert [x.source for x in st.documents()] == ["policy.txt"]
    assert all(h.chunk.metadata.source == "policy.txt" for h in search(st, "위약금 산정", k=5).hits)
    chk = st.check()
    assert chk["bm25_consistent"] and chk["dense_consistent"]


def test_collections_are_isolated(tmp_path: Path, small_corpus: Path) -> None:
    a = _store(tmp_path, "alpha")
    b = _store(tmp_path, "beta")
    a.ingest([small_corpus / "contract.txt"], strategy="structure")
    b.ingest([small_corpus / "policy.txt"], strategy="structure")
    assert [d.source for d in a.documents()] == ["contract.txt"]
    assert [d.source for d in b.documents()] == ["policy.txt"]
    assert all(h.chunk.metadata.source == "policy.txt" for h in search(b, "위약금", k=10).hits)
    some_a = a.chunks()[0].id
    assert b.get_chunk(some_a) is None and a.get_chunk(some_a) is not None


def test_bad_collection_name_and_missing_store(tmp_path: Path) -> None:
    from jogak.index.store import StoreError

    with pytest.raises(StoreError):
        open_store(tmp_path / "db", "../etc")
    with pytest.raises(StoreError):
        open_store(tmp_path / "nothing", "default", create=False)


def test_failed_and_missing_files_are_reported(tmp_path: Path, small_corpus: Path) -> None:
    (small_corpus / "empty.txt").write_bytes(b"")
    st = _store(tmp_path)
    rep = st.ingest([small_corpus, tmp_path / "nope.txt"], strategy="structure")
    assert [f["source"] for f in rep.failed] == ["empty.txt"] and "empty" in rep.failed[0]["error"]
    assert rep.missing == [str(tmp_path / "nope.txt")]
    assert sorted(rep.added) == ["contract.txt", "policy.txt"]


def test_lexical_only_without_embedder(tmp_path: Path, small_corpus: Path) -> None:
    st = open_store(tmp_path / "db", embedder=False)
    rep = st.ingest([small_corpus], strategy="structure")
    assert rep.dense is False and rep.warnings
    res = search(st, "포인트 유효기간", k=3)
    assert res.hits and res.hits[0].matched == ["bm25"]
    assert any("dense" in w or "disabled" in w for w in res.warnings)
    # a later ingest with an embedder embeds the documents that lack vectors
    st2 = _store(tmp_path)
    rep2 = st2.ingest([small_corpus], strategy="structure")
    assert sorted(rep2.updated) == ["contract.txt", "policy.txt"] and rep2.dense
    assert "dense" in search(st2, "포인트 유효기간", k=1).hits[0].matched


def test_stale_tokenizer_is_rebuilt_on_next_ingest(tmp_path: Path, small_corpus: Path) -> None:
    st = _store(tmp_path)
    st.ingest([small_corpus], strategy="structure")
    with st.manifest.txn() as db:
        db.execute("UPDATE meta SET value='old-tokenizer' WHERE key='tokenizer'")
        db.execute("UPDATE chunks SET tokens='[]'")
    assert st.tokenizer_stale()
    assert any("older tokenizer" in w for w in search(st, "포인트", k=1).warnings)
    rep = st.ingest([small_corpus], strategy="structure")
    assert sorted(rep.unchanged) == ["contract.txt", "policy.txt"] and not st.tokenizer_stale()
    res = search(st, "포인트 유효기간", k=1, options=SearchOptions(dense=False))
    assert res.hits and "유효기간" in res.hits[0].chunk.text and not res.warnings


def test_rows_of_an_older_column_schema_are_recomputed_on_next_ingest(tmp_path: Path) -> None:
    # a store written before the ``defines`` column: the next ingest computes it for the rows it already holds
    d = tmp_path / "docs"
    d.mkdir()
    (d / "약관.txt").write_text("제2조 (정의)\n이 약관에서 쓰는 말의 뜻은 다음과 같다.\n1. \"회원\"이란 가입한 사람을 말한다.\n\n"
                               "제3조 (탈퇴)\n회원은 언제든지 탈퇴할 수 있다.\n", encoding="utf-8")
    st = _store(tmp_path)
    st.ingest([d], strategy="structure")
    with st.manifest.txn() as db:
        for row, cols in db.execute("SELECT row, cols FROM chunks").fetchall():
            old = {k: v for k, v in json.loads(cols).items() if k != "defines"}
            db.execute("UPDATE chunks SET cols=? WHERE row=?", (json.dumps(old, ensure_ascii=False), row))
        db.execute("DELETE FROM meta WHERE key='columns'")
    assert st.columns_stale()
    assert any("chunk columns predate" in w for w in search(st, "회원이 뭐예요?", k=1).warnings)
    rep = st.ingest([d], strategy="structure")
    assert not st.columns_stale()
    assert rep.unchanged == ["약관.txt"]
    with st.manifest.txn() as db:
        cols = [json.loads(c) for (c,) in db.execute("SELECT cols FROM chunks").fetchall()]
    assert ["회원"] in [c.get("defines") for c in cols]
    assert all("kind" in c for c in cols)  # the writer's own columns are kept
    res = search(st, "약관에서 말하는 회원은 어떤 사람을 말해요?", k=1)
    assert not any("chunk columns predate" in w for w in res.warnings)
    hit = res.hits[0]
    assert hit.chunk.metadata.article.startswith("제2조") and "defines" in hit.matched


def test_embedding_backend_failure_leaves_collection_unchanged(tmp_path: Path, small_corpus: Path) -> None:
    from jogak.index.embed import EmbedderUnavailable

    class Flaky(HashEmbedder):
        name = HashEmbedder.name

        def embed_passages(self, texts):
            raise EmbedderUnavailable("embedding endpoint http://127.0.0.1:9/v1 failed: connection refused")

    import uuid

    st = _store(tmp_path)
    st.ingest([small_corpus / "policy.txt"], strategy="structure")
    n = st.count()
    # fresh text, so the shared embedding cache cannot answer for the failing backend
    (small_corpus / "contract.txt").write_text(CONTRACT.replace("목적", uuid.uuid4().hex), encoding="utf-8")
    st2 = open_store(tmp_path / "db", "default", embedder=Flaky())
    rep = st2.ingest([small_corpus], strategy="structure")
    assert [f["source"] for f in rep.failed] == ["contract.txt"] and "connection refused" in rep.failed[0]["error"]
    assert [d.source for d in st2.documents()] == ["policy.txt"] and st2.count() == n
    chk = st2.check()
    assert chk["hidden_generations"] == [] and chk["bm25_consistent"] and chk["dense_consistent"]


def test_neighbour_and_parent_expansion(tmp_path: Path, small_corpus: Path) -> None:
    st = _store(tmp_path)
    st.ingest([small_corpus], strategy="structure")
    base = search(st, "지체상금 산정 1천분의 1.5", k=1, options=SearchOptions(xref=False))
    assert len(base.hits) == 1
    res = search(st, "지체상금 산정 1천분의 1.5", k=1, options=SearchOptions(xref=False, expand="neighbours"))
    first, extra = res.hits[0], res.hits[1:]
    assert first.chunk.id == base.hits[0].chunk.id and 1 <= len(extra) <= 2
    assert all(h.matched == ["neighbour"] and h.via == first.chunk.id for h in extra)
    nos = {h.chunk.metadata.chunk_no for h in extra}
    assert nos <= {first.chunk.metadata.chunk_no - 1, first.chunk.metadata.chunk_no + 1}


def test_question_date_filter_ignored_without_dates(tmp_path: Path, small_corpus: Path) -> None:
    st = _store(tmp_path)
    st.ingest([small_corpus], strategy="structure")
    res = search(st, "2020년 이후 적립된 포인트 유효기간", k=2)
    assert res.filters == [] and res.hits  # no decision dates in policies: nothing to filter on


def test_chunk_cache_overflow_returns_every_row(tmp_path: Path, small_corpus: Path) -> None:
    st = _store(tmp_path)
    st.ingest([small_corpus], strategy="structure")
    st.CHUNK_CACHE_MAX = 3
    rows = st.lexical().rows
    assert len(rows) > 3 and set(st.chunk_map(rows)) == set(rows)
    assert set(st.chunk_map(rows)) == set(rows)
