"""Jobs run in worker processes (issue 18): a job that runs too long, uses too much memory or is cancelled
costs its worker only — the API keeps answering, the collection stays as it was, and the next queued job
runs. Removal is a job too. Also the request limits: text length (422), body size (413), strict types.

In-process application (TestClient), lexical-only: the workers are real processes all the same."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hostile import big_markdown

from jogak.server.app import create_app
from jogak.server.settings import ServerSettings

MD = "# 보관 규정\n\n제1조 (목적)\n이 규정은 자료 보관을 정한다.\n\n제2조 (기간)\n계약 자료는 5년 동안 보관한다.\n"


def _app(tmp_path: Path, **kw) -> TestClient:
    s = ServerSettings(store=str(tmp_path / "store"), embedder=False, warm_up=False, **kw)
    return TestClient(create_app(s))


def _wait(c: TestClient, job_id: str, until: tuple[str, ...] = ("queued", "running"), timeout: float = 240) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        j = c.get(f"/v1/jobs/{job_id}").json()
        if j["status"] not in until:
            return j
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} still {until} after {timeout} s")


def _upload(c: TestClient, name: str, text: str, coll: str = "default") -> str:
    r = c.post(f"/v1/collections/{coll}/documents", files={"file": (name, text.encode(), "text/markdown")})
    assert r.status_code == 202, r.text
    return r.json()["id"]


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with _app(tmp_path, job_workers=1) as c:
        assert _wait(c, _upload(c, "규정.md", MD))["status"] == "succeeded"
        yield c


def test_cancel_kills_the_worker_and_the_queue_goes_on(client: TestClient) -> None:
    c = client
    docs = c.get("/v1/collections/default/documents").json()["documents"]
    long_job = _upload(c, "대량.md", big_markdown(600_000))
    queued = _upload(c, "메모.md", "# 메모\n\n제1조 (메모)\n짧은 메모.\n")
    assert _wait(c, long_job, until=("queued",))["status"] == "running"
    assert c.get("/healthz").status_code == 200  # the API answers while the worker works
    assert c.post("/v1/search", json={"query": "보관 기간"}).status_code == 200
    r = c.post(f"/v1/jobs/{long_job}/cancel")
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "cancelled" and r.json()["error"]["error"] == "cancelled"
    assert c.post(f"/v1/jobs/{long_job}/cancel").status_code == 409  # finished already
    assert _wait(c, queued)["status"] == "succeeded"  # the worker's death lost no queued job
    after = {d["source"] for d in c.get("/v1/collections/default/documents").json()["documents"]}
    assert after == {d["source"] for d in docs} | {"메모.md"}


def test_cancel_a_queued_job(client: TestClient) -> None:
    c = client
    first = _upload(c, "대량.md", big_markdown(400_000))
    second = _upload(c, "둘째.md", MD.replace("보관", "폐기"))
    r = c.post(f"/v1/jobs/{second}/cancel")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    c.post(f"/v1/jobs/{first}/cancel")
    assert _wait(c, first)["status"] == "cancelled"
    sources = [d["source"] for d in c.get("/v1/collections/default/documents").json()["documents"]]
    assert sources == ["규정.md"]


def test_time_limit(tmp_path: Path) -> None:
    with _app(tmp_path, job_timeout_s=0.5) as c:
        job = _wait(c, _upload(c, "대량.md", big_markdown(600_000)))
        assert job["status"] == "failed" and job["error"]["error"] == "timeout", job
        assert "job_timeout_s" in job["error"]["message"] and job["error"]["collection_changed"] is False
        # cut off before the commit: at most an empty manifest, no document
        assert all(col["documents"] == 0 for col in c.get("/v1/collections").json()["collections"])
        assert c.get("/healthz").json()["status"] == "ok"


def test_memory_limit(tmp_path: Path) -> None:
    with _app(tmp_path, job_memory_mb=30) as c:  # less than a worker with Kiwi loaded
        job = _wait(c, _upload(c, "규정.md", MD))
        assert job["status"] == "failed" and job["error"]["error"] == "memory_limit", job
        assert "job_memory_mb" in job["error"]["message"]


def test_remove_runs_as_a_job(client: TestClient) -> None:
    c = client
    doc = c.get("/v1/collections/default/documents").json()["documents"][0]
    r = c.delete(f"/v1/collections/default/documents/{doc['doc_id']}")
    assert r.status_code == 200 and r.json() == {"removed": True, "doc_id": doc["doc_id"], "collection": "default"}
    assert c.get("/v1/collections/default/documents").json()["documents"] == []
    kinds = [j["kind"] for j in c.get("/v1/jobs").json()["jobs"]]
    assert "remove" in kinds
    assert c.delete(f"/v1/collections/default/documents/{doc['doc_id']}").status_code == 404


def test_create_collection(tmp_path: Path) -> None:
    with _app(tmp_path) as c:
        r = c.post("/v1/collections", json={"name": "계약"})
        assert r.status_code == 400 and r.json()["error"] == "bad_collection"
        r = c.post("/v1/collections", json={"name": "contracts"})
        assert r.status_code == 201 and r.json()["name"] == "contracts"
        assert c.post("/v1/collections", json={"name": "contracts"}).status_code == 409
        cols = c.get("/v1/collections").json()["collections"]
        assert cols == [{"name": "contracts", "exists": True, "documents": 0}]


def test_bad_collection_names(client: TestClient) -> None:
    from urllib.parse import quote

    for name in ("a..b", "alpha\n", "alpha.", ".hidden", "a" * 64, "a b", "가나"):
        r = client.post("/v1/search", json={"query": "보관", "collection": name})
        assert r.status_code == 400 and r.json()["error"] == "bad_collection", (name, r.text)
        r = client.post(f"/v1/collections/{quote(name, safe='')}/documents",
                        files={"file": ("a.md", MD.encode(), "text/markdown")})
        assert r.status_code in (400, 404), (name, r.text)  # 404: not even a route (names with '/' or '.' only)


def test_text_limits_and_strict_types(client: TestClient) -> None:
    c = client
    r = c.post("/v1/search", json={"query": "가" * 20_000})
    assert r.status_code == 422 and r.json()["error"] == "too_long" and "2,000" in r.json()["message"]
    r = c.post("/v1/ask", json={"question": "나" * 2_001})
    assert r.status_code == 422 and r.json()["error"] == "too_long"
    r = c.post("/v1/search", content=b'{"query": "' + b"x" * 200_000 + b'"}',
               headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too_large" and "max_request_kb" in r.json()["message"]
    for body in ({"question": "   \n\t"}, {"question": "보관", "k": True}, {"question": "보관", "k": 0},
                 {"question": "보관", "k": "3"}, {"question": "보관", "stream": "yes"}):
        r = c.post("/v1/ask", json=body)
        assert r.status_code == 422 and r.json()["error"] == "invalid", (body, r.text)
    r = c.post("/v1/search", json={"query": " "})
    assert r.status_code == 422 and "whitespace" in r.json()["message"]
    r = c.post("/v1/search", json={"query": "보관", "expand": "siblings"})
    assert r.status_code == 422 and "neighbours" in r.json()["message"] and "parent" in r.json()["message"]
