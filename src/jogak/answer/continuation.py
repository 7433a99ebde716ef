"""Lists read whole: a hit whose chunk ends or starts inside a list brings the chunk of its clause that
holds the rest of the list.

The chunker cuts a long clause where the size limit falls, and 6 % of the chunk boundaries of 232 statutes
fall inside a list (청소년 기본법 제21조 ④: its lead and items 1–3 in one chunk, items 4–5 in the next).
Retrieval returns the chunk that matched best, so the answer to "청소년지도사가 될 수 없는 사람은?" listed
items 1 and 3 and stopped, saying nothing of it. Here, after retrieval and before the excerpts are laid
out (``answer.context`` then reads each chunk under the clause it continues: ``Excerpt.carry``):

- a hit whose chunk ends inside a list (its last unit an item or a list's lead) brings the next chunk of
  its clause when that one goes on with the list, and so on, up to ``MAX_FOLLOW`` chunks;
- a hit whose chunk starts with an item brings the chunk before it (the list's lead and first items).

At most ``MAX_ADDED`` chunks join a question's hits, for the best-ranked hits first: each one takes room
in the prompt budget. Neighbours are found by the store's ids (``{doc_id}-{chunk_no:03d}``,
``jogak.chunk.base``) and must hold the same clause (``metadata.clause``, recorded at cut time).
"""

from __future__ import annotations

from typing import Any

from jogak.answer.text import is_annotation
from jogak.answer.units import Carry, Unit, chunk_end, chunk_units, in_clauses
from jogak.chunk.base import neighbour_id
from jogak.grammar.patterns import LIST_LEAD_RE
from jogak.model import Chunk, Hit

MAX_FOLLOW = 3  # chunks a list may run on into, after (or before) the hit's own
MAX_ADDED = 4  # chunks added to one question's hits
LIST_PART = "list_part"  # the ``matched`` tag of an added chunk


def follow_lists(store: Any, hits: list[Hit], max_added: int = MAX_ADDED) -> list[Hit]:
    """``hits`` with the chunks that finish or begin the lists their chunks cut through, each placed right
    after the hit it completes, with that hit's score and rank (``matched`` ending in ``list_part``)."""
    if not hits or max_added <= 0 or not hasattr(store, "get_chunks"):
        return hits
    have = {h.chunk.id: h.chunk for h in hits}
    cache: dict[str, Chunk | None] = {}
    added: dict[str, list[Chunk]] = {}
    budget = max_added
    for h in hits:
        if budget <= 0:
            break
        if LIST_PART in h.matched or not in_clauses(h.chunk):
            continue
        extra = _list_chunks(store, h.chunk, have, cache, budget)
        for c in extra:
            have[c.id] = c
        budget -= len(extra)
        if extra:
            added[h.chunk.id] = extra
    if not added:
        return hits
    out: list[Hit] = []
    for h in hits:
        out.append(h)
        for c in added.get(h.chunk.id, []):
            out.append(Hit(c, h.score, rank=h.rank, matched=[*h.matched, LIST_PART], scores=dict(h.scores),
                           version=h.version))
    return out


def _list_chunks(store: Any, chunk: Chunk, have: dict[str, Chunk], cache: dict[str, Chunk | None],
                 budget: int) -> list[Chunk]:
    """The chunks of ``chunk``'s clause that hold the rest of a list it cuts through (not in ``have``)."""
    out: list[Chunk] = []
    carry = _carry_of(store, chunk, have, cache)
    own = units = _body(chunk_units(chunk, carry))
    # backwards: the chunk opens with an item, so its list's lead is in the chunk before
    cur = chunk
    while units and units[0].kind == "item" and len(out) < min(budget, MAX_FOLLOW):
        prev = _neighbour(store, cur, -1, cache)
        if prev is None:
            break
        if prev.id not in have:
            out.append(prev)
        cur, units = prev, _body(chunk_units(prev, _carry_of(store, prev, have, cache)))
    # forwards: the chunk ends inside a list and the next chunk goes on with it
    cur, end, tail, steps = chunk, chunk_end(chunk, carry), own, 0
    while tail and _open_list(tail[-1]) and steps < MAX_FOLLOW and len(out) < budget:
        nxt = _neighbour(store, cur, 1, cache)
        if nxt is None:
            break
        nxt_units = _body(chunk_units(nxt, end))
        if not nxt_units or nxt_units[0].kind != "item":
            break
        if nxt.id not in have:
            out.append(nxt)
        cur, end, tail, steps = nxt, chunk_end(nxt, end), nxt_units, steps + 1
    return out


def _carry_of(store: Any, chunk: Chunk, have: dict[str, Chunk], cache: dict[str, Chunk | None]) -> Carry | None:
    """What is open where ``chunk`` starts, read from the chunk before it when that one is at hand."""
    prev = _neighbour(store, chunk, -1, cache, fetch=False, have=have)
    return chunk_end(prev) if prev is not None else None


def _neighbour(store: Any, chunk: Chunk, step: int, cache: dict[str, Chunk | None], fetch: bool = True,
               have: dict[str, Chunk] | None = None) -> Chunk | None:
    """The chunk ``step`` places from ``chunk`` in its document, when it holds the same clause."""
    md = chunk.metadata
    cid = neighbour_id(chunk, step)
    if cid is None:
        return None
    if have is not None and cid in have:
        got: Chunk | None = have[cid]
    elif cid in cache:
        got = cache[cid]
    elif fetch:
        found = store.get_chunks([cid])
        got = cache[cid] = found[0] if found else None
    else:
        return None
    if got is None or got.metadata.clause != md.clause or got.metadata.doc_id != md.doc_id:
        return None
    return got


def _body(units: list[Unit]) -> list[Unit]:
    """The units a list is made of: no headings, no revision notes ("<개정 2020.5.19>")."""
    return [u for u in units if u.kind != "heading" and not is_annotation(u.text)]


def _open_list(u: Unit) -> bool:
    """Whether a chunk's last unit leaves a list open: an item, or a sentence that announces one."""
    return u.kind == "item" or (u.kind == "sentence" and bool(LIST_LEAD_RE.search(u.text)))
