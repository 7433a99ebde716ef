"""LlamaIndex interop (``pip install 'jogak[llamaindex]'``): a retriever and a query engine over a store.

    from jogak.integrations.llamaindex import JogakQueryEngine, JogakRetriever
    retriever = JogakRetriever("./jogak_db", collection="haru", k=4)
    for n in retriever.retrieve("포인트 유효기간"):
        print(n.score, n.node.metadata["citation"])
    print(JogakQueryEngine(retriever=retriever).query("단순 변심인데 반품 배송비 얼마예요?"))

``JogakRetriever`` returns ``NodeWithScore``s whose ``TextNode`` holds the chunk's raw text, its id, its
document offsets (``start_char_idx``/``end_char_idx``), the source document as its SOURCE relationship and
the same provenance metadata as the LangChain retriever (``jogak.integrations.provenance``). Only
``citation`` is shown to an LLM or an embedder (the other keys are excluded), so a LlamaIndex synthesizer
sees "citation: 반품교환환불정책 · 제2조 (반품 배송비)" above each excerpt. ``JogakQueryEngine`` answers with
jogak's own answerer (offline unless an ``llm`` is configured): the response text carries the rendered
citations and ``source_nodes`` the retrieved nodes. Works with any LlamaIndex query engine too, e.g.
``RetrieverQueryEngine.from_args(retriever, llm=your_llm)``.
"""

from __future__ import annotations

import asyncio
from typing import Any

try:
    from llama_index.core.base.base_retriever import BaseRetriever
    from llama_index.core.base.response.schema import Response
    from llama_index.core.query_engine import CustomQueryEngine
    from llama_index.core.schema import (
        NodeRelationship,
        NodeWithScore,
        QueryBundle,
        RelatedNodeInfo,
        TextNode,
    )
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("jogak.integrations.llamaindex needs llama-index-core: pip install 'jogak[llamaindex]'") from e

from jogak.integrations import provenance
from jogak.model import Hit

__all__ = ["JogakQueryEngine", "JogakRetriever", "to_node"]

# What an LLM prompt or an embedding of the node shows besides the text: the citation, nothing else.
SHOWN_KEYS = ("citation",)


def to_node(hit: Hit, collection: str | None = None) -> NodeWithScore:
    c = hit.chunk
    md = provenance.hit_metadata(hit, collection)
    hidden = [k for k in md if k not in SHOWN_KEYS]
    source = RelatedNodeInfo(node_id=c.metadata.doc_id or c.metadata.source,
                             metadata={"source": c.metadata.source, "doc_title": c.metadata.doc_title})
    node = TextNode(id_=c.id, text=c.text, metadata=md, start_char_idx=c.metadata.char_start,
                    end_char_idx=c.metadata.char_end, excluded_llm_metadata_keys=hidden,
                    excluded_embed_metadata_keys=hidden, relationships={NodeRelationship.SOURCE: source})
    return NodeWithScore(node=node, score=float(hit.score))


class JogakRetriever(BaseRetriever):
    """A LlamaIndex retriever over one jogak collection.

    ``store`` is a ``jogak.index.Store`` or a store directory / ``http://HOST:PORT``; ``k``, ``filters``
    (any form jogak accepts), ``options`` (``jogak.retrieve.SearchOptions``) as for the LangChain
    retriever. ``as_of`` ("YYYY-MM-DD") picks the versions in force on that day."""

    def __init__(self, store: Any, collection: str | None = None, *, k: int = 5, filters: Any = None,
                 as_of: str | None = None, options: Any = None, **kwargs: Any) -> None:
        self._searcher = provenance.Searcher(store, collection, k=k, filters=filters, as_of=as_of,
                                             options=options)
        super().__init__(**kwargs)

    @property
    def store(self) -> Any:
        return self._searcher.store

    @property
    def collection(self) -> str | None:
        return self._searcher.collection

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [to_node(h, self.collection) for h in self._searcher.search(query_bundle.query_str)]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return await asyncio.to_thread(self._retrieve, query_bundle)


class JogakQueryEngine(CustomQueryEngine):
    """Retrieve with a ``JogakRetriever``, answer with jogak's answerer: no LlamaIndex LLM is involved.
    ``response.metadata`` holds ``supported``, ``citations`` (jogak's, narrowed to the clause) and
    ``generator``."""

    retriever: JogakRetriever
    generator: Any = None

    def custom_query(self, query_str: str) -> Response:
        nodes = self.retriever.retrieve(query_str)
        hits = [provenance.hit_from_metadata(n.node.get_content(), n.node.metadata) for n in nodes]
        ans = provenance.answer_from_hits(query_str, hits, generator=self.generator)
        return Response(response=ans.answer, source_nodes=nodes,
                        metadata={"supported": ans.supported, "outcome": ans.outcome,
                                  "confidence": ans.confidence, "generator": ans.generator,
                                  "citations": [c.to_dict() for c in ans.citations]})

    async def acustom_query(self, query_str: str) -> Response:
        return await asyncio.to_thread(self.custom_query, query_str)
