"""Fusion: reciprocal rank fusion, score(d) = Σ_i w_i / (k + rank_i(d)), ranks 1-based, over the lists
that hold d; then the authority prior, and the fused rows become entries."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from jogak.grammar.laws import PENALTY_HEADING_RE, PENALTY_QUESTION_RE
from jogak.grammar.patterns import (
    AMENDING_HEADING_RE,
    AMENDING_QUESTION_RE,
    DEFINITION_HEADING_RE,
    DEFINITION_QUESTION_RE,
    PURPOSE_HEADING_RE,
    PURPOSE_QUESTION_RE,
)
from jogak.retrieve.scope import Entry

if TYPE_CHECKING:
    from jogak.retrieve.candidates import Candidates
    from jogak.retrieve.scope import Scope


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


# ─── the fusion stage ───────────────────────────────────────────────────────────────────────────


def fuse(scope: Scope, cands: Candidates) -> list[Entry]:
    """The candidate lists fused by weighted RRF, the authority prior applied, as entries best first."""
    fused = rrf(cands.lists, cands.weights, scope.opts.rrf_k)
    if scope.opts.authority and fused:
        _authority_prior(scope, fused, cands.routed)
    row_of = scope.row_of
    entries: list[Entry] = []
    for f in fused:
        i = row_of.get(f.key)
        if i is None:
            continue
        e = Entry(i, f.key, f.score, [m for m in ("dense", "bm25", "route", "leaf_dense", "leaf_bm25", "feedback",
                                                             "article_dense")
                                      if m in f.ranks])
        if f.key in cands.leaf_paths:
            e.leaf = cands.leaf_paths[f.key]
        e.scores = {"rrf": round(f.score, 6), **{f"{m}_rank": r for m, r in f.ranks.items()},
                    **{m: round(v, 6) for m, v in f.raw.items()}}
        entries.append(e)
    return entries


# Articles that share every question's vocabulary and answer almost none, by heading: the prior's key, the
# heading, and the question that makes such an article the answer (then it is not discounted).
_HEADING_PRIORS = (("purpose", PURPOSE_HEADING_RE, PURPOSE_QUESTION_RE),
                   ("definition", DEFINITION_HEADING_RE, DEFINITION_QUESTION_RE),
                   ("amending", AMENDING_HEADING_RE, AMENDING_QUESTION_RE),
                   ("penalty", PENALTY_HEADING_RE, PENALTY_QUESTION_RE))


def _authority_prior(scope: Scope, fused: list[Fused], routed: list[str]) -> None:
    """Seed 004: the binding clause outranks text that restates or explains it — each fused score is
    multiplied by the weight of its node kind, else its block type (``SearchOptions.authority``); a
    block type a routing rule preferred for this question is not discounted. A purpose article ("제1조
    (목적)") or a definitions article ("제2조 (정의)") is multiplied by ``authority["purpose"]`` /
    ``authority["definition"]`` unless the question asks about a purpose / what a word means; an addenda
    article amending other laws ("제6조 (다른 법률의 개정)") by ``authority["amending"]`` unless it asks
    about an amendment; a penalty provision ("제33조 (과태료)") by ``authority["penalty"]`` unless it may ask
    what a breach brings."""
    kinds, blocks = scope.lex.column("kind"), scope.lex.column("block_type")
    authority = {b: w for b, w in scope.opts.authority.items() if b not in routed}
    by_heading = [(authority[key], _heading_rows(scope, key, heading))
                  for key, heading, asks in _HEADING_PRIORS
                  if authority.get(key, 1.0) != 1.0 and not asks.search(scope.query)]
    row_of = scope.row_of
    for f in fused:
        i = row_of.get(f.key)
        if i is not None:
            f.score *= authority.get(kinds[i] or "", authority.get(blocks[i] or "", 1.0))
            for weight, rows in by_heading:
                if i in rows:
                    f.score *= weight
    fused.sort(key=lambda f: -f.score)


def _heading_rows(scope: Scope, key: str, heading: re.Pattern[str]) -> frozenset[int]:
    """Rows whose chunk begins in an article with such a heading ("제1조 (목적)"), once per snapshot."""
    articles = scope.lex.column("article")
    return scope.lex.memo(f"{key}_rows", lambda: frozenset(
        i for i, a in enumerate(articles) if a and heading.search(_FIRST_ARTICLE.split(str(a), 1)[0])))


# The article column lists a chunk's clauses joined by ", " — but an addenda label carries its own comma
# ("부칙 <제17000호, 2020. 2. 11.> 제3조 (…)"), which is not a boundary.
_FIRST_ARTICLE = re.compile(r",\s(?![^<>]*>)")
