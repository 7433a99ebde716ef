"""Choosing and composing the extractive answer: which scored units answer the question, and how they
are written out (order, list leads, attribution of appendix/footnote text, body-wins notes)."""

from __future__ import annotations

import re

from jogak.answer.citations import locate
from jogak.answer.context import LABELS, Context
from jogak.answer.generators.base import DraftStatement, Quote
from jogak.answer.generators.candidates import Candidate, same_doc
from jogak.answer.generators.weights import ExtractiveWeights
from jogak.answer.text import normalise_ws, refers
from jogak.answer.units import Unit
from jogak.answer.verify import disagree, topic_overlap

_LIST_LEAD = re.compile(r"다음\s*각\s*(?:호|목)|다음과\s*같|아래와\s*같|as\s+follows|the\s+following", re.I)
_PROVISO = re.compile(r"^\s*(?:다만|단,|단서)")
_LEAD_CAPTION = re.compile(r"^\d+(?:\.\d+)*\.?\s+[A-Z][\w'’ ,&/-]{0,60}\.\s+(?=[A-Z])")


def select(cands: list[Candidate], best: Candidate, w: ExtractiveWeights) -> list[Candidate]:
    """The units that answer: the best one, further ones that answer a part of the question the others
    leave open (or are its clause's siblings), the targets of pointers, whole lists and provisos."""
    chosen = [best]
    floor = max(w.threshold, w.relative_keep * best.score)
    q_cov = _covered(best)
    for c in cands:
        if len(chosen) >= w.max_units:
            break
        if c in chosen or not c.unit.answerable or c.score < floor:
            continue
        if any(_redundant(c, o, w.redundant_overlap) for o in chosen):
            continue
        # A further unit must answer a part of the question the others leave open.
        new_terms = _covered(c) - q_cov
        # ... or be a sibling of a chosen unit (same clause) that scores as well: a two-part question
        # ("언제 들어오고 언제까지 써야") is often answered by two paragraphs of one clause.
        sibling = any(o.excerpt.n == c.excerpt.n and o.unit.heading == c.unit.heading for o in chosen) \
            and c.score >= w.sibling_keep * best.score
        if not new_terms and not sibling:
            continue
        chosen.append(c)
        q_cov |= _covered(c)
    # A pointer in a chosen clause, or one that scores near the best answer, sends us to its target
    # excerpt(s): the answer is there, never in the pointer sentence itself (seed 004).
    for p in cands:
        if not (p.unit.pointer or (p in chosen and refers(p.unit.text))):
            continue
        near = p.score >= w.pointer_near * best.score
        same_clause = any(o.excerpt.n == p.excerpt.n and o.unit.heading == p.unit.heading for o in chosen)
        if not (near or same_clause):
            continue
        targets = [c for c in cands if _points_to(p, c) and c.unit.answerable
                   and c.score >= w.pointer_target_floor * w.threshold]
        if targets and targets[0] not in chosen:
            chosen.append(targets[0])
    return _complete_lists(chosen, cands, w)


def _complete_lists(chosen: list[Candidate], cands: list[Candidate], w: ExtractiveWeights) -> list[Candidate]:
    """An enumeration is answered whole: a chosen lead sentence ("다음 각 호의 업종…", "…as
    follows:") brings its items, and a chosen item brings its sibling items when they score alike
    (the question asks for the list, not one entry of it). Lists longer than ``list_max_items`` are
    left as they are."""
    out = list(chosen)
    # A rule's proviso ("다만, …") right after it in the same paragraph belongs to the rule: quoting
    # the rule without its exceptions would misstate it.
    for c in chosen:
        nxt = _next_unit(c, cands)
        if nxt is not None and nxt not in out and nxt.unit.answerable and _PROVISO.match(nxt.unit.text):
            out.append(nxt)
    for c in list(out):
        items = _list_items(c, cands)
        if not items or len(items) > w.list_max_items:
            continue
        if c.unit.kind == "item" and min(x.score for x in items) < w.list_keep * c.score:
            continue
        out.extend(x for x in items if x not in out and x.unit.answerable)
    return out


def compose(chosen: list[Candidate], cands: list[Candidate], context: Context,
            w: ExtractiveWeights) -> list[DraftStatement]:
    """The answer's statements: chosen units in order (best clause first, a clause's units together),
    led by their list or table lead, attributed when not from the body; a disagreeing appendix clause
    becomes a note that the body wins."""
    lab = LABELS[context.lang]
    # Body wins over a disagreeing appendix/footnote clause (seed 004).
    notes: list[DraftStatement] = []
    kept: list[Candidate] = []
    body_pool = [c for c in cands if c.excerpt.tier == "primary" and c.unit.answerable]
    for c in chosen:
        if c.excerpt.tier != "primary":
            rival = next((b for b in body_pool if same_doc(b, c) and disagree(b.unit.text, c.unit.text)),
                         None)
            if rival is not None:
                if rival not in kept and rival not in chosen:
                    kept.append(rival)
                body_clause = locate(rival.excerpt.chunk, rival.unit.start, rival.unit.end, rival.unit)
                where = _where(c, context.lang)
                notes.append(DraftStatement(
                    lab["body_wins"].format(appendix=where, quote=c.unit.display(),
                                            body=body_clause.article),
                    [Quote(c.excerpt.n, c.unit)], note=True))
                continue
        kept.append(c)
    order = {"primary": 0, "supplementary": 1, "background": 2}
    # Best clause first; the units of one clause (paragraph) stay together, in document order.
    group_best: dict[tuple, float] = {}
    for c in kept:
        g = _group(c)
        group_best[g] = max(group_best.get(g, 0.0), c.score)
    kept.sort(key=lambda c: (order[c.excerpt.tier], -group_best[_group(c)], c.excerpt.n, c.unit.start))
    out: list[DraftStatement] = []
    attributed: set[str] = set()
    for c in kept:
        for lead in _lead_units(c, w.max_lead_chars):
            if not any(normalise_ws(lead.text) == normalise_ws(s.text) for s in out):
                out.append(DraftStatement(normalise_ws(lead.text), [Quote(c.excerpt.n, lead)]))
        text = c.unit.display()
        if c.excerpt.tier != "primary":
            where = _where(c, context.lang)
            if where not in attributed:
                attributed.add(where)
                text = _attribute(text, where, context.lang)
        out.append(DraftStatement(text, [Quote(c.excerpt.n, c.unit)]))
    return out + notes


def _where(c: Candidate, lang: str) -> str:
    lab = LABELS[lang]
    if c.excerpt.tier == "background":
        return lab["footnote_where"]
    clause = locate(c.excerpt.chunk, c.unit.start, c.unit.end, c.unit)
    for cand in (clause.article, c.excerpt.chunk.metadata.path or "", c.excerpt.chunk.metadata.article):
        first = cand.split("/")[0].split(" ")[0] if lang == "ko" else " ".join(cand.split("/")[0].split(" ")[:2])
        if first.startswith(("부록", "별표", "별지", "Schedule", "Exhibit", "Annex", "Appendix")):
            return first
    return lab["appendix_where"]


def _attribute(text: str, where: str, lang: str) -> str:
    text = _LEAD_CAPTION.sub("", text, count=1) or text
    if lang == "ko":
        return f"{where}에 따르면 {text}"
    lowered = text[0].lower() + text[1:] if len(text) > 1 and text[1].islower() else text
    return f"According to {where}, {lowered}"


def _points_to(pointer: Candidate, c: Candidate) -> bool:
    """Whether ``c`` sits in a target of ``pointer``'s chunk: followed by the retriever (``via``) or
    named in the pointer chunk's ``refs`` (same document)."""
    if c.excerpt.n == pointer.excerpt.n:
        return False
    if c.excerpt.via == pointer.excerpt.n:
        return True
    if not same_doc(pointer, c):
        return False
    path = c.excerpt.chunk.metadata.path or ""
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in pointer.excerpt.chunk.metadata.refs
               if r)


def _next_unit(c: Candidate, cands: list[Candidate]) -> Candidate | None:
    """The unit right after ``c`` in its excerpt, when it is in the same paragraph."""
    later = [x for x in cands if x.excerpt.n == c.excerpt.n and x.unit.start >= c.unit.end]
    if not later:
        return None
    nxt = min(later, key=lambda x: x.unit.start)
    gap = c.excerpt.text[c.unit.end:nxt.unit.start]
    if nxt.unit.heading != c.unit.heading or nxt.unit.marker != c.unit.marker or gap.count("\n") > 1:
        return None
    return nxt


def _group(c: Candidate) -> tuple:
    return (c.excerpt.n, c.unit.heading, c.unit.marker)


def _list_items(c: Candidate, cands: list[Candidate]) -> list[Candidate]:
    """The items of the list ``c`` belongs to (an item) or introduces (a lead sentence), in order."""
    u = c.unit
    if u.kind == "item":
        key = (u.heading, u.marker, u.context)
        items = [x for x in cands if x.excerpt.n == c.excerpt.n and x.unit.kind == "item"
                 and (x.unit.heading, x.unit.marker, x.unit.context) == key]
    elif u.kind == "sentence" and _LIST_LEAD.search(u.text):
        lead = normalise_ws(u.text)
        items = [x for x in cands if x.excerpt.n == c.excerpt.n and x.unit.kind == "item"
                 and x.unit.heading == u.heading and x.unit.marker == u.marker and x.unit.start > u.start
                 and lead in normalise_ws(x.unit.context)]
    else:
        return []
    return sorted(items, key=lambda x: x.unit.start)


def _covered(c: Candidate) -> set[str]:
    return set(c.matched)


def _redundant(a: Candidate, b: Candidate, overlap: float) -> bool:
    if a.key == b.key:
        return True
    ta = normalise_ws(a.unit.text)
    tb = normalise_ws(b.unit.text)
    if ta in tb or tb in ta:
        return True
    return topic_overlap(a.unit.text, b.unit.text) >= overlap


def _lead_units(c: Candidate, max_chars: int) -> list[Unit]:
    """The sentence(s) that introduce a list item or table row ("다음 표의 기간 안에 처리된다.")."""
    u = c.unit
    if u.kind not in ("item", "table_row") or not u.context:
        return []
    ctx = normalise_ws(u.context)
    if len(ctx) > max_chars:
        return []
    return [v for v in c.units if v.kind == "sentence" and v.end <= u.start and v.heading == u.heading
            and v.marker == u.marker and normalise_ws(v.text) in ctx]
