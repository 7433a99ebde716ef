"""Session fixtures for the server tests; helpers live in serverkit.py."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))  # hostile.py: generated inputs

from serverkit import CACHE, CONTRACTS, HARU, KEYS, ServerProcess, keyed_config


@pytest.fixture(scope="session")
def server_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Collections ``haru`` (two PDFs) and ``contracts`` (two DOCX), ingested once with real embeddings."""
    from jogak.index import open_store

    CACHE.parent.mkdir(parents=True, exist_ok=True)
    old = os.environ.get("JOGAK_EMBED_CACHE")
    os.environ["JOGAK_EMBED_CACHE"] = str(CACHE)
    try:
        d = tmp_path_factory.mktemp("server-store")
        for name, paths in (("haru", sorted(HARU.glob("*.pdf"))),
                            ("contracts", [CONTRACTS / "물품매매계약서.docx", CONTRACTS / "supply_agreement.docx"])):
            st = open_store(d, name)
            rep = st.ingest([str(p) for p in paths], strategy="structure")
            assert rep.ok and not rep.failed, rep.to_dict()
            st.close()
    finally:
        if old is None:
            os.environ.pop("JOGAK_EMBED_CACHE", None)
        else:
            os.environ["JOGAK_EMBED_CACHE"] = old
    return d


@pytest.fixture(scope="session")
def keyed_server(server_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    work = tmp_path_factory.mktemp("keyed-server")
    cfg = work / "jogak.yaml"
    cfg.write_text(yaml.safe_dump(keyed_config(), allow_unicode=True), encoding="utf-8")
    srv = ServerProcess(server_store, cfg, work / "server.log").start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def ids(keyed_server: ServerProcess) -> dict[str, Any]:
    """Real document and chunk ids of both collections (read with the multi-collection key)."""
    out: dict[str, Any] = {}
    with keyed_server.client(KEYS["multi"]) as c:
        for coll, query in (("haru", "반품 배송비"), ("contracts", "매수인 대금 지급")):
            docs = c.get(f"/v1/collections/{coll}/documents").json()["documents"]
            hits = c.post("/v1/search", json={"query": query, "collection": coll, "k": 3}).json()["hits"]
            out[coll] = {"docs": [d["doc_id"] for d in docs], "chunks": [h["chunk_id"] for h in hits],
                         "sources": [d["source"] for d in docs]}
    assert out["haru"]["chunks"] and out["contracts"]["chunks"]
    return out
