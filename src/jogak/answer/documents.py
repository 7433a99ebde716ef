"""Which document a question points to, when several documents could answer it (issue 13).

A statute and the terms that restate it, two shops' point rules, every document's 제3조: the question's
wording picks one. ``pointed(question, context)`` scores each document of the excerpts in [0, 1]:

- its title is in the question ("이용약관 제3조", "반품교환환불정책") → 1;
- a question word that abbreviates the title ("전자상거래법", "약관규제법": the word's stem shares 60 % of
  its character bigrams with the Act's name; "가맹사업법" names the Act, "가맹사업법 시행령" its decree —
  ``grammar.laws.laws_named``) → 0.9; a statute whose decree the question names ("개인정보보호법 시행령")
  is not named by holding the title;
- a name the question uses that a document defines as its party or service ("하루마켓(이하 "회사")",
  "다온마켓 서비스(이하 "서비스")") → 0.6 for the documents whose excerpts mention it;
- the question asks what the *law* says ("법적으로", "법에서는", "법에 정해진", "막는 법 조항이 있어요") or
  asks about a state sanction ("어떤 처벌을 받아요", "과태료가 얼마") while naming no other document
  (``points_to_law``) → statutes 0.5, their decrees 0.4 (both 0.5 when it says "법령", the Act with its decrees:
  "법령상 몇 시간까지"), and 0.1 more for the one law family whose name holds a content word of the question
  ("건강보험료는 법으로 …" → 국민건강보험법 and its decree, beside 긴급복지지원법: ``grammar.laws.topic_family``);
  it names the decree ("시행령") → decrees 0.8; (a
  law's document kind is read from its title: "… 시행령", "… 시행규칙", "… 법" / "… 법률").

The best score wins; a document scores 0 when the question points nowhere in particular.
"""

from __future__ import annotations

import re

from jogak.answer.context import Context
from jogak.grammar.laws import (
    asks_a_sanction,
    asks_the_law,
    asks_the_laws_and_decrees,
    family_of,
    title_kind,
    topic_family,
)
from jogak.lexicon import content_terms
from jogak.retrieve.documents import named_titles

_LAW_FIRST = {"statute": 0.5, "decree": 0.4, "rule": 0.3}
_LAWS_AND_DECREES = {"statute": 0.5, "decree": 0.5, "rule": 0.4}
_TOPIC_LIFT = 0.1
_DEFINED = re.compile(r"([가-힣A-Za-z0-9]{2,})(?:\s*서비스)?\s*\(이하")
_PARTICLE = re.compile(r"(?:에서는|에서|에는|에게|에|의|은|는|이|가|을|를|도|으로|로|과|와|이랑|랑|대로|처럼)$")


def doc_kind(title: str) -> str:
    """"decree" (… 시행령), "rule" (… 시행규칙), "statute" (… 법 / … 법률), else "other"."""
    return title_kind(title)


def _words(question: str) -> list[str]:
    out = []
    for w in re.findall(r"[가-힣A-Za-z0-9_]+", question):
        w = _PARTICLE.sub("", w)
        if len(w) >= 2:
            out.append(w)
    return out


def pointed(question: str, context: Context) -> tuple[dict[str, float], list[str]]:
    """Per document title of the excerpts: how clearly the question points to it (module docstring);
    and the names the question uses that only some documents mention (words that pick a document
    rather than say what is asked)."""
    texts: dict[str, str] = {}
    for ex in context.excerpts:
        if "companion" in ex.hit.scores:
            # the law clause retrieval placed beside a company's rule (retrieve/companion.py) is context, not a
            # rival the question could point away from: it does not make the excerpts a choice of documents
            continue
        t = ex.chunk.metadata.doc_title or ""
        texts[t] = texts.get(t, "") + " " + ex.text
    compact = question.replace(" ", "")
    words = _words(question)
    decree_cue = "시행령" in compact
    # names: the question's words that a document defines as its party or service ("하루마켓(이하
    # "회사")", "다온마켓 서비스(이하 …)") — they pick the document, they are not what is asked
    defined = {m.group(1) for x in texts.values() for m in _DEFINED.finditer(x)}
    # (the name whole, or its beginning — "첫숨" of "첫숨제대혈" —, never its tail: "제대혈" is what is asked)
    names = [w for w in words if len(w) >= 3 and any(d.startswith(w) or d in w for d in defined if len(d) >= 3)]
    # titles named outright or by a law's short name, the Act told from its decree ("가맹사업법 시행령")
    named = named_titles(question, [t for t in texts if t])
    scores: dict[str, float] = {}
    for title, text in texts.items():
        if not title:
            continue
        tc = title.replace(" ", "")
        kind = doc_kind(title)
        s = 0.0
        head = title.split("_")[0]
        if (tc in compact or (len(head) >= 3 and head in compact)) and (kind != "statute" or title in named):
            s = 1.0
        elif title in named:
            s = 0.9
        if decree_cue and kind == "decree":
            s = max(s, 0.8)
        if any(n in text or n in title for n in names):
            s = max(s, 0.6)
        scores[title] = s
    if points_to_law(question, scores) and not decree_cue:
        # "법령" is the Act with its decrees: neither is preferred; "법" points to the Act first
        prior = _LAWS_AND_DECREES if asks_the_laws_and_decrees(question) else _LAW_FIRST
        # among several laws, the one whose name holds a word of the question ("건강보험료" → 국민건강보험법)
        topic = topic_family(content_terms(question), [t for t in scores if t])
        for title in scores:
            lift = _TOPIC_LIFT if topic is not None and family_of(title) == topic else 0.0
            scores[title] = max(scores[title], prior.get(doc_kind(title), -1.0) + lift)
    return scores, names


def points_to_law(question: str, scores: dict[str, float]) -> bool:
    """Whether the question wants a law's answer rather than a company's: it asks what the law says
    (``asks_the_law``), or asks about a state sanction (``asks_a_sanction``: only a statute imposes one) while
    pointing to no other document (``scores``: ``pointed``'s, a company's terms named outright or by its name ≥ 0.6)
    among excerpts that hold a law."""
    if asks_the_law(question):
        return True
    kinds = {t: doc_kind(t) for t in scores}
    return (asks_a_sanction(question) and any(k != "other" for k in kinds.values())
            and not any(s >= 0.6 for t, s in scores.items() if kinds[t] == "other"))
