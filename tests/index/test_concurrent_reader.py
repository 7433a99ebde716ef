"""A reader searching while another process replaces a document never sees a mix of old and new chunks."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from fakes import CONTRACT, HashEmbedder

from jogak.index import open_store
from jogak.retrieve import SearchOptions, search

HERE = Path(__file__).resolve().parent

WRITER = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {here!r})
    from fakes import HashEmbedder
    from jogak.index import open_store
    st = open_store({db!r}, embedder=HashEmbedder(delay=0.15))
    for v in (2, 3):
        open({path!r}, "w", encoding="utf-8").write({text!r}.replace("VERSION", "판본" + str(v)))
        st.ingest([{path!r}], strategy="structure")
        print("done", v, flush=True)
        time.sleep(1.0)  # let the reader see each version for a while
""")


def _versioned(v: int) -> str:
    # every clause carries the version marker, so a mixed result is detectable
    return CONTRACT.replace(")\n", ") VERSION\n").replace("VERSION", f"판본{v}")


def test_reader_never_sees_a_half_updated_document(tmp_path: Path) -> None:
    path = tmp_path / "contract.txt"
    path.write_text(_versioned(1), encoding="utf-8")
    db = tmp_path / "db"
    st = open_store(db, embedder=HashEmbedder())
    st.ingest([path], strategy="structure")
    template = CONTRACT.replace(")\n", ") VERSION\n")
    code = WRITER.format(here=str(HERE), db=str(db), path=str(path), text=template)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    seen_versions: list[set[str]] = []
    opts = SearchOptions(xref=False)
    deadline = time.time() + 120
    while proc.poll() is None and time.time() < deadline:
        for res_chunks in ([h.chunk for h in search(st, "위약금 관할 법원 인도 대금", k=10, options=opts).hits],
                           st.chunks()):
            versions = {m for c in res_chunks for m in ("판본1", "판본2", "판본3") if m in c.text}
            assert len(versions) <= 1, versions  # never old and new chunks together
            if versions:
                seen_versions.append(versions)
        time.sleep(0.05)
    assert proc.wait(timeout=60) == 0
    final = {m for c in st.chunks() for m in ("판본1", "판본2", "판본3") if m in c.text}
    assert final == {"판본3"}
    flat = [next(iter(v)) for v in seen_versions]
    assert flat and flat[0] == "판본1" and flat == sorted(flat)  # versions only move forward
    assert {"판본2", "판본3"} <= set(flat)  # the reader really ran across both replacements
    chk = st.check()
    assert chk["bm25_consistent"] and chk["dense_consistent"]
