"""Seed 001/000 on the bundled Haru Market corpus and on real statutes."""

from __future__ import annotations

import re

import pytest

from jogak.chunk import chunk
from jogak.chunk.articles import HeadingGrammar

HARU = "examples/haru-market"


@pytest.fixture(scope="module")
def haru_docs():
    from jogak.api import load_many

    rep = load_many([HARU])
    assert not rep.errors
    assert len(rep.documents) == 3  # the return policy and two versions of the membership policy
    return rep.documents


def test_doc_titles_follow_the_configured_rule(haru_docs) -> None:
    # "하루마켓_멤버십정책@2023.pdf": the version marker is no part of the title
    assert sorted(d.doc_title for d in haru_docs) == ["멤버십정책", "멤버십정책", "반품교환환불정책"]


def test_500_100_setting(haru_docs) -> None:
    chunks = chunk(haru_docs, size=500, overlap=100)
    assert [c.id for c in chunks] == [f"policy-{i:03d}" for i in range(len(chunks))]
    assert all(len(c.text) <= 500 for c in chunks)
    assert all(c.metadata.article for c in chunks)
    by_source = {d.source: d for d in haru_docs}
    for c in chunks:
        d = by_source[c.metadata.source]  # never mixes documents: the span is one document's text
        assert d.text[c.metadata.char_start : c.metadata.char_end] == c.text
        assert c.metadata.page_start is not None and c.metadata.page_end >= c.metadata.page_start
    # every clause heading of both documents appears in some chunk's article
    grammar = HeadingGrammar()
    for d in haru_docs:
        names = {h.name for h in grammar.find(d.text)}
        tagged = {a for c in chunks if c.metadata.source == d.source for a in c.metadata.article.split(", ")}
        assert names and names <= tagged, names - tagged


def test_pages_match_the_pdf(haru_docs) -> None:
    chunks = chunk(haru_docs, size=500, overlap=100)
    for c in chunks:
        d = next(x for x in haru_docs if x.source == c.metadata.source)
        pages = {d.page_at(i) for i in range(c.metadata.char_start, c.metadata.char_end)}
        assert min(pages) == c.metadata.page_start and max(pages) == c.metadata.page_end


def test_ids_are_stable(haru_docs) -> None:
    a = [(c.id, c.content_hash) for c in chunk(haru_docs)]
    b = [(c.id, c.content_hash) for c in chunk(list(haru_docs))]
    assert a == b
    qualified = chunk(haru_docs, id_prefix=None)
    assert qualified[0].id.startswith(qualified[0].metadata.doc_id)


def test_seed_shape(haru_docs) -> None:
    d = chunk(haru_docs)[2].to_dict()
    assert set(d) >= {"id", "text", "metadata", "content_hash"}
    assert set(d["metadata"]) >= {"source", "doc_title", "chunk_no", "article", "page_start", "page_end",
                                  "char_start", "char_end"}
    assert isinstance(d["metadata"]["article"], str)


def test_structure_strategy_on_the_corpus(haru_docs) -> None:
    chunks = chunk(haru_docs, strategy="structure", id_prefix=None)
    arts = [(c.metadata.doc_title, c.metadata.article) for c in chunks]
    assert ("반품교환환불정책", "제2조 (반품 배송비)") in arts
    assert ("반품교환환불정책", "부록A 제1조 (보상 기준)") in arts
    c8 = next(c for c in chunks if c.metadata.article == "제8조 (배송 지연 보상)")
    assert "부록A" in c8.metadata.refs
    for c in chunks:
        assert ", " not in c.metadata.article


def test_statutes_load_and_chunk(corpora_dir) -> None:
    from jogak.load import load

    for f in sorted((corpora_dir / "korean_statutes").glob("*.md")):
        d = load(f)
        assert "---" not in d.text[:5]  # front matter went to metadata
        assert d.metadata.get("법령ID") or d.metadata.get("제목")
        chunks = chunk(d, size=500, overlap=100)
        assert all(d.text[c.metadata.char_start : c.metadata.char_end] == c.text for c in chunks)
        assert all(len(c.text) <= 500 for c in chunks)
        # headings like "제43조의2 (…)" are tags too
        if "근로기준법" in f.name:
            assert any(re.match(r"제43조의2", a) for c in chunks for a in c.metadata.article.split(", "))
