"""The application in-process (FastAPI's TestClient) where a real socket adds nothing: CORS when
configured, local mode, settings from the configuration file, job records surviving a restart."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient

from jogak.server.app import create_app
from jogak.server.jobs import Job, JobManager
from jogak.server.settings import ServerSettings, SettingsError

MD = "# 안내\n\n제1조 (목적)\n이 안내는 시험용이다.\n\n제2조 (문의)\n문의는 3일 이내에 답한다.\n"


def _wait(c: TestClient, job_id: str) -> dict:
    for _ in range(600):
        j = c.get(f"/v1/jobs/{job_id}").json()
        if j["status"] not in ("queued", "running"):
            return j
        time.sleep(0.05)
    raise AssertionError("job did not finish")


def test_cors_only_for_configured_origins(tmp_path: Path) -> None:
    s = ServerSettings(store=str(tmp_path / "s"), embedder=False, warm_up=False,
                       cors_origins=["https://intranet.example"])
    with TestClient(create_app(s)) as c:
        ok = c.options("/v1/search", headers={"Origin": "https://intranet.example",
                                              "Access-Control-Request-Method": "POST",
                                              "Access-Control-Request-Headers": "authorization,content-type"})
        assert ok.status_code == 200
        assert ok.headers["access-control-allow-origin"] == "https://intranet.example"
        assert "authorization" in ok.headers["access-control-allow-headers"].lower()
        bad = c.options("/v1/search", headers={"Origin": "https://evil.example",
                                               "Access-Control-Request-Method": "POST"})
        assert bad.headers.get("access-control-allow-origin") != "https://evil.example"


def test_local_mode_round_trip(tmp_path: Path) -> None:
    s = ServerSettings(store=str(tmp_path / "s"), embedder=False, warm_up=False)
    with TestClient(create_app(s)) as c:
        assert c.get("/healthz").json() == {"status": "ok", "ready": True, "mode": "local", "version": "0.1.0"}
        # nothing ingested yet: the default collection does not exist
        r = c.post("/v1/search", json={"query": "문의"})
        assert r.status_code == 404 and r.json() == {"error": "not_found", "message": "no collection 'default'"}
        assert c.get("/v1/collections").json() == {"collections": [], "default": "default"}
        # raw-body upload with a percent-encoded Korean name
        r = c.post("/v1/collections/default/documents", content=MD.encode(),
                   headers={"X-Filename": "%EC%95%88%EB%82%B4.md", "Content-Type": "application/octet-stream"})
        assert r.status_code == 202, r.text
        assert r.json()["files"][0]["name"] == "안내.md"
        assert _wait(c, r.json()["id"])["status"] == "succeeded"
        cols = c.get("/v1/collections").json()["collections"]
        assert cols == [{"name": "default", "exists": True, "documents": 1}]
        a = c.post("/v1/ask", json={"question": "문의는 며칠 안에 답하나요?"}).json()
        assert "3일" in a["answer"] and a["citations"][0]["article"].startswith("제2조")
        assert any("dense" in w or "lexical" in w for w in c.post("/v1/search", json={"query": "문의"}).json()["warnings"])
        doc = c.get("/v1/collections/default/documents").json()["documents"][0]
        tree = c.get(f"/v1/documents/{doc['doc_id']}/tree").json()
        assert [n["label"] for n in tree["tree"]["children"]] == ["제1조", "제2조"]


def test_settings_from_config_file(tmp_path: Path) -> None:
    cfg = tmp_path / "jogak.yaml"
    cfg.write_text(yaml.safe_dump({"server": {"keys": {"k-0123456789abcdef": "a"}, "max_upload_mb": 3,
                                              "cors_origins": "https://x.example", "default_collection": "a"}}),
                   encoding="utf-8")
    s = ServerSettings.from_config(str(tmp_path / "store"), cfg)
    assert s.keys == {"k-0123456789abcdef": ["a"]} and s.keyed
    assert s.max_upload_bytes == 3 * 1024 * 1024
    assert s.cors_origins == ["https://x.example"]
    assert s.work_path == tmp_path / "store" / "server"
    cfg.write_text(yaml.safe_dump({"server": {"default_collection": "../x"}}), encoding="utf-8")
    from jogak.config import reset_config_cache

    reset_config_cache()
    with pytest.raises(SettingsError, match="default_collection"):
        ServerSettings.from_config(str(tmp_path / "store"), cfg)


def test_restart_interrupts_running_jobs_and_keeps_queued_ones(tmp_path: Path) -> None:
    work = tmp_path / "work"
    m = JobManager(work, init={})
    m.records.put(Job(id="j1", collection="a", status="running", stage="embed"))
    for jid in ("j1", "j2"):
        (m.uploads / jid / "000").mkdir(parents=True)
        (m.uploads / jid / "000" / "x.md").write_text("x")
    m.records.put(Job(id="j2", collection="a", files=[{"name": "x.md", "path": str(m.uploads / "j2" / "000" / "x.md")}]))
    m.records.close()
    m2 = JobManager(work, init={})  # not started: nothing runs, the queue is only rebuilt
    j = m2.get("j1")
    assert j is not None and j.status == "interrupted"
    assert "left as it was" in j.error["message"]
    assert not (m2.uploads / "j1").exists()
    queued = m2.get("j2")
    assert queued is not None and queued.status == "queued"  # a killed server loses no queued job
    assert (m2.uploads / "j2" / "000" / "x.md").is_file()
    assert sorted(x.id for x in m2.list({"a"})) == ["j1", "j2"]
    assert m2.list({"b"}) == []
    assert m2.cancel("j2") is not None and m2.get("j2").status == "cancelled"
    m2.stop()
