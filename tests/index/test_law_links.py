"""References between the documents of a law family, resolved against a real store (issue 14).

상호저축은행법's decree and rule are ingested first, its Act later: "법 제N조" in the decree is never resolved
inside the decree; it names the Act, and links to it once the Act is in the collection (resolution at read
time, so nothing is rewritten when the Act arrives). ``jogak tree 시행령.md --store DIR --json`` shows the
links; a search follows a decree's pointer "법 제11조제1항 각 호의 업무" into the Act (``via``); a decision's
참조조문 links to the statute's article node.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from jogak.index import open_store
from jogak.retrieve import search

JOGAK = str(Path(sys.executable).parent / "jogak")
DECISION = """---
사건번호: 2099다12345
사건명: 예금반환
법원명: 대법원
선고일자: 2099-01-01
---

# 예금반환

## 판시사항

[1] 상호저축은행이 할 수 있는 업무의 범위

## 참조조문

[1] 상호저축은행법 제11조 제1항, 민법 제750조

## 판례내용

【원고, 상고인】 원고
【피고, 피상고인】 주식회사 ○○상호저축은행
"""


def _refs(tree: dict[str, Any]) -> list[dict[str, Any]]:
    out, stack = [], [tree]
    while stack:
        n = stack.pop()
        out.extend(n.get("refs") or [])
        stack.extend(n.get("children") or [])
    return out


def _act_refs(tree: dict[str, Any]) -> list[dict[str, Any]]:
    """The decree's "법 제N조" references outside its 부칙 amendment wording."""
    return [r for r in _refs(tree) if r["text"].startswith("법 제") and r.get("law")
            and r["reason"] not in ("amendment text", "omitted text (생략)")]


@pytest.fixture(scope="module")
def family(corpora_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = corpora_dir / "korean_law_sets" / "상호저축은행법"
    db = tmp_path_factory.mktemp("family") / "db"
    st = open_store(db, embedder=False, create=True)
    st.ingest([folder / "시행령.md", folder / "시행규칙.md"])
    decree = next(d for d in st.documents() if d.doc_title == "상호저축은행법 시행령")
    before = st.tree(decree.doc_id)
    decision = tmp_path_factory.mktemp("decision") / "대법원_2099-01-01_2099다12345.md"
    decision.write_text(DECISION, encoding="utf-8")
    st.ingest([folder / "법률.md", decision])
    docs = {d.doc_title: d for d in st.documents()}
    return {"db": db, "store": st, "folder": folder, "before": before, "docs": docs}


def test_without_the_act_decree_references_stay_unresolved(family: dict[str, Any]) -> None:
    refs = _act_refs(family["before"])
    assert len(refs) > 100
    assert all(r["target_path"] is None and "target_doc" not in r for r in refs)
    assert {r["reason"] for r in refs} == {"not in the collection"}
    assert {r["law"] for r in refs} == {"상호저축은행법"}


def test_tree_cli_links_the_decree_to_the_act(family: dict[str, Any]) -> None:
    r = subprocess.run([JOGAK, "tree", str(family["folder"] / "시행령.md"), "--store", str(family["db"]), "--json",
                        "--no-text"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    tree = json.loads(r.stdout)
    act = family["docs"]["상호저축은행법"]
    refs = _act_refs(tree)
    linked = [x for x in refs if x.get("target_doc") == act.doc_id]
    assert len(linked) / len(refs) >= 0.95, [x for x in refs if x not in linked][:5]
    assert all(x["target_title"] == "상호저축은행법" for x in linked)
    assert not [x for x in refs if x.get("target_doc") not in (None, act.doc_id)]  # never another document
    assert [m["title"] for m in tree["attrs"]["law"]["family_members"]] == ["상호저축은행법", "상호저축은행법 시행규칙"]
    first = next(x for x in linked if x["text"].startswith("법 제11조제1항"))
    assert first["target_path"].startswith("본문/제11조/제1항")


def test_stored_document_by_title(family: dict[str, Any]) -> None:
    r = subprocess.run([JOGAK, "tree", "상호저축은행법 시행규칙", "--store", str(family["db"]), "--json", "--no-text"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    tree = json.loads(r.stdout)
    decree = family["docs"]["상호저축은행법 시행령"]
    to_decree = [x for x in _refs(tree) if x["text"].startswith("영 제") and x.get("law")]
    assert to_decree and all(x.get("target_doc") == decree.doc_id for x in to_decree)


def test_decision_statute_links_to_the_article_node(family: dict[str, Any]) -> None:
    st = family["store"]
    decision = next(d for t, d in family["docs"].items() if t not in ("상호저축은행법", "상호저축은행법 시행령",
                                                                        "상호저축은행법 시행규칙"))
    refs = {x["text"]: x for x in _refs(st.tree(decision.doc_id))}
    act = refs["상호저축은행법 제11조 제1항"]
    assert (act["target_doc"], act["target_path"]) == (family["docs"]["상호저축은행법"].doc_id, "본문/제11조/제1항")
    civil = refs["민법 제750조"]
    assert civil["target_path"] is None and civil["reason"] == "not in the collection" and civil["law"] == "민법"


def test_search_follows_a_pointer_into_the_act(family: dict[str, Any]) -> None:
    st = family["store"]
    act = family["docs"]["상호저축은행법"]
    decree = family["docs"]["상호저축은행법 시행령"]
    res = search(st, "법 제11조제1항 각 호의 업무를 수행하지 않는 경우 경미한 사항의 변경", k=6)
    followed = [h for h in res.hits if h.chunk.metadata.doc_id == act.doc_id and h.via]
    assert followed, [(h.chunk.metadata.doc_id, h.chunk.metadata.path, h.via) for h in res.hits]
    assert followed[0].chunk.metadata.path.startswith("본문/제11조")
    assert followed[0].via.startswith(decree.doc_id) or decree.doc_id in followed[0].via


def test_a_statute_lists_its_stored_family(family: dict[str, Any]) -> None:
    docs = family["docs"]
    tree = family["store"].tree(docs["상호저축은행법 시행령"].doc_id)
    members = tree["attrs"]["law"]["family_members"]
    assert [(m["title"], m["rank"]) for m in members] == [("상호저축은행법", "act"), ("상호저축은행법 시행규칙", "rule")]
    assert members[0]["doc_id"] == docs["상호저축은행법"].doc_id


def test_stored_document_reading_view(family: dict[str, Any]) -> None:
    import os

    r = subprocess.run([JOGAK, "tree", "상호저축은행법 시행령", "--store", str(family["db"])], capture_output=True,
                       text=True, timeout=300, env={**os.environ, "COLUMNS": "400"})
    assert r.returncode == 0, r.stderr
    assert "↗ 상호저축은행법 제11조 제1항" in r.stdout  # "법 제11조제1항 …" in the decree, the Act's clause
    assert "↗  another law or document" in r.stdout
