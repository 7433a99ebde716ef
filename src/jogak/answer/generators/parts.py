"""A question that asks several things ("몇 명이 한 팀이고 얼마나 자주 둬요?"): a part that asks for a figure or a
time the chosen answer does not state is answered by the part's own best unit, when that unit states it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from jogak.answer.generators.candidates import Candidate, same_doc
from jogak.answer.generators.fit import asks_a_type
from jogak.answer.generators.selection import complete
from jogak.answer.generators.weights import ExtractiveWeights


def typed_parts(parts: Sequence[tuple[str, Candidate]], chosen: list[Candidate], cands: list[Candidate],
                fits: Callable[[str, list[Candidate]], bool], w: ExtractiveWeights,
                wants_list: bool = False) -> list[Candidate]:
    """``chosen`` with, for each part (its words, its own best unit) that asks for a figure, a time, a count
    or a cycle (``asks_a_type``) the chosen units do not state, that unit — when it states what the part asks,
    scores ``threshold`` on the part, and comes from the document of the answer's leading unit. ``fits(part,
    units)``: the units state what the part asks, about what it asks it of (its type and its focus). ``selection.
    select`` lets a part's unit join only from a chosen unit's clause: a part asking "how much" is often
    answered by another clause (a fee table, a later article), and a figure is checkable where a plain
    "can I" part is not (an untyped part from another clause cited the wrong rule as often as the right one:
    measured in session 40)."""
    if not chosen:
        return chosen
    out = list(chosen)
    for words, own in parts:
        if own.score < w.threshold or not asks_a_type(words):
            continue
        c = next((x for x in cands if x.key == own.key), None)
        if c is None or c in out or not c.unit.answerable or not same_doc(c, out[0]):
            continue
        if fits(words, out) or not fits(words, [c]):
            continue
        out = complete([*out, c], cands, w, wants_list)
    return out
