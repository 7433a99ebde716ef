"""Definitions: what a definitions item defines, and which term a question asks the meaning of.

A definitions article ("제2조 (정의)", "제2조(용어의 뜻)") lists items that each state what one term means
("6. "제대혈위탁"이란 …을 말한다"). A question that asks what such a term is ("유전자검사는 어떤 검사예요?")
is answered by that item — found by the term, the way a question naming "제3조" is answered with 제3조.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from jogak.grammar.patterns import DEFINITION_QUESTION_RE

# A definitions item states what one term means: "6. "제대혈위탁"이란 …을 말한다", "“회원”이라 함은 …",
# "「보관기간」이란 …", '"Services" means …'; the term may carry its hanja, a gloss or its short name ("퇴비"(堆肥)란
# …, "…"(이하 "교육시설"이라 한다)이라 함은 …), and older Acts write '5. "인쇄문화산업단지"는 …을 말한다' (a numbered
# item: a topic particle, then a line ending in 말한다 / 뜻한다 / 의미한다 — unnumbered, '"회사"는 … 사실을 말한다'
# is a rule, not a definition). On the 법률 of 300 Acts of the all-laws archive: 1,474 of 1,482 numbered definition
# items read (1,454 before the gloss and topic forms; the rest define several terms at once).
# Group ``term`` is the defined word as written.
DEFINES_TERM_RE = re.compile(
    r"^\s*(?P<num>[(（]?(?:\d{1,3}|[가-하])[.)）]\s*)?[\"“”'‘’「『]\s*(?P<term>[^\"“”'‘’」』\n]{1,40}?)\s*[\"“”'‘’」』]\s*"
    r"(?:[(（](?:이하[^)）\n]*|[^()（）\n]{1,30})[)）]\s*)?"
    r"(?:(?:이)?란|(?:이)?라\s*함은|(?:이)?라고\s*함은|\s*(?:means|shall\s+mean)"
    r"|(?(num)(?:은|는)\s(?=[^\n]*(?:을|를)\s*(?:말한다|뜻한다|의미한다)\.?[ \t]*(?:\n|$))|(?!)))", re.IGNORECASE)
# What follows a term in a question that asks what the term is ("유전자검사는 어떤 검사예요?", "제대혈위탁은 어떤
# 걸 말해요?", "입주살림이 뭐예요?", "가사서비스에는 어떤 일들이 들어가요?"): a topic or subject particle, then an
# identity question that ends the sentence. "T는 어떤 경우에 …할 수 있어요" asks something else about T.
WHAT_IS_TAIL_RE = re.compile(
    r"^\s*(?:은|는|이란|란|이라는\s*(?:게|것|건)|라는\s*(?:게|것|건)|(?:이)?라고\s*하는\s*(?:게|것|건)|에는|엔|이|가)"
    r"\s*(?:정확히|법적으로|구체적으로|대체|도대체|법에서는?|약관에서는?)?\s*"
    r"(?:(?:어떤|무슨)\s*(?:[가-힣]+\s*)?(?:을|를)?\s*(?:말해요|말하나요|말합니까|말하는\s*(?:거|건)|가리켜요|가리키나요|뜻해요|뜻하나요)"
    r"|(?:어떤|무슨)\s*[가-힣]+?들?(?:이에요|예요|에요|인가요|이죠|죠|입니까|일까요|이야|야)"
    r"|(?:어떤|무슨)\s*[가-힣]+?들?(?:이|가)\s*(?:들어가요|들어가나요|포함돼요|포함되나요|해당돼요|해당하나요)"
    r"|(?:뭐|무엇)(?:예요|에요|이에요|인가요|이죠|죠|야|입니까|을\s*말해요|를\s*말해요|을\s*말하나요|를\s*말하나요))"
    r"\s*(?:[?？.]|$)"
    # "자조금이라는 게 정확히 뭐고 누구 돈으로 모으는 거예요?": what it is, then a second question in the same sentence
    r"|^\s*(?:이란|란|이라는\s*(?:게|것|건)|라는\s*(?:게|것|건)|(?:이)?라고\s*하는\s*(?:게|것|건)|은|는|이|가)"
    r"\s*(?:정확히|법적으로|구체적으로|대체|도대체)?\s*(?:뭐|무엇)(?:이)?(?:고|며)\s")

# Other ways a question asks what something is: a term "as the text says it" ("약관에서 말하는 도수 보증", "약관에
# 나오는 안심연락처", "…라고 하는 것") or an identity question ending the sentence ("렌즈정기구독은 어떤 식으로 렌즈를
# 받는 상품이에요?"). "하면 안 되는 게 뭐뭐예요", "어떤 정보들을 가져가요" ask for facts, not a meaning.
IDENTITY_CUE_RE = re.compile(r"말하는|말해요|말하나요|말합니까|(?:에|에서)\s*나오는|(?:이)?라고\s*(?:하는|부르는)|"
                             r"(?:어떤|무슨)[^?？]*[가-힣](?:이에요|예요|인가요|이죠|입니까)\s*[?？]?\s*$")

# a definition at the start of a line of a chunk (items are lines of their own in every loader's text)
_LINE_DEFINES = re.compile(DEFINES_TERM_RE.pattern.replace(r"^\s*", r"(?m)^[ \t]*", 1), re.IGNORECASE)
# A term a clause introduces as it goes, the statutes' way: "…받는 제도(이하 "선택적 복지제도"라 한다)를 설정하여",
# "주식회사 하루(이하 “회사”라 합니다)". The clause saying what the words before it are is that term's definition.
INTRODUCES_TERM_RE = re.compile(
    r"[(（]\s*이하\s*[\"“”'‘’「『]\s*(?P<term>[^\"“”'‘’」』()\n]{1,30}?)\s*[\"“”'‘’」』]\s*"
    r"(?:(?:이)?라\s*(?:한다|합니다|함|칭한다|칭합니다))?\s*[)）]")


def _bare(term: str) -> str:
    return re.sub(r"\s+", "", term)


def defined_term(text: str) -> str | None:
    """The term ``text`` (one item or sentence) defines, spaces removed; None when it defines none."""
    m = DEFINES_TERM_RE.match(text)
    return _bare(m.group("term")) if m else None


def introduced_terms(text: str) -> list[str]:
    """The terms ``text`` introduces inside a sentence ("(이하 "선택적 복지제도"라 한다)"), spaces removed, in order."""
    return list(dict.fromkeys(_bare(m.group("term")) for m in INTRODUCES_TERM_RE.finditer(text)))


def definitions_in(text: str) -> Iterator[str]:
    """Every term ``text`` defines — by a definition at the start of one of its lines, or introduced inside a
    sentence ("(이하 "…"라 한다)") — spaces removed."""
    for m in _LINE_DEFINES.finditer(text):
        yield _bare(m.group("term"))
    yield from introduced_terms(text)


# Verbs that name a word rather than restrict a thing when they modify it: "약관에서 말하는 X", "약관에 나오는 X",
# "법에서 정한 X", "…라고 부르는 X" (the verb stems before Kiwi's adnominal ending, a noun + 하/되 joined).
_NAMING_STEMS = frozenset({"말하", "나오", "부르", "불리", "이르", "뜻하", "가리키", "정하", "정의하", "정의되", "규정하",
                           "규정되", "쓰이", "적히", "명시하", "명시되"})


# (the verb stem and Kiwi tag of the adnominal form ending a text — ``jogak.korean.modifying_verb``)
Modifier = Callable[[str], "tuple[str, str] | None"]


def _restricted(question: str, head: int, modifier: Modifier) -> bool:
    """Whether the noun starting at ``head`` is restricted by a relative clause ("본인인증을 해야만 살 수 있는
    상품은 어떤 거예요?"): the question asks which things meet the clause, not what the noun means — a
    definitions item of the bare noun does not answer it. A naming verb ("약관에서 말하는 X") is no restriction."""
    before = question[:head]
    if before.count('"') % 2 or before.count("'") % 2 or \
            sum(before.count(c) for c in "“‘「『") > sum(before.count(c) for c in "”’」』"):
        return False  # the clause is inside the quoted term ("대통령령으로 정하는 수 이상의 근로자를 사용하는 사업주")
    verb = modifier(before.rstrip())
    return verb is not None and verb[1] != "VCP" and verb[0] not in _NAMING_STEMS  # "…이라는 X": naming too


def asked_terms(question: str, modifier: Modifier | None = None) -> list[str]:
    """The words a question asks the meaning of, spaces removed, longest first: the one to three words
    before an identity question that ends the sentence ("… 말하는 제대혈 위탁은 어떤 걸 말해요?" →
    "제대혈위탁", "위탁" …). Empty for a question that asks something else; given ``modifier`` (the
    morphological analyser's reading), also for one asking which things a relative clause picks out ("…살 수
    있는 상품은 어떤 거예요?", ``_restricted``)."""
    out: list[str] = []
    for i in range(1, len(question)):
        if question[i - 1].isspace() or not WHAT_IS_TAIL_RE.match(question[i:]):
            continue
        head = len(question[:i].rstrip()) - len(question[:i].split()[-1]) if question[:i].split() else 0
        if head and modifier is not None and _restricted(question, head, modifier):
            continue
        words = [w.strip("\"'“”‘’「」『』()") for w in question[:i].split()]
        for n in (3, 2, 1):
            if len(words) >= n and all(words[-n:]):
                term = "".join(words[-n:])
                if term not in out:
                    out.append(term)
    return sorted(out, key=len, reverse=True)


_PARTICLE_END = re.compile(r"(?:에서도|에서는|에게도|에도|에는|에서|에게|으로|이|가|을|를|은|는|의|에|로|과|와|도|만)$")


def restricted_compound(question: str, defined: Iterable[str], modifier: Modifier) -> str | None:
    """The defined term a restricted noun names ("관리 대상이 되는 가축은 어떤 동물들이에요?" → "이력관리대상가축"):
    a compound ending in the noun that holds a word of the clause restricting it — the law's own name for the
    things the clause picks out. None when no defined term is such a compound ("본인인증을 해야만 살 수 있는
    상품": no defined "…본인인증…상품")."""
    terms: list[str] | None = None  # read only when a restricted noun is asked about (a store may define thousands)
    for i in range(1, len(question)):
        if question[i - 1].isspace() or not WHAT_IS_TAIL_RE.match(question[i:]):
            continue
        words = question[:i].split()
        if len(words) < 2:
            continue
        head = words[-1].strip("\"'“”‘’「」『』()")
        start = len(question[:i].rstrip()) - len(words[-1])
        if len(head) < 2 or not _restricted(question, start, modifier):
            continue
        clue = [w for w in (_PARTICLE_END.sub("", x) for x in words[-6:-1]) if len(w) >= 2]  # the clause's words
        terms = list(defined) if terms is None else terms
        # a clue word before the head, not overlapping it ("구립 어린이집에 … 들어갈 수 있는 집": 어린이집 is no such)
        found = [t for t in terms if t.endswith(head)
                 and any(t.find(w) >= 0 and t.find(w) + len(w) <= len(t) - len(head) for w in clue)]
        if found:
            return max(found, key=lambda t: (sum(w in t for w in clue), -len(t)))
    return None


def asks_a_meaning(question: str) -> bool:
    """Whether the question asks what a word or a thing is — what a definitions article answers — rather than
    a fact about it ("사내근로복지기금에서는 어떤 지원을 해 줘요?" asks what the fund does, not what it is)."""
    return bool(asked_terms(question) or DEFINITION_QUESTION_RE.search(question) or IDENTITY_CUE_RE.search(question))


# A term named as a text uses it: "법에서 말하는 '실종아동'은 몇 살까지예요?", "나라에서 말하는 해양레저관광산업에
# 들어가요?", "약관에서 말하는 보관기간은 언제부터예요?" — whatever is asked about the term (who counts, what it
# includes, how old), the item that defines it is what the question is about. Group ``by``: who says it.
_AS_SAID_RE = re.compile(
    r"(?P<by>법률|법령|법|시행령|시행규칙|약관|규칙|규정|규약|나라|정부)\s*(?:에서는?|상|이|으로)?\s*(?:말하는|이르는)\s+"
    r"(?P<rest>[^?？.!,]{2,40})")
# a particle that ends a noun phrase for sure (이 / 가 may end a noun: 어린이, 대가)
_ENDS_PHRASE = re.compile(r"(?:에서도|에서는|에게도|에도|에는|에서|에게|으로|을|를|은|는|의|에|로|과|와|도|만|라고|라는|이란)$")
# a quoting ending after the term ("말산업이라고 하면", "사유수면이라는 건")
_QUOTATIVE = re.compile(r"(?:이라고|라고|이라는|라는|이란)$")
_LAW_SAYS = frozenset({"법률", "법령", "법", "시행령", "시행규칙", "나라", "정부"})
_QUOTES = "\"'“”‘’「」『』"


def as_said_terms(question: str) -> list[tuple[str, bool]]:
    """The terms a question names as a text uses them ("…에서 말하는 X"), spaces removed, longest first, each
    with whether a law says it (법, 시행령, 나라 …) rather than terms or rules: the one to three words after the
    cue, the last one's particle dropped ("'해양레저관광'에" → 해양레저관광; "어린이 시설에" → 어린이시설,
    어린이)."""
    out: dict[str, bool] = {}
    for m in _AS_SAID_RE.finditer(question):
        by_law = m.group("by") in _LAW_SAYS
        words: list[str] = []
        for w in m.group("rest").split()[:3]:
            w = w.lstrip(_QUOTES)
            cut = next((i for i, ch in enumerate(w) if ch in _QUOTES), None)
            words.append(w[:cut] if cut is not None else w)
            if cut is not None or _ENDS_PHRASE.search(w):
                break  # a closing quote or a particle ends the noun phrase ("'대학생'에 저 같은", "유아는 몇")
        for n in range(len(words), 0, -1):
            head = "".join(words[: n - 1])
            last = words[n - 1]
            for tail in dict.fromkeys((last, _PARTICLE_END.sub("", last), _QUOTATIVE.sub("", last))):
                if len(head + tail) >= 2:
                    out.setdefault(head + tail, by_law)
    return sorted(out.items(), key=lambda t: len(t[0]), reverse=True)
