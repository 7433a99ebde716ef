"""Answers with citations: context building, generators, evidence checks, citation rendering.

    from jogak.answer import ask
    answer = ask(store, "단순 변심인데 반품 배송비 얼마예요?")

``answer_hits`` runs the same pipeline on hits you already have.
"""

from __future__ import annotations

from jogak.answer.ask import AskOptions, Composed, answer_hits, ask, ask_composed
from jogak.answer.context import Context, Excerpt, build_context, estimate_tokens
from jogak.answer.verify import MorphemeOverlapJudge

__all__ = [
    "AskOptions",
    "Composed",
    "Context",
    "Excerpt",
    "MorphemeOverlapJudge",
    "answer_hits",
    "ask",
    "ask_composed",
    "build_context",
    "estimate_tokens",
]
