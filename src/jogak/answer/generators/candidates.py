"""What the extractive answerer works on: ``Candidate`` (a unit of an excerpt with its scores) and
``Scored`` (all candidates of a context for one question, with the question's noun coverage)."""

from __future__ import annotations

from dataclasses import dataclass, field

from jogak.answer.context import Excerpt
from jogak.answer.units import Unit

# Unit kinds that can be an answer (headings, FAQ questions and table headers are context).
ANSWER_KINDS = ("sentence", "item", "table_row", "faq_a")


@dataclass(slots=True)
class Candidate:
    """One answer unit of one excerpt, with its scores against the question (filled by scoring)."""

    excerpt: Excerpt
    unit: Unit
    units: list[Unit]  # all units of the excerpt (for leads)
    lexical: float = 0.0
    bigram: float = 0.0
    semantic: float | None = None
    focus: float = 0.0
    noun_coverage: float = 0.0  # share of the question's noun weight this unit (with context) matches
    score: float = 0.0
    matched: list[str] = field(default_factory=list)  # question lemmas found in the unit or its context

    @property
    def key(self) -> tuple[str, int, int]:
        md = self.excerpt.chunk.metadata
        return (md.doc_id or md.source, md.char_start + self.unit.start, md.char_start + self.unit.end)


@dataclass(slots=True)
class Scored:
    """What scoring found for one question over one context — returned, never kept on the answerer."""

    candidates: list[Candidate]  # answer candidates, best first
    coverage: float  # share of the question's noun weight (IDF) found anywhere in the excerpts
    noun_weights: dict[str, float]  # the question's nouns and their IDF weights
    # how much the question points to each document (jogak.answer.documents.pointed), when it points at all
    doc_scores: dict[str, float] = field(default_factory=dict)


def same_doc(a: Candidate, b: Candidate) -> bool:
    ma, mb = a.excerpt.chunk.metadata, b.excerpt.chunk.metadata
    return (ma.doc_id or ma.source) == (mb.doc_id or mb.source)


def article_key(c: Candidate) -> tuple[str, str]:
    """A unit's article: its document and heading (the chunk's article label when the unit has no heading)."""
    md = c.excerpt.chunk.metadata
    return (md.doc_id or md.source, c.unit.heading or md.article or "")
