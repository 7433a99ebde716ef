"""Issue 4: a precedent cited by one decision links to that decision when it is in the same collection."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CITING = ROOT / "tests" / "fixtures" / "caselaw" / "citing_decision.md"


def test_cited_case_in_the_same_collection_links(tmp_path: Path, corpora_dir: Path) -> None:
    from jogak.index import open_store

    cited = next((corpora_dir / "korean_precedents").rglob("*98다54397*.md"), None)
    if cited is None:
        pytest.skip("98다54397 not in the corpora")
    corpus = tmp_path / "c"
    corpus.mkdir()
    shutil.copy(CITING, corpus / "citing.md")
    st = open_store(tmp_path / "db", embedder=False)
    assert st.ingest([str(corpus)]).ok
    assert st.case_links() == []  # the cited decision is not in the collection yet

    shutil.copy(cited, corpus / "cited.md")
    assert st.ingest([str(corpus)]).ok
    cited_id = st.document("cited.md").doc_id
    citing_id = st.document("citing.md").doc_id
    links = st.case_links(citing_id)
    assert [(ln["case_number"], ln["target_doc"], ln["path"]) for ln in links] == [
        ("98다54397", cited_id, "참조판례/[1]")]
    tree = st.tree(citing_id)
    refs = [r for n in _walk(tree) for r in n["refs"] if r.get("links")]
    assert refs and refs[0]["links"][0]["doc_id"] == cited_id

    st.remove(cited_id)
    assert st.case_links() == []


def _walk(n):
    yield n
    for c in n.get("children", []):
        yield from _walk(c)
