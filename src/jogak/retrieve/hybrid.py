"""Reciprocal rank fusion: score(d) = Σ_i w_i / (k + rank_i(d)), ranks 1-based, over the lists that hold d."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(slots=True)
class Fused:
    key: str
    score: float
    ranks: dict[str, int] = field(default_factory=dict)  # list name → 1-based rank in that list
    raw: dict[str, float] = field(default_factory=dict)  # list name → the retriever's own score


def rrf(lists: Mapping[str, Sequence[tuple[str, float]]], weights: Mapping[str, float] | None = None,
        k: int = 60) -> list[Fused]:
    """Fuse ranked lists of (key, raw score). Ties keep the order of first appearance."""
    weights = weights or {}
    out: dict[str, Fused] = {}
    order: dict[str, int] = {}
    for name, items in lists.items():
        w = float(weights.get(name, 1.0))
        seen: set[str] = set()
        for rank, (key, raw) in enumerate(items, start=1):
            if key in seen:
                continue
            seen.add(key)
            f = out.get(key)
            if f is None:
                f = out[key] = Fused(key, 0.0)
                order[key] = len(order)
            if w > 0:
                f.score += w / (k + rank)
            f.ranks[name] = rank
            f.raw[name] = float(raw)
    return sorted(out.values(), key=lambda f: (-f.score, order[f.key]))
