"""The note on another document that states the answer's rule too (issue 13, item 5): "…에도 같은 취지의
규정이 있습니다", "…에는 다르게 정해져 있습니다" or "…에도 관련 규정이 있습니다"."""

from __future__ import annotations

from jogak.answer.citations import locate
from jogak.answer.context import LABELS, Context
from jogak.answer.generators.base import DraftStatement, Quote
from jogak.answer.generators.candidates import Candidate
from jogak.answer.generators.leads import is_lead_in
from jogak.answer.generators.weights import ExtractiveWeights
from jogak.answer.morph import numbers
from jogak.answer.verify import SAME_TOPIC, disagree, topic_overlap
from jogak.grammar.laws import family_of, title_kind


def other_document(kept: list[Candidate], cands: list[Candidate],
                   w: ExtractiveWeights) -> tuple[Candidate, Candidate, str] | None:
    """Another document's unit that states the answer's rule too (a statute and the terms restating it):
    it scores at least ``other_doc_keep`` of the answer's best unit and talks about the same thing. An Act's
    own decree (or the Act of a decree answer) is noted only when the two agree or differ: merely "related"
    clauses of one law family were off the gold in 12 of 15 answers on used sets (a delegated detail the
    answer does not need, a63-13's compensation procedure after a 예방조치 answer); and two laws of different families
    only then too: a merely "related" article of another Act (its own 권한 위임 clause beside the asked Act's) is a
    parallel, not a statement of the rule the terms restate (the one such note on 21 used answer sets, a66-40, was off
    the gold)."""
    if not kept:
        return None
    docs = {(c.excerpt.chunk.metadata.doc_id or c.excerpt.chunk.metadata.source) for c in kept}
    best = max(kept, key=lambda c: c.score)
    for c in cands:
        md = c.excerpt.chunk.metadata
        if c.score < w.other_doc_keep * best.score:
            break
        if (md.doc_id or md.source) in docs or not c.unit.answerable or is_lead_in(c.unit.text):
            continue
        if topic_overlap(best.unit.text, c.unit.text) >= w.other_doc_overlap:
            kind = _note_kind(best, c)
            best_title = best.excerpt.chunk.metadata.doc_title or ""
            if kind == "other_related" and (family_of(md.doc_title or "") == family_of(best_title)
                                            or (title_kind(md.doc_title or "") != "other" and title_kind(best_title) != "other")):
                continue
            return best, c, kind
    return None


def _note_kind(best: Candidate, other: Candidate) -> str:
    """"other_same" when the two state the same figures for the same thing, "other_differs" when they state
    different ones (``verify.disagree``), and only "other_related" otherwise: a clause number or a bare figure
    in one of them is no evidence that two rules agree or differ, and a wrong "다르게" misleads more than no
    note (a used a13 answer claimed a difference between two unrelated rules of one decree)."""
    if disagree(best.unit.text, other.unit.text):
        return "other_differs"
    fb = {n for n in numbers(best.unit.text) if not n.isdigit()}
    fo = {n for n in numbers(other.unit.text) if not n.isdigit()}
    if fb and fb == fo and topic_overlap(best.unit.text, other.unit.text) >= SAME_TOPIC:
        return "other_same"
    return "other_related"


def other_document_note(best: Candidate, other: Candidate, key: str, context: Context) -> DraftStatement:
    """"반품교환환불정책 제3조 ①에도 같은 취지의 규정이 있습니다: …" (``_note_kind`` picks the wording)."""
    lab = LABELS[context.lang]
    clause = locate(other.excerpt.chunk, other.unit.start, other.unit.end, other.unit)
    where = f"{other.excerpt.chunk.metadata.doc_title} {clause.article}".strip()
    return DraftStatement(lab[key].format(doc=where, quote=other.unit.shown()),
                          [Quote(other.excerpt.n, other.unit)], note=True)
