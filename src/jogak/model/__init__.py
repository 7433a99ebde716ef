"""The few types every stage speaks: Document, Line, Footnote, Node, Ref, Chunk, Hit, Citation, Answer.

Data flows one way: a loader makes a ``Document`` (plain text + layout cues + page map), the structure
parser makes a ``Node`` tree over that text, a chunker cuts ``Chunk``s whose provenance is fixed at cut
time, the index returns ``Hit``s, and the answerer returns an ``Answer`` with ``Citation``s.

Offsets are always character offsets into ``Document.text`` (Python str indices, end-exclusive).
One module per stage's output: ``document`` (loading), ``tree`` (structure), ``chunk`` (the versioned chunk
schema), ``answer`` (retrieval and answers); import them from here.
"""

from __future__ import annotations

from jogak.model.answer import CITATION_CASE_KEYS, OUTCOMES, Answer, Citation, Hit
from jogak.model.chunk import (
    CHUNK_SCHEMA_VERSION,
    READABLE_SCHEMA_MAJORS,
    CaseInfo,
    Chunk,
    ChunkMetadata,
    ChunkSchemaError,
    Segment,
)
from jogak.model.document import Document, Footnote, FootnoteMark, Line, PageSpan, sha256_text
from jogak.model.tree import BLOCK_TYPES, BlockType, Node, NodeKind, Ref

__all__ = [
    "BLOCK_TYPES",
    "CHUNK_SCHEMA_VERSION",
    "CITATION_CASE_KEYS",
    "OUTCOMES",
    "READABLE_SCHEMA_MAJORS",
    "Answer",
    "BlockType",
    "CaseInfo",
    "Chunk",
    "ChunkMetadata",
    "ChunkSchemaError",
    "Citation",
    "Document",
    "Footnote",
    "FootnoteMark",
    "Hit",
    "Line",
    "Node",
    "NodeKind",
    "PageSpan",
    "Ref",
    "Segment",
    "sha256_text",
]
