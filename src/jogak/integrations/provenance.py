"""What the LangChain, LlamaIndex and MCP integrations share: opening a store, running jogak's own search
with a retriever's options, and the provenance every returned item carries.

Every hit becomes flat metadata: the chunk's ``ChunkMetadata.to_dict()`` (source, doc_title, doc_id,
article, path, paths, block_type, breadcrumb, page_start/page_end, char_start/char_end — the chunk is
``document.text[char_start:char_end]`` —, segments, refs, footnotes, and the case fields of a court
decision flattened: case_number, decision_date, court, full_case_name, …) plus what the search said
about it (``score``, ``rank``, ``matched``, ``via``), ``chunk_id``, ``collection``, ``pages`` and the
citation as jogak renders it: ``citation`` ("반품교환환불정책 · 제2조 (반품 배송비)", or the case name for a
decision) and ``source_note`` ("(근거: 반품교환환불정책 · 제2조 (반품 배송비))").

The core never imports this package; nothing here imports a third-party integration library.
"""

from __future__ import annotations

import dataclasses
import os
import threading
import warnings
from typing import Any

from jogak.model import Chunk, ChunkMetadata, Citation, Hit

# Keys added on top of ChunkMetadata.to_dict(); removed again when a Chunk is rebuilt from metadata.
ADDED_KEYS = ("chunk_id", "content_hash", "collection", "score", "rank", "matched", "via", "citation",
              "source_note", "pages")

def open_reader(store: Any, collection: str | None = None) -> Any:
    """A ``jogak.index.Store`` as it is, or one opened read-only from a directory / Chroma URL."""
    if hasattr(store, "snapshot") and hasattr(store, "lexical"):
        return store
    if not isinstance(store, str | os.PathLike):
        raise TypeError(f"store must be a jogak Store, a directory or http://HOST:PORT, not {type(store).__name__}")
    from jogak.index import DEFAULT_COLLECTION, open_store

    return open_store(store, collection or DEFAULT_COLLECTION, create=False)


def as_of_supported() -> bool:
    """Retrieval is version-aware (issue 15): ``as_of`` picks the versions in force on a day."""
    return True


def check_as_of(as_of: str | None) -> None:
    """A bad ``as_of`` fails when the retriever is made (ValueError), not at the first question."""
    if as_of is not None:
        from jogak.filters import as_of_value

        as_of_value(as_of)


def coerce(filters: Any) -> list[Any]:
    """Filters in any form jogak accepts ("KEY=OP:VALUE" strings, {key, op, value} dicts, a mapping)."""
    from jogak.filters import coerce_filters

    return coerce_filters(filters) if filters else []


def run_search(store: Any, query: str, *, k: int, filters: Any = None, as_of: str | None = None,
               options: Any = None) -> Any:
    """``jogak.retrieve.search`` with the configured options (jogak.yaml's ``retrieve``) unless given."""
    from jogak.filters import Filter
    from jogak.retrieve import SearchOptions, search

    check_as_of(as_of)
    opts = dataclasses.replace(options) if options is not None else SearchOptions.from_config()
    given = [f for f in coerce(filters) if not (as_of is not None and f.key == "as_of")]
    if as_of is not None:  # the day whose versions answer (jogak.retrieve.asof)
        given.append(Filter("as_of", "eq", as_of))
    return search(store, query, k=k, filters=given or None, options=opts)


class Searcher:
    """One collection and a retriever's default options; ``search`` is safe to call from several threads
    (the async variants run it in worker threads): the store resolves its lazy parts (embedder, Chroma,
    BM25) during the first search, which therefore runs alone."""

    def __init__(self, store: Any, collection: str | None = None, *, k: int = 5, filters: Any = None,
                 as_of: str | None = None, options: Any = None) -> None:
        if int(k) < 1:
            raise ValueError("k must be at least 1")
        self.store = open_reader(store, collection)
        self.collection: str | None = getattr(self.store, "collection", collection)
        self.k, self.filters, self.as_of, self.options = int(k), filters, as_of, options
        coerce(filters)  # a bad filter fails here, not at the first question
        check_as_of(as_of)
        self._lock = threading.Lock()
        self._primed = False

    def search(self, query: str, k: int | None = None, filters: Any = None, as_of: str | None = None) -> list[Hit]:
        kw = {"k": k or self.k, "filters": self.filters if filters is None else filters,
              "as_of": self.as_of if as_of is None else as_of, "options": self.options}
        if self._primed:
            res = run_search(self.store, query, **kw)
        else:
            with self._lock:
                res = run_search(self.store, query, **kw)
                self._primed = True
        for w in res.warnings:
            warnings.warn(w, stacklevel=3)
        return list(res.hits)


# ─── citations ─────────────────────────────────────────────────────────────────────────────────


def whole_chunk_citation(chunk: Chunk, n: int = 1) -> Citation:
    """The citation of a whole chunk (an answer narrows it to the clause holding its quote)."""
    from jogak.answer.citations import case_of

    md = chunk.metadata
    return Citation(n=n, chunk_id=chunk.id, source=md.source, doc_title=md.doc_title, article=md.article or "",
                    path=md.path, block_type=md.block_type, page_start=md.page_start, page_end=md.page_end,
                    quote="", support=1.0, case=case_of(chunk))


def citation_label(chunk: Chunk) -> str:
    """"반품교환환불정책 · 제2조 (반품 배송비)"; for a court decision its full name and the section."""
    from jogak.answer.citations import case_name, source_label

    c = whole_chunk_citation(chunk)
    if c.case:
        name = case_name(c.case)
        return f"{name} · {c.article}" if c.article else name
    return source_label(c)


def source_note(chunk: Chunk, lang: str | None = None) -> str:
    """The parenthesised note jogak's answers end a statement with: "(근거: …)", "(Source: …)"."""
    from jogak.answer.citations import render_sources
    from jogak.answer.text import detect_lang

    return render_sources([whole_chunk_citation(chunk)], lang or detect_lang(chunk.text[:400]))


def pages(chunk: Chunk) -> list[int]:
    md = chunk.metadata
    if md.page_start is None:
        return []
    return list(range(md.page_start, (md.page_end or md.page_start) + 1))


def hit_metadata(hit: Hit, collection: str | None = None) -> dict[str, Any]:
    """Flat, JSON-safe provenance of one hit (see the module docstring)."""
    c = hit.chunk
    md = c.metadata.to_dict()
    md.update(chunk_id=c.id, content_hash=c.content_hash, collection=collection, score=float(hit.score),
              rank=hit.rank, matched=list(hit.matched), via=hit.via, citation=citation_label(c),
              source_note=source_note(c), pages=pages(c))
    return md


def hit_from_metadata(text: str, metadata: dict[str, Any]) -> Hit:
    """A jogak ``Hit`` back from an integration document (its text and the metadata ``hit_metadata`` gave)."""
    # only the chunk's own keys: a pipeline may have added its own (a reranker's score), and the chunk
    # schema rejects keys it does not know
    known = ChunkMetadata.dict_keys()
    meta = {k: v for k, v in metadata.items() if k in known and k not in ADDED_KEYS}
    chunk = Chunk.from_dict({"id": metadata["chunk_id"], "text": text, "metadata": meta})
    return Hit(chunk=chunk, score=float(metadata.get("score") or 0.0), rank=int(metadata.get("rank") or 0),
               matched=list(metadata.get("matched") or []), via=metadata.get("via"))


def answer_from_hits(question: str, hits: list[Hit], generator: Any = None) -> Any:
    """jogak's answer over already retrieved hits: the configured generator (offline extractive by
    default), evidence checked, citations rendered by code. Returns a ``jogak.model.Answer``."""
    from jogak.answer.ask import AskOptions, answer_hits
    from jogak.config import load_config

    opts = AskOptions.from_config(load_config().section("answer"))
    return answer_hits(question, hits, generator=generator, options=opts).answer
