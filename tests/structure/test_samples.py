"""Trees of the bundled samples: the PDF and the DOCX of each contract parse to the same paths."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from jogak.load import load
from jogak.structure import parse

ROOT = Path(__file__).resolve().parents[2]
CONTRACTS = ROOT / "examples" / "contracts"


@pytest.fixture(scope="module")
def trees():
    out = {}
    for f in sorted(CONTRACTS.glob("*.*")):
        out[f.name] = parse(load(f))
    return out


@pytest.mark.parametrize("stem", ["물품매매계약서", "supply_agreement"])
def test_pdf_and_docx_give_identical_paths(trees, stem: str) -> None:
    a = [n.path for n in trees[f"{stem}.pdf"].root.walk()]
    b = [n.path for n in trees[f"{stem}.docx"].root.walk()]
    assert a == b
    assert not trees[f"{stem}.pdf"].warnings and not trees[f"{stem}.docx"].warnings


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_korean_contract_blocks(trees, ext: str) -> None:
    t = trees[f"물품매매계약서.{ext}"]
    top = {c.path: c for c in t.root.children}
    assert top["당사자"].block_type == "parties"
    assert top["부록A"].block_type == "appendix" and top["부록A"].title == "위약 책임 세칙"
    assert top["부록B"].block_type == "appendix"
    fns = [c for c in t.root.children if c.kind == "footnote"]
    assert [f.path for f in fns] == ["각주/1", "각주/2", "각주/3", "각주/4"]
    assert all(f.block_type == "footnote" for f in fns)
    # 제7조 says the penalty calculation follows 부록A: the reference resolves to 부록A's node
    targets = {r.target_path for n in t.find("본문/제7조").walk() for r in n.refs}
    assert "부록A/제2조" in targets
    assert t.find("본문/제7조/제5항/제3호") is not None
    assert t.find("본문/제5조/제2항/제2호/가목") is not None
    # every footnote is cited from a clause
    assert all(f.attrs.get("cited_from") for f in fns)


def test_pdf_pages(trees) -> None:
    t = trees["물품매매계약서.pdf"]
    assert t.find("본문/제1조").page_start == 1
    assert t.find("부록A").page_start == t.doc.n_pages
    # a footnote keeps the page it was printed on, although it sits after the body in the text
    fns = [c for c in t.root.children if c.kind == "footnote"]
    assert all(f.page_start is not None and f.page_start < t.doc.n_pages for f in fns)
    # the body paragraph that continues across a page break spans both pages
    assert any(n.page_start != n.page_end for n in t.root.walk() if n.kind == "paragraph")


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_english_contract(trees, ext: str) -> None:
    t = trees[f"supply_agreement.{ext}"]
    paths = {n.path for n in t.root.walk()}
    for p in ["Parties", "Article 4/4.2", "Schedule 1/1.2", "Exhibit A/2", "Footnote/1"]:
        assert p in paths, p
    assert {r.target_path for r in t.find("Article 4/4.2").refs} >= {"Schedule 1"}
    assert t.find("Schedule 1").block_type == "appendix"


@pytest.mark.parametrize("stem", ["물품매매계약서", "supply_agreement"])
def test_docx_has_real_word_footnotes(stem: str) -> None:
    with zipfile.ZipFile(CONTRACTS / f"{stem}.docx") as z:
        notes = z.read("word/footnotes.xml").decode()
        body = z.read("word/document.xml").decode()
    assert notes.count("<w:footnote ") >= 4  # two separators + real notes
    assert "w:footnoteReference" in body


def test_haru_market_tree() -> None:
    t = parse(load(ROOT / "examples/haru-market/하루마켓_반품교환환불정책.pdf"))
    assert [n.label for n in t.root.children if n.kind == "article"] == [f"제{i}조" for i in range(1, 10)]
    assert t.find("본문/FAQ").kind == "faq" and len(t.find("본문/FAQ").children) >= 3
    assert t.find("부칙").block_type == "addenda"
    assert t.find("부록A/제1조").block_type == "appendix"
    assert [r.target_path for r in t.find("본문/제8조/제3항").refs] == ["부록A"]
    assert t.find("본문/제8조/제3항").refs[0].pointer
    assert any(c.kind == "table" for c in t.find("본문/제5조").walk())
