"""Layer routing: a rule table (``routing.yaml``) maps words in a question to the block types that
answer it ("위약금" → appendix, "경과조치" → addenda); when a rule fires, retrieval adds a list restricted to
those block types (see ``jogak.retrieve.candidates``)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


def _norm(s: str) -> str:
    return re.sub(r"\s+", "", s)


@dataclass(frozen=True, slots=True)
class RouteRule:
    name: str
    match: tuple[str, ...]
    prefer: tuple[str, ...]
    weight: float = 1.0

    def hits(self, query: str) -> list[str]:
        q = query.lower()
        out = []
        for term in self.match:
            t = term.lower()
            if re.fullmatch(r"[a-z0-9 .'-]+", t):
                if re.search(rf"\b{re.escape(t)}\b", q):
                    out.append(term)
            elif t in q or _norm(t) in _norm(q):
                out.append(term)
        return out


DEFAULT_RULES = Path(__file__).with_name("routing.yaml")


@functools.lru_cache(maxsize=8)
def load_rules(path: str | None = None) -> tuple[RouteRule, ...]:
    import yaml

    p = Path(path) if path else DEFAULT_RULES
    with p.open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh) or {}
    rules = []
    for r in data.get("rules", []):
        rules.append(RouteRule(str(r.get("name", "rule")), tuple(str(x) for x in r.get("match", [])),
                               tuple(str(x) for x in r.get("prefer", [])), float(r.get("weight", 1.0))))
    return tuple(rules)


def route(query: str, rules: Iterable[RouteRule]) -> tuple[list[str], float, list[str]]:
    """(preferred block types, weight, matched terms) for the question; empty when no rule fires."""
    prefer: list[str] = []
    weight = 0.0
    terms: list[str] = []
    for r in rules:
        t = r.hits(query)
        if t:
            terms.extend(t)
            weight = max(weight, r.weight)
            prefer.extend(b for b in r.prefer if b not in prefer)
    return prefer, weight, terms
