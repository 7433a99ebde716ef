"""Crash safety: an ingest process killed midway leaves the previous state, consistent and searchable."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from fakes import CONTRACT, HashEmbedder

from jogak.index import open_store
from jogak.retrieve import search

HERE = Path(__file__).resolve().parent

CHILD = textwrap.dedent("""
    import sys
    sys.path.insert(0, {here!r})
    from fakes import HashEmbedder
    from jogak.index import open_store

    def progress(stage, done, total, note=""):
        print(stage, done, total, flush=True)

    st = open_store({db!r}, embedder=HashEmbedder(delay=0.3))
    st.ingest([{corpus!r}], strategy="structure", progress=progress, commit_every=100)
    print("finished", flush=True)
""")


@pytest.mark.parametrize("kill_at", ["embed", "index"])
def test_killed_ingest_keeps_previous_state(tmp_path: Path, kill_at: str) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "contract.txt").write_text(CONTRACT, encoding="utf-8")
    db = tmp_path / "db"
    st = open_store(db, embedder=HashEmbedder())
    st.ingest([corpus], strategy="structure")
    old_sha = st.document("contract.txt").sha256
    n_old = st.count()
    st.close()

    # v2 changes the contract and adds many documents, so the child spends seconds embedding
    (corpus / "contract.txt").write_text(CONTRACT.replace("서울중앙지방법원", "대전지방법원"), encoding="utf-8")
    for i in range(40):
        (corpus / f"extra{i:02d}.txt").write_text(CONTRACT.replace("물품매매계약서", f"부속계약서 {i}"),
                                                 encoding="utf-8")
    code = CHILD.format(here=str(HERE), db=str(db), corpus=str(corpus))
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    seen = []
    assert proc.stdout is not None
    for line in proc.stdout:
        seen.append(line.strip())
        if line.startswith(kill_at) and (kill_at != "embed" or int(line.split()[1]) >= 64):
            os.kill(proc.pid, signal.SIGKILL)
            break
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL, seen[-5:]
    assert "finished" not in seen

    st = open_store(db, embedder=HashEmbedder())
    docs = st.documents()
    assert [d.source for d in docs] == ["contract.txt"]  # none of the half-ingested batch is visible
    assert docs[0].sha256 == old_sha and st.count() == n_old
    chk = st.check()
    assert chk["bm25_consistent"] and chk["dense_consistent"], chk
    hits = search(st, "관할 법원 분쟁", k=3).hits
    assert hits and "서울중앙지방법원" in hits[0].chunk.text
    assert not any("대전지방법원" in h.chunk.text for h in hits)

    # the next ingest garbage-collects the orphans and completes the work
    rep = st.ingest([corpus], strategy="structure")
    assert rep.updated == ["contract.txt"] and len(rep.added) == 40
    chk = st.check()
    assert chk["hidden_generations"] == [] and chk["bm25_consistent"] and chk["dense_consistent"]
    assert any("대전지방법원" in h.chunk.text for h in search(st, "대전지방법원", k=3).hits)
