"""A store written by the previous release (chunk schema 1) opens and answers; one this version cannot
read fails with one line that says to re-ingest."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from jogak.answer.ask import ask
from jogak.index import open_store
from jogak.model import CHUNK_SCHEMA_VERSION, ChunkSchemaError

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "examples" / "contracts" / "물품매매계약서.docx",
        ROOT / "tests" / "fixtures" / "caselaw" / "민법판례집_sample.txt"]
QUESTIONS = ["매수인이 대금을 늦게 내면 위약금은 얼마인가요?", "2001다48781 판결요지"]


def _state(db: Path) -> sqlite3.Connection:
    return sqlite3.connect(db / "collections" / "default" / "state.sqlite", isolation_level=None)


def _versions(db: Path) -> set[str]:
    with _state(db) as con:
        return {v for (v,) in con.execute("SELECT json_extract(data, '$.schema_version') FROM chunks")}


@pytest.fixture()
def v1_store(tmp_path: Path) -> tuple[Path, list[dict]]:
    """A lexical-only store whose rows are what the previous release wrote: the chunk JSON of schema 1 is
    the JSON of 2.0 with version "1" (tests/test_chunk_schema.py checks that on chunks it wrote), and its
    chunk config names schema 1."""
    db = tmp_path / "db"
    st = open_store(db, embedder=False)
    rep = st.ingest([str(p) for p in DOCS], strategy="structure")
    assert not rep.failed, rep.failed
    answers = [ask(st, q).to_dict() for q in QUESTIONS]
    st.close()
    with _state(db) as con:
        con.execute("UPDATE chunks SET data = json_set(data, '$.schema_version', '1')")
        con.execute("UPDATE docs SET chunk_config = json_set(chunk_config, '$.schema', '1')")
    assert _versions(db) == {"1"}
    return db, answers


def test_a_schema_1_store_opens_answers_and_is_rewritten_on_the_next_ingest(v1_store) -> None:
    db, answers = v1_store
    st = open_store(db, embedder=False, create=False)
    try:
        assert [ask(st, q).to_dict() for q in QUESTIONS] == answers  # migrated on read, same answers
        assert answers[0]["citations"] and answers[1]["citations"][0]["case_number"] == "2001다48781"
        rep = st.ingest([str(p) for p in DOCS], strategy="structure")  # the chunk config changed: re-chunk
        assert sorted(rep.updated) == sorted(p.name for p in DOCS)
    finally:
        st.close()
    assert _versions(db) == {CHUNK_SCHEMA_VERSION}


def test_a_store_of_an_unknown_schema_fails_in_one_line(v1_store) -> None:
    db, _ = v1_store
    with _state(db) as con:
        con.execute("UPDATE chunks SET data = json_set(data, '$.schema_version', '99')")
    st = open_store(db, embedder=False, create=False)
    try:
        with pytest.raises(ChunkSchemaError, match="re-ingest"):
            ask(st, QUESTIONS[0])
    finally:
        st.close()
    env = {**os.environ, "JOGAK_LLM": ""}
    r = subprocess.run([str(Path(sys.executable).parent / "jogak"), "ask", QUESTIONS[0], "--store", str(db)],
                       capture_output=True, text=True, env=env, cwd=db.parent, timeout=600)
    assert r.returncode == 2, r.stderr
    lines = [ln for ln in r.stderr.splitlines() if "schema" in ln]
    assert len(lines) == 1 and "schema version '99'" in lines[0] and "re-ingest" in lines[0], r.stderr
    assert "Traceback" not in r.stderr
