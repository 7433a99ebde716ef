"""Acceptance (issue 4): through ``jogak.structure.parse``, the structure chunker and the CLI, every chunk of
a decision carries its case metadata and section path. Skips while the lead's modules are not there."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest
from tests.caselaw.helpers import CASEBOOK, CASEBOOK_EXPECTED, CORPUS_EXPECTED, SHARED_CASEBOOK_EXPECTED

from jogak.load import load

if importlib.util.find_spec("jogak.chunk.hierarchical") is None:  # pragma: no cover
    pytest.skip("jogak.chunk.hierarchical not available yet", allow_module_level=True)

from jogak.chunk import chunk
from jogak.structure import parse

CASE_KEYS = ("case_number", "decision_date", "court", "title", "full_case_name")


def _corpus(corpora_dir: Path) -> Path:
    d = corpora_dir / "korean_precedents"
    if not d.is_dir():
        pytest.skip(f"{d} not found")
    return d


@pytest.mark.corpus
@pytest.mark.parametrize("rel", sorted(CORPUS_EXPECTED))
def test_every_chunk_carries_the_case(corpora_dir: Path, rel: str) -> None:
    doc = load(_corpus(corpora_dir) / rel)
    tree = parse(doc)
    assert tree.kind == "caselaw"
    exp = CORPUS_EXPECTED[rel]
    chunks = chunk(doc, strategy="structure", size=500, overlap=100)
    assert chunks
    for c in chunks:
        md = c.metadata.to_dict()
        for k in CASE_KEYS:
            assert md[k] == exp[k], (c.id, k)
        assert doc.text[md["char_start"] : md["char_end"]] == c.text
        assert md["path"] and md["article"]
    by_path = {c.metadata.path: c for c in chunks}
    if exp["holdings"] >= 2:
        h2 = by_path["판결요지/[2]"]
        assert h2.metadata.article == "판결요지 [2]" and h2.text.startswith("[2]")
    assert any(p.startswith("판례내용/이유") for p in by_path)


def test_casebook_chunks_carry_their_own_case() -> None:
    doc = load(CASEBOOK)
    chunks = chunk(doc, strategy="structure", size=500, overlap=100)
    expected = {e[0]: e for e in CASEBOOK_EXPECTED}
    seen: dict[str, int] = {}
    for c in chunks:
        md = c.metadata
        if md.path == "목차" or (md.path or "").startswith("목차"):
            assert md.case is None  # the table of contents is not a case
            continue
        num = md.path.split("/")[0]
        assert md.case is not None, md.path
        exp = expected[num]
        assert (md.case.case_number, md.case.title, md.case.decision_date, md.case.court) == (
            exp[0], exp[1], exp[2], exp[3])
        seen[num] = seen.get(num, 0) + 1
    assert set(seen) == set(expected)
    assert seen["2002다1178"] >= 3  # the long decision spans several chunks
    h = next(c for c in chunks if c.metadata.path == "2001다48781/판결요지/[2]")
    assert h.metadata.article == "판결요지 [2]"
    assert h.metadata.to_dict()["full_case_name"] == "대법원 2003. 7. 24. 선고 2001다48781 전원합의체 판결"


def test_shared_example_casebook(examples_dir: Path) -> None:
    path = examples_dir / "caselaw" / "민법판례집.txt"
    if not path.exists():
        pytest.skip(f"{path} not found")
    doc = load(path)
    tree = parse(doc)
    cases = [n for n in tree.root.children if n.kind == "case"]
    assert tree.root.children[0].path == "목차" and len(cases) >= 8
    if len(cases) == len(SHARED_CASEBOOK_EXPECTED):
        for n, (num, title, date, court, jt, en_banc, ctype, nums) in zip(cases, SHARED_CASEBOOK_EXPECTED,
                                                                            strict=True):
            case = n.attrs["case"]
            assert (case["case_number"], case["title"], case["decision_date"], case["court"]) == (
                num, title, date, court)
            assert (case["judgment_type"], case["en_banc"], case["case_type"], case["case_numbers"]) == (
                jt, en_banc, ctype, nums)
    for n in cases:
        case = n.attrs["case"]
        assert case["problems"] == [], n.path
        assert n.path == case["case_number"] and "(" not in case["title"]
        # every [n] that opens a line of 판결요지 became a holding
        sec = n.find(f"{n.path}/판결요지")
        if sec is not None:
            body = doc.text[sec.body_start : sec.char_end]
            opened = re.findall(r"(?m)^\s*\[(\d+)\]", body)
            assert [h.label for h in sec.children] == [f"[{x}]" for x in opened]
    for c in chunk(doc, strategy="structure"):
        if not c.metadata.path.startswith("목차"):
            assert c.metadata.case and c.metadata.case.case_number == c.metadata.path.split("/")[0]


@pytest.mark.corpus
def test_cli_tree_and_chunks_json(corpora_dir: Path) -> None:
    from typer.testing import CliRunner

    from jogak.cli import app

    runner = CliRunner()
    base = _corpus(corpora_dir)
    for rel, exp in sorted(CORPUS_EXPECTED.items()):
        f = str(base / rel)
        res = runner.invoke(app, ["tree", f, "--json", "--no-text"])
        assert res.exit_code == 0, res.output
        root = json.loads(res.stdout)
        for k in ("case_number", "decision_date", "court"):
            assert root["case"][k] == exp[k]
        res = runner.invoke(app, ["chunks", f, "--strategy", "structure", "--json"])
        assert res.exit_code == 0, res.output
        rows = json.loads(res.stdout)
        assert rows
        for row in rows:
            md = row["metadata"]
            for k in ("case_number", "decision_date", "court"):
                assert md[k] == exp[k], (rel, row["id"], k)
