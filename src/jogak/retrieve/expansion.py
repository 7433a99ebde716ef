"""Optional expansion: extra context after each hit — its neighbours in the document or the chunks that
share its parent node — not counted in k (``SearchOptions.expand``)."""

from __future__ import annotations

from jogak.retrieve import structural
from jogak.retrieve.scope import Entry, Scope, row_id


def expand(scope: Scope, final: list[Entry], placed: set[int]) -> list[Entry]:
    """``final`` with each hit's extra context right after it (rows already placed are not repeated)."""
    extra: dict[int, list[Entry]] = {}
    if scope.opts.expand in ("neighbours", "neighbors", "parent"):
        mode = "parent" if scope.opts.expand == "parent" else "neighbours"
        for e in final:
            for i in structural.neighbour_rows(scope.lex, e.row, mode, scope.mask):
                if i in placed:
                    continue
                placed.add(i)
                extra.setdefault(e.row, []).append(Entry(i, scope.lex.rows[i], 0.0, ["neighbour"],
                                                         via=row_id(e.key)))
    out: list[Entry] = []
    for e in final:
        out.append(e)
        out.extend(extra.get(e.row, []))
    return out
