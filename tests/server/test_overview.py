"""The landing view's data: documents and sample questions made from clause titles (or configured)."""

from __future__ import annotations

import time
from pathlib import Path

from fastapi.testclient import TestClient

from jogak.server.app import create_app
from jogak.server.overview import question, topic_particle
from jogak.server.settings import ServerSettings

MD = ("# 보관 규정\n\n제1조 (목적)\n이 규정은 자료 보관을 정한다.\n\n제2조 (보관 기간)\n계약 자료는 5년 동안 보관한다.\n\n"
      "제3조 (파기 절차)\n기간이 지난 자료는 파기한다.\n\n제4조 (교환)\n교환은 허용하지 않는다.\n")


def test_questions_read_naturally() -> None:
    assert [topic_particle(c) for c in "간갑가)"] == ["은", "은", "는", "은(는)"]
    assert question("보관 기간", "규정") == "보관 기간은 어떻게 되나요?"
    assert question("교환", "규정") == "교환은 어떻게 되나요?"
    assert question("반품 배송비", "정책") == "반품 배송비는 어떻게 되나요?"
    assert question("DELIVERY", "supply_agreement") == "What does the supply agreement say about delivery?"
    assert question("IP Rights", "Licence") == "What does the Licence say about IP rights?"


def test_overview_endpoint(tmp_path: Path) -> None:
    s = ServerSettings(store=str(tmp_path / "store"), embedder=False, warm_up=False,
                       sample_questions={"fixed": ["이건 고정 질문인가요?"]})
    with TestClient(create_app(s)) as c:
        assert c.get("/v1/collections/default/overview").status_code == 404
        for coll in ("default", "fixed"):
            r = c.post(f"/v1/collections/{coll}/documents", files={"file": ("규정.md", MD.encode(), "text/markdown")})
            job = r.json()["id"]
            for _ in range(600):
                if c.get(f"/v1/jobs/{job}").json()["status"] not in ("queued", "running"):
                    break
                time.sleep(0.05)
        o = c.get("/v1/collections/default/overview").json()
        assert [d["doc_title"] for d in o["documents"]] == ["규정"] and "doc_id" in o["documents"][0]
        # titles every document has (목적) are skipped; the rest become questions, in document order
        assert o["samples"] == ["보관 기간은 어떻게 되나요?", "파기 절차는 어떻게 되나요?", "교환은 어떻게 되나요?"]
        assert c.get("/v1/collections/fixed/overview").json()["samples"] == ["이건 고정 질문인가요?"]
