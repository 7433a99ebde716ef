"""What retrieval and answering return: ``Hit``s, and an ``Answer`` with its ``Citation``s."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from jogak.model.chunk import CaseInfo, Chunk


@dataclass(slots=True)
class Hit:
    chunk: Chunk
    score: float
    rank: int = 0
    matched: list[str] = field(default_factory=list)  # dense, bm25, clause, xref, route, neighbour
    via: str | None = None  # for xref hits: the pointer chunk's id
    scores: dict[str, float] = field(default_factory=dict)  # per-retriever scores/ranks for debugging
    # Hits are clauses: the other chunks of this hit's clause that matched too (ids, best first), and the
    # leaf (항/호/목 path) that matched best, when leaf matching found it.
    also: list[str] = field(default_factory=list)
    leaf: str | None = None
    # the version the chunk belongs to, when its document is one (work, effective_from, effective_to,
    # current, …: ``jogak.index.versions.Version.to_dict``)
    version: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        d = {
            "rank": self.rank,
            "chunk_id": self.chunk.id,
            "score": self.score,
            "text": self.chunk.text,
            "metadata": self.chunk.metadata.to_dict(),
            "via": self.via,
            "matched": list(self.matched),
        }
        if self.also:
            d["also"] = list(self.also)
        if self.leaf:
            d["leaf"] = self.leaf
        if self.version is not None:
            d["version"] = self.version
        return d


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
    support: float  # offline judge score in [0, 1]: the cited text says the statement
    case: CaseInfo | None = None  # the decision cited, when the chunk is a court decision's
    # whether the clause answers the question — the question's focus is what it is about — in [0, 1];
    # a verbatim quote always supports itself, so this, not support, is what a reader is shown
    relevance: float = 0.0
    ref: int = 0  # the citation's display number, 1-based: the same [n] in the CLI, the JSON and the page
    # the cited version's dates, when the document is a version of a work (effective_to: the next
    # version's start, None for the latest)
    effective_from: str | None = None
    effective_to: str | None = None

    def case_fields(self) -> dict[str, Any]:
        """The fields that name the cited decision, only those known (flattened into the JSON)."""
        if self.case is None:
            return {}
        return {k: v for k in CITATION_CASE_KEYS if (v := getattr(self.case, k))}

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        del d["case"]
        if self.effective_from is None:  # a document without versions: the JSON is as before
            del d["effective_from"], d["effective_to"]
        d.update(self.case_fields())
        return d


# What an answer is (issue 13): ``answer`` asserts, citing the clauses that say it; ``related`` asserts
# nothing and shows the most relevant clauses ("관련 조항") — the evidence seems to be there but the answerer
# is not sure it answers; ``none`` found nothing relevant.
OUTCOMES = ("answer", "related", "none")


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
    outcome: str = "answer"  # one of OUTCOMES
    # the estimated probability that an ``answer`` is right (calibrated on the tune set); for ``related``
    # and ``none`` how likely the shown clauses hold the answer
    confidence: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "outcome": self.outcome,
            "confidence": self.confidence,
            "answer": self.answer,
            "supported": self.supported,
            "citations": [c.to_dict() for c in self.citations],
            "excerpts": self.excerpts,
            "filters": self.filters,
            "warnings": self.warnings,
            "generator": self.generator,
        }
