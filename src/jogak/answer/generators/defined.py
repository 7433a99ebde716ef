"""A question that asks what a term means ("생명윤리법에서 말하는 유전자검사는 어떤 검사예요?", "약관에서 말하는
입주살림은 어떤 서비스예요?") is answered with the definitions item that defines the term ("15. "유전자검사"란 …을
말한다"), in the document the rest of the question points to — the way a question naming "제3조" is answered with
제3조. Without this the article whose title holds the term ("제51조 (유전자검사의 동의)") outscores the
definition, which shares only the one word with the question."""

from __future__ import annotations

import re

from jogak.answer.context import Context
from jogak.answer.generators.candidates import Candidate
from jogak.answer.generators.named import one_document
from jogak.answer.generators.selection import LIST_LEAD
from jogak.chunk.base import neighbour_id
from jogak.grammar.definitions import asked_terms, introduced_terms, restricted_compound
from jogak.grammar.definitions import defined_term as defines
from jogak.grammar.laws import family_of, title_kind
from jogak.grammar.pointers import filled_phrases, pointed_phrases
from jogak.korean import modifying_verb


def defined_terms(answerable: list[Candidate]) -> dict[str, list[Candidate]]:
    """Each term a unit of the excerpts defines (spaces removed), with the units that define it: a definitions
    item ("1. "회원"이란 …") before a clause that introduces the term as it goes ("(이하 "회원"이라 한다)")."""
    out: dict[str, list[Candidate]] = {}
    for c in answerable:
        # with its item label: the older Acts' '5. "…"는 …을 말한다' defines only as a numbered item
        term = defines(f"{c.unit.item} {c.unit.text}" if c.unit.item else c.unit.text)
        if term:
            out.setdefault(term, []).append(c)
    for c in answerable:
        for term in introduced_terms(c.unit.text):
            if c not in out.get(term, []):
                out.setdefault(term, []).append(c)
    return out


def defined_term(question: str, context: Context, answerable: list[Candidate], cands: list[Candidate],
                 most: int = 6) -> list[Candidate]:
    """The definition of the term the question asks about, with the items of a list the definition
    introduces; empty when the question asks no such thing or no excerpt defines the term."""
    defs = defined_terms(answerable)
    term = next((t for t in asked_terms(question, modifying_verb) if t in defs), None) \
        or restricted_compound(question, defs, modifying_verb)
    if term is None:
        return []
    picked = one_document(question, context, defs[term], most)[:1]
    if not picked:
        return []
    d = picked[0]
    if LIST_LEAD.search(d.unit.text):  # a definition that introduces its own list ("다음 각 목의 …")
        picked += _sub_items(d, cands)[: most - 1]
    filler = _filler(d, cands)
    if filler is not None:  # "…으로서 대통령령으로 정하는 산업을 말한다": the decree's list is what the term covers
        picked += [filler, *_sub_items(filler, cands)[: most - 1]]
    return picked


def _filler(d: Candidate, cands: list[Candidate]) -> Candidate | None:
    """The unit of ``d``'s decree or rule that fills in what the definition ``d`` leaves to it ('…으로서 대통령령으로
    정하는 산업을 말한다' → '법 제2조제1호에서 "대통령령으로 정하는 산업"이란 다음 각 호의 산업을 말한다'), among the
    excerpts; one naming ``d``'s item ("제2조제1호") first. None when ``d`` leaves nothing to another instrument or
    the excerpts hold no such unit."""
    md = d.excerpt.chunk.metadata
    if title_kind(md.doc_title or "") not in ("statute", "decree"):
        return None
    pointed = {(_bare(np), where) for np, side, where in pointed_phrases(d.unit.text) if side == "after"}
    if not pointed:
        return None
    family = family_of(md.doc_title or "")
    found = [c for c in cands if c.unit.answerable
             and title_kind(c.excerpt.chunk.metadata.doc_title or "") in ("decree", "rule")
             and family_of(c.excerpt.chunk.metadata.doc_title or "") == family
             and any((_bare(np), where) in pointed for np, where in filled_phrases(c.unit.text))]
    item = re.sub(r"\D", "", d.unit.item or "")
    names = re.compile(rf"제\s*\d+\s*조(?:\s*제\s*\d+\s*항)?\s*제\s*{item}\s*호(?!\d)") if item else None
    found.sort(key=lambda c: not (names and names.search(c.unit.text)))
    return found[0] if found else None


def _bare(s: str) -> str:
    return re.sub(r"\s+", "", s)


def _style(label: str) -> str:
    """A list label's numbering style: "1." digits, "가." Hangul, "(1)" parenthesised, "a." Latin."""
    core = re.sub(r"[()（）.\s]", "", label)
    return ("paren" if label.lstrip().startswith(("(", "（")) else "") + (
        "digit" if core.isdigit() else "hangul" if re.fullmatch(r"[가-힣]", core) else "latin")


def _sub_items(d: Candidate, cands: list[Candidate]) -> list[Candidate]:
    """The items right after ``d`` that are numbered in another style than ``d`` ("3. … 다음 각 목의 물품" → 가.,
    나.): the list the definition introduces — in its excerpt, and on in the excerpts holding the next chunks of its
    clause when the chunker cut the list (``continuation.follow_lists`` brings them: "2. "전통주"란 다음 각 목 …",
    가. and 나. in one chunk, 다. in the next)."""
    by_chunk: dict[str, list[Candidate]] = {}
    for x in cands:
        by_chunk.setdefault(x.excerpt.chunk.id, []).append(x)
    out: list[Candidate] = []
    chunk, start = d.excerpt.chunk, d.unit.start
    for _ in range(4):  # the definition's own chunk and up to three that continue its list
        for x in sorted((x for x in by_chunk.get(chunk.id, []) if x.unit.start > start), key=lambda x: x.unit.start):
            # a 항's sentence introduces items of any style; an item, those numbered otherwise than itself
            if x.unit.kind != "item" or not x.unit.item or (d.unit.item and _style(x.unit.item) == _style(d.unit.item)):
                return out
            if x.unit.answerable:
                out.append(x)
        nid = neighbour_id(chunk, 1)
        nxt = by_chunk.get(nid or "")
        if not nxt or nxt[0].excerpt.chunk.metadata.clause != chunk.metadata.clause:
            return out
        chunk, start = nxt[0].excerpt.chunk, -1
    return out
