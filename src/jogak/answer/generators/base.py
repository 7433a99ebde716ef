"""The generator contract: (question, Context) → Draft.

A generator only says *what* the answer is and *which excerpt numbers* back it. Citations — names,
clauses, pages, quotes, support scores — are added afterwards by code (``jogak.answer.verify`` and
``jogak.answer.citations``) from chunk metadata, so a model can never misspell or invent one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from jogak.answer.context import Context
from jogak.answer.units import Unit


class GeneratorError(RuntimeError):
    """A generator could not produce a draft (network, protocol or configuration problem)."""


@dataclass(slots=True)
class Quote:
    """A unit of excerpt ``n`` that a statement was taken from (extractive) or matched to (judge)."""

    n: int
    unit: Unit


@dataclass(slots=True)
class DraftStatement:
    text: str
    quotes: list[Quote] = field(default_factory=list)
    note: bool = False  # a system-written note (body-over-appendix), not a claim from one clause


@dataclass(slots=True)
class Draft:
    answer: str
    evidence_ids: list[int] = field(default_factory=list)
    abstained: bool = False
    statements: list[DraftStatement] | None = None  # extractive drafts know their statements
    # issue 13: "answer", "related" (the answerer is not sure: ``related`` holds the most relevant units,
    # shown without asserting an answer) or "none" (nothing relevant); ``abstained`` is true for both
    outcome: str = "answer"
    confidence: float | None = None  # the generator's calibrated estimate; None: finalize estimates one
    related: list[Quote] = field(default_factory=list)
    raw: str | None = None  # a model's raw reply, for debugging
    warnings: list[str] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)  # scores, timings


class Generator(ABC):
    name: str = "base"

    @abstractmethod
    def generate(self, question: str, context: Context) -> Draft: ...

    def stream(self, question: str, context: Context) -> Iterator[str]:
        """Text deltas of the answer; generators without streaming yield the whole answer once."""
        yield self.generate(question, context).answer
