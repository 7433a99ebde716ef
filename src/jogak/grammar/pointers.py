"""Where a clause leaves its details: the phrases of a sentence that names a thing and says another instrument
or a table states it ("시험의 과목 및 방법 등에 관하여 필요한 사항은 행정안전부령으로 정한다", "문화체육관광부령으로
정하는 서류를 첨부하여", "별표 3의 … 기준에 따라", "… 기준은 별표 3과 같다").

Such a sentence names the thing without saying what it is: it answers "what does the law require" only by
pointing. ``pointed_phrases`` returns the noun phrases a sentence points away, as raw text spans; deciding what
the phrase's head noun is (morphology) is the caller's business.
"""

from __future__ import annotations

import re

# A subordinate instrument or a table that states the detail: "대통령령", "행정안전부령", "총리령", "조례",
# "…장관이 정하여 고시하는" is a notice; "별표 3", "별표 2의2", "별지".
# A law family's own subordinate instruments: its decree (대통령령) and rules (총리령, …부령).
DECREE_OR_RULE = r"(?:대통령령|총리령|[가-힣]{1,12}부령)"
_INSTRUMENT = rf"(?:{DECREE_OR_RULE}|[가-힣]{{0,10}}조례|국회규칙|대법원규칙)"
# "대통령령으로 정한다", "총리령으로 정하는", "보건복지부령으로 정하는 바에 따라": a clause leaving something to its family
DELEGATES_RE = re.compile(rf"{DECREE_OR_RULE}(?:으)?로\s*정[하한할해]")
_NOTICE = r"(?:[가-힣]{1,12}(?:장관|청장|위원회|처장|원장)(?:이|가)\s*정하여\s*고시하는)"
_TABLE = r"별표\s*\d+(?:\s*의\s*\d+)?"
# Where a quoted term is filled in ("…"대통령령으로 정하는 서류"란 다음 각 호의 서류를 말한다"): a definition, not a pointer.
_DEFINED_TAIL_RE = re.compile(r"^[^\"“”]{0,60}[\"”](?:이)?란")

_EXAMPLES_RE = re.compile(r"등\s*$")

# "X에 관하여 필요한 사항은 …령으로 정한다", "X에 관한 세부 사항은 …부령으로 정한다", "X 등에 필요한 사항은 …"
_MATTERS_RE = re.compile(
    rf"(?P<np>[^,.;:]{{1,80}}?)\s*(?:에\s*관하여|에\s*관한|에\s*대하여|에\s*대한|에\s*필요한)\s*(?:[가-힣]+\s*){{0,2}}?사항은\s*"
    rf"[^.]{{0,40}}?(?:(?P<to>{_INSTRUMENT})(?:으)?로|(?P<to2>{_NOTICE})\s*바에\s*따라)\s*정(?:한다|하되|하며|할\s*수)")
# "X는 …령으로 정한다" with nothing between: "시험의 과목은 대통령령으로 정한다"
_TOPIC_RE = re.compile(rf"(?P<np>[^,.;:]{{1,60}}?)(?:은|는)\s*(?P<to>{_INSTRUMENT})(?:으)?로\s*정(?:한다|하되|하며)")
# "…령으로 정하는 X를", "…장관이 정하여 고시하는 X에 따라"
_DELEGATED_RE = re.compile(rf"(?:(?P<to>{_INSTRUMENT})(?:으)?로\s*정하는|(?P<to2>{_NOTICE}))\s*(?P<np>[가-힣ㆍ·\s]{{1,30}}?)"
                           r"(?:을|를|이|가|은|는|에\s*따라|에\s*따른|에|의|과|와|으로|로)(?=[\s,.]|$)")
# "별표 3의 X에 따라", "별표 1에 따른 X를", "별표 1에서 정한 X을"
_TABLE_OF_RE = re.compile(rf"(?P<to>{_TABLE})\s*(?:의|에\s*따른|에서\s*정한|에\s*정한)\s*(?P<np>[가-힣ㆍ·\s]{{1,30}}?)"
                          r"(?:을|를|이|가|은|는|에\s*따라|에\s*따른|으로|로|과|와)(?=[\s,.]|$)")
# "X는 별표 3과 같다", "X는 별표 2에 따른다" — also polite ("같습니다", "따릅니다") or going on ("같으며", "따르고"):
# X is what the table says either way
_TABLE_IS_RE = re.compile(rf"(?P<np>[^,.;:]{{1,60}}?)(?:은|는)\s*(?P<to>{_TABLE})\s*(?:과|와)\s*(?:같다|같습니다|같으며|같고)|"
                          rf"(?P<np2>[^,.;:]{{1,60}}?)(?:은|는)\s*(?P<to2>{_TABLE})\s*에\s*(?:따른다|따릅니다|따르며|따르고)")


def _quoted_definition(text: str, end: int) -> bool:
    """Whether a match ending at ``end`` sits inside a quoted term a definition fills in ("…"란)."""
    return text[:end].count('"') % 2 == 1 and _DEFINED_TAIL_RE.match(text[end:]) is not None


def _where(m: re.Match[str]) -> str:
    """The instrument or table a match points to ("행정안전부령", "별표 3"), as written; a notice by its issuer."""
    to = m.groupdict().get("to") or m.groupdict().get("to2") or ""
    notice = re.match(r"(.+?)(?:이|가)\s*정하여\s*고시하는", to)
    return f"{notice.group(1)}의 고시" if notice else re.sub(r"\s+", " ", to).strip()


def pointed_phrases(text: str) -> list[tuple[str, str, str]]:
    """The noun phrases ``text`` leaves to another instrument or a table, each as (phrase, side, where): side
    "before" when the phrase precedes the pointer (its head is the phrase's last noun), "after" when it follows
    it; where the instrument or table ("행정안전부령", "별표 3")."""
    out: list[tuple[str, str, str]] = []
    for rx in (_MATTERS_RE, _TOPIC_RE, _TABLE_IS_RE):
        for m in rx.finditer(text):
            np = m.group("np") if m.groupdict().get("np") else m.groupdict().get("np2")
            if np and not _quoted_definition(text, m.end()):
                out.append((np.strip(), "before", _where(m)))
    for rx in (_DELEGATED_RE, _TABLE_OF_RE):
        for m in rx.finditer(text):
            np = m.group("np").strip()
            # "대지, 높이 및 형태 등 대통령령으로 정하는 항목": the examples before it say what the thing is
            examples = _EXAMPLES_RE.search(text[:m.start()]) is not None
            if np and np != "바" and not examples and not _quoted_definition(text, m.end()):
                out.append((np, "after", _where(m)))
    return out


# A decree or rule filling in what its Act left to it, by quoting the Act's words: '법 제2조제1호에서 "대통령령으로
# 정하는 산업"이란 다음 각 호의 산업을 말한다'.
_FILLS_RE = re.compile(rf"[\"“]\s*(?P<to>{_INSTRUMENT})(?:으)?로\s*정하는\s*(?P<np>[^\"”\n]{{1,40}}?)\s*[\"”]\s*(?:이)?란")


def filled_phrases(text: str) -> list[tuple[str, str]]:
    """The pointed phrases ``text`` fills in, each as (phrase, instrument): '"대통령령으로 정하는 산업"이란 …' →
    ("산업", "대통령령")."""
    return [(re.sub(r"\s+", " ", m.group("np")).strip(), m.group("to")) for m in _FILLS_RE.finditer(text)]
