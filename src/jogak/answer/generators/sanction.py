"""A question about a sanction ("…하면 과태료가 얼마예요?", "…하면 어떤 처벌을 받아요?") is answered by the penalty
provision that punishes the breach it describes. The question's words describe the duty ("수강료를 안 돌려주고"),
which the excerpts' duty clause matches ("학습비 반환 등의 조치를 하여야 한다", 제28조④); the penalty provision
names that clause by number ("4. 제28조제4항을 위반하여 …한 자"), not always in words the question shares. So a
penalty item or sentence is lifted by how well the clause it cites answers the question: the item of the 과태료
article that punishes the breach asked about, not its neighbour punishing another."""

from __future__ import annotations

import re

from jogak.answer.generators.candidates import Candidate
from jogak.answer.units import chunk_segments
from jogak.grammar.laws import (
    PENALTY_HEADING_RE,
    article_number,
    asks_the_sanction,
    sanctions_asked,
    violated_clauses,
)
from jogak.grammar.numbering import circled

_PATH_ARTICLE = re.compile(r"(?:^|/)(제\d+조(?:의\d+)?)(?:/제(\d+)항)?")


def _doc(c: Candidate) -> str:
    md = c.excerpt.chunk.metadata
    return md.doc_id or md.source


def _clause(c: Candidate) -> tuple[str, str, str | None, str | None] | None:
    """(document, article label, paragraph marker or None, penalty kind or None) of the clause holding the
    unit — from the chunk's clause segments (a chunk continuing a long article holds no heading line), else
    from the unit's heading."""
    seg = next((sg for sg in reversed(chunk_segments(c.excerpt.chunk)) if sg.start <= c.unit.start), None)
    if seg is not None and (m := _PATH_ARTICLE.search(seg.path)):
        para = circled(int(m.group(2))) if m.group(2) else None
        pm = PENALTY_HEADING_RE.search(seg.cite) or PENALTY_HEADING_RE.search(c.unit.heading)
        return _doc(c), m.group(1), para, pm.group("kind") if pm else None
    if (n := article_number(c.unit.heading)) is not None:
        art = f"제{n[0]}조" + (f"의{n[1]}" if n[1] else "")
        pm = PENALTY_HEADING_RE.search(c.unit.heading)
        return _doc(c), art, c.unit.marker or None, pm.group("kind") if pm else None
    return None


def link_sanctions(question: str, cands: list[Candidate], weight: float) -> None:
    """Lift (in place) each unit of a penalty provision of the kind asked (``sanctions_asked``) that cites a clause of
    the same law as breached, when the question asks what the sanction is: to that clause's best score (the breach
    the question describes) plus ``weight`` × it — above the duty clause itself, which says what to do, not what
    follows a breach. Penalty provisions do not lift each other (a 양벌규정 citing the 벌칙 articles says nothing of
    which breach is punished)."""
    if weight <= 0 or not asks_the_sanction(question):
        return
    clauses = {id(c): _clause(c) for c in cands if c.unit.kind in ("item", "sentence")}
    kinds = sanctions_asked(question)
    penalty = [c for c in cands if (k := clauses.get(id(c))) is not None and k[3] in kinds]
    if not penalty:
        return
    if kinds[0] == "양벌" and any(clauses[id(c)][3] == "양벌" for c in penalty):  # type: ignore[index]
        _lift_employer_provision(cands, clauses, penalty, weight)
        return
    best: dict[tuple[str, str, str | None], float] = {}
    for c in cands:
        k = clauses.get(id(c))
        if k is None or k[3] or not c.unit.answerable:
            continue
        doc, art, para, _ = k
        for key in ((doc, art, para), (doc, art, None)):
            best[key] = max(best.get(key, 0.0), c.score)
    if not best:
        return
    for c in penalty:
        doc = clauses[id(c)][0]  # type: ignore[index]
        link = max((best.get((doc, art, circled(para) if para else None), 0.0)
                    for art, para in violated_clauses(c.unit.text)), default=0.0)
        if link > 0:
            c.score = round(max(c.score, link) + weight * link, 4)


def _lift_employer_provision(cands: list[Candidate], clauses: dict[int, tuple[str, str, str | None, str | None] | None],
                             penalty: list[Candidate], weight: float) -> None:
    """Whether the business is punished too for what its staff did is the 양벌규정's to say: its units go above the
    best unit of their law (the 벌칙 article or the duty clause matching the breach the question describes)."""
    for c in penalty:
        k = clauses[id(c)]
        if k is None or k[3] != "양벌":
            continue
        top = max((o.score for o in cands if o.unit.answerable and (ko := clauses.get(id(o))) is not None
                   and ko[0] == k[0]), default=0.0)
        if top > 0:
            c.score = round(max(c.score, top) + weight * top, 4)
