"""The few types every stage speaks: Document, Line, Footnote, Node, Ref, Chunk, Hit, Citation, Answer.

Data flows one way: a loader makes a ``Document`` (plain text + layout cues + page map), the structure
parser makes a ``Node`` tree over that text, a chunker cuts ``Chunk``s whose provenance is fixed at cut
time, the index returns ``Hit``s, and the answerer returns an ``Answer`` with ``Citation``s.

Offsets are always character offsets into ``Document.text`` (Python str indices, end-exclusive).
"""

from __future__ import annotations

import bisect
import hashlib
from dataclasses import MISSING, asdict, dataclass, field, fields
from typing import Any, Literal, get_args

BlockType = Literal["body", "appendix", "footnote", "parties", "addenda"]
BLOCK_TYPES: tuple[str, ...] = get_args(BlockType)

NodeKind = Literal[
    "document",
    "parties",
    "chapter",
    "article",
    "paragraph",
    "item",
    "subitem",
    "appendix",
    "footnote",
    "faq",
    "addenda",
    "table",
    "section",  # case-law sections (판시사항, 판결요지, ...) and other titled sections
    "holding",  # case-law holdings [1], [2]
    "case",  # one decision inside a casebook
    "text",  # unnumbered prose that belongs to its parent (preamble, intro lines)
]


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ─── Loading ────────────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True, slots=True)
class PageSpan:
    """A run of ``Document.text`` that came from one page (1-based page number).

    Spans are sorted by ``start`` and do not overlap, but page numbers need not be monotonic: a PDF
    loader moves page-bottom footnotes after the body so that a paragraph continuing across a page
    break stays contiguous, and the footnote's span still says which page it sat on.
    """

    page: int
    start: int
    end: int


@dataclass(slots=True)
class Line:
    """Layout cues for one line of ``Document.text`` (``start``..``end`` excludes the newline).

    Loaders fill what their format knows and leave the rest ``None``; the structure parser uses the cues
    to accept or reject heading candidates.
    """

    start: int
    end: int
    page: int | None = None
    font_size: float | None = None  # PDF: dominant font size; DOCX: run size if set
    bold: bool | None = None  # the line's first characters (the would-be heading label) are bold
    x0: float | None = None  # PDF: left edge in points
    indent: int = 0  # leading whitespace in the source (text/markdown), list level (docx/html)
    heading_level: int | None = None  # markdown '#' count, html h1-6, docx "Heading N"
    style: str | None = None  # docx style name or html tag name
    role: str | None = None  # "table_row", "list_item", "footnote", "title", "caption"
    numbering: str | None = None  # docx automatic numbering label rendered into the text ("1.", "가.")
    bold_prefix: int = 0  # length of a bold run at the line start (markdown **①**, docx bold label)


@dataclass(slots=True)
class FootnoteMark:
    """Where a footnote is referenced from the body: offset of the mark and its label."""

    offset: int
    label: str
    end: int | None = None  # when the mark itself is in the text (a PDF superscript "3"), its end


@dataclass(slots=True)
class Footnote:
    """A footnote's text span inside ``Document.text`` and the marks that point at it."""

    label: str  # "3", "*", "a"
    start: int
    end: int
    page: int | None = None
    marks: list[FootnoteMark] = field(default_factory=list)


@dataclass(slots=True)
class Document:
    source: str  # file name, e.g. "하루마켓_반품교환환불정책.pdf"
    doc_title: str  # readable title, e.g. "반품교환환불정책"
    text: str
    format: str  # pdf | docx | html | markdown | text
    path: str = ""  # the path it was loaded from
    pages: list[PageSpan] = field(default_factory=list)
    n_pages: int = 0  # 0 for formats without pages
    lines: list[Line] = field(default_factory=list)
    footnotes: list[Footnote] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)  # front matter, PDF info, case metadata
    sha256: str = ""  # of the source bytes
    warnings: list[str] = field(default_factory=list)
    # body_end: where the body flow ends; after it come moved blocks (PDF footnotes, DOCX footnotes)
    body_end: int | None = None
    _page_starts: list[int] | None = field(default=None, init=False, repr=False, compare=False)

    # Page lookups are by span, not by assuming monotonic pages.
    def page_at(self, offset: int) -> int | None:
        if not self.pages:
            return None
        if self._page_starts is None or len(self._page_starts) != len(self.pages):
            self._page_starts = [p.start for p in self.pages]
        i = bisect.bisect_right(self._page_starts, offset) - 1
        if i < 0:
            return self.pages[0].page
        return self.pages[i].page

    def page_range(self, start: int, end: int) -> tuple[int | None, int | None]:
        """Smallest and largest page number touched by ``text[start:end]``."""
        if not self.pages:
            return None, None
        if end <= start:
            p = self.page_at(start)
            return p, p
        if self._page_starts is None or len(self._page_starts) != len(self.pages):
            self._page_starts = [p.start for p in self.pages]
        lo = max(bisect.bisect_right(self._page_starts, start) - 1, 0)
        pages = []
        for span in self.pages[lo:]:
            if span.start >= end:
                break
            if span.end > start or span.start == start:
                pages.append(span.page)
        if not pages:
            p = self.page_at(start)
            return p, p
        return min(pages), max(pages)


# ─── Structure ──────────────────────────────────────────────────────────────────────────────────


@dataclass(slots=True)
class Ref:
    """A reference phrase found in a node's text and what it resolves to."""

    text: str  # the phrase as written: "부록A 참조", "제5조제2항", "Section 4.2"
    start: int
    end: int
    target_path: str | None = None
    reason: str | None = None  # why it is unresolved ("no such node", "other document", ...)
    pointer: bool = False  # the sentence only points elsewhere ("부록A 참조") — not an answer itself

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "target_path": self.target_path,
            "reason": self.reason,
            "pointer": self.pointer,
            "char_start": self.start,
            "char_end": self.end,
        }


@dataclass(slots=True)
class Node:
    """One node of the clause tree. ``char_start..char_end`` spans the node and all its children.

    ``body_start`` is where the node's own text begins after its heading label/title (equal to
    ``char_start`` for unlabeled nodes); the node's *own* text is ``body_start`` up to its first
    child (or ``char_end``).
    """

    kind: NodeKind
    block_type: BlockType
    label: str
    title: str
    path: str
    sibling_order: int
    char_start: int
    char_end: int
    page_start: int | None = None
    page_end: int | None = None
    body_start: int | None = None
    children: list[Node] = field(default_factory=list)
    refs: list[Ref] = field(default_factory=list)
    number: tuple[int, ...] | None = None  # parsed ordinal, e.g. (17, 2) for 제17조의2
    attrs: dict[str, Any] = field(default_factory=dict)  # footnote ids cited, case metadata, ...

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def leaves(self):
        if not self.children:
            yield self
        else:
            for c in self.children:
                yield from c.leaves()

    def find(self, path: str) -> Node | None:
        for n in self.walk():
            if n.path == path:
                return n
        return None

    @property
    def heading(self) -> str:
        """Label and title as a citation shows them: "제5조 (환불 처리 기간)"; a numbered section or chapter
        reads as printed: "1. 개인정보의 처리 목적", "Ⅱ. 추진 계획", "4 Delivery". (A title with a comma keeps its
        brackets: a comma-joined ``article`` tag must still split into clauses.)"""
        if self.label and self.title:
            if self.label in self.title:  # "자주 묻는 질문 (FAQ)" already names its label
                return self.title
            if (self.label[-1] in ".)" or self.label.isdigit()) and "," not in self.title:
                return f"{self.label} {self.title}"
            return f"{self.label} ({self.title})"
        return self.label or self.title

    def to_dict(self, text: str | None = None, depth: int | None = None) -> dict[str, Any]:
        d: dict[str, Any] = {
            "kind": self.kind,
            "block_type": self.block_type,
            "label": self.label,
            "title": self.title,
            "path": self.path,
            "sibling_order": self.sibling_order,
            "page_start": self.page_start,
            "page_end": self.page_end,
            "char_start": self.char_start,
            "char_end": self.char_end,
        }
        if text is not None:
            d["text"] = text[self.char_start : self.char_end]
        d["refs"] = [r.to_dict() for r in self.refs]
        public = {k: v for k, v in self.attrs.items() if not k.startswith("_")}
        if public:
            d["attrs"] = public
        if depth is None or depth > 0:
            nd = None if depth is None else depth - 1
            d["children"] = [c.to_dict(text, nd) for c in self.children]
        else:
            d["children"] = []
        return d


# ─── Chunks ─────────────────────────────────────────────────────────────────────────────────────

# The chunk schema: a chunk dict (``Chunk.to_dict``) says which version wrote it. 2.0 types what 1 kept
# as plain dicts (``Segment``, ``CaseInfo``) and is checked on read; its JSON shape is the same as 1's,
# so a chunk written as 1 is read by mapping its fields one to one (``Chunk.from_dict``).
CHUNK_SCHEMA_VERSION = "2.0"
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


def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def _check_keys(what: str, d: dict[str, Any], known: tuple[str, ...], required: tuple[str, ...] = ()) -> None:
    unknown = [k for k in d if k not in known]
    missing = [k for k in required if k not in d]
    if unknown or missing:
        problem = (f"unknown key(s) {', '.join(map(repr, unknown))}" if unknown else
                   f"missing key(s) {', '.join(map(repr, missing))}")
        raise ChunkSchemaError(f"{what}: {problem} for chunk schema {CHUNK_SCHEMA_VERSION}")


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

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        # only OCR'd chunks carry the keys (so every other chunk's dict is as before)
        if d.pop("ocr_confidence") is not None:
            d["ocr"] = True
            d["ocr_confidence"] = self.ocr_confidence
        case = d.pop("case")
        if case is not None:
            # Case fields are flattened so they work as filters and citations.
            for k, v in case.items():
                d.setdefault(k, v)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ChunkMetadata:
        """The inverse of ``to_dict``: case fields are gathered back into ``case`` (present when any is)."""
        own = tuple(k for k in _field_names(cls) if k != "case")  # written flattened, never as "case"
        case_keys = CaseInfo.field_names()
        required = tuple(f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING)
        _check_keys("chunk metadata", d, own + case_keys + ("ocr",), required=required)
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


# ─── Retrieval and answers ──────────────────────────────────────────────────────────────────────


@dataclass(slots=True)
class Hit:
    chunk: Chunk
    score: float
    rank: int = 0
    matched: list[str] = field(default_factory=list)  # dense, bm25, clause, xref, route, neighbour
    via: str | None = None  # for xref hits: the pointer chunk's id
    scores: dict[str, float] = field(default_factory=dict)  # per-retriever scores/ranks for debugging

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "chunk_id": self.chunk.id,
            "score": self.score,
            "text": self.chunk.text,
            "metadata": self.chunk.metadata.to_dict(),
            "via": self.via,
            "matched": list(self.matched),
        }


# The case fields a citation shows (flattened into its JSON when set).
CITATION_CASE_KEYS = ("case_number", "decision_date", "court", "full_case_name", "title")


@dataclass(slots=True)
class Citation:
    n: int  # excerpt number shown to the model
    chunk_id: str
    source: str
    doc_title: str
    article: str  # narrowed to the clause that supports the statement
    path: str | None
    block_type: str | None
    page_start: int | None
    page_end: int | None
    quote: str  # the supporting sentence(s), verbatim from the chunk
    support: float  # offline judge score in [0, 1]
    case: CaseInfo | None = None  # the decision cited, when the chunk is a court decision's

    def case_fields(self) -> dict[str, Any]:
        """The fields that name the cited decision, only those known (flattened into the JSON)."""
        if self.case is None:
            return {}
        return {k: v for k in CITATION_CASE_KEYS if (v := getattr(self.case, k))}

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        del d["case"]
        d.update(self.case_fields())
        return d


@dataclass(slots=True)
class Answer:
    question: str
    answer: str
    supported: bool
    citations: list[Citation] = field(default_factory=list)
    excerpts: list[dict[str, Any]] = field(default_factory=list)
    filters: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    generator: str = "extractive"

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "answer": self.answer,
            "supported": self.supported,
            "citations": [c.to_dict() for c in self.citations],
            "excerpts": self.excerpts,
            "filters": self.filters,
            "warnings": self.warnings,
            "generator": self.generator,
        }
