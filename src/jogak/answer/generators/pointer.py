"""An answer that only points elsewhere: the question asks what a thing is ("시험은 어떤 과목을 봐요?", "서류가
뭐뭐예요?", "등급 기준이 뭐예요?") and the clause that names it leaves it to a decree, a ministry's rule, a notice or a
table ("시험의 과목 … 에 관하여 필요한 사항은 행정안전부령으로 정한다", "…부령으로 정하는 서류를 첨부하여", "별표 3의 …
기준에 따라") which the excerpts do not hold. Quoting it would assert an answer that says nothing about what was
asked; the answerer treats it as not fitting (``points_away``) and shows it as a related clause instead.
"""

from __future__ import annotations

import re
from functools import lru_cache

from jogak.answer.generators.candidates import Candidate, article_key
from jogak.grammar.pointers import pointed_phrases

# Interrogatives asking for a thing: a determiner before the noun ("어떤 과목", "무슨 서류") or a pronoun after
# its topic/subject ("서류가 구체적으로 뭐뭐예요", "기준이 뭐예요").
_WHICH = frozenset({"어떤", "무슨", "어느"})
_WHAT = frozenset({"뭐", "무엇", "뭘", "뭔"})
_NOUN = ("NNG", "NNP")
# Words too general to be what the question asks for ("어떤 경우", "뭐가 있는 거예요").
_GENERAL = frozenset({"것", "거", "경우", "때", "사람", "곳", "분", "자", "점", "일", "부분", "내용", "얘기"})
# Nouns that ask for the same thing: "어떤 자격이 필요해요" is left away by "…의 요건은 대통령령으로 정한다"
_CRITERIA = ("기준", "요건", "자격", "조건")
_SAME_ASK = {w: _CRITERIA for w in _CRITERIA}
# Tags inside a coordinated noun phrase ("시험의 과목 및 방법 등"): nouns, 의, coordinators, 등, numbers, symbols.
_NP_TAGS = frozenset({"NNG", "NNP", "NNB", "JKG", "JC", "MAJ", "SP", "SO", "SN", "SL", "XSN", "XPN"})
_COORD = frozenset({"및", "또는", "과", "와", "이나", "나", ",", "ㆍ", "·"})


def _tokens(text: str) -> list[tuple[str, str]]:
    from jogak.korean import kiwi

    return [(t.form, t.tag) for t in kiwi().tokenize(text)]


@lru_cache(maxsize=256)
def asked_heads(question: str) -> frozenset[str]:
    """The nouns a question asks to be told ("어떤 과목을 봐요" → 과목; "서류가 구체적으로 뭐뭐예요" → 서류)."""
    toks = _tokens(question)
    out: set[str] = set()
    for i, (form, tag) in enumerate(toks):
        if form in _WHICH and tag == "MM":
            j = i + 1
            while j < len(toks) and toks[j][1] in _NOUN:
                j += 1
            if j > i + 1:
                out.add(toks[j - 1][0])
        elif form in _WHAT and tag in ("NP", "IC"):
            # back to the nearest subject or topic particle within a few tokens, and the noun before it
            for k in range(i - 1, max(0, i - 6), -1):
                if toks[k][1] in ("JKS", "JX") and toks[k][0] in ("이", "가", "은", "는") and toks[k - 1][1] in _NOUN:
                    out.add(toks[k - 1][0])
                    break
    return frozenset(w for w in out if w not in _GENERAL and len(w) >= 2)


@lru_cache(maxsize=4096)
def _phrase_heads(phrase: str, side: str) -> frozenset[str]:
    """The head nouns of a pointed noun phrase's coordinated members ("시험의 과목 및 방법 등" → 과목, 방법)."""
    toks = _tokens(phrase)
    if side == "before":  # the phrase ends the span: keep its trailing noun phrase only
        k = len(toks)
        while k > 0 and (toks[k - 1][1] in _NP_TAGS or toks[k - 1][0] in _COORD):  # "및" is read as MAG too
            k -= 1
        toks = toks[k:]
    else:  # the span starts with the phrase: up to the first word outside a noun phrase
        k = 0
        while k < len(toks) and toks[k][1] in _NP_TAGS:
            k += 1
        toks = toks[:k]
    heads: set[str] = set()
    last = None
    for form, tag in [*toks, ("", "END")]:
        if tag == "END" or form in _COORD:
            if last:
                heads.add(last)
            last = None
        elif tag in _NOUN:
            last = form
    return frozenset(heads)


def _pointers(text: str) -> list[tuple[frozenset[str], str]]:
    """Each pointed phrase of ``text`` as (its head nouns, where it points)."""
    return [(_phrase_heads(phrase, side), where) for phrase, side, where in pointed_phrases(text)]


def pointed_heads(text: str) -> frozenset[str]:
    """The head nouns of everything ``text`` leaves to another instrument or a table."""
    return frozenset(h for heads, _ in _pointers(text) for h in heads)


def points_away(question: str, chosen: list[Candidate]) -> str | None:
    """Where the chosen answer leaves what the question asks for ("행정안전부령", "별표 3"), when its leading clause
    points it away with nothing else that states it: the units of the leading unit's article are sentences (a list
    item or a table row may be the content) and one of them points the asked noun away, and no other chosen unit
    can be what it points to (another document — the decree or rule —, an appendix or a table row). A clause of
    the same text joined for another word of the question ("교육" in a support centre's 교육사업) is no such
    content. None when the answer is not such a pointer."""
    if not chosen:
        return None
    key = article_key(chosen[0])
    own = [c for c in chosen if article_key(c) == key]
    if not all(c.unit.kind == "sentence" for c in own):
        return None
    if any(may_fill(c, chosen[0]) for c in chosen if article_key(c) != key):
        return None
    asked = asked_heads(question)
    if not asked:
        return None
    asked = frozenset(w for a in asked for w in _SAME_ASK.get(a, (a,)))
    return next((where or "?" for c in own for heads, where in _pointers(c.unit.text) if asked & heads), None)


def may_fill(c: Candidate, lead: Candidate) -> bool:
    """Whether ``c`` may state what ``lead``'s clause leaves elsewhere: a unit of another document (the decree or
    rule the clause delegates to), of an appendix, or a table row or list item of another block."""
    md, lm = c.excerpt.chunk.metadata, lead.excerpt.chunk.metadata
    return ((md.doc_id or md.source) != (lm.doc_id or lm.source) or md.block_type != "body"
            or c.unit.kind == "table_row")


_ARTICLE_LABEL = re.compile(r"^\s*제\s*(\d+)\s*조(?:\s*의\s*(\d+))?")


def delegated_details(asked: list[str], chosen: list[Candidate], cands: list[Candidate], floor: float
                      ) -> list[Candidate]:
    """The units of another document that state what a chosen clause leaves to it, when the question asks about it:
    a chosen Act clause's "대통령령으로 정하는 건물" and the decree's "법 제26조의2제1항 본문에서 "대통령령으로 정하는
    건물"이란 다음 각 호의 … 건물을 말한다", for "관리비가 얼마 이상이면 회계감사를 받아야 해요?" — the asked word
    (관리비) in the decree's clause and in no chosen unit. Scoring ``floor`` at least; the lead brings its items
    (``selection.complete``)."""
    asked = [a for a in asked if len(a) >= 2]
    if not asked or not chosen:
        return []
    said = " ".join(c.unit.text for c in chosen)
    missing = [a for a in asked if a not in said]
    if not missing:
        return []
    out: list[Candidate] = []
    for u in chosen:
        m = _ARTICLE_LABEL.match(u.unit.heading or "")
        if m is None:
            continue
        # the clause as the decree names it: "제26조의2제1항" for the Act's ① (its ③ is another delegation)
        label = f"제{m.group(1)}조" + (f"의{m.group(2)}" if m.group(2) else "")
        if u.unit.marker and "①" <= u.unit.marker <= "⑳":
            label += f"제{ord(u.unit.marker) - ord('①') + 1}항"
        for phrase, _side, where in pointed_phrases(u.unit.text):
            wanted = (f"{where}으로 정하는 {phrase}", f"{where}로 정하는 {phrase}")
            for c in cands:
                if c in chosen or c in out or not c.unit.answerable or not may_fill(c, u):
                    continue
                text = " ".join(c.unit.text.split())
                if label not in text.replace(" ", "") or not any(x in text for x in wanted):
                    continue
                # the lead sentence says no word of the question; its items do
                clause = [x for x in cands if x.excerpt.n == c.excerpt.n and x.unit.heading == c.unit.heading
                          and x.unit.marker == c.unit.marker]
                if max(x.score for x in clause) >= floor and any(a in " ".join(x.unit.text for x in clause)
                                                                  for a in missing):
                    out.append(c)
    return out
