"""The structure chunker: clause-aligned chunks with exact provenance."""

from __future__ import annotations

import pytest

from jogak.chunk import chunk
from jogak.chunk.hierarchical import HierarchicalChunker
from jogak.load import load_bytes
from sample_texts import EN, KO_CONTRACT


@pytest.fixture(scope="module")
def ko_doc():
    return load_bytes(KO_CONTRACT.encode(), "물품매매계약서.txt")


def check_invariants(doc, chunks, size):
    for c in chunks:
        md = c.metadata
        assert doc.text[md.char_start : md.char_end] == c.text
        assert c.text == c.text.strip() and c.text
        assert md.article, c.id
        assert md.strategy == "structure"
        assert c.embed_text.endswith(c.text)
        assert md.breadcrumb and md.breadcrumb.startswith(doc.doc_title)
        for seg in md.segments:
            assert md.char_start <= seg.start < seg.end <= md.char_end
        assert md.paths == list(dict.fromkeys(s.path for s in md.segments))
    # chunks never cross block types, and clause units never share a chunk
    ids = [c.id for c in chunks]
    assert len(ids) == len(set(ids))


def test_clause_aligned_chunks(ko_doc) -> None:
    chunks = chunk(ko_doc, strategy="structure", size=500, overlap=100, id_prefix=None)
    check_invariants(ko_doc, chunks, 500)
    by_article = {c.metadata.article: c for c in chunks}
    assert "제7조 (위약금)" in by_article
    c7 = by_article["제7조 (위약금)"]
    assert c7.metadata.path == "본문/제7조" and c7.metadata.block_type == "body"
    assert set(c7.metadata.refs) == {"부록A/제2조", "부록A"}
    assert by_article["부록A 제2조 (위약금 산정)"].metadata.block_type == "appendix"
    assert by_article["부칙 제1조 (시행일)"].metadata.block_type == "addenda"
    assert by_article["당사자"].metadata.block_type == "parties"
    assert by_article["부록A 제2조 (위약금 산정)"].metadata.breadcrumb.endswith("부록A 제2조 (위약금 산정)")
    # one clause per chunk: no chunk spans two articles
    for c in chunks:
        assert ", " not in c.metadata.article


def test_small_size_packs_siblings_and_splits_long_nodes(ko_doc) -> None:
    chunks = chunk(ko_doc, strategy="structure", size=90, overlap=20, id_prefix=None)
    check_invariants(ko_doc, chunks, 90)
    a2 = [c for c in chunks if c.metadata.article == "제2조 (정의)"]
    assert len(a2) >= 2
    assert a2[0].text.startswith("제2조 (정의)")  # the heading travels with its first content
    assert all(len(c.text) <= 90 for c in chunks)
    # the deepest node containing the chunk
    assert any(c.metadata.path.startswith("본문/제2조/제1항") for c in a2)


def test_segments_narrow_to_paragraph(ko_doc) -> None:
    chunks = chunk(ko_doc, strategy="structure", id_prefix=None)
    c7 = next(c for c in chunks if c.metadata.article == "제7조 (위약금)")
    cites = {s.path: s.cite for s in c7.metadata.segments}
    assert cites["본문/제7조/제2항"] == "제7조 (위약금) 제2항"
    seg = next(s for s in c7.metadata.segments if s.path == "본문/제7조/제2항")
    assert "부록A 제2조에 따른다" in ko_doc.text[seg.start : seg.end]


def test_folding_keeps_full_precision_paths(ko_doc) -> None:
    chunks = chunk(ko_doc, strategy="structure", size=60, overlap=10, id_prefix=None)
    paths = {p for c in chunks for p in c.metadata.paths}
    assert "본문/제2조/제1항/제2호/가목" in paths


def test_english(ko_doc) -> None:
    doc = load_bytes(EN.encode(), "supply_agreement.txt")
    chunks = chunk(doc, strategy="structure", id_prefix=None)
    check_invariants(doc, chunks, 500)
    arts = [c.metadata.article for c in chunks]
    assert "Article 4 (DELIVERY)" in arts
    assert any(a.startswith("Schedule 1") for a in arts)
    sched = next(c for c in chunks if c.metadata.article.startswith("Schedule 1"))
    assert sched.metadata.block_type == "appendix"


def test_statutes_chunks(corpora_dir) -> None:
    from jogak.load import load

    doc = load(corpora_dir / "korean_statutes" / "근로기준법_법률.md")
    chunks = chunk(doc, strategy="structure", id_prefix=None)
    check_invariants(doc, chunks, 500)
    body_articles = {c.metadata.article.split(" (")[0] for c in chunks if c.metadata.block_type == "body"}
    assert len(body_articles) == 133
    assert any(c.metadata.breadcrumb.count(" > ") >= 2 for c in chunks)  # chapter in the breadcrumb


def test_bad_parameters() -> None:
    with pytest.raises(ValueError):
        HierarchicalChunker(size=100, overlap=100)
    with pytest.raises(ValueError):
        HierarchicalChunker(max_depth=0)


def test_langchain_interop(ko_doc) -> None:
    from jogak.integrations.langchain import to_documents

    chunks = chunk(ko_doc, strategy="structure")
    docs = to_documents(chunks)
    assert len(docs) == len(chunks)
    assert docs[0].page_content == chunks[0].text
    assert docs[0].metadata["article"] == chunks[0].metadata.article
    assert docs[0].id == chunks[0].id
