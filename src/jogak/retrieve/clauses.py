"""Clause-level hits: the chunks of one clause (the ``clause`` key the chunker records at cut time,
schema 2.1) collapse into one entry at the rank of the best of them, the others folded into it
(``Hit.also``) — so five results are five different clauses. Chunks without a clause key (recursive
chunks, stores written before 2.1) stay one hit each.

The chunk shown is the one holding the leaf that matched best ("small-to-big": the 항 that answers finds
the article, and the article is shown where that 항 is), else the best-ranked one.

A clause of more than ``collapse_max_chunks`` chunks is not one a reader takes in at once — an English
contract's "Section 8" with 8.1–8.12 (tens of chunks), where a Korean 조 holds one to a few: its chunks collapse
by the node right below it that holds them (8.1, 8.2, …), and a chunk of its own running text stays a hit of
its own. Otherwise one hit would stand for a whole section while showing a tenth of it."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from jogak.model import Hit
from jogak.retrieve.scope import Entry, Scope

if TYPE_CHECKING:
    from jogak.retrieve.searchable import SearchableStore


def collapse(scope: Scope, entries: list[Entry]) -> list[Entry]:
    """``entries`` (best first) with every later chunk of an already-seen clause folded into the first."""
    if not scope.opts.collapse or not entries:
        return entries
    first: dict[tuple[str, str], Entry] = {}
    members: dict[int, list[Entry]] = {}
    out: list[Entry] = []
    for e in entries:
        key = _clause_key(scope, e.row)
        if key is None:
            out.append(e)
            continue
        head = first.get(key)
        if head is None:
            first[key] = e
            out.append(e)
        else:
            members.setdefault(id(head), [head]).append(e)
    return [_fold(members[id(e)]) if id(e) in members else e for e in out]


def _clause_key(scope: Scope, row: int) -> tuple[str, str] | None:
    """What a row collapses by: (document, clause), or (document, sub-clause) in a clause too long to be one
    (module docstring); None: the row stays a hit of its own."""
    lex = scope.lex
    clause, doc = lex.column("clause"), lex.column("doc_id")
    c = clause[row]
    if not c:
        return None
    key = (doc[row], c)
    limit = int(scope.opts.collapse_max_chunks or 0)
    if limit <= 0:
        return key
    sizes = lex.memo("clause_sizes", lambda: Counter(zip(doc, clause, strict=True)))
    if sizes[key] <= limit:
        return key
    path = lex.column("path")[row] or ""
    below = path[len(c) :].strip("/").split("/")[0] if c == "/" or path.startswith(c + "/") else ""
    return (doc[row], f"{c}/{below}") if below else None


def _leaf_vote(e: Entry, k: int = 60) -> float:
    return sum(1.0 / (k + e.scores[f"{m}_rank"]) for m in ("leaf_dense", "leaf_bm25") if f"{m}_rank" in e.scores)


def _fold(group: list[Entry]) -> Entry:
    """One entry for a clause: the member whose leaves matched best shown, at the group's best score."""
    head = group[0]
    shown = max(group, key=_leaf_vote) if any(_leaf_vote(e) for e in group) else head
    out = Entry(shown.row, shown.key, head.score, list(dict.fromkeys(m for e in group for m in e.matched)),
                via=shown.via, scores=dict(shown.scores), leaf=shown.leaf or head.leaf)
    out.also = [e.key for e in group if e is not shown]
    return out


def unfold(store: SearchableStore, hits: list[Hit]) -> list[Hit]:
    """Hits with the other chunks of each hit's clause (``Hit.also``) placed right after it, in document
    order — so a reader of the hits (the answerer) gets a long clause whole, not only the chunk that matched
    best. The added hits carry their clause hit's score and rank, ``matched`` ending in "clause_part"."""
    ids = [i for h in hits for i in h.also]
    if not ids:
        return hits
    got = {c.id: c for c in store.get_chunks(ids)}
    seen = {h.chunk.id for h in hits}
    out: list[Hit] = []
    for h in hits:
        out.append(h)
        parts = sorted((got[i] for i in h.also if i in got and i not in seen), key=lambda c: c.metadata.chunk_no)
        for c in parts:
            seen.add(c.id)
            out.append(Hit(c, h.score, rank=h.rank, matched=[*h.matched, "clause_part"], scores=dict(h.scores),
                           version=h.version))
    return out
