"""Fixtures for the integration tests (LangChain, LlamaIndex, MCP) — real libraries, a real store on disk.

``integration_store``: one store per session with collections ``haru`` and ``default`` (the Haru Market
PDFs), ``contracts`` (물품매매계약서.docx) and ``cases`` (a small court decision), ingested with the real offline
embedder and the shared embedding cache under .pytest_cache (a re-run embeds nothing).

``no_network``: the test fails if anything tries to reach a non-loopback address (the integrations must
run offline: no hub, tokenizer or nltk downloads). Integration libraries are imported inside the tests,
after the guard is up, so an import-time download would be caught too.
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HARU = ROOT / "examples" / "haru-market"
CONTRACT = ROOT / "examples" / "contracts" / "물품매매계약서.docx"
DECISION = ROOT / "tests" / "fixtures" / "caselaw" / "citing_decision.md"
CACHE = ROOT / ".pytest_cache" / "jogak" / "embed_cache.sqlite"
JOGAK = str(Path(sys.executable).with_name("jogak"))
QUESTION = "단순 변심인데 반품 배송비 얼마예요?"


def env() -> dict[str, str]:
    return {**os.environ, "JOGAK_EMBED_CACHE": str(CACHE), "HF_HUB_OFFLINE": "1",
            "ANONYMIZED_TELEMETRY": "False", "PYTHONUNBUFFERED": "1"}


@pytest.fixture(scope="session")
def integration_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from jogak.index import open_store

    CACHE.parent.mkdir(parents=True, exist_ok=True)
    old = os.environ.get("JOGAK_EMBED_CACHE")
    os.environ["JOGAK_EMBED_CACHE"] = str(CACHE)
    try:
        d = tmp_path_factory.mktemp("integration-store")
        # "default" (= haru) is the collection the README's examples use
        for name, paths in (("haru", sorted(HARU.glob("*.pdf"))), ("contracts", [CONTRACT]), ("cases", [DECISION]),
                            ("default", sorted(HARU.glob("*.pdf")))):
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


def _loopback(host: object) -> bool:
    return isinstance(host, str) and (host.startswith("127.") or host in ("::1", "localhost", ""))


@pytest.fixture()
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[object]]:
    attempts: list[object] = []
    connect, getaddrinfo = socket.socket.connect, socket.getaddrinfo

    def guarded_connect(self: socket.socket, address: object) -> None:
        if self.family == getattr(socket, "AF_UNIX", None) or (isinstance(address, tuple) and _loopback(address[0])):
            return connect(self, address)
        attempts.append(address)
        raise OSError(f"network access in a test: {address}")

    def guarded_getaddrinfo(host: object, *a: object, **kw: object) -> object:
        if host is None or _loopback(host):
            return getaddrinfo(host, *a, **kw)
        attempts.append(host)
        raise socket.gaierror(f"name lookup in a test: {host}")

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket, "getaddrinfo", guarded_getaddrinfo)
    yield attempts
    assert not attempts, f"tried to reach the network: {attempts}"
