"""Choosing and composing the extractive answer: which scored units answer the question, and how they
are written out (order, list leads, attribution of appendix/footnote text, body-wins notes)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from jogak.answer.citations import locate
from jogak.answer.context import LABELS, Context
from jogak.answer.generators.base import DraftStatement, Quote
from jogak.answer.generators.candidates import Candidate, same_doc
from jogak.answer.generators.leads import is_lead_in, lead_quotes
from jogak.answer.generators.other_doc import other_document, other_document_note
from jogak.answer.generators.pointer import delegated_details
from jogak.answer.generators.weights import ExtractiveWeights
from jogak.answer.text import normalise_ws, refers
from jogak.answer.units import in_clauses
from jogak.answer.verify import disagree, topic_overlap
from jogak.grammar.patterns import ANY_OF_LEAD_RE, DOCUMENT_KIND_WORDS
from jogak.grammar.patterns import LIST_LEAD_RE as LIST_LEAD

_ITEM_MARK_ONLY = re.compile(r"\s*(?:\(?[0-9가-힣a-zA-Z]{1,3}[.)]|[①-⑳])?\s*")  # what parts a lead from its item 1
_PROVISO = re.compile(r"^\s*(?:다만|단,|단서)")
# The sentence that qualifies the one before it ("…과태료를 부과한다. 이 경우 그 금액이 3천만원을 초과하는 경우에는
# 3천만원으로 한다."): the rule's second half (후단), as much a part of it as a proviso
_QUALIFIER = re.compile(r"^\s*이\s*경우(?:에는|에도|에)?\s")
_LABEL_START = re.compile(r"^\s*(?:\d+(?:의\d+)?\.|[가-하]\.|\(\d+\)|\d+\)|[①-⑳])\s")
# A later paragraph that limits an earlier one ("③ 제2항에도 불구하고 …", "제1항의 경우 …", "전항의 …").
_LIMITS_PARA = re.compile(r"^\s*(?:제\s*(?P<n>\d+)\s*항(?:에도\s*불구하고|의\s*경우|에\s*따른)|전\s*항)")
# A paragraph stating the basis or period the rest of its clause is measured on ("회원 등급은 직전 3개월
# 동안의 실결제액을 기준으로 …"): it changes what the later paragraphs' numbers mean.
_BASIS = re.compile(r"(?:을|를)\s*기준으로|기준\s*기간|동안의|동안을")
_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"
_LEAD_CAPTION = re.compile(r"^\d+(?:\.\d+)*\.?\s+[A-Z][\w'’ ,&/-]{0,60}\.\s+(?=[A-Z])")


def select(cands: list[Candidate], best: Candidate, w: ExtractiveWeights,
           wants_list: bool = False, parts: Sequence[Candidate] = ()) -> list[Candidate]:
    """The units that answer: the best one, further ones that answer a part of the question the others
    leave open (or are its clause's siblings), the targets of pointers, whole lists and provisos
    (``wants_list``: the question asks for an enumeration, see ``complete``)."""
    chosen = [best]
    q_cov = _covered(best)
    for c in cands:
        if len(chosen) >= w.max_units:
            break
        if c in chosen or not c.unit.answerable:
            continue
        # A further unit must answer a part of the question the others leave open, scoring near the best
        # (relative_keep) … or be a sibling of a chosen unit (same clause) scoring sibling_keep of it: a
        # two-part question ("언제 들어오고 언제까지 써야") or a rule and what follows from it ("신고할 수
        # 있다" → "확인하여 … 돌려 준다") is often answered by two paragraphs of one clause.
        sibling = any(o.excerpt.n == c.excerpt.n and o.unit.heading == c.unit.heading for o in chosen)
        keep = min(w.relative_keep, w.sibling_keep) if sibling else w.relative_keep
        if c.score < max(w.threshold, keep * best.score):
            continue
        if any(_redundant(c, o, w.redundant_overlap) for o in chosen):
            continue
        if wants_list and c.unit.kind == "item" and not same_doc(c, best):
            continue  # a question asking for a list: another document's list (made whole below) is not it
        new_terms = _covered(c) - q_cov - DOCUMENT_KIND_WORDS  # "법" of "법적으로" is no part of the question
        if not new_terms and not (sibling and c.score >= w.sibling_keep * best.score):
            continue
        chosen.append(c)
        q_cov |= _covered(c)
    # each part of a question that asks several things brings its own best unit when that unit belongs to a
    # chosen unit's clause: the second paragraph of a clause often answers the second question
    for p in parts:
        c = next((x for x in cands if x.key == p.key), None)
        if c is not None and c not in chosen and c.unit.answerable and any(group_of(o) == group_of(c) for o in chosen):
            chosen.append(c)
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
    # A question asking for an enumeration is answered by a list: when no chosen unit belongs to one, the
    # best list (its lead sentence or an item) scoring near the best answer joins, and comes whole.
    if wants_list and not any(_list_items(c, cands) for c in chosen):
        lst = next((c for c in cands if c.unit.answerable and c.score >= w.list_switch * best.score
                    and c not in chosen and _list_items(c, cands)
                    and (not w.list_switch_same_clause or group_of(c) == group_of(best))), None)
        if lst is not None:
            chosen.append(lst)
    return complete(chosen, cands, w, wants_list)


def select_filled(cands: list[Candidate], best: Candidate, w: ExtractiveWeights, wants_list: bool,
                  parts: Sequence[Candidate], focus: list[str], info: dict) -> list[Candidate]:
    """``select``, and what a chosen clause leaves to a decree, stated there, when the question's ``focus`` is
    there and in no chosen unit (``pointer.delegated_details``; ``info["delegated"]`` says it joined)."""
    out = select(cands, best, w, wants_list, parts)
    if details := delegated_details(focus, out, cands, w.pointer_target_floor * w.threshold):
        info["delegated"] = True
        return complete([*out, *details], cands, w, wants_list)
    return out


def complete(chosen: list[Candidate], cands: list[Candidate], w: ExtractiveWeights,
             wants_list: bool = False, most: int | None = None) -> list[Candidate]:
    """An enumeration is answered whole: a chosen lead sentence ("다음 각 호의 업종…", "…as
    follows:") brings its items, and a chosen item brings its sibling items when they score alike
    (the question asks for the list, not one entry of it). Lists longer than ``list_max_items`` are
    left as they are. When the question itself asks for an enumeration (``wants_list``: "어떤 것들이
    있나요", "what are the …"), a chosen item brings all its siblings however they score, up to
    ``list_max_items_asked`` (or ``most``): a list answer that drops entries misstates the list."""
    out = list(chosen)
    # A rule's proviso ("다만, …") later in the same paragraph belongs to the rule: quoting the rule
    # without its exceptions would misstate it. A proviso qualifies its paragraph's main text, so one a
    # sentence or two further on comes too, with the sentences between (never the proviso alone after
    # the rule, which would pin another sentence's exception on it).
    for c in chosen:
        for x in _proviso_run(c, cands, w.proviso_reach):
            if x not in out:
                out.append(x)
        # ... and a proviso never comes without the rule it qualifies (the sentence before it)
        prev = _previous_unit(c, cands) if _PROVISO.match(c.unit.text) or _QUALIFIER.match(c.unit.text) else None
        if prev is not None and prev not in out and prev.unit.answerable:
            out.append(prev)
        # ... and so do the conditions its clause states elsewhere: a later paragraph that limits this
        # one, and the paragraph that sets the basis or period the clause is measured on.
        for extra in _conditions(c, cands):
            if extra not in out:
                out.append(extra)
    if most is None:
        most = w.list_max_items_asked if wants_list else w.list_max_items
    for c in list(out):
        items = _list_items(c, cands) or (_table_rows(c, cands) if wants_list else [])
        if not items or len(items) > most:
            continue
        # an item of a list that holds together (its lead offers no alternatives) brings its siblings
        # however they score; an item of an "어느 하나에 해당하는" list answers alone
        holds = bool(c.unit.context) and LIST_LEAD.search(c.unit.context) and not ANY_OF_LEAD_RE.search(c.unit.context)
        if (c.unit.kind == "item" and not wants_list and not holds
                and min(x.score for x in items) < w.list_keep * c.score):
            continue
        out.extend(x for x in items if x not in out and x.unit.answerable)
    return out


def compose(chosen: list[Candidate], cands: list[Candidate], context: Context,
            w: ExtractiveWeights) -> list[DraftStatement]:
    """The answer's statements: chosen units in order (the clause of the answer's own best unit first, then
    by their best score, a clause's units together), led by their list or table lead, attributed when not
    from the body; a disagreeing appendix clause becomes a note that the body wins."""
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
                    lab["body_wins"].format(appendix=where, quote=c.unit.shown(),
                                            body=body_clause.article),
                    [Quote(c.excerpt.n, c.unit)], note=True))
                continue
        kept.append(c)
    order = {"primary": 0, "supplementary": 1, "background": 2}
    # Best clause first; the units of one clause (paragraph) stay together, in document order.
    group_best: dict[tuple, float] = {}
    group_first: dict[tuple, int] = {}
    for c in kept:
        g = group_of(c)
        group_best[g] = max(group_best.get(g, 0.0), c.score)
        group_first[g] = min(group_first.get(g, c.excerpt.n), c.excerpt.n)
    # the answer's own best unit (chosen first: the one that fits when a higher-scoring unit does not) leads
    lead = group_of(chosen[0]) if chosen else None
    kept.sort(key=lambda c: (order[c.excerpt.tier], group_of(c) != lead, -group_best[group_of(c)], group_first[group_of(c)],
                             _position(c)))
    out: list[DraftStatement] = []
    attributed: set[str] = set()
    for c in kept:
        for n, lead in lead_quotes(c, cands, w.max_lead_chars):
            if not any(normalise_ws(lead.text) == normalise_ws(s.text) for s in out):
                out.append(DraftStatement(normalise_ws(lead.text), [Quote(n, lead)]))
        text = c.unit.shown()
        if c.excerpt.tier != "primary":
            where = _where(c, context.lang)
            if where not in attributed:
                attributed.add(where)
                text = _attribute(text, where, context.lang)
        out.append(DraftStatement(text, [Quote(c.excerpt.n, c.unit)]))
    other = other_document(kept, cands, w)
    if other is not None:
        notes.append(other_document_note(*other, context))
    return _without_dangling_leads(out) + notes


def _without_dangling_leads(statements: list[DraftStatement]) -> list[DraftStatement]:
    """A lead-in ("… 다음과 같다.") stays only when an item or row of its list follows it."""
    keep: list[DraftStatement] = []
    for i, s in enumerate(statements):
        u = s.quotes[0].unit if s.quotes else None
        if u is not None and u.kind == "sentence" and is_lead_in(u.text):
            lead = normalise_ws(u.text)
            if not any(t.quotes and t.quotes[0].unit.kind in ("item", "table_row")
                       and lead in normalise_ws(t.quotes[0].unit.context) for t in statements[i + 1:]):
                continue
        keep.append(s)
    return keep


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


def _proviso_run(c: Candidate, cands: list[Candidate], reach: int) -> list[Candidate]:
    """The sentences after ``c`` in its paragraph up to and including the first proviso among the next
    ``reach`` units; [] when none of them is one (or a list item comes first: a proviso after a list
    belongs to the list's lead, which ``complete`` reads with its items) — but the "이 경우 …" sentences right after
    ``c`` (its 후단) in any case."""
    run: list[Candidate] = []
    qualified: list[Candidate] = []  # a "이 경우 …" sentence right after the unit comes whatever follows
    cur = c
    for step in range(max(0, reach)):
        nxt = _next_unit(cur, cands)
        if nxt is None or nxt.unit.kind != "sentence" or not nxt.unit.answerable:
            return qualified
        # beyond a proviso right after the unit, only on the paragraph's own line: a new line (a 목 the splitter
        # read as a sentence, "다. 우유류판매업: …") is another provision, whose proviso is its own
        proviso = bool(_PROVISO.match(nxt.unit.text))
        qualifier = step == len(qualified) and bool(_QUALIFIER.match(nxt.unit.text))
        if (step or not (proviso or qualifier)) and ("\n" in c.excerpt.text[cur.unit.end:nxt.unit.start]
                                                     or _LABEL_START.match(nxt.unit.text)):
            return qualified
        run.append(nxt)
        if proviso:
            return run
        if qualifier:
            qualified = list(run)
        cur = nxt
    return qualified


def _next_unit(c: Candidate, cands: list[Candidate]) -> Candidate | None:
    """The unit right after ``c`` in its excerpt, when it is in the same paragraph."""
    return _adjacent_unit(c, cands, after=True)


def _previous_unit(c: Candidate, cands: list[Candidate]) -> Candidate | None:
    """The unit right before ``c`` in its excerpt, when it is in the same paragraph."""
    return _adjacent_unit(c, cands, after=False)


def _adjacent_unit(c: Candidate, cands: list[Candidate], after: bool) -> Candidate | None:
    same = [x for x in cands if x.excerpt.n == c.excerpt.n]
    if after:
        side = [x for x in same if x.unit.start >= c.unit.end]
        other = min(side, key=lambda x: x.unit.start) if side else None
    else:
        side = [x for x in same if x.unit.end <= c.unit.start]
        other = max(side, key=lambda x: x.unit.start) if side else None
    if other is None:
        return None
    first, second = (c, other) if after else (other, c)
    gap = c.excerpt.text[first.unit.end:second.unit.start]
    if other.unit.heading != c.unit.heading or other.unit.marker != c.unit.marker or gap.count("\n") > 1:
        return None
    return other


def _run(c: Candidate) -> tuple[str, str]:
    """The text a unit reads in: its clause, when the chunker recorded one (a long clause's chunks are
    excerpts of one text: ``answer.continuation``), else its excerpt."""
    md = c.excerpt.chunk.metadata
    return (md.doc_id, md.clause or "") if in_clauses(c.excerpt.chunk) else ("", str(c.excerpt.n))


def _position(c: Candidate) -> tuple[int, int]:
    """Where a unit stands in its run: by chunk, then offset (one excerpt: its offset)."""
    return (c.excerpt.chunk.metadata.chunk_no, c.unit.start)


def group_of(c: Candidate) -> tuple:
    # a clause's paragraphs stay together, in document order (a condition in ① next to the rule in ②)
    return (_run(c), c.unit.heading)


def _list_items(c: Candidate, cands: list[Candidate]) -> list[Candidate]:
    """The items of the list ``c`` belongs to (an item) or introduces (a lead sentence), in order — also
    those in another chunk of the same clause (a list the chunker cut through), each item once."""
    u = c.unit
    run = _run(c)
    if u.kind == "item":
        key = (u.heading, u.marker, u.context)
        items = [x for x in cands if _run(x) == run and x.unit.kind == "item"
                 and (x.unit.heading, x.unit.marker, x.unit.context) == key]
    elif u.kind == "sentence":
        lead = normalise_ws(u.text)
        items = sorted((x for x in cands if _run(x) == run and x.unit.kind == "item"
                        and x.unit.heading == u.heading and x.unit.marker == u.marker and _position(x) > _position(c)
                        and lead in normalise_ws(x.unit.context)), key=_position)
        # without "다음 각 호 / 다음과 같다" a sentence leads the list only when the list follows it at once
        # ("다음 사항을 적은 설명서를 주고 설명한다." + 1., 2., …): the last sentence before item 1
        if items and not LIST_LEAD.search(u.text) and (
                items[0].excerpt.n != c.excerpt.n
                or not _ITEM_MARK_ONLY.fullmatch(c.excerpt.text[u.end:items[0].unit.start])):
            return []
    else:
        return []
    out: list[Candidate] = []
    seen: set[tuple[str, str]] = set()
    for x in sorted(items, key=_position):
        mark = (x.unit.item, normalise_ws(x.unit.text))
        if mark not in seen:  # overlapping chunks hold some items twice
            seen.add(mark)
            out.append(x)
    return out


def _table_rows(c: Candidate, cands: list[Candidate]) -> list[Candidate]:
    """For a question asking for a list, the rows a table row answers with: the rows of its table that share
    its first cell when that cell groups some of them ("관리비 | 청소비와 경비비", "관리비 | 승강기 유지비" under
    "어떤 항목들이 들어가요?"), else every row of the table, in order; none for other units."""
    u = c.unit
    if u.kind != "table_row" or not u.cells:
        return []
    rows = [x for x in cands if x.excerpt.n == c.excerpt.n and x.unit.kind == "table_row" and x.unit.cells
            and x.unit.heading == u.heading and x.unit.header_cells == u.header_cells]
    group = [x for x in rows if x.unit.cells[0] == u.cells[0]]
    if 1 < len(group) < len(rows):
        rows = group
    return sorted(rows, key=lambda x: x.unit.start) if len(rows) > 1 else []


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


def clause_key(c: Candidate) -> tuple[str, str, str]:
    """A unit's clause (paragraph): its document, heading and paragraph marker."""
    md = c.excerpt.chunk.metadata
    return (md.doc_id or md.source, c.unit.heading, c.unit.marker)


def related_units(cands: list[Candidate], w: ExtractiveWeights, most: int | None = None) -> list[Candidate]:
    """The best unit of each of the ``related_max`` (or ``most``) best clauses scoring at least ``related_floor``
    (``cands`` best first): what a reader is shown as "관련 조항" when the answerer is not sure."""
    out: list[Candidate] = []
    seen: set[tuple[str, str, str]] = set()
    for c in cands:
        if c.score < w.related_floor:
            break
        if not c.unit.answerable or is_lead_in(c.unit.text) or clause_key(c) in seen:
            continue
        seen.add(clause_key(c))
        out.append(c)
        if len(out) >= (w.related_max if most is None else most):
            break
    return out


def whole_paragraph(c: Candidate, cands: list[Candidate], most: int) -> list[Candidate]:
    """The answerable units of ``c``'s 항 (same excerpt, heading and paragraph marker; an unnumbered article's
    units when it has no marker), in order, at most ``most`` of them — none when ``most`` is 0 or the
    paragraph is longer (a long 항 is not shown whole: its best unit and what travels with it stand)."""
    if most <= 0:
        return []
    same = sorted((x for x in cands if x.excerpt.n == c.excerpt.n and x.unit.heading == c.unit.heading
                   and x.unit.marker == c.unit.marker and x.unit.answerable), key=lambda x: x.unit.start)
    return same if len(same) <= most else []


def whole_article(c: Candidate, cands: list[Candidate], most: int) -> list[Candidate]:
    """The answerable units of ``c``'s article in its excerpt, in order — none when there are more than ``most``,
    or when it is a table (a table's rows go by their group: ``complete``)."""
    if most <= 0:
        return []
    same = sorted((x for x in cands if x.excerpt.n == c.excerpt.n and x.unit.heading == c.unit.heading
                   and x.unit.answerable), key=lambda x: x.unit.start)
    return same if len(same) <= most and not any(x.unit.kind == "table_row" for x in same) else []


def _paragraph_no(marker: str) -> int:
    return _CIRCLED.index(marker) + 1 if marker and marker in _CIRCLED else 0


def _conditions(c: Candidate, cands: list[Candidate]) -> list[Candidate]:
    """Paragraphs of ``c``'s clause (same excerpt, same heading) that condition it: a later one that
    refers back to it and limits it ("제2항에도 불구하고 …"), and — when ``c`` sits in a later paragraph —
    the paragraph that states the basis or period ("직전 3개월 동안의 실결제액을 기준으로") of the clause,
    when it talks about the same thing."""
    k = _paragraph_no(c.unit.marker)
    if not k:
        return []
    out: list[Candidate] = []
    firsts: dict[int, Candidate] = {}
    for x in cands:
        if x.excerpt.n != c.excerpt.n or x.unit.heading != c.unit.heading or not x.unit.answerable:
            continue
        j = _paragraph_no(x.unit.marker)
        if j and (j not in firsts or x.unit.start < firsts[j].unit.start):
            firsts[j] = x
    nxt = firsts.get(k + 1)
    if nxt is not None:
        m = _LIMITS_PARA.match(nxt.unit.text)
        if m and (m.group("n") is None or int(m.group("n")) == k):
            out.append(nxt)
    first = firsts.get(1)
    if k > 1 and first is not None and _BASIS.search(first.unit.text) and \
            topic_overlap(first.unit.text, f"{c.unit.context} {c.unit.text}") > 0:
        out.append(first)
    return out
