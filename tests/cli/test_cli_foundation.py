"""The CLI contract, run as real processes: stdout holds one JSON document; notes go to stderr."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JOGAK = [str(Path(sys.executable).parent / "jogak")]


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([*JOGAK, *args], cwd=cwd, capture_output=True, text=True, timeout=180)


def test_experiment_json_has_three_rows() -> None:
    r = run("experiment", "examples/haru-market", "--json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert [(x["size"], x["overlap"]) for x in rows] == [(200, 0), (500, 100), (1500, 200)]
    assert set(rows[0]) == {"size", "overlap", "count", "avg_len", "min_len", "max_len", "no_heading",
                            "three_plus_headings"}
    assert "로딩" in r.stderr and "하루마켓_멤버십정책.pdf" in r.stderr


def test_chunks_json_is_complete() -> None:
    r = run("chunks", "examples/haru-market", "--json")
    assert r.returncode == 0, r.stderr
    chunks = json.loads(r.stdout)
    assert chunks and all(c["metadata"]["article"] for c in chunks)
    assert all(c["metadata"]["page_start"] >= 1 for c in chunks)
    assert "questions.yaml" in r.stderr  # skipped with a note, not an error


def test_human_output_prints_every_chunk_in_full() -> None:
    j = json.loads(run("chunks", "examples/haru-market", "--json").stdout)
    r = run("chunks", "examples/haru-market")
    assert r.returncode == 0
    for c in j:
        assert c["text"] in r.stdout


def test_bad_files_fail_but_the_batch_goes_on(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples/haru-market/하루마켓_멤버십정책.pdf", tmp_path / "ok.pdf")
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 garbage")
    (tmp_path / ".hidden.txt").write_text("제1조 (숨김)\n숨김.\n", encoding="utf-8")
    (tmp_path / "notes.xyz").write_text("x")
    r = run("chunks", str(tmp_path), "--json")
    assert r.returncode == 1
    chunks = json.loads(r.stdout)
    assert {c["metadata"]["source"] for c in chunks} == {"ok.pdf"}
    assert "empty.txt" in r.stderr and "broken.pdf" in r.stderr
    assert "notes.xyz" in r.stderr and ".hidden" not in r.stderr
    err_lines = [ln for ln in r.stderr.splitlines() if "error" in ln]
    assert all("Traceback" not in ln for ln in r.stderr.splitlines())
    assert len(err_lines) == 2


def test_directory_with_only_unsupported_files_exits_zero(tmp_path: Path) -> None:
    (tmp_path / "a.xyz").write_text("x")
    r = run("chunks", str(tmp_path), "--json")
    assert r.returncode == 0
    assert json.loads(r.stdout) == []


def test_structure_strategy_and_tree_json() -> None:
    r = run("chunks", "examples/contracts/물품매매계약서.docx", "--strategy", "structure", "--json")
    assert r.returncode == 0, r.stderr
    arts = {c["metadata"]["article"] for c in json.loads(r.stdout)}
    assert "제7조 (위약금)" in arts and "부록A 제2조 (위약금 산정)" in arts and "당사자" in arts
    t = run("tree", "examples/contracts/물품매매계약서.pdf", "--json")
    assert t.returncode == 0, t.stderr
    tree = json.loads(t.stdout)
    assert tree["kind"] == "document" and tree["path"] == ""
    top = [c["path"] for c in tree["children"]]
    assert top[0] == "당사자" and "부록A" in top and "부록B" in top and "각주/1" in top


@pytest.mark.parametrize("cmd", [["--help"], ["tree", "--help"], ["chunks", "--help"]])
def test_help(cmd: list[str]) -> None:
    assert run(*cmd).returncode == 0
