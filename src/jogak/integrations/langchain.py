"""LangChain interop: chunks → ``langchain_core.documents.Document`` (``pip install 'jogak[langchain]'``).

The core never imports langchain; this module does, lazily, when called.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from jogak.model import Chunk


def to_documents(chunks: Iterable[Chunk], *, text: str = "raw") -> list[Any]:
    """One LangChain Document per chunk, id and provenance metadata preserved.

    ``text="raw"`` puts the chunk's raw text in ``page_content``; ``text="embed"`` the embed text
    (breadcrumb + text). List-valued metadata is kept as lists (LangChain allows any JSON value).
    """
    try:
        from langchain_core.documents import Document
    except ImportError as e:  # pragma: no cover - exercised only without the extra
        raise ImportError("jogak.integrations.langchain needs langchain-core: pip install 'jogak[langchain]'") from e
    if text not in ("raw", "embed"):
        raise ValueError("text must be 'raw' or 'embed'")
    out = []
    for c in chunks:
        md = c.metadata.to_dict()
        md["chunk_id"] = c.id
        md["content_hash"] = c.content_hash
        out.append(Document(id=c.id, page_content=c.text if text == "raw" else c.embed_text, metadata=md))
    return out
