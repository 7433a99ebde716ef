"""Request and response models (pydantic). Responses keep the CLI's ``--json`` shapes; the models document
them in the OpenAPI schema and allow the extra keys the library may add."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

FILTERS_DOC = ("Filters as in the CLI: a list of `KEY=OP:VALUE` strings (ops eq, in, gte, lte, contains), "
               "a list of {key, op, value}, or a mapping {key: value | [values] | {op: value}}. "
               "Keys: doc_title, source, doc_id, block_type, path, decision_date, court, case_number, article.")


AS_OF_DOC = ("YYYY-MM-DD: answer from the version of each work in force on that day (default: today; a date "
             "in the question sets it too). Shown in `filters` as key as_of.")


class AskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"question": "단순 변심인데 반품 배송비 얼마예요?", "collection": "default"}]})

    question: str = Field(min_length=1, description="The question (Korean or English; at most "
                          "server.max_question_chars characters).")
    collection: str | None = Field(None, description="Collection to answer from (default: server.default_collection).")
    filters: list[Any] | dict[str, Any] | None = Field(None, description=FILTERS_DOC)
    k: int | None = Field(None, ge=1, strict=True, description="Excerpts retrieved (default: answer.k or 6).")
    stream: bool = Field(False, strict=True,
                         description="Answer as server-sent events (also chosen by `Accept: text/event-stream`).")
    as_of: str | None = Field(None, description=AS_OF_DOC)

    @field_validator("question")
    @classmethod
    def not_blank(cls, v: str) -> str:
        return _not_blank(v)


class SearchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"query": "포인트 유효기간", "k": 5}]})

    query: str = Field(min_length=1, description="The search text (at most server.max_question_chars characters).")
    collection: str | None = None
    filters: list[Any] | dict[str, Any] | None = Field(None, description=FILTERS_DOC)
    k: int = Field(5, ge=1, strict=True)
    expand: Literal["neighbours", "neighbors", "parent"] | None = Field(
        None, description="Extra context after each hit: neighbours or parent.")
    as_of: str | None = Field(None, description=AS_OF_DOC)

    @field_validator("query")
    @classmethod
    def not_blank(cls, v: str) -> str:
        return _not_blank(v)


def _not_blank(v: str) -> str:
    if not v.strip():
        raise ValueError("must not be empty or only whitespace")
    return v


class Loose(BaseModel):
    model_config = ConfigDict(extra="allow")


class DiffOut(Loose):
    work: str
    counts: dict[str, int]
    articles: list[dict[str, Any]]
    collection: str


class Highlight(BaseModel):
    quote: list[int] | None = Field(None, description="[start, end] of the quote in the chunk's text.")
    clause: list[int] | None = Field(None, description="[start, end] of the cited clause in the chunk's text.")


class CitationOut(Loose):
    n: int
    chunk_id: str
    source: str
    doc_title: str
    article: str
    path: str | None = None
    page_start: int | None = None
    page_end: int | None = None
    quote: str
    support: float = Field(description="The cited text says the statement (offline judge, 0–1).")
    relevance: float = Field(0.0, description="The clause answers the question: its focus is what the clause "
                                              "is about (0–1). This, not support, is what readers are shown.")
    relevance_label: str = Field("", description="relevance as a word: 높음 / 보통 / 낮음 (high / medium / low).")
    ref: int = Field(0, description="The citation's display number, 1-based: the [n] of answer_parts.")
    highlight: Highlight | None = None


class AnswerOut(Loose):
    question: str
    outcome: Literal["answer", "related", "none"] = Field(
        "answer", description="answer: asserted, with citations; related: not sure — the most relevant "
                              "clauses are shown without asserting an answer; none: nothing relevant found.")
    confidence: float = Field(0.0, description="Estimated probability that the answer is right (0–1).")
    answer: str
    supported: bool
    citations: list[CitationOut]
    excerpts: list[dict[str, Any]] = []
    warnings: list[str] = []
    generator: str
    collection: str


class SearchOut(Loose):
    query: str
    filters: list[dict[str, Any]]
    hits: list[dict[str, Any]]
    warnings: list[str] = []
    collection: str


class DocumentOut(Loose):
    doc_id: str
    source: str
    doc_title: str
    sha256: str
    n_chunks: int
    ingested_at: str
    format: str = ""
    n_pages: int = 0


class DocumentsOut(BaseModel):
    collection: str
    documents: list[DocumentOut]


class ChunkOut(Loose):
    id: str
    text: str
    metadata: dict[str, Any]
    collection: str
    document: DocumentOut | None = None


class TreeOut(BaseModel):
    collection: str
    doc_id: str
    document: DocumentOut | None = None
    tree: dict[str, Any]


class CollectionIn(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"name": "contracts"}]})

    name: str = Field(min_length=1, max_length=63, description="letters, digits, '.', '_', '-'")


class JobOut(Loose):
    id: str
    collection: str
    status: str = Field(description="queued | running | succeeded | failed | cancelled | interrupted")
    stage: str | None = None
    done: int = 0
    total: int = 0
    files: list[dict[str, Any]] = []
    report: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


class JobsOut(BaseModel):
    jobs: list[JobOut]


class CollectionsOut(BaseModel):
    collections: list[dict[str, Any]]
    default: str | None = None


class ErrorOut(BaseModel):
    error: str = Field(description="A stable code: unauthorized, forbidden, not_found, too_large, …")
    message: str = Field(description="One line for people.")


class HealthOut(BaseModel):
    status: str
    ready: bool
    mode: str = Field(description="keys (API keys required) or local (loopback only, no keys)")
    version: str
