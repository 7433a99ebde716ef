"""What a chunker makes: ``Chunk``s whose provenance (``ChunkMetadata``) is fixed at cut time — the versioned
chunk schema (2.0), checked when a chunk dict is read back."""

from __future__ import annotations

import functools
from dataclasses import MISSING, asdict, dataclass, field, fields
from typing import Any

from jogak.model.document import sha256_text
from jogak.model.tree import BlockType

# The chunk schema: a chunk dict (``Chunk.to_dict``) says which version wrote it. 2.0 types what 1 kept
# as plain dicts (``Segment``, ``CaseInfo``) and is checked on read; its JSON shape is the same as 1's,
# so a chunk written as 1 is read by mapping its fields one to one (``Chunk.from_dict``). 2.1 adds
# ``clause``, the clause unit a chunk was cut from (written only when set; 2.0 chunks read as None); 2.2
# the version fields (``VERSION_KEYS``: work, effective dates, amendment notes, transitional links), written
# only when set, so an earlier 2.x chunk reads as a chunk of a document without versions; 2.3
# ``clause_effective_to``, the end a 부칙's 유효기간 clause gives the chunk's wording (written only when set).
CHUNK_SCHEMA_VERSION = "2.3"
READABLE_SCHEMA_MAJORS = ("1", "2")


class ChunkSchemaError(ValueError):
    """A chunk dict this version cannot read: another major schema version, or keys it does not know."""


@dataclass(frozen=True, slots=True)
class Segment:
    """A leaf clause span a chunk covers, with its citation label ("제2조 (반품 배송비) 제1항").

    In ``ChunkMetadata.segments`` the offsets are into ``Document.text`` (a citation can be narrowed to
    the clause holding a sentence without re-parsing); ``jogak.answer.units.chunk_segments`` re-bases
    them to the chunk.
    """

    path: str
    cite: str
    start: int
    end: int

    def __reduce__(self) -> tuple[Any, ...]:
        # positional constructor arguments: a chunk stream sends every chunk between processes, and this is
        # half the size of the default slots pickle (field names per object) and faster to read back
        return self.__class__, tuple(getattr(self, f) for f in _field_names(self.__class__))

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "cite": self.cite, "start": self.start, "end": self.end}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Segment:
        _check_keys("segment", d, _field_names(cls), required=_field_names(cls))
        return cls(path=str(d["path"]), cite=str(d["cite"]), start=int(d["start"]), end=int(d["end"]))


@dataclass(slots=True)
class CaseInfo:
    """What a chunk of a court decision carries about the decision (issue 4): 사건번호, 선고일, court, …
    Flattened into the chunk's metadata dict, so the fields work as filters and citations."""

    title: str | None = None
    court: str | None = None
    case_number: str | None = None  # the first (lead) case number
    case_numbers: list[str] = field(default_factory=list)  # all, for consolidated cases
    decision_date: str | None = None  # ISO "2003-07-24"
    judgment_type: str | None = None  # 판결 / 결정
    en_banc: bool | None = None  # 전원합의체
    full_case_name: str | None = None  # "대법원 2003. 7. 24. 선고 2001다48781 전원합의체 판결"
    case_type: str | None = None

    @property
    def numbers(self) -> list[str]:
        """Every case number of the decision, the lead one first."""
        lead = [self.case_number] if self.case_number else []
        return list(dict.fromkeys([*lead, *self.case_numbers]))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return _field_names(cls)

    @classmethod
    def from_attrs(cls, attrs: dict[str, Any] | None) -> CaseInfo | None:
        """The chunk's share of a case node's ``attrs["case"]`` (which also holds court level, problems,
        …); None when there is no case."""
        if not attrs:
            return None
        return cls(**{k: attrs[k] for k in cls.field_names() if k in attrs})


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    """(cached: every chunk read back checks its keys against these)"""
    return tuple(f.name for f in fields(cls))


def _check_keys(what: str, d: dict[str, Any], known: tuple[str, ...], required: tuple[str, ...] = ()) -> None:
    unknown = [k for k in d if k not in known]
    missing = [k for k in required if k not in d]
    if unknown or missing:
        problem = (f"unknown key(s) {', '.join(map(repr, unknown))}" if unknown else
                   f"missing key(s) {', '.join(map(repr, missing))}")
        raise ChunkSchemaError(f"{what}: {problem} for chunk schema {CHUNK_SCHEMA_VERSION}")


VERSION_KEYS = ("work", "effective_from", "promulgated", "clause_effective_from", "clause_effective_to", "amendments",
                "transitional", "transitional_for")


@dataclass(slots=True)
class ChunkMetadata:
    """Provenance fixed at cut time. Keys follow seed 000, extended by the structure chunker.

    Consolidation policy when pieces merge into one chunk (see chunk/hierarchical.py):
    ``article`` union in order (continued clause first); ``path`` deepest common node; ``paths`` union of
    leaves; ``sibling_order`` first; ``refs``/``footnotes`` union; ``page_start`` min; ``page_end`` max.
    """

    source: str
    doc_title: str
    chunk_no: int
    article: str
    page_start: int | None
    page_end: int | None
    char_start: int
    char_end: int
    strategy: str = "recursive"
    doc_id: str = ""
    block_type: BlockType | None = None
    path: str | None = None
    paths: list[str] = field(default_factory=list)
    sibling_order: int | None = None
    breadcrumb: str | None = None  # None: the chunker records none (recursive); see chunk/contextualize.py
    refs: list[str] = field(default_factory=list)
    footnotes: list[str] = field(default_factory=list)
    # Leaf segments the chunk covers, in document order (structure strategy; empty for recursive chunks).
    segments: list[Segment] = field(default_factory=list)
    # Case law (issue 4); None elsewhere.
    case: CaseInfo | None = None
    # The chunk's pages were read by OCR: the lowest mean word confidence (0–100) of those pages.
    ocr_confidence: float | None = None
    # The clause unit the chunk was cut from (its tree path, "제3장/제17조"), recorded by the chunker at cut
    # time: the chunks of one long article share it, so retrieval returns clauses, not chunks. None when
    # the chunker knows no clauses (recursive) or the chunk was written before schema 2.1.
    clause: str | None = None
    # Versions (schema 2.1, issue 15): the work the document is a version of and when that version took
    # effect (``effective_from``; its end depends on the other versions in a collection, so it is not
    # stored), the promulgation date, a later start of the chunk's own article ("다만, 제8조의2 …"),
    # amendment notes ("개정 2023-03-14"), the 부칙 clauses that say how the chunk's articles changed
    # (``transitional``) and, on such a 부칙 chunk, the articles it modifies (``transitional_for``).
    work: str | None = None
    effective_from: str | None = None
    promulgated: str | None = None
    clause_effective_from: str | None = None
    # the last day the chunk's wording has effect, when a 부칙 limits it (유효기간; schema 2.3)
    clause_effective_to: str | None = None
    amendments: list[str] = field(default_factory=list)
    transitional: list[str] = field(default_factory=list)
    transitional_for: list[str] = field(default_factory=list)

    def __reduce__(self) -> tuple[Any, ...]:
        # positional constructor arguments: a chunk stream sends every chunk between processes, and this is
        # half the size of the default slots pickle (field names per object) and faster to read back
        return self.__class__, tuple(getattr(self, f) for f in _field_names(self.__class__))

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for k in VERSION_KEYS:  # only set ones: a chunk of a document without versions reads as before
            if d[k] in (None, []):
                del d[k]
        # only OCR'd chunks carry the keys (so every other chunk's dict is as before)
        if d.pop("ocr_confidence") is not None:
            d["ocr"] = True
            d["ocr_confidence"] = self.ocr_confidence
        if d.get("clause") is None:  # only chunkers that know clauses write the key
            d.pop("clause", None)
        case = d.pop("case")
        if case is not None:
            # Case fields are flattened so they work as filters and citations.
            for k, v in case.items():
                d.setdefault(k, v)
        return d

    @classmethod
    def dict_keys(cls) -> tuple[str, ...]:
        """Every key ``to_dict`` can write: the fields, with the case fields in place of ``case`` (and
        ``ocr`` beside ``ocr_confidence``)."""
        return (*(k for k in _field_names(cls) if k != "case"), "ocr", *CaseInfo.field_names())

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ChunkMetadata:
        """The inverse of ``to_dict``: case fields are gathered back into ``case`` (present when any is)."""
        own = tuple(k for k in _field_names(cls) if k != "case")  # written flattened, never as "case"
        case_keys = CaseInfo.field_names()
        required = tuple(f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING)
        _check_keys("chunk metadata", d, cls.dict_keys(), required=required)
        # "ocr" is written with ocr_confidence, which is the field
        meta = {k: v for k, v in d.items() if k in own and k != "segments"}
        case = {k: v for k, v in d.items() if k in case_keys}
        return cls(**meta, segments=[Segment.from_dict(s) for s in d.get("segments") or []],
                   case=CaseInfo(**case) if case else None)


@dataclass(slots=True)
class Chunk:
    """``text`` is raw: ``document.text[char_start:char_end] == text`` always holds.

    ``embed_text`` is what the embedder sees; it and every other text a chunk becomes (BM25 text, the
    excerpt header a model reads) are made by ``jogak.chunk.contextualize``, never stored in ``text``.
    """

    id: str
    text: str
    metadata: ChunkMetadata
    embed_text: str = ""
    content_hash: str = ""
    schema_version: str = CHUNK_SCHEMA_VERSION

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = sha256_text(self.text)
        if not self.embed_text:
            self.embed_text = self.text

    def __reduce__(self) -> tuple[Any, ...]:
        # positional constructor arguments: a chunk stream sends every chunk between processes, and this is
        # half the size of the default slots pickle (field names per object) and faster to read back
        return self.__class__, tuple(getattr(self, f) for f in _field_names(self.__class__))

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "text": self.text,
            "metadata": self.metadata.to_dict(),
            "embed_text": self.embed_text,
            "content_hash": self.content_hash,
            "schema_version": self.schema_version,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Chunk:
        """Read a chunk dict written by ``to_dict`` of this or an earlier schema.

        Schema 1 (jogak before 2.0 — stores on disk) has the same keys, with segments and case fields as
        plain values: it is migrated field by field and comes back as a 2.0 chunk. Another major version,
        or a key this schema does not know, raises ``ChunkSchemaError`` (one line, naming the chunk).
        """
        cid = d.get("id", "?")
        version = str(d.get("schema_version") or CHUNK_SCHEMA_VERSION)
        if version.split(".")[0] not in READABLE_SCHEMA_MAJORS:
            raise ChunkSchemaError(
                f"chunk {cid}: schema version {version!r} cannot be read by this jogak "
                "(it reads schema 1 and 2.x); re-ingest the documents")
        try:
            _check_keys("chunk", d, _field_names(cls), required=("id", "text", "metadata"))
            md = ChunkMetadata.from_dict(dict(d["metadata"]))
        except ChunkSchemaError as e:
            raise ChunkSchemaError(f"chunk {cid}: {e}; re-ingest the documents") from None
        return cls(
            id=d["id"],
            text=d["text"],
            metadata=md,
            embed_text=d.get("embed_text", ""),
            content_hash=d.get("content_hash", ""),
        )
