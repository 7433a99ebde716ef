"""The chunker contract: a Document (and, for structure-aware chunkers, its tree) in, Chunks out.

A chunker fixes provenance at cut time: every chunk's metadata is computed from its span in
``Document.text`` while the cut is made. The texts a chunk becomes besides its raw text (embed, lexical,
prompt) are made by ``jogak.chunk.contextualize``; ``BaseChunker.contextualize`` is the embed text.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator

from jogak.chunk.contextualize import embed_text
from jogak.load.identity import document_key
from jogak.model import Chunk, ChunkMetadata, Document


class BaseChunker(ABC):
    strategy: str = "base"

    @abstractmethod
    def chunk_document(self, doc: Document) -> Iterator[Chunk]:
        """Chunks of one document in order, ids assigned per document (``{doc_id}-{chunk_no:03d}``)."""

    def chunk(self, docs: Iterable[Document]) -> Iterator[Chunk]:
        for doc in docs:
            yield from self.chunk_document(doc)

    def contextualize(self, chunk: Chunk) -> str:
        """The text to embed (``jogak.chunk.contextualize.embed_text``): context line + raw text."""
        return embed_text(chunk)

    def make_chunk(self, doc: Document, chunk_no: int, start: int, end: int, **meta) -> Chunk:
        page_start, page_end = doc.page_range(start, end)
        doc_id = meta.pop("doc_id", None) or doc_id_for(doc)  # a chunker may pass it, computed once per document
        md = ChunkMetadata(
            source=doc.source,
            doc_title=doc.doc_title,
            chunk_no=chunk_no,
            article=meta.pop("article", ""),
            page_start=page_start,
            page_end=page_end,
            char_start=start,
            char_end=end,
            strategy=self.strategy,
            doc_id=doc_id,
            **meta,
        )
        ocr_pages = doc.metadata.get("ocr_pages")
        if ocr_pages and page_start is not None and page_end is not None:
            confs = [ocr_pages[p] for p in range(page_start, page_end + 1) if p in ocr_pages]
            md.ocr_confidence = min(confs) if confs else None
        ch = Chunk(id=chunk_id(md.doc_id, chunk_no), text=doc.text[start:end], metadata=md)
        ch.embed_text = self.contextualize(ch)
        return ch


def chunk_id(doc_id: str, chunk_no: int) -> str:
    """A chunk's id in a store: its document's id and its number there (``{doc_id}-{chunk_no:03d}``)."""
    return f"{doc_id}-{chunk_no:03d}"


def neighbour_id(chunk: Chunk, step: int) -> str | None:
    """The id of the chunk ``step`` places from ``chunk`` in its document; None when there is none, or when
    ``chunk``'s id is not in the store's scheme (a batch numbered by ``chunk(id_prefix=…)``)."""
    md = chunk.metadata
    no = md.chunk_no + step
    if not md.doc_id or no < 0 or chunk.id != chunk_id(md.doc_id, md.chunk_no):
        return None
    return chunk_id(md.doc_id, no)


def doc_id_for(doc: Document) -> str:
    """A stable document id: readable title + a short hash of the document key — a statute's work and
    version from its front matter, else the file name (not the content, so a changed file keeps its id
    and replaces its old chunks). See ``jogak.load.identity``."""
    h = hashlib.sha1(document_key(doc).encode("utf-8")).hexdigest()[:8]
    return f"{doc.doc_title or 'doc'}-{h}"
