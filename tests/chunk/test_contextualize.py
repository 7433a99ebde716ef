"""One module makes every text a chunk becomes: embed, lexical (BM25) and prompt header."""

from __future__ import annotations

import pytest

from jogak.answer.context import LABELS
from jogak.chunk import chunk
from jogak.chunk.contextualize import context_line, embed_text, excerpt_article, lexical_text, prompt_header
from jogak.load import load_bytes
from sample_texts import KO_CONTRACT


@pytest.fixture(scope="module")
def ko_doc():
    return load_bytes(KO_CONTRACT.encode(), "물품매매계약서.txt")


def test_structure_chunks_embed_and_index_their_breadcrumb(ko_doc) -> None:
    chunks = chunk(ko_doc, strategy="structure", id_prefix=None)
    c = next(c for c in chunks if c.metadata.article == "제7조 (위약금)")
    crumb = c.metadata.breadcrumb
    assert crumb == "물품매매계약서 > 제7조 (위약금)"
    assert c.embed_text == embed_text(c) == f"{crumb}\n{c.text}"
    assert lexical_text(c) == f"{crumb}\n{c.text}"
    assert ko_doc.text[c.metadata.char_start : c.metadata.char_end] == c.text  # raw stays raw


def test_recursive_chunks_embed_a_synthesised_crumb_but_index_raw_text(ko_doc) -> None:
    chunks = chunk(ko_doc, strategy="recursive", size=200, overlap=40, id_prefix=None)
    tagged = next(c for c in chunks if ", " in c.metadata.article)  # a chunk spanning two clauses
    md = tagged.metadata
    assert md.breadcrumb is None
    first = md.article.split(", ")[0]
    assert context_line(md) == f"물품매매계약서 > {first}"
    assert tagged.embed_text == f"물품매매계약서 > {first}\n{tagged.text}"
    assert lexical_text(tagged) == tagged.text


def test_an_empty_breadcrumb_stays_empty(ko_doc) -> None:
    c = chunk(ko_doc, strategy="structure", id_prefix=None)[0]
    c.metadata.breadcrumb = ""
    assert embed_text(c) == lexical_text(c) == c.text


def test_prompt_header_names_document_clause_and_pointer(ko_doc) -> None:
    chunks = chunk(ko_doc, strategy="structure", id_prefix=None)
    c = next(c for c in chunks if c.metadata.article == "부록A 제2조 (위약금 산정)")
    assert prompt_header(c, 3, LABELS["ko"]) == "[발췌 3] (물품매매계약서 · 부록A 제2조 (위약금 산정))"
    assert prompt_header(c, 4, LABELS["en"], tier="supplementary", via=2) == (
        "[Excerpt 4] (Supplementary evidence · 물품매매계약서 · 부록A 제2조 (위약금 산정)) ← target of Excerpt 2")
    c.metadata.article = ""
    assert excerpt_article(c, LABELS["ko"]["unknown_article"]) == "조항 미상"
