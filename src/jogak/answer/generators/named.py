"""A question that names a clause ("반품교환환불정책 제2조 내용", "제3조") or a decision ("2000다24061 판결요지") is
answered with that clause or section, read in the document the rest of the question points to."""

from __future__ import annotations

import re

from jogak.answer.context import Context
from jogak.answer.documents import pointed
from jogak.answer.generators.candidates import ANSWER_KINDS, Candidate
from jogak.answer.text import is_annotation
from jogak.grammar.laws import kinds_before_articles, title_kind
from jogak.grammar.patterns import INCLUSION_QUESTION_RE, LIST_QUESTION_RE

_NAMED = re.compile(r"제\s*\d+\s*조(?:\s*의\s*\d+)?")
# A decision named by its 사건번호 (2- or 4-digit year, 1–3 Hangul 사건부호, serial) and the section asked for.
_CASE_NO = re.compile(r"(?<!\d)(?:\d{2}|\d{4})\s?[가-힣]{1,3}\s?\d{1,7}(?!\d)")
APPENDIX_WORDS = ("부록", "별표", "Schedule", "Exhibit", "Annex", "Appendix", "appendix", "schedule")


def named_clause(question: str, context: Context, answerable: list[Candidate],
                 cands: list[Candidate] | None = None, most: int = 6) -> list[Candidate]:
    """A question that names a clause ("반품교환환불정책 제2조 내용") or a decision ("2000다24061 판결요지")
    is answered with that clause / section, in document order from its beginning."""
    picked: list[Candidate] = []
    m = _NAMED.search(question)
    case = _CASE_NO.search(question)
    if m:
        label = re.sub(r"\s+", "", m.group(0))
        for c in answerable:
            md = c.excerpt.chunk.metadata
            head = re.sub(r"\s+", "", c.unit.heading or (md.article or ""))
            # an appendix's (or the addenda's) 제2조 is not the body's 제2조, unless the question names it
            appendix = head.startswith(("부록", "별표")) or c.excerpt.tier == "supplementary" or (
                md.block_type == "addenda" and "부칙" not in question)
            rest = head[len(label):]  # "제21조" is not "제21조의2" (another article) nor "제210조"
            if head.startswith(label) and not rest[:1].isdigit() and not re.match(r"의\d", rest) \
                    and (not appendix or any(word in question for word in APPENDIX_WORDS)):
                picked.append(c)
        picked = one_document(question, context, picked, most)
    elif case:
        from jogak.retrieve.structural import case_section

        number = re.sub(r"\s+", "", case.group(0))
        named_section = case_section(question)
        section = named_section or "판결요지"
        # A section the reader asks for by name is quoted even when it only states the issues
        # (판시사항 is never an answer to a question about the law, but it is what was asked for).
        pool = answerable if not named_section else [
            c for c in cands if c.unit.kind in ANSWER_KINDS and not c.unit.pointer
            and not is_annotation(c.unit.text)]
        for c in pool:
            md = c.excerpt.chunk.metadata
            named_case = md.case is not None and number in md.case.numbers
            if named_case and (md.article or "").replace(" ", "").startswith(section):
                picked.append(c)
    picked.sort(key=lambda c: c.key)  # the clause from its beginning, not in retrieval order
    return picked if m else picked[: most]  # (one_document already kept what the clause's answer needs)

def one_document(question: str, context: Context, picked: list[Candidate], most: int = 6,
                 list_most: int = 20) -> list[Candidate]:
    """"제3조" exists in several documents: the one the rest of the question points to (its title,
    an abbreviation, a name only it mentions, "법에서는"), else the one whose clause answers the
    question best; a long clause keeps its best paragraphs whole, up to ``max_clause_units`` (a paragraph too
    long alone: its opening sentence and its best units). A question whether something is among what the clause
    lists ("제4조 종합계획에 … 도 들어가요?") gets the list paragraph whose item fits it best, whole (up to
    ``list_most`` items): the answer is which entries the list has, and a list cut to its best-scoring entries
    may leave out the one asked about."""
    by_doc: dict[str, list[Candidate]] = {}
    for c in picked:
        by_doc.setdefault(c.excerpt.chunk.metadata.doc_title, []).append(c)
    if not by_doc:
        return []
    kinds = kinds_before_articles(question)  # "법 제11조": an Act's, not the decree's nor the terms' 제11조
    if len(by_doc) > 1 and kinds and any(title_kind(d) in kinds for d in by_doc):
        by_doc = {d: cs for d, cs in by_doc.items() if title_kind(d) in kinds}
        picked = [c for cs in by_doc.values() for c in cs]
    if len(by_doc) > 1:
        scores, _names = pointed(question, context)
        doc = max(by_doc, key=lambda d: (scores.get(d, 0.0), max(c.score for c in by_doc[d])))
        picked = by_doc[doc]
    if len(picked) <= most:
        return picked
    paras: dict[tuple[str, str], list[Candidate]] = {}
    for c in picked:  # a paragraph is its clause's (heading) ①, not every ① of the picked clauses
        paras.setdefault((c.unit.heading, c.unit.marker), []).append(c)
    keep: list[Candidate] = []
    # a question asking for a list ("뭐뭐예요") is answered by the paragraph holding one, before better-scoring
    # single sentences that would leave no room for it
    listing = bool(LIST_QUESTION_RE.search(question))
    lists = [us for us in paras.values() if sum(c.unit.kind == "item" for c in us) >= 2]
    if lists and INCLUSION_QUESTION_RE.search(question):
        best = max(lists, key=lambda us: max(c.score for c in us if c.unit.kind == "item"))
        return sorted(best, key=lambda c: c.key)[: list_most + 1]
    for units in sorted(paras.values(), key=lambda us: (
            -(listing and any(c.unit.kind == "item" for c in us)), -_paragraph_score(us))):
        if len(keep) + len(units) <= most:
            keep.extend(units)
        elif not keep:  # the best paragraph alone is too long: its opening sentence and its best units
            units = sorted(units, key=lambda c: c.key)
            best = sorted(units[1:], key=lambda c: -c.score)[: most - 1]
            keep.extend([units[0], *best])
    return keep


def _paragraph_score(units: list[Candidate]) -> float:
    """What a paragraph is about: its best unit, but a list paragraph's by its opening sentence — its items
    share that sentence as context, and a long list has many chances at one high-scoring item."""
    first = min(units, key=lambda c: c.key)
    if any(c.unit.kind == "item" for c in units) and first.unit.kind != "item":
        return first.score
    return max(c.score for c in units)
