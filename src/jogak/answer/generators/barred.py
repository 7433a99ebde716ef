"""A question asking who cannot get or be something ("화물 운송 사업 허가를 못 받는 사람은 어떤 사람들이에요?") is answered
by a 결격사유 article ("다음 각 호의 어느 하나에 해당하는 자는 제3조제1항에 따른 … 허가를 받을 수 없다"). Its words are
the licence's (허가, 운송사업) and so are the licence clause's, which says who must get the licence, not who cannot;
the heading that tells them apart ("결격사유") is a word no asker uses. So when the question asks who is barred, a
unit under a 결격사유 heading is lifted by ``weight`` × its score — and a sentence of it naming the licence clause
("제3조제1항에 따른 허가") at least to that clause's best score plus ``weight`` × it: the clause the question's words
describe bars through this article (retrieval brings it: ``jogak.retrieve.disqualification``)."""

from __future__ import annotations

from jogak.answer.generators.candidates import Candidate
from jogak.grammar.laws import (
    DISQUALIFICATION_HEADING_RE,
    article_number,
    asks_who_is_barred,
    violated_clauses,
)


def _doc(c: Candidate) -> str:
    md = c.excerpt.chunk.metadata
    return md.doc_id or md.source


def lift_barred(question: str, cands: list[Candidate], weight: float) -> None:
    """Lift (in place) the units of 결격사유 articles when the question asks who is barred (see the module)."""
    if weight <= 0 or not asks_who_is_barred(question):
        return
    barred = [c for c in cands if DISQUALIFICATION_HEADING_RE.match(c.unit.heading.strip())]
    if not barred:
        return
    best: dict[tuple[str, tuple[int, int]], float] = {}
    for c in cands:
        art = article_number(c.unit.heading)
        if art is not None and c not in barred and c.unit.answerable:
            best[(_doc(c), art)] = max(best.get((_doc(c), art), 0.0), c.score)
    for c in barred:
        link = 0.0
        if c.unit.kind == "sentence":
            link = max((best.get((_doc(c), n), 0.0) for label, _ in violated_clauses(c.unit.text)
                        if (n := article_number(label)) is not None), default=0.0)
        c.score = round(max(c.score, link) * (1.0 + weight), 4)
