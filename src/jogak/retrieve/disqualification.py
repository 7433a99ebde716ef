"""The 결격사유 article followed from the licence it bars: a question asking who cannot get or be something ("화물 운송
사업 허가를 아예 못 받는 사람은 어떤 사람들이에요?") matches the clause granting the licence (제3조 허가) in its own words, while
the article that answers is headed "결격사유" — a word no asker uses — and names the licence in its lead ("다음 각 호의 어느
하나에 해당하는 자는 제3조제1항에 따른 … 허가를 받을 수 없다"). For the laws of the first ``disqualification_top`` hits
(a decree's hit brings its Act), the 결격사유 article whose heading and lead share the most of the question's words goes
right before the first hit of its law — a candidate moved up, or its chunk added (a structural link: a law's few 결격사유
articles are read, not searched).
"""

from __future__ import annotations

import re

from jogak.grammar.laws import (
    BARRED_SHAPE_WORDS,
    DISQUALIFICATION_HEADING_RE,
    asks_who_is_barred,
    family_of,
    title_kind,
)
from jogak.lexicon import content_terms
from jogak.retrieve.scope import Entry, Scope
from jogak.retrieve.structural import doc_rows

_LAWS = ("statute", "decree", "rule")


def follow_disqualification(scope: Scope, ordered: list[Entry]) -> list[Entry]:
    """``ordered`` with the best-matching 결격사유 article of the leading hits' laws placed before them."""
    top = int(getattr(scope.opts, "disqualification_top", 0))
    if top <= 0 or not ordered or not asks_who_is_barred(scope.query):
        return ordered
    titles, docs, arts = scope.lex.column("doc_title"), scope.lex.column("doc_id"), scope.lex.column("article")
    if _barring(str(arts[ordered[0].row] or "")):
        return ordered  # the first hit already is one
    lead = [e for e in ordered[:top] if title_kind(titles[e.row] or "") in _LAWS]
    if not lead:
        return ordered
    families = {family_of(titles[e.row] or "") for e in lead}
    # the Acts of those families in the collection (a decree's hit brings its Act) and the leading hits' own laws
    acts = _acts(scope)
    wanted = {d for f in families for d in acts.get(f, ())} | {docs[e.row] for e in lead}
    rows = [i for doc in sorted(wanted) for i in doc_rows(scope.lex, doc)
            if (scope.mask is None or scope.mask[i]) and _barring(str(arts[i] or ""))]
    if not rows:
        return ordered
    asked = set(content_terms(scope.query)) - BARRED_SHAPE_WORDS
    chunks = scope.store.chunk_map([scope.lex.rows[i] for i in rows])
    best: tuple[float, int] | None = None  # (shared words, -row)
    for i in rows:
        c = chunks.get(scope.lex.rows[i])
        if c is None:
            continue
        shared = _shared(asked, set(content_terms(_heading_and_lead(c.text))))
        if shared and (best is None or (shared, -i) > best):
            best = (shared, -i)
    if best is None:
        return ordered
    hit = -best[1]
    key = scope.lex.rows[hit]
    by_row = {e.row: e for e in ordered}
    entry = by_row.get(hit) or next((x for x in ordered if key in x.also), None)
    first = next((e for e in ordered if family_of(titles[e.row] or "") == family_of(titles[hit] or "")), lead[0])
    out = list(ordered)
    if entry is not None:
        if out.index(entry) < out.index(first):
            return ordered
        out.remove(entry)
    else:
        entry = Entry(hit, key, first.score, [], via=None)
    entry.matched = [*entry.matched, "disqualification"]
    out.insert(out.index(first), entry)
    return out


def _acts(scope: Scope) -> dict[str, list[str]]:
    """The collection's Acts by family (indexed once per lexical snapshot)."""

    def index() -> dict[str, list[str]]:
        titles, docs = scope.lex.column("doc_title"), scope.lex.column("doc_id")
        out: dict[str, list[str]] = {}
        for d, t in dict(zip(docs, titles, strict=True)).items():
            if title_kind(t or "") == "statute":
                out.setdefault(family_of(t or ""), []).append(d)
        return out

    return scope.lex.memo("acts_by_family", index)


def _shared(asked: set[str], words: set[str]) -> float:
    """The question's words the article says: each in full, or half for a compound noun of which the article says a
    part ("산후조리원" asked; "산후 조리원을 설치ㆍ운영", "산후조리업" in the article)."""
    full = asked & words
    nouns = {w for w in words if len(w) >= 2 and not w.endswith("다") and not w[:1].isdigit()}
    part = {a for a in asked - full if len(a) >= 3 and not a.endswith("다")
            and any(a.startswith(w) or w.startswith(a[:3]) for w in nouns)}
    return len(full) + 0.5 * len(part)


def _barring(article: str) -> bool:
    """Does a chunk's article column ("제3조 (…), 제4조 (결격사유)") hold a 결격사유 article?"""
    return any(DISQUALIFICATION_HEADING_RE.match(a.strip()) for a in re.split(r",\s*(?=제\s*\d)", article))


def _heading_and_lead(text: str) -> str:
    """The 결격사유 heading line and the sentence after it (the lead naming what is barred), else the chunk's
    first 300 characters (a chunk starting mid-list)."""
    lines = text.splitlines()
    for n, line in enumerate(lines):
        if DISQUALIFICATION_HEADING_RE.match(line.strip()):
            return " ".join(lines[n:n + 2])
    return text[:300]
