"""The six corpus decisions (../shared/corpora/korean_precedents), loaded through ``jogak.load``."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.caselaw.helpers import CORPUS_EXPECTED, check_invariants, text_doc

from jogak.load import load
from jogak.structure.caselaw import citation_text, detect, parse_caselaw

pytestmark = pytest.mark.corpus

FIELDS = ("case_number", "decision_date", "court", "title", "case_type", "judgment_type", "full_case_name")


@pytest.fixture(scope="module")
def precedents(corpora_dir: Path) -> Path:
    d = corpora_dir / "korean_precedents"
    if not d.is_dir():
        pytest.skip(f"{d} not found")
    return d


@pytest.mark.parametrize("rel", sorted(CORPUS_EXPECTED))
def test_case_metadata(precedents: Path, rel: str) -> None:
    doc = load(precedents / rel)
    assert detect(doc)
    root = parse_caselaw(doc)
    case = root.attrs["case"]
    exp = CORPUS_EXPECTED[rel]
    for f in FIELDS:
        assert case[f] == exp[f], f
    assert case["case_numbers"] == [exp["case_number"]]
    assert case["en_banc"] is False
    assert case["problems"] == []
    assert root.kind == "document" and root.path == "" and root.block_type == "body"
    assert citation_text(case) == f"(참고 판례: {exp['full_case_name']})"
    check_invariants(root, doc.text)


@pytest.mark.parametrize("rel", sorted(CORPUS_EXPECTED))
def test_sections_and_holdings(precedents: Path, rel: str) -> None:
    doc = load(precedents / rel)
    root = parse_caselaw(doc)
    exp = CORPUS_EXPECTED[rel]
    labels = [c.label for c in root.children]
    assert labels[:2] == ["판시사항", "판결요지"] and labels[-1] == "판례내용"
    assert "참조조문" in labels
    for name in ("판시사항", "판결요지"):
        sec = root.find(name)
        assert sec.kind == "section" and sec.attrs["cite"] == name
        assert len(sec.children) == exp["holdings"]
        for i, h in enumerate(sec.children, 1):
            assert (h.kind, h.label, h.path) == ("holding", f"[{i}]", f"{name}/[{i}]")
            assert h.attrs["cite"] == f"{name} [{i}]"
            assert doc.text[h.char_start : h.char_end].startswith(f"[{i}]")
            assert doc.text[h.body_start] != " "
    if exp["holdings"]:
        # holdings line up across 판시사항, 판결요지 and 참조조문
        h2 = root.find("판결요지/[2]")
        assert "판시사항/[2]" in h2.attrs["aligned"] and "참조조문/[2]" in h2.attrs["aligned"]
    body = root.find("판례내용")
    kids = [c.path for c in body.children]
    assert kids[:4] == ["판례내용/당사자", "판례내용/원심판결", "판례내용/주문", "판례내용/이유"]
    assert kids[-1] == "판례내용/관여법관"
    assert root.find("판례내용/당사자").block_type == "parties"
    order = root.find("판례내용/주문")
    assert doc.text[order.body_start : order.char_end].rstrip().endswith("다.")
    reason = root.find("판례내용/이유")
    assert len(reason.children) == exp["reason_parts"]
    for i, part in enumerate(reason.children, 1):
        assert part.path == f"판례내용/이유/{i}" and part.attrs["cite"] == f"이유 {i}."


def test_statutes_and_precedents_98da54397(precedents: Path) -> None:
    doc = load(precedents / "민사/대법원/대법원_2000-06-09_98다54397.md")
    root = parse_caselaw(doc)
    assert root.find("참조조문").attrs["statutes"] == [
        {"law": "상법", "article": "제644조", "holding": 1},
        {"law": "상법", "article": "제724조 제2항", "holding": 2},
        {"law": "상법", "article": "제723조", "holding": 3},
        {"law": "민법", "article": "제396조", "holding": 4},
        {"law": "민법", "article": "제763조", "holding": 4},
        {"law": "민사소송법", "article": "제402조", "holding": 4},
    ]
    assert [r.text for r in root.find("참조조문/[4]").refs] == ["민법 제396조", "제763조", "민사소송법 제402조"]
    precs = root.find("참조판례").attrs["precedents"]
    assert len(precs) == 10
    assert precs[0] == {"court": "대법원", "date": "1993-05-11", "case_number": "92다2530",
                        "judgment_type": "판결", "holding": 2}
    assert {p["holding"] for p in precs} == {2, 3, 4}
    assert root.find("판례내용/원심판결").attrs["lower_court"]["court"] == "서울고등법원"
    # citations inside the reasons are refs too (court inherited in "…판결, 1999. 11. 26. 선고 …")
    reason2 = root.find("판례내용/이유/2")
    assert [r.text.split(" 선고 ")[1] for r in reason2.refs] == ["98다44956 판결", "99다34499 판결"]
    assert all(r.target_path is None and r.reason == "other document" for r in reason2.refs)


def test_statutes_continuations(precedents: Path) -> None:
    root = parse_caselaw(load(precedents / "민사/대법원/대법원_2002-09-27_2000다10048.md"))
    items = [(s["article"], s["holding"]) for s in root.find("참조조문").attrs["statutes"]]
    assert items == [("제47조 제1항", 1), ("제47조 제2항", 1), ("제48조", 1), ("제48조 제2항", 2), ("제48조 제4항", 2)]
    root = parse_caselaw(load(precedents / "민사/대법원/대법원_2000-11-10_2000다24061.md"))
    assert {"law": "주택건설촉진법", "article": "제44조의3 제7항", "holding": 3} in root.find("참조조문").attrs[
        "statutes"]
    root = parse_caselaw(load(precedents / "일반행정/대법원/대법원_1999-03-09_98두18565.md"))
    precs = root.find("참조판례").attrs["precedents"]
    joined = [p for p in precs if p["case_number"] == "95누4902"]
    assert joined and joined[0]["case_numbers"] == ["95누4902", "95누4919"]
    # "[1] 행정소송법 제27조 [행정소송재판일반]": the bracketed classification is not part of the law name
    assert root.find("참조조문").attrs["statutes"][0] == {"law": "행정소송법", "article": "제27조", "holding": 1}


@pytest.mark.parametrize("rel", sorted(CORPUS_EXPECTED))
def test_raw_text_gives_the_same_tree(precedents: Path, rel: str) -> None:
    """Front matter read from the raw text (no Markdown loader) gives the same metadata and paths."""
    raw = (precedents / rel).read_text(encoding="utf-8")
    doc = text_doc(raw, Path(rel).name)
    root = parse_caselaw(doc)
    md_root = parse_caselaw(load(precedents / rel))
    assert root.attrs["case"] == md_root.attrs["case"]
    paths = [n.path for n in root.walk()]
    md_paths = [n.path for n in md_root.walk()]
    if "2000다24061" not in rel:  # the Markdown loader renders "[1][2]" as a link; see test below
        assert paths == md_paths
    check_invariants(root, doc.text)


def test_joined_holding_group_from_raw_text(precedents: Path) -> None:
    raw = (precedents / "민사/대법원/대법원_2000-11-10_2000다24061.md").read_text(encoding="utf-8")
    root = parse_caselaw(text_doc(raw, "2000다24061.md"))
    group = root.find("참조판례/[1][2]")
    assert group is not None and group.attrs["holdings"] == [1, 2]
    assert group.attrs["cite"] == "참조판례 [1][2]"
    assert {"판결요지/[1]", "판결요지/[2]"} <= set(group.attrs["aligned"])
    precs = root.find("참조판례").attrs["precedents"]
    assert [(p["case_number"], p["holding"]) for p in precs[:2]] == [("97다41868", 1), ("97다41868", 2)]
