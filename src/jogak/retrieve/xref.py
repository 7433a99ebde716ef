"""Cross-reference following while the top k is assembled: a hit whose chunk points elsewhere ("부록A
참조") is followed by the target node's chunks (``via`` = the pointer's id), also when the target was found
directly — then the target keeps its place and the pointer follows it — and a pointer is never returned
without its target. Targets are followed breadth first up to ``xref_depth``, ``xref_per_target`` chunks per
target node and ``xref_max`` per search."""

from __future__ import annotations

from jogak.grammar.laws import read_law_pointer
from jogak.retrieve import structural
from jogak.retrieve.lawlinks import law_target_rows
from jogak.retrieve.scope import Entry, Scope, row_id


def assemble(scope: Scope, ordered: list[Entry], by_row: dict[int, Entry]) -> tuple[list[Entry], set[int]]:
    """The top k entries with pointers and targets paired; also the rows placed (for expansion)."""
    a = _Assembly(scope, ordered, by_row)
    depth = scope.opts.xref_depth
    for e in ordered:
        if len(a.final) >= scope.k:
            break
        if e.row in a.placed:
            continue
        p = a.pointer_of.get(e.row)
        if a.pointers[e.row] or p is None or p.row in a.placed:
            # a pointer (or a plain hit): its targets follow it
            a.place([e, *a.targets_of(e, depth, {e.row})])
            continue
        # a target ranked above its pointer: it keeps its place and the pointer follows it, so the
        # answer and the clause that refers to it arrive together (via = the pointer, as for any xref hit)
        t = Entry(e.row, e.key, e.score, [*e.matched, "xref"], via=row_id(p.key), scores=e.scores)
        a.place([t, p, *a.targets_of(p, depth, {e.row, p.row})])
    return a.final, a.placed


class _Assembly:
    """The top k being filled: what is placed, the xref budget left, who points at what."""

    def __init__(self, scope: Scope, ordered: list[Entry], by_row: dict[int, Entry]) -> None:
        self.scope = scope
        self.ordered = ordered
        self.by_row = by_row
        self.pointers = scope.lex.column("pointers")
        self.doc_col = scope.lex.column("doc_id")
        self.rank_of = {e.row: j for j, e in enumerate(ordered)}
        self.final: list[Entry] = []
        self.placed: set[int] = set()
        self.budget = int(scope.opts.xref_max)
        self.pointer_of = self._pointer_index() if scope.opts.xref else {}

    def _targets(self, row: int, target: str) -> list[int]:
        other = read_law_pointer(target)  # a clause of another law: its document in this collection
        if other is not None:
            return law_target_rows(self.scope.lex, self.doc_col[row], *other, self.scope.mask)
        return structural.target_rows(self.scope.lex, self.doc_col[row], target, self.scope.mask)

    def _pointer_index(self) -> dict[int, Entry]:
        """Which well-ranked pointer points at a row (so a target found directly is shown with it)."""
        out: dict[int, Entry] = {}
        for e in self.ordered[: max(3 * self.scope.k, 20)]:
            for target in self.pointers[e.row] or []:
                for i in self._targets(e.row, target):
                    out.setdefault(i, e)
        return out

    def targets_of(self, p: Entry, depth: int, seen: set[int]) -> list[Entry]:
        """Chunks of the nodes ``p``'s pointer sentences point at, breadth first (direct targets, then
        what those point at), best-ranked first within a target, depth- and count-limited, deduplicated."""
        out: list[Entry] = []
        frontier = [p]
        for _ in range(max(0, depth) if self.scope.opts.xref else 0):
            nxt: list[Entry] = []
            for src in frontier:
                for target in self.pointers[src.row] or []:
                    nxt.extend(self._follow(src, target, seen))
            out.extend(nxt)
            frontier = nxt
            if not frontier:
                break
        return out

    def _follow(self, src: Entry, target: str, seen: set[int]) -> list[Entry]:
        """Up to ``xref_per_target`` chunks of one target node, within the search's budget."""
        rows = sorted(self._targets(src.row, target), key=lambda i: self.rank_of.get(i, len(self.ordered)))
        out: list[Entry] = []
        for i in rows:
            if len(out) >= self.scope.opts.xref_per_target or self.budget <= 0:
                break
            if i in seen or i in self.placed:
                continue
            seen.add(i)
            base = self.by_row.get(i)
            out.append(Entry(i, self.scope.lex.rows[i], base.score if base else src.score,
                             [*(base.matched if base else []), "xref"], via=row_id(src.key),
                             scores=dict(base.scores) if base else {}))
            self.budget -= 1
        return out

    def place(self, group: list[Entry]) -> None:
        room = self.scope.k - len(self.final)
        if room <= 0:
            return
        if room < len(group) and room == 1:
            # no room for a pointer and its target together: the target is the answer, not the pointer
            group = [g for g in group if not self.pointers[g.row]][:1] or group[:1]
        for g in group[:room]:
            self.final.append(g)
            self.placed.add(g.row)
