"""The lead of a list item or table row — the sentence that makes it readable ("다음 각 호의 어느 하나에 해당하는 자에게는
500만원 이하의 과태료를 부과한다.") — as units to quote with it."""

from __future__ import annotations

import re

from jogak.answer.generators.candidates import Candidate
from jogak.answer.units import Unit, normalise_ws

# A lead-in that announces a list or table ("… 다음과 같다.", "다음 각 호의 …"): never an answer alone.
_LEAD_IN = re.compile(r"(?:다음과\s*같(?:다|습니다)|아래와\s*같(?:다|습니다)|다음\s*각\s*(?:호|목)의?\s*"
                      r"(?:어느\s*하나에\s*해당하는\s*)?\S*\s*(?:같다|다음과)?|as\s+follows)[.:：]?\s*$", re.I)


def lead_units(c: Candidate, max_chars: int) -> list[Unit]:
    """The sentence(s) that introduce a list item or table row ("다음 표의 기간 안에 처리된다.")."""
    u = c.unit
    if u.kind not in ("item", "table_row") or not u.context:
        return []
    ctx = normalise_ws(u.context)
    if len(ctx) > max_chars:
        return []
    return [v for v in c.units if v.kind == "sentence" and v.end <= u.start and v.heading == u.heading
            and v.marker == u.marker and normalise_ws(v.text) in ctx]


def lead_quotes(c: Candidate, cands: list[Candidate], max_chars: int) -> list[tuple[int, Unit]]:
    """The lead of a list item or table row as quotes (excerpt number, unit): from its own excerpt
    (``lead_units``), else — a list the chunker cut, whose lead ended the chunk before (in the context: the item's
    excerpt carries it) — the lead sentence of that chunk, in the same clause, heading and paragraph."""
    own = lead_units(c, max_chars)
    if own or c.unit.kind != "item" or not c.unit.context or c.excerpt.carry is None:
        return [(c.excerpt.n, u) for u in own]
    ctx = normalise_ws(c.unit.context)
    if len(ctx) > max_chars:
        return []
    clause = c.excerpt.chunk.metadata.clause
    for x in cands:
        u = x.unit
        if (x.excerpt.n != c.excerpt.n and x.excerpt.chunk.metadata.clause == clause and clause is not None
                and u.kind == "sentence" and u.heading == c.unit.heading and u.marker == c.unit.marker
                and normalise_ws(u.text) in ctx):
            return [(x.excerpt.n, u)]
    return []


def is_lead_in(text: str) -> bool:
    """"등급별 기준과 하루포인트 적립률은 다음과 같다." — a sentence that only announces a list."""
    return bool(_LEAD_IN.search(text.strip()))
