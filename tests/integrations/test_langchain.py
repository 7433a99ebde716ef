"""LangChain: JogakRetriever (a real langchain_core BaseRetriever) over a real store, inside real chains."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from .conftest import DECISION, QUESTION

pytestmark = pytest.mark.usefixtures("no_network")


@pytest.fixture()
def retriever(integration_store: Path) -> Any:
    from jogak.integrations.langchain import JogakRetriever

    return JogakRetriever(store=str(integration_store), collection="haru", k=3)


def test_documents_carry_full_provenance_and_citation(retriever: Any) -> None:
    docs = retriever.invoke(QUESTION)
    assert len(docs) == 3
    top = docs[0]
    md = top.metadata
    assert top.id == md["chunk_id"]
    assert (md["source"], md["doc_title"], md["path"], md["article"]) == (
        "하루마켓_반품교환환불정책.pdf", "반품교환환불정책", "본문/제2조", "제2조 (반품 배송비)")
    assert md["citation"] == "반품교환환불정책 · 제2조 (반품 배송비)"
    assert md["source_note"] == "(근거: 반품교환환불정책 · 제2조 (반품 배송비))"
    assert (md["page_start"], md["page_end"], md["pages"]) == (1, 1, [1])
    assert md["collection"] == "haru" and md["rank"] == 1 and md["score"] > 0 and md["matched"]
    assert "본문/제2조/제1항" in md["paths"] and md["segments"]
    # the offsets locate page_content exactly in the stored document
    text = retriever.store.document_text(md["doc_id"])
    assert text[md["char_start"] : md["char_end"]] == top.page_content
    assert [d.metadata["rank"] for d in docs] == [1, 2, 3]


def test_chain_answers_with_jogaks_rendered_citations(retriever: Any) -> None:
    from langchain_core.prompts import ChatPromptTemplate
    from langchain_core.runnables import RunnableLambda, RunnablePassthrough

    from jogak.integrations.langchain import answer_with_citations, format_documents

    chain = {"question": RunnablePassthrough(), "documents": retriever} | RunnableLambda(answer_with_citations)
    answer = chain.invoke(QUESTION)
    assert "6,000원" in answer
    assert answer.splitlines()[0].endswith("(근거: 반품교환환불정책 · 제2조 (반품 배송비) ①)")

    # the same retriever feeding a prompt for an LLM of one's own: excerpts headed by their citations
    prompt = ChatPromptTemplate.from_template("{context}\n\n질문: {question}")
    to_prompt = {"context": retriever | RunnableLambda(format_documents), "question": RunnablePassthrough()} | prompt
    text = to_prompt.invoke(QUESTION).to_messages()[0].content
    assert text.startswith("[1] (반품교환환불정책 · 제2조 (반품 배송비))\n제2조 (반품 배송비)")
    assert text.endswith(f"질문: {QUESTION}")


def test_async_and_per_call_options(retriever: Any) -> None:
    async def run() -> list[Any]:
        return await asyncio.gather(retriever.ainvoke("포인트 유효기간", k=1),
                                    retriever.ainvoke("포인트", filters=["doc_title=eq:멤버십정책"]))

    one, filtered = asyncio.run(run())
    assert len(one) == 1 and one[0].metadata["citation"] == "멤버십정책 · 제5조 (하루포인트 유효기간과 소멸)"
    assert filtered and {d.metadata["doc_title"] for d in filtered} == {"멤버십정책"}
    # the retriever's own filters hold until a call overrides them
    retriever.filters = {"doc_title": "반품교환환불정책"}
    assert {d.metadata["doc_title"] for d in retriever.invoke("포인트")} == {"반품교환환불정책"}


def test_bad_filter_fails_at_construction_and_as_of_is_not_silently_ignored(integration_store: Path) -> None:
    from jogak.integrations.langchain import JogakRetriever
    from jogak.integrations.provenance import as_of_supported

    with pytest.raises(ValueError):
        JogakRetriever(store=str(integration_store), collection="haru", filters=["no-operator-here"])
    if as_of_supported():
        docs = JogakRetriever(store=str(integration_store), collection="haru", as_of="2025-01-01").invoke(QUESTION)
        assert docs
    else:
        with pytest.raises(NotImplementedError, match="as_of"):
            JogakRetriever(store=str(integration_store), collection="haru", as_of="2025-01-01")


def test_court_decision_metadata_and_citation(integration_store: Path) -> None:
    from jogak.integrations.langchain import JogakRetriever

    docs = JogakRetriever(store=str(integration_store), collection="cases", k=2).invoke("보험자에 대한 직접청구권")
    md = next(d.metadata for d in docs if d.metadata["path"] == "판결요지/[1]")
    assert (md["case_number"], md["court"], md["decision_date"]) == ("2001다99999", "대법원", "2001-05-15")
    assert md["source"] == DECISION.name
    assert md["citation"] == "대법원 2001. 5. 15. 선고 2001다99999 판결 · 판결요지 [1]"
    assert md["source_note"] == "(참고 판례: 대법원 2001. 5. 15. 선고 2001다99999 판결)"


def test_to_documents_keeps_ids_and_metadata(integration_store: Path) -> None:
    from jogak.index import open_store
    from jogak.integrations.langchain import to_documents

    st = open_store(integration_store, "haru", create=False)
    chunks = st.chunks()
    docs = to_documents(chunks, text="embed")
    assert [d.id for d in docs] == [c.id for c in chunks]
    assert docs[0].page_content == chunks[0].embed_text
    assert docs[0].metadata["path"] == chunks[0].metadata.path
    with pytest.raises(ValueError):
        to_documents(chunks, text="other")
