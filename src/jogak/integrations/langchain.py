"""LangChain interop (``pip install 'jogak[langchain]'``): chunks → ``Document``s, a retriever over a store,
and jogak's cited answer as a runnable step.

    from jogak.integrations.langchain import JogakRetriever, answer_with_citations
    retriever = JogakRetriever(store="./jogak_db", collection="haru", k=4)
    chain = {"question": RunnablePassthrough(), "documents": retriever} | RunnableLambda(answer_with_citations)
    chain.invoke("단순 변심인데 반품 배송비 얼마예요?")   # "… 고객이 부담한다. (근거: 반품교환환불정책 · 제2조 (반품 배송비) ①)"

``JogakRetriever`` runs jogak's own search (dense + BM25, clause lookup, cross-references, routing) and
returns one ``Document`` per hit: ``page_content`` is the chunk's raw text, ``metadata`` its full
provenance and the citation label (see ``jogak.integrations.provenance``). The core never imports
langchain; importing this module does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

try:
    from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
    from pydantic import ConfigDict, Field, PrivateAttr, model_validator
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("jogak.integrations.langchain needs langchain-core: pip install 'jogak[langchain]'") from e

from jogak.integrations import provenance
from jogak.model import Chunk

__all__ = ["JogakRetriever", "answer_with_citations", "format_documents", "to_documents"]


def to_documents(chunks: Iterable[Chunk], *, text: str = "raw") -> list[Document]:
    """One LangChain Document per chunk, id and provenance metadata preserved.

    ``text="raw"`` puts the chunk's raw text in ``page_content``; ``text="embed"`` the embed text
    (breadcrumb + text). List-valued metadata is kept as lists (LangChain allows any JSON value).
    """
    if text not in ("raw", "embed"):
        raise ValueError("text must be 'raw' or 'embed'")
    out = []
    for c in chunks:
        md = c.metadata.to_dict()
        md["chunk_id"] = c.id
        md["content_hash"] = c.content_hash
        out.append(Document(id=c.id, page_content=c.text if text == "raw" else c.embed_text, metadata=md))
    return out


class JogakRetriever(BaseRetriever):
    """A LangChain retriever over one jogak collection.

    ``store`` is a ``jogak.index.Store`` or a store directory / ``http://HOST:PORT`` (opened read-only);
    ``k`` hits; ``filters`` in any form jogak accepts (``["doc_title=eq:멤버십정책"]``,
    ``{"decision_date": {"gte": "2010-01-01"}}``); ``options`` a ``jogak.retrieve.SearchOptions``
    (default: jogak.yaml's ``retrieve`` section). ``k``, ``filters`` and ``as_of`` may also be given per
    call: ``retriever.invoke(q, k=3)``.

    ``as_of`` (a date, "YYYY-MM-DD") picks the version of each work in force on that day (default: today).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    store: Any = Field(description="jogak Store, store directory or http://HOST:PORT of a Chroma server")
    collection: str | None = None
    k: int = Field(5, ge=1)
    filters: Any = None
    as_of: str | None = None
    options: Any = None
    _searcher: provenance.Searcher = PrivateAttr()

    @model_validator(mode="after")
    def _open(self) -> JogakRetriever:
        self._searcher = provenance.Searcher(self.store, self.collection, k=self.k, filters=self.filters,
                                             as_of=self.as_of, options=self.options)
        self.store, self.collection = self._searcher.store, self._searcher.collection
        return self

    def _documents(self, query: str, k: int | None = None, filters: Any = None,
                   as_of: str | None = None) -> list[Document]:
        # the fields stay authoritative (a retriever may be re-configured after construction)
        hits = self._searcher.search(query, k=k or self.k, filters=self.filters if filters is None else filters,
                                     as_of=self.as_of if as_of is None else as_of)
        return [Document(id=h.chunk.id, page_content=h.chunk.text,
                         metadata=provenance.hit_metadata(h, self.collection)) for h in hits]

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun,
                                **kwargs: Any) -> list[Document]:
        return self._documents(query, **kwargs)

    async def _aget_relevant_documents(self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun,
                                       **kwargs: Any) -> list[Document]:
        # jogak's search is synchronous CPU and disk work: keep it off the event loop.
        return await asyncio.to_thread(self._documents, query, **kwargs)


def format_documents(documents: list[Document]) -> str:
    """Numbered excerpts headed by their citation, for a prompt of your own:
    ``[1] (반품교환환불정책 · 제2조 (반품 배송비))`` followed by the text."""
    blocks = []
    for i, d in enumerate(documents, start=1):
        label = d.metadata.get("citation") or d.metadata.get("doc_title") or ""
        blocks.append(f"[{i}] ({label})\n{d.page_content.strip()}")
    return "\n\n".join(blocks)


def answer_with_citations(inputs: dict[str, Any], generator: Any = None) -> str:
    """A chain step: ``{"question": str, "documents": [Document from JogakRetriever]}`` → jogak's answer
    text, each statement followed by its rendered citation. The generator is jogak's configured one (the
    offline extractive answerer unless an ``llm`` is configured), so the citations are checked by code."""
    question = inputs["question"]
    hits = [provenance.hit_from_metadata(d.page_content, d.metadata) for d in inputs["documents"]]
    return provenance.answer_from_hits(question, hits, generator=generator).answer
