"""LlamaIndex: JogakRetriever (a real llama_index BaseRetriever) and query engines over a real store — with
no network LLM: LlamaIndex's own MockLLM (part of llama-index-core) or jogak's offline answerer."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from .conftest import QUESTION

pytestmark = pytest.mark.usefixtures("no_network")


@pytest.fixture()
def retriever(integration_store: Path) -> Any:
    from jogak.integrations.llamaindex import JogakRetriever

    return JogakRetriever(str(integration_store), "haru", k=3)


def test_nodes_carry_the_same_provenance_as_langchain_documents(retriever: Any, integration_store: Path) -> None:
    from llama_index.core.schema import MetadataMode, NodeWithScore, TextNode

    from jogak.integrations.langchain import JogakRetriever as LangChainRetriever

    nodes = retriever.retrieve(QUESTION)
    assert len(nodes) == 3 and all(isinstance(n, NodeWithScore) for n in nodes)
    top = nodes[0]
    node = top.node
    assert isinstance(node, TextNode)
    md = node.metadata
    assert node.node_id == md["chunk_id"] and node.ref_doc_id == md["doc_id"]
    assert (node.start_char_idx, node.end_char_idx) == (md["char_start"], md["char_end"])
    assert top.score == pytest.approx(md["score"]) and top.score > 0
    assert md["citation"] == "반품교환환불정책 · 제2조 (반품 배송비)" and md["path"] == "본문/제2조"
    assert retriever.store.document_text(md["doc_id"])[md["char_start"] : md["char_end"]] == node.get_content()

    docs = LangChainRetriever(store=str(integration_store), collection="haru", k=3).invoke(QUESTION)
    assert [n.node.metadata for n in nodes] == [d.metadata for d in docs]

    # an LLM (or an embedder) sees the citation above the text, not the bookkeeping
    shown = node.get_content(metadata_mode=MetadataMode.LLM)
    assert shown.startswith("citation: 반품교환환불정책 · 제2조 (반품 배송비)\n")
    assert "char_start" not in shown and "segments" not in shown
    assert node.get_content(metadata_mode=MetadataMode.EMBED) == shown


def test_retriever_query_engine_with_llama_index_mock_llm(retriever: Any) -> None:
    from llama_index.core.llms import MockLLM
    from llama_index.core.query_engine import RetrieverQueryEngine

    engine = RetrieverQueryEngine.from_args(retriever, llm=MockLLM(), response_mode="compact")
    response = engine.query("포인트 유효기간")
    assert len(response.source_nodes) == 3
    # MockLLM echoes its prompt: the synthesizer handed it jogak's excerpts under their citations
    assert "citation: 멤버십정책 · 제5조 (하루포인트 유효기간과 소멸)" in str(response)
    assert "적립일로부터 1년" in str(response)


def test_jogak_query_engine_answers_with_citations(retriever: Any) -> None:
    from jogak.integrations.llamaindex import JogakQueryEngine

    engine = JogakQueryEngine(retriever=retriever)
    response = engine.query(QUESTION)
    assert str(response).splitlines()[0].endswith("(근거: 반품교환환불정책 · 제2조 (반품 배송비) ①)")
    assert response.metadata["supported"] is True and response.metadata["generator"] == "extractive"
    cite = response.metadata["citations"][0]
    assert (cite["path"], cite["article"]) == ("본문/제2조/제1항", "제2조 (반품 배송비) ①")
    assert [n.node.node_id for n in response.source_nodes] == [n.node.node_id for n in retriever.retrieve(QUESTION)]

    nodes = asyncio.run(retriever.aretrieve("포인트 유효기간"))
    assert nodes[0].node.metadata["citation"] == "멤버십정책 · 제5조 (하루포인트 유효기간과 소멸)"
