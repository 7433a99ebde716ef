"""The HTTP API of a real `jogak serve` process (httpx over loopback): answers with citations, search in
the CLI's shape, documents, chunks, trees, uploads, deletion, docs, headers."""

from __future__ import annotations

import re

from serverkit import KEYS, ServerProcess, wait_job

Q = "단순 변심인데 반품 배송비 얼마예요?"


def test_ask_answers_with_citations(keyed_server: ServerProcess) -> None:
    with keyed_server.client(KEYS["haru"]) as c:
        r = c.post("/v1/ask", json={"question": Q})
        assert r.status_code == 200, r.text
        a = r.json()
    assert a["collection"] == "haru"
    assert a["supported"] is True
    assert "6,000원" in a["answer"]
    cit = a["citations"][0]
    assert cit["doc_title"] == "반품교환환불정책"
    assert cit["article"] == "제2조 (반품 배송비) ①"
    assert cit["path"] == "본문/제2조/제1항"
    assert cit["page_start"] == 1 and cit["ref"] == 1
    # the same keys as `jogak ask --json`, plus the server's additions
    assert {"question", "answer", "supported", "citations", "excerpts", "filters", "warnings", "generator"} <= set(a)
    # numbered citation markers replace the source note
    parts = a["answer_parts"]
    assert {"cite": [1], "note": "(근거: 반품교환환불정책 · 제2조 (반품 배송비) ①)"} in parts
    # the rule's sentence first (the same clause's ③, free-shipping returns, follows it as a sibling paragraph;
    # rounded cosines make that the same on every CPU)
    text = "".join(p.get("text", "") for p in parts).strip()
    assert text.splitlines()[0].endswith("부담한다.")
    # highlight offsets point at the quote inside the clause inside the chunk
    with keyed_server.client(KEYS["haru"]) as c:
        chunk = c.get(f"/v1/chunks/{cit['chunk_id']}", params={"collection": "haru"}).json()
    q0, q1 = cit["highlight"]["quote"]
    c0, c1 = cit["highlight"]["clause"]
    assert chunk["text"][q0:q1] == cit["quote"]
    assert c0 <= q0 < q1 <= c1
    assert chunk["text"][c0:c1].startswith("①")
    assert chunk["document"]["n_pages"] == 3 and chunk["collection"] == "haru"


def test_ask_in_english_collection(keyed_server: ServerProcess) -> None:
    with keyed_server.client(KEYS["contracts"]) as c:
        r = c.post("/v1/ask", json={"question": "Which law governs the supply agreement?"})
        assert r.status_code == 200, r.text
        a = r.json()
    assert a["collection"] == "contracts"
    assert a["generator"] == "extractive"


def test_search_shape_and_filters(keyed_server: ServerProcess) -> None:
    with keyed_server.client(KEYS["haru"]) as c:
        r = c.post("/v1/search", json={"query": "포인트 유효기간", "k": 3})
        assert r.status_code == 200
        s = r.json()
        assert set(s) >= {"query", "filters", "hits", "collection"}
        assert 1 <= len(s["hits"]) <= 3
        assert set(s["hits"][0]) >= {"rank", "chunk_id", "score", "text", "metadata", "via", "matched"}
        assert [h["rank"] for h in s["hits"]] == list(range(1, len(s["hits"]) + 1))
        # CLI-style filter strings, and the mapping form
        for filters in (["doc_title=eq:멤버십정책"], {"doc_title": "멤버십정책"}):
            r = c.post("/v1/search", json={"query": "포인트", "filters": filters})
            assert r.status_code == 200
            assert r.json()["hits"] and {h["metadata"]["doc_title"] for h in r.json()["hits"]} == {"멤버십정책"}
        r = c.post("/v1/search", json={"query": "포인트", "filters": ["nonsense=eq:1"]})
        assert r.status_code == 422 and r.json()["error"] == "bad_filter"
        assert "unknown filter key" in r.json()["message"]


def test_request_validation(keyed_server: ServerProcess) -> None:
    with keyed_server.client(KEYS["haru"]) as c:
        r = c.post("/v1/ask", json={"question": ""})
        assert r.status_code == 422 and r.json()["error"] == "invalid"
        assert r.json()["message"].startswith("question:")
        r = c.post("/v1/ask", json={"question": "x", "k": 10_000})
        assert r.status_code == 422 and "at most" in r.json()["message"]
        r = c.post("/v1/ask", json={"question": "x" * 5000})
        assert r.status_code == 422
        r = c.post("/v1/ask", json={"question": "x", "unknown": 1})
        assert r.status_code == 422
        r = c.post("/v1/ask", content=b"not json", headers={"Content-Type": "application/json"})
        assert r.status_code == 422 and r.json()["error"] == "invalid"
        r = c.get("/v1/nothing-here")
        assert r.status_code == 404 and r.json()["error"] == "not_found"


def test_documents_tree_and_chunks(keyed_server: ServerProcess, ids: dict) -> None:
    with keyed_server.client(KEYS["haru"]) as c:
        docs = c.get("/v1/collections/haru/documents").json()["documents"]
        by_title = {d["doc_title"]: d for d in docs}
        assert set(by_title) == {"반품교환환불정책", "멤버십정책"}
        doc = by_title["반품교환환불정책"]
        assert doc["format"] == "pdf" and doc["n_pages"] == 3 and doc["n_chunks"] > 5
        t = c.get(f"/v1/documents/{doc['doc_id']}/tree", params={"text": "true"}).json()
        assert t["collection"] == "haru" and t["document"]["doc_id"] == doc["doc_id"]
        art2 = next(n for n in t["tree"]["children"] if n["path"] == "본문/제2조")
        assert art2["label"] == "제2조" and art2["title"] == "반품 배송비" and art2["page_start"] == 1
        assert art2["children"][0]["path"] == "본문/제2조/제1항"
        assert art2["children"][0]["text"].startswith("① 단순 변심")
        t2 = c.get(f"/v1/documents/{doc['doc_id']}/tree").json()
        assert "text" not in t2["tree"]["children"][0]


def test_upload_ingest_and_delete(keyed_server: ServerProcess) -> None:
    md = ("# 시험 규정\n\n제1조 (목적)\n이 규정은 업로드 시험을 위한 것이다.\n\n"
          "제2조 (보관 기간)\n① 자료는 3년 동안 보관한다.\n② 보관 기간이 지나면 지체 없이 파기한다.\n")
    with keyed_server.client(KEYS["upload"]) as c:
        r = c.post("/v1/collections/uploads/documents",
                   files=[("file", ("../../../etc/시험 규정.md", md.encode(), "text/markdown")),
                          ("file", ("..\\..\\windows\\notes.txt", "메모입니다. 보관 기간은 없다.\n".encode("cp949"),
                                    "text/plain"))])
        assert r.status_code == 202, r.text
        job = r.json()
        assert r.headers["location"] == f"/v1/jobs/{job['id']}"
        assert [f["name"] for f in job["files"]] == ["시험 규정.md", "notes.txt"]
        assert job["files"][0]["original_name"] == "../../../etc/시험 규정.md"
        assert all("path" not in f for f in job["files"])
        done = wait_job(c, job["id"])
        assert done["status"] == "succeeded", done
        assert sorted(done["report"]["added"]) == ["notes.txt", "시험 규정.md"]
        docs = c.get("/v1/collections/uploads/documents").json()["documents"]
        assert sorted(d["source"] for d in docs) == ["notes.txt", "시험 규정.md"]
        a = c.post("/v1/ask", json={"question": "자료는 몇 년 동안 보관하나요?", "collection": "uploads"}).json()
        assert "3년" in a["answer"] and a["citations"][0]["article"].startswith("제2조")
        # re-uploading the same bytes changes nothing
        r = c.post("/v1/collections/uploads/documents", files={"file": ("시험 규정.md", md.encode(), "text/markdown")})
        again = wait_job(c, r.json()["id"])
        assert again["status"] == "succeeded" and again["report"]["unchanged"] == ["시험 규정.md"]
        # delete one document by id, then the other by file name via the query form
        doc_id = next(d["doc_id"] for d in docs if d["source"] == "notes.txt")
        r = c.delete(f"/v1/collections/uploads/documents/{doc_id}")
        assert r.status_code == 200 and r.json() == {"removed": True, "doc_id": doc_id, "collection": "uploads"}
        assert c.delete(f"/v1/collections/uploads/documents/{doc_id}").status_code == 404
        r = c.delete("/v1/collections/uploads/documents", params={"doc_id": "시험 규정.md"})
        assert r.status_code == 200
        assert c.get("/v1/collections/uploads/documents").json()["documents"] == []
        s = c.post("/v1/search", json={"query": "보관 기간", "collection": "uploads"}).json()
        assert s["hits"] == []


def test_openapi_and_docs_page(keyed_server: ServerProcess) -> None:
    with keyed_server.client() as c:
        spec = c.get("/openapi.json").json()
        for p in ("/v1/ask", "/v1/search", "/v1/collections/{collection}/documents", "/v1/jobs/{job_id}",
                  "/v1/chunks/{chunk_id}", "/v1/documents/{doc_id}/tree", "/healthz"):
            assert p in spec["paths"], p
        schemes = spec["components"]["securitySchemes"]
        assert {"HTTPBearer", "APIKeyHeader"} <= set(schemes)
        assert set(spec["paths"]["/v1/collections/{collection}/documents"]) == {"get", "post", "delete"}
        page = c.get("/docs")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert c.get("/redoc").status_code == 404


def test_page_is_self_contained_and_headers(keyed_server: ServerProcess) -> None:
    with keyed_server.client() as c:
        for path in ("/", "/docs", "/static/i18n.js", "/static/app.js", "/static/library.js", "/static/app.css", "/static/docs.js",
                     "/static/docs.css"):
            r = c.get(path)
            assert r.status_code == 200, path
            # no external resource: every URL the page could load is relative
            assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", r.text), path
            assert not re.search(r"""url\(\s*["']?(https?:)?//""", r.text), path
            assert "fetch(\"http" not in r.text
        r = c.get("/")
        csp = r.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "connect-src 'self'" in csp
        assert r.headers["x-content-type-options"] == "nosniff"


def test_cors_is_off_by_default(keyed_server: ServerProcess) -> None:
    with keyed_server.client(KEYS["haru"]) as c:
        r = c.post("/v1/search", json={"query": "포인트"}, headers={"Origin": "https://evil.example"})
        assert r.status_code == 200
        assert "access-control-allow-origin" not in r.headers
        r = c.options("/v1/search", headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
        assert "access-control-allow-origin" not in r.headers
