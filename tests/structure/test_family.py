"""Collection-level resolution (jogak.structure.family): a reference into another law finds that law's
document by name and the most precise clause it holds; never the referring document itself."""

from __future__ import annotations

from jogak.structure.family import NOT_IN_COLLECTION, LawIndex, Member, link_tree, tree_paths

ACT_PATHS = {"본문/제34조", "본문/제34조/제1항", "본문/제34조/제1항/제1호", "별표 1"}


def _index(today: str = "2026-01-01") -> LawIndex:
    members = [Member("act", "상호저축은행법", "2025-10-01"), Member("decree", "상호저축은행법 시행령"),
               Member("old", "주택임대차보호법", "2020-06-09"), Member("new", "주택임대차보호법", "2023-07-11"),
               Member("future", "주택임대차보호법", "2030-01-01")]
    paths = {"act": ACT_PATHS, "decree": {"본문/제5조"}}
    return LawIndex(members, lambda i: paths.get(i, set()), today=today)


def test_most_precise_clause_the_target_holds() -> None:
    idx = _index()
    assert idx.resolve("상호저축은행법", "본문/제34조/제1항/제1호") == ("act", "본문/제34조/제1항/제1호", None)
    # 제2호 is not in the Act's tree: the paragraph that holds it, no guessing below
    assert idx.resolve("상호저축은행법", "본문/제34조/제1항/제2호") == ("act", "본문/제34조/제1항", None)
    # an article the Act does not have: the document, no path, and why
    doc, path, reason = idx.resolve("상호저축은행법", "본문/제99조")
    assert (doc, path) == ("act", None) and reason is not None and "제99조" in reason
    assert idx.resolve("상호저축은행법", "별표 1/제3호")[:2] == ("act", "별표 1")


def test_names_compare_without_spacing_and_unknown_laws_stay_unresolved() -> None:
    idx = _index()
    assert idx.resolve("상호저축 은행법", "본문/제34조")[0] == "act"
    assert idx.resolve("민법", "본문/제750조") == (None, None, NOT_IN_COLLECTION)


def test_never_into_the_referring_document() -> None:
    assert _index().resolve("상호저축은행법", "본문/제34조", exclude="act") == (None, None, NOT_IN_COLLECTION)


def test_versions_the_one_in_force() -> None:
    assert _index().resolve("주택임대차보호법", None)[0] == "new"
    assert _index(today="2021-01-01").resolve("주택임대차보호법", None)[0] == "old"


def test_link_tree_resolves_only_references_into_other_laws() -> None:
    tree = {"path": "", "refs": [], "children": [
        {"path": "본문/제39조", "children": [], "refs": [
            {"text": "법 제34조제1항", "law": "상호저축은행법", "clause": "본문/제34조/제1항", "reason": "other law",
             "target_path": None},
            {"text": "제2조", "target_path": "본문/제2조", "reason": None},
            {"text": "제6조", "law": "경비업법", "clause": "본문/제6조", "reason": "amendment text",
             "target_path": None}]}]}
    assert link_tree(tree, _index(), doc_id="decree") == 1
    a, b, c = tree["children"][0]["refs"]
    assert (a["target_doc"], a["target_path"], a["reason"]) == ("act", "본문/제34조/제1항", None)
    assert b == {"text": "제2조", "target_path": "본문/제2조", "reason": None}
    assert "target_doc" not in c and c["reason"] == "amendment text"
    assert tree_paths(tree) == {"본문/제39조"}
