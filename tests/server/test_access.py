"""Access control against the real `jogak serve` process: a key reads and writes only its collections.

Every endpoint is tried with no key, a wrong key and a key for the other collection; ids from another
collection must answer 404 (indistinguishable from ids that do not exist), named collections 403.
"""

from __future__ import annotations

import pytest
from serverkit import KEYS, ServerProcess, sha256_hex

ENDPOINTS = [
    ("POST", "/v1/ask", {"question": "반품 배송비"}),
    ("POST", "/v1/search", {"query": "반품 배송비"}),
    ("GET", "/v1/collections", None),
    ("GET", "/v1/collections/haru/documents", None),
    ("POST", "/v1/collections/haru/documents", None),
    ("DELETE", "/v1/collections/haru/documents/whatever", None),
    ("GET", "/v1/jobs", None),
    ("GET", "/v1/jobs/0123", None),
    ("GET", "/v1/chunks/x", None),
    ("GET", "/v1/documents/x/tree", None),
]


@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS)
def test_every_endpoint_needs_a_key(keyed_server: ServerProcess, method: str, path: str, body: dict | None) -> None:
    with keyed_server.client() as c:
        r = c.request(method, path, json=body)
        assert r.status_code == 401, (path, r.text)
        assert r.json()["error"] == "unauthorized"
        assert r.headers["www-authenticate"] == "Bearer"
    with keyed_server.client("k-not-a-configured-key") as c:
        r = c.request(method, path, json=body)
        assert r.status_code == 401
        assert r.json() == {"error": "unauthorized", "message": "invalid API key"}
    # the hash of a key is not a key
    with keyed_server.client(sha256_hex(KEYS["contracts"])) as c:
        assert c.request(method, path, json=body).status_code == 401


def test_health_and_page_need_no_key(keyed_server: ServerProcess) -> None:
    with keyed_server.client() as c:
        h = c.get("/healthz").json()
        assert h["status"] == "ok" and h["mode"] == "keys"
        assert c.get("/").status_code == 200
        assert c.get("/openapi.json").status_code == 200


def test_named_other_collection_is_forbidden(keyed_server: ServerProcess, ids: dict) -> None:
    other_doc = ids["contracts"]["docs"][0]
    other_chunk = ids["contracts"]["chunks"][0]
    with keyed_server.client(KEYS["haru"]) as c:
        for method, path, body in [
            ("POST", "/v1/ask", {"question": "매수인은 대금을 언제 지급하나요?", "collection": "contracts"}),
            ("POST", "/v1/search", {"query": "매수인 대금", "collection": "contracts"}),
            ("GET", "/v1/collections/contracts/documents", None),
            ("DELETE", f"/v1/collections/contracts/documents/{other_doc}", None),
            ("GET", f"/v1/chunks/{other_chunk}?collection=contracts", None),
            ("GET", f"/v1/documents/{other_doc}/tree?collection=contracts", None),
            # a collection that does not exist answers the same as one that does
            ("GET", "/v1/collections/no-such-collection/documents", None),
            ("POST", "/v1/search", {"query": "x", "collection": "no-such-collection"}),
        ]:
            r = c.request(method, path, json=body)
            assert r.status_code == 403, (method, path, r.status_code, r.text)
            assert r.json()["error"] == "forbidden"
        r = c.post("/v1/collections/contracts/documents", files={"file": ("x.md", b"# x\n", "text/markdown")})
        assert r.status_code == 403
    with keyed_server.client(KEYS["multi"]) as c:  # the document is still there
        assert other_doc in [d["doc_id"] for d in c.get("/v1/collections/contracts/documents").json()["documents"]]


def test_ids_of_other_collections_are_not_found(keyed_server: ServerProcess, ids: dict) -> None:
    with keyed_server.client(KEYS["haru"]) as c:
        for chunk_id in ids["contracts"]["chunks"]:
            r = c.get(f"/v1/chunks/{chunk_id}")
            assert r.status_code == 404, r.text
            assert r.json() == {"error": "not_found", "message": f"no chunk '{chunk_id}'"}
        for doc_id in ids["contracts"]["docs"]:
            r = c.get(f"/v1/documents/{doc_id}/tree")
            assert r.status_code == 404
            assert r.json() == {"error": "not_found", "message": f"no document '{doc_id}'"}
        # the same answer as for an id that exists nowhere
        assert c.get("/v1/chunks/does-not-exist-000").json()["message"] == "no chunk 'does-not-exist-000'"
        # its own ids work
        r = c.get(f"/v1/chunks/{ids['haru']['chunks'][0]}")
        assert r.status_code == 200 and r.json()["collection"] == "haru"
        r = c.get(f"/v1/documents/{ids['haru']['docs'][0]}/tree")
        assert r.status_code == 200 and r.json()["tree"]["children"]
    # the contracts key (configured as a sha256 hash, sent as X-API-Key) is confined the other way round
    with keyed_server.client(KEYS["contracts"], header="x-api-key") as c:
        assert c.get(f"/v1/chunks/{ids['contracts']['chunks'][0]}").status_code == 200
        for chunk_id in ids["haru"]["chunks"]:
            assert c.get(f"/v1/chunks/{chunk_id}").status_code == 404
        for doc_id in ids["haru"]["docs"]:
            assert c.get(f"/v1/documents/{doc_id}/tree").status_code == 404


def test_search_and_ask_stay_inside_the_key_collection(keyed_server: ServerProcess, ids: dict) -> None:
    haru_docs = set(ids["haru"]["docs"])
    with keyed_server.client(KEYS["haru"]) as c:
        # a question only the contracts can answer: hits still come from haru only
        r = c.post("/v1/search", json={"query": "매수인은 검수 완료일부터 며칠 이내에 대금을 지급하나요?", "k": 10})
        assert r.status_code == 200
        body = r.json()
        assert body["collection"] == "haru"
        assert body["hits"], body
        assert {h["metadata"]["doc_id"] for h in body["hits"]} <= haru_docs
        assert not set(ids["contracts"]["chunks"]) & {h["chunk_id"] for h in body["hits"]}
        r = c.post("/v1/ask", json={"question": "매수인은 검수 완료일부터 며칠 이내에 대금을 지급하나요?"})
        assert r.status_code == 200
        a = r.json()
        assert a["collection"] == "haru"
        assert {e["chunk_id"].rsplit("-", 1)[0] for e in a["excerpts"]} <= haru_docs
        assert all(c_["chunk_id"].rsplit("-", 1)[0] in haru_docs for c_ in a["citations"])
        # a filter naming the other collection's document finds nothing rather than leaking it
        title = "물품매매계약서"
        r = c.post("/v1/search", json={"query": "대금", "filters": [f"doc_title=eq:{title}"]})
        assert r.status_code == 200 and r.json()["hits"] == []


def test_document_and_collection_listings_are_scoped(keyed_server: ServerProcess, ids: dict) -> None:
    with keyed_server.client(KEYS["haru"]) as c:
        cols = c.get("/v1/collections").json()
        assert [x["name"] for x in cols["collections"]] == ["haru"]
        assert cols["default"] == "haru"
        docs = c.get("/v1/collections/haru/documents").json()
        assert sorted(d["doc_id"] for d in docs["documents"]) == sorted(ids["haru"]["docs"])
        assert all("path" not in d for d in docs["documents"])  # no server paths
    with keyed_server.client(KEYS["multi"]) as c:
        names = [x["name"] for x in c.get("/v1/collections").json()["collections"]]
        assert names == ["contracts", "haru", "scratch"]
        # a key with several collections finds a chunk id in any of them, and says where
        r = c.get(f"/v1/chunks/{ids['contracts']['chunks'][0]}")
        assert r.status_code == 200 and r.json()["collection"] == "contracts"
    with keyed_server.client(KEYS["contracts"]) as c:
        # no collection named: the key's only collection is used, not the server default (haru)
        r = c.post("/v1/search", json={"query": "대금 지급"})
        assert r.status_code == 200 and r.json()["collection"] == "contracts"


def test_jobs_are_scoped(keyed_server: ServerProcess) -> None:
    from serverkit import wait_job

    with keyed_server.client(KEYS["upload"]) as up:
        r = up.post("/v1/collections/scratch2/documents",
                    files={"file": ("scoped.md", "# 규정\n\n제1조 (목적)\n이 규정은 시험용이다.\n".encode(), "text/markdown")})
        assert r.status_code == 202, r.text
        job_id = r.json()["id"]
        assert wait_job(up, job_id)["status"] == "succeeded"
        assert job_id in [j["id"] for j in up.get("/v1/jobs").json()["jobs"]]
    with keyed_server.client(KEYS["haru"]) as c:
        r = c.get(f"/v1/jobs/{job_id}")
        assert r.status_code == 404 and r.json()["error"] == "not_found"
        assert job_id not in [j["id"] for j in c.get("/v1/jobs").json()["jobs"]]
        # and the document it added is nowhere in reach
        assert c.post("/v1/search", json={"query": "시험용 규정", "collection": "scratch2"}).status_code == 403


def test_store_readers_are_bound_to_one_collection(server_store, ids: dict) -> None:
    """The mechanism under the HTTP layer: a collection's reader store cannot see another's rows."""
    from jogak.server.registry import Collections
    from jogak.server.settings import ServerSettings

    reg = Collections(ServerSettings(store=str(server_store), embedder=False, warm_up=False))
    haru = reg.reader("haru")
    contracts = reg.reader("contracts")
    assert reg.reader("nope") is None
    for cid in ids["contracts"]["chunks"]:
        assert haru.get_chunk(cid) is None and contracts.get_chunk(cid) is not None
    for did in ids["contracts"]["docs"]:
        assert haru.tree(did) is None and haru.document(did) is None
    reg.close()
