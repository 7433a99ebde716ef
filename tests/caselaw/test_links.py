"""Resolving 참조판례 across a collection of documents (pure functions over trees / dicts)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.caselaw.helpers import CASEBOOK, CORPUS_EXPECTED

from jogak.load import load
from jogak.structure.caselaw import case_index, citation_text, link_cases, parse_caselaw, resolve_citation


def test_citation_text_forms() -> None:
    assert citation_text({"full_case_name": "대법원 2005. 11. 25. 선고 2005다35554 판결"}) == (
        "(참고 판례: 대법원 2005. 11. 25. 선고 2005다35554 판결)")
    built = {"court": "대법원", "decision_date": "2005-11-25", "case_number": "2005다35554",
             "judgment_type": "판결"}
    assert citation_text(built) == "(참고 판례: 대법원 2005. 11. 25. 선고 2005다35554 판결)"
    assert citation_text({"case_number": "2005다35554"}) == "(참고 판례: 2005다35554)"
    assert citation_text({}) == "" and citation_text(None) == ""


@pytest.mark.corpus
def test_corpus_cross_references(corpora_dir: Path) -> None:
    base = corpora_dir / "korean_precedents"
    if not base.is_dir():
        pytest.skip("korean_precedents not found")
    trees = {Path(rel).stem: parse_caselaw(load(base / rel)) for rel in sorted(CORPUS_EXPECTED)}
    index = case_index(trees)
    assert index["97다41868"][0]["doc"] == "대법원_1998-03-13_97다41868"
    links = link_cases(trees)
    pairs = {(lk["doc"].rsplit("_", 1)[1], lk["path"], lk["case_number"]) for lk in links}
    # 2000다10048 cites 2000다24061 ([1]) and 2000다22812 ([2]); 2000다22812 cites three of the others
    assert ("2000다10048", "참조판례/[1]", "2000다24061") in pairs
    assert ("2000다10048", "참조판례/[2]", "2000다22812") in pairs
    assert ("2000다22812", "참조판례/[1]", "97다41868") in pairs
    assert ("2000다22812", "참조판례/[1]", "2000다24061") in pairs
    assert ("2000다22812", "참조판례/[2]", "2000다10048") in pairs
    for lk in links:
        assert lk["target_path"] == ""  # a single decision is its document's root
        assert lk["target_doc"].endswith(lk["case_number"])
    # the same result from the JSON form of the trees (Node.to_dict())
    as_dicts = {k: t.to_dict() for k, t in trees.items()}
    assert link_cases(as_dicts) == links


def test_resolve_checks_dates_and_courts() -> None:
    index = {"2001다48781": [{"doc": "book", "path": "2001다48781", "court": "대법원",
                              "decision_date": "2003-07-24"}]}
    hit = resolve_citation({"court": "대법원", "date": "2003-07-24", "case_number": "2001다48781"}, index)
    assert hit and hit["path"] == "2001다48781"
    assert resolve_citation({"court": "대법원", "date": "2003-07-25", "case_number": "2001다48781"}, index) is None
    assert resolve_citation({"court": "서울고등법원", "case_number": "2001다48781"}, index) is None
    assert resolve_citation({"case_number": "2001다48782"}, index) is None
    assert resolve_citation({"case_numbers": ["2001다1", "2001다48781"]}, index)["doc"] == "book"


def test_casebook_and_decisions_link_both_ways() -> None:
    book = parse_caselaw(load(CASEBOOK))
    links = link_cases({"book": book})
    assert {(lk["path"], lk["target_path"]) for lk in links} >= {
        ("2002다1178/참조판례/[1]", "2001다48781"),
        ("2005다35554/참조판례/[2]", "99다70860"),
        ("2005다35554/참조판례/[2]", "90다카9619"),
        ("2012다89399/참조판례", "99다70860"),
    }
    assert all(lk["target_doc"] == "book" for lk in links)
    # joined case numbers are indexed under every number
    index = case_index({"book": book})
    assert index["2000므1264"][0]["path"] == "2000므1257"
    assert index["2004헌마566"][0]["path"] == "2004헌마554"
