"""How Korean laws name themselves and each other: kinds, family names, the short names a decree or a rule
uses for its Act and decree.

A law family is an Act and the instruments made under it, named after it: "상호저축은행법" (법률),
"상호저축은행법 시행령" (대통령령), "상호저축은행법 시행규칙" (총리령/부령). A ministry's own rule under a shared
Act says whose it is: "국토교통부 소관 비상대비에 관한 법률 시행규칙" belongs to "비상대비에 관한 법률". Inside a
decree "법" is its Act; inside a rule "법" is the Act and "영" (or "시행령") the decree — the words are defined
in each text ("「상호저축은행법」(이하 "법"이라 한다)") but the convention holds without the definition.
"""

from __future__ import annotations

import re
from typing import Literal

Rank = Literal["act", "decree", "rule"]

# The suffix that makes a title an implementing instrument of an Act, with its rank (longest first).
INSTRUMENT_SUFFIXES: tuple[tuple[str, Rank], ...] = (("시행규칙", "rule"), ("시행령", "decree"))
# 법령구분 values that are Acts (the rest — 대통령령, 총리령, …부령, …규칙 — are subordinate instruments).
ACT_KINDS = ("법률", "헌법")
# "국토교통부 소관 …": the ministry prefix of a ministry's own rule under a shared Act.
MINISTRY_PREFIX_RE = re.compile(r"^\S+?\s*소관\s+")
# Front-matter keys of a Korean statute file (legalize-kr / law.go.kr export).
TITLE_KEYS = ("제목", "법령명", "법령명한글")
KIND_KEY = "법령구분"
PROMULGATED_KEY = "공포일자"
EFFECTIVE_KEY = "시행일자"

# The short names an instrument uses for the other members of its family: (word, rank it names).
# "법 제34조" in a decree or rule is the Act's; "영 제5조"/"시행령 제5조" in a rule is the decree's.
FAMILY_WORDS: tuple[tuple[str, Rank], ...] = (("시행령", "decree"), ("법", "act"), ("영", "decree"))


def name_key(title: str) -> str:
    """A law's name compared without spacing: "개인정보 보호법" and "개인정보보호법" are one name."""
    return re.sub(r"\s+", "", title)


def split_instrument(title: str) -> tuple[str, Rank]:
    """("the Act's name", rank) of a law title: "상호저축은행법 시행령" → ("상호저축은행법", "decree");
    "근로기준법" → ("근로기준법", "act"). The ministry prefix of a ministry's rule is dropped."""
    t = " ".join(title.split())
    for suffix, rank in INSTRUMENT_SUFFIXES:
        if t.endswith(suffix) and len(t) > len(suffix):
            base = t[: -len(suffix)].rstrip()
            return MINISTRY_PREFIX_RE.sub("", base), rank
    return t, "act"


def family_of(title: str) -> str:
    """The family a law belongs to: the name of its Act, compared without spacing."""
    return name_key(split_instrument(title)[0])


def title_kind(title: str) -> str:
    """What kind of document a title names: "decree" (… 시행령), "rule" (… 시행규칙), "statute" (… 법 /
    … 법률 / …에 관한 법률), else "other" (terms, a policy, a contract)."""
    t = name_key(title)
    if t.endswith("시행령"):
        return "decree"
    if t.endswith("시행규칙"):
        return "rule"
    if t.endswith(("법", "법률")) or "에관한법률" in t:
        return "statute"
    return "other"


# A question asking what *the law* says ("법적으로", "법에서는", "법에 정해진", "법으로 정해") rather than a
# company's terms — everyday wording that points to the statutes of a mixed collection, not to one by name.
# "방법이", "불법으로", "해법은" are not the law: the words ending in 법 that do not name one are excluded.
_NOT_LAW = "방불위합편문수용해어기요탈비마화"
LAW_CUE_RE = re.compile(rf"(?<![{_NOT_LAW}])(?:법적으로|법(?:령|률|규)?(?:상으로는|상으론|상|에서는|에서|에선|에는|에|으로는|으론"
                        r"|으로|로는|이|은)(?=[\s?,.!]|$)|법에\s*정해|법대로|법으로\s*정"
                        # "…막는 법 조항이 있어요?", "법 규정상", "법 위반이에요?", "법을 어기면": the law asked by its parts
                        r"|법(?:령|률)?\s*(?:조항|조문|규정)|법(?:령|률)?\s*위반|법(?:령|률)?을\s*(?:어기|어겨|어긴|어길|위반))")

# A state sanction asked about ("어떤 처벌을 받아요", "벌금이 얼마", "과태료가 최대 얼마"): only a statute can impose
# one — a company's terms restating the duty do not answer it. Not when the question points to the company's
# own rules ("약관", "사내 규정", "취업규칙": their 징계 may be called a 처벌 loosely).
SANCTION_CUE_RE = re.compile(r"처벌|벌금|징역|과태료|과징금|형사\s*책임|벌칙|감옥\s*(?:에|엘)?\s*(?:얼마|몇|가|갈)")
# The everyday "벌" ("법적으로 어떤 벌을 받아요?", "법으로는 벌이 어떻게 돼요?"): a state sanction only where the question
# speaks of the law — a club's, a school's or a parent's punishment is a 벌 too ("클럽에서 어떤 일을 하면 벌을 받아요?"),
# and 벌이 (earnings), 벌 (a bee) and 벌통 are other words.
_PLAIN_PUNISHMENT_RE = re.compile(r"(?<![가-힣])벌(?=\s*(?:을|은)?\s*(?:받|주|내리)|\s*이\s*(?:어떻게|얼마|어느|좀|더|가벼|무거))|"
                                  r"(?:어떤|무슨)\s*벌(?=을|은|\s*받|\s*이에요|\s*인가|\s*\?|$)")
_LAW_WORD_RE = re.compile(r"(?<![방불])법(?!인)")
_OWN_RULES_RE = re.compile(r"약관|사내\s*규|회사\s*규[정칙]|취업\s*규칙|내규|회칙|규칙(?:상|에서|에는|으로는)")


# Words of law titles that say what kind of law it is, not what it is about ("… 진흥에 관한 법률", "… 기본법")
TITLE_FILLER_WORDS = frozenset({"법", "법률", "시행령", "시행규칙", "관한", "진흥", "지원", "기본", "관리", "보호", "등",
                                "육성", "촉진", "규제", "특별법", "산업", "사업", "이용", "운영", "설치"})


def topic_family(terms: list[str] | tuple[str, ...], titles: list[str] | set[str]) -> str | None:
    """The one law family (``family_of``) among ``titles`` whose name holds a content word of the question
    (``terms``, two syllables or more, no ``TITLE_FILLER_WORDS``): "건강보험료가 …" → 국민건강보험법 beside
    긴급복지지원법; None when no family or several do."""
    fams = {family_of(t) for t in titles if title_kind(t) != "other"}
    if len(fams) < 2:
        return None
    words = {t for t in terms if len(t) >= 2 and t not in TITLE_FILLER_WORDS}
    hit = {f for f in fams if any(w in name_key(f) for w in words)}
    return hit.pop() if len(hit) == 1 else None


def asks_the_law(question: str) -> bool:
    """Does the question ask what the law says (``LAW_CUE_RE``)?"""
    return bool(LAW_CUE_RE.search(question + " "))


def asks_the_laws_and_decrees(question: str) -> bool:
    """Does the question ask what the 법령 — the Act with its decrees — say, not the Act alone? "법령상",
    "법령에": unlike "법으로는" it does not single out the Act (where a decree holds the number, "법령상 … 몇
    시간까지" is the decree's to answer)."""
    return "법령" in question and asks_the_law(question)


# The heading of a penalty provision ("제40조 (벌칙)", "제46조 (과태료)", "제15조의11 (과징금)", "제48조 (양벌규정)").
# Only the provision itself: not "(과태료의 부과기준)", "(과태료 부과에 관한 적용례)", "(벌칙 적용에서 공무원 의제)".
# (some statutes in the archive double the title's brackets: "제30조 ((벌칙))")
PENALTY_HEADING_RE = re.compile(r"^제\s*\d+\s*조(?:\s*의\s*\d+)?\s*[(（]{1,2}\s*(?P<kind>벌칙|과태료|과징금|양벌)(?:\s*처분|\s*규정)?"
                                r"\s*[)）]{1,2}")
# In a penalty provision, the clause of the same law whose breach it punishes: "제28조제4항을 위반하여", "제8조에 따른
# 동의를 받지 아니하고", "제10조의2제1항에 따른 명령을 위반한". A clause of another law ("「민법」 제5조", "법 제3조",
# "같은 법 제2조") is not this law's.
VIOLATED_CLAUSE_RE = re.compile(r"(?<![」법영칙])(?<![」법영칙]\s)제\s*(?P<art>\d+)\s*조(?:\s*의\s*(?P<sub>\d+))?"
                                r"(?:\s*제\s*(?P<para>\d+)\s*항)?")


_ARTICLE_NUMBER_RE = re.compile(r"^\s*제\s*(\d+)\s*조(?:\s*의\s*(\d+))?")


def article_number(label: str) -> tuple[int, int] | None:
    """The article number a clause label or heading starts with ("제12조의2 (…)" → (12, 2), "제5조" → (5, 0))."""
    m = _ARTICLE_NUMBER_RE.match(label)
    return (int(m.group(1)), int(m.group(2) or 0)) if m else None


def violated_clauses(text: str) -> list[tuple[str, int | None]]:
    """The clauses of the same law a penalty provision's text punishes the breach of, as (article label "제28조" /
    "제10조의2", paragraph number or None): "제28조제4항을 위반하여 …한 자" → [("제28조", 4)]."""
    out: list[tuple[str, int | None]] = []
    for m in VIOLATED_CLAUSE_RE.finditer(text):
        art = f"제{m.group('art')}조" + (f"의{m.group('sub')}" if m.group("sub") else "")
        para = int(m.group("para")) if m.group("para") else None
        if (art, para) not in out:
            out.append((art, para))
    return out


def asks_a_sanction(question: str) -> bool:
    """Does the question ask about a state sanction (``SANCTION_CUE_RE``) without pointing to a company's own rules?
    The answer stage takes it as pointing to the statutes unless the question names another document."""
    return bool(_sanction_cue(question)) and not _OWN_RULES_RE.search(question)


def _sanction_cue(question: str) -> re.Match[str] | None:
    """Where the question names a state sanction (``SANCTION_CUE_RE``, or a plain "벌" beside a word of the law)."""
    if m := SANCTION_CUE_RE.search(question):
        return m
    return m if (m := _PLAIN_PUNISHMENT_RE.search(question)) and _LAW_WORD_RE.search(question) else None


# A question that may be about what follows a breach — a sanction named, a plain "벌", being caught, breaking or not
# keeping a rule, a 처분 or a business closed: then a penalty provision ("제33조 (과태료)") may answer it. Wide on
# purpose: it only says when a penalty article is *not* discounted in retrieval (``retrieve.hybrid``), since its long
# lists of breached articles share the words of every duty's question ("검사를 받아야 해요?", "다시 신고해야 하나요?").
PENALTY_QUESTION_RE = re.compile(SANCTION_CUE_RE.pattern + r"|벌|걸리|걸려|걸렸|걸릴|적발|단속|어기|어겨|어긴|어길|"
                                 r"위반|제재|불이익|처분|정지|폐쇄|문\s*닫|안\s*하면|안\s*지키|하지\s*않으면|"
                                 r"penalt|fine[sd]?\b|sanction|breach|violat|offen[cs]e")


# The sanction is what the question asks ("…하면 과태료가 얼마예요?", "어떤 처벌을 받아요?", "벌금 나와요?"), not a
# circumstance of it ("학대해서 처벌받은 사람은 몇 년 동안 취직을 못 해요?", "처벌받은 적이 있는지 알아봐요?").
_SANCTION_ASKED_RE = re.compile(
    r"(?:어떤|무슨|어느\s*정도의?|얼마의)\s*(?:처벌|벌금|징역|과태료|과징금|형사\s*책임|벌칙|벌(?=을|은|\s*받|\s*이에요|\s*인가|\s*\?|$))"
    r"|(?<![가-힣])벌(?:칙)?\s*(?:은|이|을)?\s*(?:어떻게|얼마|어느\s*정도|뭐|받아요|받나요|받게\s*돼|받을\s*수|받는\s*거|받는지)"
    r"|벌칙은요|감옥\s*(?:에|엘)?\s*(?:얼마|몇|가요|가나요|가야|갈\s*수)"
    r"|(?:처벌|벌금|징역|과태료|과징금)\s*(?:이|가|은|는|을|를|도|으로|로|\s*같은\s*(?:걸|거|것을?))?"
    r"(?:\s*(?:최대|최고|대략|보통|실제로|정확히|딱|한|몇|금액[이은을]?|액수[가는를]?))*\s*(?:얼마|몇|어느\s*정도|어떻게|되나요|돼요|되요|받아요|받나요|"
    r"받게\s*돼|받을\s*수|받는\s*거|받는지|받아야|나와요|나오나요|나올|물어요|물게|물어야|무나요|물\s*수|내야|내나요|부과)")


# Whether the business answers for what its staff did — what a 양벌규정 says ("직원이 …했는데 회사도 같이 벌금을
# 물어요?", "대표인 저나 회사도 처벌받아요?"): someone working for the business did it …
_STAFF_RE = re.compile(r"직원|종업원|알바|아르바이트|점원|매니저|대리인|사용인|일하는\s*(?:사람|분|애|친구)|근무자|"
                       r"판매원|영업\s*사원|상담원|배달\s*기사|기사님|강사님?|실장님?|부하")
# … and the business itself is asked about as well ("회사도", "법인 역시", "업체까지") — not its head in person ("사장인
# 저도 처벌받아요?" may ask the head's own liability, e.g. a 경영책임자's under 중대재해처벌법, which is no 양벌규정)
# The employer may be any body that has staff: an association, a co-operative, a foundation, a shop, a clinic
_EMPLOYER_TOO_RE = re.compile(r"(?:회사|법인|업체|가게|본사|사업장|매장|점포|학원|병원|식당|공장|협회|조합|단체|재단|"
                              r"기관|센터|사무소|대리점|지점|약국|의원|업소|어린이집|유치원)\s*(?:도|까지|역시)(?![가-힣])")


# … or the owner in person when the staff did it behind their back ("직원이 사장 몰래 팔았대요. 사장인 저까지 벌금을
# 물어요?"): a sole proprietor is the 개인 a 양벌규정 punishes — unlike "용역 직원이 목숨을 잃으면 사장인 저도 …", where
# the staff did nothing and the owner's own duty is asked
_OWNER_TOO_RE = re.compile(r"(?:사장|대표|원장|주인|사업주|점주|업주)님?(?:(?:인|이고|으로서)?\s*(?:저|제가|나)\s*(?:도|까지|나)"
                           r"|\s*(?:도|까지|역시)(?![가-힣]))")  # … or asked of the owner by someone else: "가게 주인도 같이"
_BEHIND_BACK_RE = re.compile(r"몰래|몰랐|모르게|모르는\s*사이")


def asks_for_the_employer(question: str) -> bool:
    """Does the question ask whether the business is punished too for what its staff did (a 양벌규정's matter)?"""
    if not (_sanction_cue(question) and (m := _STAFF_RE.search(question))):
        return False
    return bool(_EMPLOYER_TOO_RE.search(question, m.end())
                or (_OWNER_TOO_RE.search(question, m.end()) and _BEHIND_BACK_RE.search(question)))


def sanctions_asked(question: str) -> tuple[str, ...]:
    """The kinds of penalty provision (``PENALTY_HEADING_RE``'s kind) a question asking the sanction is answered by,
    preferred first: "과태료" a 과태료 article, "과징금" a 과징금 one; "처벌", "벌금", "징역" the 벌칙 (criminal) articles,
    then 과태료 (an everyday "처벌" covers a fine too) — never a 과징금, which replaces a business suspension; the
    양벌규정 first when the business is asked about for what its staff did (``asks_for_the_employer``)."""
    kinds: list[str] = ["양벌"] if asks_for_the_employer(question) else []
    if re.search(r"처벌|벌금|징역|형사\s*책임|벌칙|감옥", question) or (
            _PLAIN_PUNISHMENT_RE.search(question) and _LAW_WORD_RE.search(question)):
        kinds.append("벌칙")
    if "과태료" in question or kinds:
        kinds.append("과태료")
    if "과징금" in question:
        kinds.append("과징금")
    return tuple(kinds)


# The sanction for a given offence in a series ("처음 걸리면 과태료가 얼마 나와요?", "업무정지가 처음엔 몇 개월이에요?",
# "두 번째는요?"): what a table of sanctions by the number of offences (위반 횟수별 부과기준) says, never the ceiling
# an Act's article sets ("300만원 이하의 과태료", "6개월 이내의 기간을 정하여").
_NTH_OFFENCE_RE = re.compile(r"처음|첫\s*번째|첫\s*위반|[123]\s*차|두\s*번째|세\s*번째")
_GRADED_SANCTION_RE = re.compile(r"과태료|벌금|과징금|영업\s*정지|업무\s*정지|자격\s*정지|정지\s*처분")
# … stated by such a table: "1차 위반", "2회 위반", "위반 횟수", "첫 번째"
OFFENCE_COUNT_RE = re.compile(r"(?:[1-9]|첫|두|세|네)\s*(?:차|회|번째)\s*(?:위반|이상)|위반\s*횟수|[1-9]\s*차\b|첫\s*번째|두\s*번째")


def asks_a_graded_sanction(question: str) -> bool:
    """Does the question ask the sanction for the first (second, …) offence — a figure only a table of sanctions by
    the number of offences states?"""
    return bool(_NTH_OFFENCE_RE.search(question) and _GRADED_SANCTION_RE.search(question))


def asks_the_sanction(question: str) -> bool:
    """Is the state sanction itself what the question asks (``asks_a_sanction`` and ``_SANCTION_ASKED_RE``, or whether
    the business is punished too, ``asks_for_the_employer``)?"""
    return asks_a_sanction(question) and (bool(_SANCTION_ASKED_RE.search(question)) or asks_for_the_employer(question))


# An article setting out who is barred from a licence, registration or post: "제4조(결격사유)", "제6조(임원의 결격사유)",
# "제15조의2 (산후조리업자의 결격사유 등)".
DISQUALIFICATION_HEADING_RE = re.compile(r"^제\s*\d+\s*조(?:\s*의\s*\d+)?\s*[(（][^)）]*결격[^)）]*[)）]")
# An ability denied to a kind of person or case: "받을 수 없는 사람", "못 받는 사람", "못 들어가는 경우" (then asked
# about anywhere: "…은 어떤 사람들이에요?", "누구예요?") …
_DENIED_TO_RE = re.compile(r"(?:수\s*(?:가|는|도)?\s*없는|못\s*\S*는)\s*(?:사람|자|분|경우)(?![가-힣]{2})")
_WHO_RE = re.compile(r"어떤\s*(?:사람|경우|분|자)|누구|누가")
# … or a question about who, whose clause denies the ability: "어떤 사람은 차릴 수가 없어요?", "누가 등록을 못 해요?"
_WHO_DENIED_RE = re.compile(r"(?:어떤\s*(?:사람|분|자)|누가|누구)[은는이가도]?\s[^?.,]{0,30}?(?:수\s*(?:가|는|도)?\s*없|못\s)")

# … words of that shape, not of what is barred from what
BARRED_SHAPE_WORDS = frozenset({"사람", "경우", "누구", "자", "분"})


def asks_who_is_barred(question: str) -> bool:
    """Does the question ask who cannot get or be something ("화물 운송 사업 허가를 못 받는 사람은 어떤 사람들이에요?")
    — what a statute's 결격사유 article answers, in words the asker never uses?"""
    return bool((_DENIED_TO_RE.search(question) and _WHO_RE.search(question)) or _WHO_DENIED_RE.search(question))


# Words of public regulation a question uses without naming a law — a fine, a permit, the authorities ("구청에",
# "나라에서"), getting caught, whose 허락 or what to get ("뭘 받아야 해요?": every such used gold is a law's): what binds
# a business is a statute's or a decree's to say, not a company's terms. Not "인가" ("…인가요"), a bare "시청" ("시청이
# 가능") or a bare "나라" ("어느 나라"). A public body as the one who acts ("구청이", "군에서", "공무원이") is such a cue
# too: a company's terms bind the company and its customers, never a 구청.
REGULATION_CUE_RE = re.compile(r"과태료|벌금|징역|처벌|벌칙|영업\s*정지|허가|관청|[구시군도]청(?:에서|으로|에|장)|지자체"
                               r"|나라에서|나라가|정부|행정\s*처분|등록\s*취소|걸리면|단속"
                               r"|(?:구청|군청)(?:이|가|은|는|도|의|에게|한테)|[구시군도]청\s*(?:직원|담당|공무원)"
                               r"|지방자치단체|공무원|주무관|(?:^|\s)[구군]에서|나랏돈|(?:^|\s)국가(?:가|에서)"
                               r"|나라에\s*(?:신고|알리|알려|보고|신청|내|청구)|허락(?:을|도)?\s*받|(?:뭘|무엇을|어떤\s*걸)\s*받아야")


def asks_about_regulation(question: str) -> bool:
    """Does the question ask the law (``asks_the_law``) or about public regulation (``REGULATION_CUE_RE``)?"""
    return asks_the_law(question) or bool(REGULATION_CUE_RE.search(question))


# ─── the short names a question uses for a law ─────────────────────────────────────────────────────

# A particle after a law's name in a question ("대리점법에 따르면", "가맹사업법상", "법률로는").
_NAME_PARTICLE_RE = re.compile(r"(?:상으로는|에서는|에서|에는|에게|으로는|으로|에|의|은|는|이|가|을|를|도|로|과|와|대로|상)$")


def law_names_in(question: str) -> list[tuple[str, Rank]]:
    """The law names a question uses, with the instrument each points to: "가맹사업법 시행령 제15조" →
    [("가맹사업법", "decree")]; "대리점법에 따르면" → [("대리점법", "act")]. A bare "법" is not a name (it is
    ``asks_the_law``'s cue). A name written in several words ("개인정보 보호법") is given whole."""
    return [(names[0], rank) for names, rank in _law_words(question)]


def _law_words(question: str) -> list[tuple[list[str], Rank]]:
    """Per law name in the question: the name with one and two words before it joined on (longest first:
    "개인정보 보호법" → ["개인정보보호법", "보호법"]) and the instrument it points to."""
    words = [_NAME_PARTICLE_RE.sub("", w) for w in re.findall(r"[가-힣A-Za-z0-9ㆍ·]+", question)]
    out: list[tuple[list[str], Rank]] = []
    for i, w in enumerate(words):
        rank: Rank = "act"
        for suffix, r in INSTRUMENT_SUFFIXES:
            if w.endswith(suffix) and len(w) > len(suffix):
                w, rank = w[: -len(suffix)], r
                break
        else:
            nxt = words[i + 1] if i + 1 < len(words) else ""
            rank = next((r for suffix, r in INSTRUMENT_SUFFIXES if nxt == suffix), "act")
        if w.endswith(("법", "법률")) and len(re.sub(r"(?:법률|법)$", "", w)) >= 2:
            longer = ["".join([*words[max(0, i - k) : i], w]) for k in (2, 1) if i - k >= 0]
            out.append(([*longer, w], rank))
    return out


def _bigrams(text: str) -> set[str]:
    return {w[i : i + 2] for w in re.findall(r"[0-9A-Za-z가-힣]+", text) for i in range(len(w) - 1)}


def _name_fit(name: str, act_title: str) -> float:
    stem = re.sub(r"(?:법률|법)$", "", name_key(name))
    grams = _bigrams(stem)
    if len(stem) < 2 or not grams:
        return 0.0
    return len(grams & _bigrams(name_key(act_title))) / len(grams)


def _initials_fit(name: str, act_title: str) -> float:
    """1.0 when ``name``'s stem is made of syllables that open the title's words, in order ("온투법" ←
    온라인ㆍ투자연계금융업, "생협법" ← 소비자 생활ㆍ협동조합, "중처법" ← 중대재해 처벌): the first within the title's
    first four syllables, each next one at most six syllables on; else 0. Stems of one syllable never fit."""
    stem = re.sub(r"(?:법률|법)$", "", name_key(name))
    title = re.sub(r"[^가-힣]", "", name_key(split_instrument(act_title)[0]))
    if len(stem) < 2 or not re.fullmatch(r"[가-힣]+", stem):
        return 0.0
    at = title.find(stem[0])
    if at < 0 or at > 3:
        return 0.0
    for ch in stem[1:]:
        nxt = title.find(ch, at + 1)
        if nxt < 0 or nxt - at > 6:
            return 0.0
        at = nxt
    return 1.0


def abbreviates(name: str, act_title: str) -> bool:
    """Is ``name`` ("가맹사업법", "전자상거래법", "약관규제법", "온투법") a short name of the Act ``act_title``
    ("가맹사업거래의 공정화에 관한 법률")? Most of its stem's character bigrams occur in the title (people drop
    words and particles, never invent syllables), or its syllables open the title's words in order."""
    return _name_fit(name, act_title) >= 0.6 or _initials_fit(name, act_title) == 1.0


# "법 제11조를 보면", "시행령 제14조에서는", "약관 제17조에": a bare word right before an article says which kind of
# document's article it is (a law's own name is read by ``laws_named``; "규정", "규칙" may be either kind)
_KIND_BEFORE_ARTICLE_RE = re.compile(r"(?<![가-힣])(?P<w>법률|법|시행령|영|시행규칙|약관|계약서)\s*(?:의\s*)?제\s*\d+\s*조")
_KIND_WORDS = {"법": "statute", "법률": "statute", "시행령": "decree", "영": "decree", "시행규칙": "rule",
               "약관": "other", "계약서": "other"}


def kinds_before_articles(question: str) -> set[str]:
    """The document kinds (``title_kind``'s) the bare words before the question's article references name:
    "법 제11조" → {"statute"}, "시행령 제3조" → {"decree"}, "약관 제17조" → {"other"}."""
    return {_KIND_WORDS[m.group("w")] for m in _KIND_BEFORE_ARTICLE_RE.finditer(question)}


def laws_named(question: str, titles: list[str] | set[str] | tuple[str, ...]) -> set[str]:
    """The law titles among ``titles`` a question names by a short name, each at the rank it asks for:
    "가맹사업법 제10조" names the Act and not its decree (whose title holds the Act's name too);
    "가맹사업법 시행령" names the decree. A name goes to the Acts it fits best ("개인정보보호법" fits
    "개인정보 보호법" wholly and "정보통신망 … 정보보호 … 법률" only in part)."""
    laws = [(t, *split_instrument(t)) for t in titles if title_kind(t) != "other"]
    out: set[str] = set()
    for names, rank in _law_words(question):
        # the best fit wins; at a tie the Act the name spells exactly ("의료법" is 의료법, though its bigrams fit
        # 응급의료에 관한 법률 too), then the longer reading ("개인정보보호법" over "보호법")
        fits = [(_name_fit(n, act), name_key(n) == name_key(act), len(n), t)
                for n in names for t, act, r in laws if r == rank]
        best = max(((f, ex, ln) for f, ex, ln, _ in fits), default=(0.0, False, 0))
        if best[0] >= 0.6:
            out.update(t for f, ex, ln, t in fits if (f, ex, ln) == best)
        else:  # an initials short name ("온투법") only when it fits one Act of the collection
            acts = {act for n in names[-1:] for t, act, r in laws if _initials_fit(n, act)}
            if len(acts) == 1:
                out.update(t for t, act, r in laws if act in acts and r == rank)
    return out


# ─── references between laws ────────────────────────────────────────────────────────────────────

# The words that name the document itself: "이 법", "이 영", "이 규칙" (and a contract's "이 약관" …).
SELF_WORDS = ("법", "법률", "영", "령", "규칙", "규정", "계약", "약관", "정책", "조례")
# "같은 법", "동법": the law named last.
SAME_LAW_WORDS = ("같은법", "동법", "같은법률")
# "같은 법 시행령", "이 법 시행규칙": a member of the family of the law named last, or of this document's.
INSTRUMENT_OF = {"시행령": "decree", "시행규칙": "rule"}
# The law named before an article, as the reference patterns capture it (group ``law``): "이 영", "같은 법",
# "법", "영", "시행령", "민법", "상법 시행령" is not caught (statutes bracket other laws: 「상법 시행령」).
# ("이 법" after a closing bracket is the subject particle and "법": "금융기관(…)이 법 제22조의2".)
LAW_QUALIFIER = (r"(?P<law>(?<![)\]」』\"”'’])(?:이|같은|동)\s*법\s*시행(?:령|규칙)|[가-힣ㆍ·]{0,30}?법\s*시행(?:령|규칙)"
                 r"|(?<![)\]」』\"”'’])(?:이|같은|동)\s*(?:법률|법|영|규칙|계약|약관|규정|정책)"
                 r"|동법|동령|[가-힣ㆍ·]{1,30}?(?:법률|법|령|규칙|규정)|법|영)\s*")
# "「형법」 제2편제25장 상해와 폭행의 죄 중 제257조": an article picked out of a part of the law named before —
# that law's, though no list joins it to the name.
LAW_PART_BEFORE_RE = re.compile(r"「(?P<law>[^」]{1,60})」\s*제\s*\d+\s*(?:편|장)(?:\s*제\s*\d+\s*(?:장|절))*"
                                r"[^「」\n.]{0,40}?\s중\s*$")
# Quoted wording of another provision (structure.korefs: its relative references are that provision's): quoted after
# "중"/"에서" ("법 제116조의2제1항제2호 단서에서 "제2항에 따른 …""), or the wording a reading replaces ('"…"는 "…"으로');
# not when the quoted provision is a 항 or 호 of the same article ("⑫ 제11항에서 "제12항 각 호에 해당하는 경우"란"; a 호
# of another article's 항 is not: "「특허법」 제141조제1항제1호 중 "…"").
QUOTED_BEFORE_RE = re.compile(r"(?:중|에서)\s*$")
OWN_QUOTED_BEFORE_RE = re.compile(r"(?<![조항\d\s])\s*제\s*\d+\s*[항호](?:\s*제\s*\d+\s*호)?\s*(?:중|에서)\s*$")
QUOTED_REPLACED_AFTER_RE = re.compile(r"\s*(?:은|는)\s*[\"“]")
# A law named without 「」 and given a short name right before the article: "낙농진흥법(이하 "법"이라 한다) 제4조제1항"
# (old decrees and rules) — that law's article, not this text's. The name is one word (a spaced name's start is unknown).
PLAIN_NAME_ALIAS_BEFORE_RE = re.compile(r"(?<![가-힣ㆍ·」])(?P<name>[가-힣ㆍ·]{1,40}?(?:법률|법)(?:\s*시행(?:령|규칙))?)\s*"
                                        r"\(\s*이하\s*[\"“'‘][^\"”'’]{1,8}[\"”'’]\s*(?:이)?라\s*한다\s*\)\s*$")
# "법률 제6132호 문화예술진흥법중개정법률 부칙 제3조에 따라", "「민법」 부칙 제2조": the article named next is a 부칙
# article of another law (or of an amending act), never one of this text's — written right before the reference.
OTHER_ADDENDA_BEFORE_RE = re.compile(r"(?:법률|(?<=[가-힣」])법|령|규칙|」)\s*(?:의\s*)?부\s*칙\s*$")
# A word that is a law's name ("문화예술진흥법중개정법률", "민법", "「민법」"'s inside): its parts are that law's
# name, not words of the sentence (a 부칙 clause is not about 제13조 "문화예술 진흥" for naming the Act).
LAW_NAME_WORD_RE = re.compile(r"[가-힣ㆍ·]+(?:법률|법)(?:에서|에는|에게|으로|에|의|은|는|이|가|을|를|과|와|상|로)?(?![가-힣])")
# A qualifier written before a relative reference: "법 같은 조 제10항", "법 제2호" (the Act's, never this
# document's, although no article pattern takes the word).
QUALIFIER_BEFORE_RE = re.compile(r"(?<![가-힣])(?P<q>법|영|시행령|시행규칙)\s*$")
# "「상호저축은행법」(이하 "법"이라 한다)": a short name defined for a law in the text.
ALIAS_RE = re.compile(r"「(?P<name>[^」]{1,80})」\s*\(\s*이하\s*[\"“'‘]?(?P<short>[^\"”'’)]{1,20}?)[\"”'’]?"
                      r"\s*(?:이?라|라고)\s*한다\s*\)")
# What may stand between two references of one list, so that the second one continues the first one's law
# (and article): "법 제24조의2부터 제24조의12까지", "제3조제1항 각 호 및 제2항 각 호", "「X」 제10조제1항, 제14조제2항",
# "법 제10조(제3호는 제외한다)", "「상호저축은행법」(이하 "법"이라 한다) 제2조제4호".
REF_CONNECTOR_RE = re.compile(
    r"(?:[ \t]|,|，|및|또는|이나|나|부터|까지|내지|ㆍ|·|와|과|중|\(|각\s*호(?:\s*외의\s*부분)?|각\s*목(?:\s*외의\s*부분)?"
    r"|[가-하]\s*목|본문|단서|전단|후단|비고|(?:에\s*대한|의)\s*부분|\(\s*이하\s*[^()\n]{1,24}\s*한다\s*\)"
    # a part of the same law listed among its articles ("제4조, 제2장제1절, 제16조", "(제2장제1절 및 제2절, 제3장부터 …")
    r"|제\s*\d+\s*(?:편|장|절|관)(?:\s*의\s*\d+)?)*")
# A range ("제6조부터 제8조까지", older "제3조 내지 제5조"): the gap between its ends; "부터" needs "까지" after the second.
RANGE_GAP_RE = re.compile(r"\s*(?P<word>부터|내지)\s*")
RANGE_END_RE = re.compile(r"\s*까지")
# "…의 개정규정" after a list of references: the provisions as an amendment wrote them ("제5조의 개정규정은 … 시행한다")
AMENDED_PROVISIONS_AFTER_RE = re.compile(
    r"\s*(?:까지)?\s*(?:(?:본문|단서|전단|후단|각\s*호\s*외의\s*부분)\s*)?의\s*개정\s*규정")
# A connector holds at least one of these (a space alone joins the parts of one reference).
REF_CONNECTOR_WORDS = (",", "，", "및", "또는", "이나", "나", "부터", "까지", "내지", "ㆍ", "·", "와", "과", "(", "이하", "중",
                       "비고")
# An amending provision in a 부칙: "② 경비업법 일부를 다음과 같이 개정한다." — the text after it until the next
# provision is the amended law's wording, not links into this document.
# "법률 제8221호 선박안전법 전부개정법률 일부를 다음과 같이 한다." (a law not yet in force is amended "…같이 한다").
# "다음가 같이" is a misprint the official text carries (국유재산법 시행령's amendment in a 2016 decree's 부칙).
AMENDMENT_RE = re.compile(r"(?:\s*(?:일부|전부)\s*(?:를|을)|\s*(?:을|를)|\s*중)?\s*다음[과가]\s*같이\s*개정한다"
                          r"|\s*(?:일부|전부)\s*(?:를|을)\s*다음[과가]\s*같이\s*한다")
# The amended law's name, at the end of the text before AMENDMENT_RE (after a provision's label):
# "② 경비업법 일부를 …", "제10조(다른 법률의 개정) 소득세법 일부를 …", "「형법」 일부를 …", "항공법중 …".
AMENDED_LAW_RE = re.compile(r"(?:법률\s*제\s*\d+\s*호\s*)?(?:「(?P<bracketed>[^」\n]{1,80})」|(?P<plain>[가-힣A-Za-z0-9ㆍ·]"
                            r"[가-힣A-Za-z0-9ㆍ· \t]{0,79}?))(?:\s*(?:전부|일부)\s*개정\s*법률)?\s*$")
# A provision kept only as "생략" (omitted) in an amending act's 부칙: "제2조부터 제4조까지 생략", "<18> 부터 <113> 까지 생략".
# An editorial note on renumbering ("[종전 제10조는 제11조로 이동 <2015.12.1>]", "[제4호는 제2호의2로 이동 …]"): its
# numbers are the old ones, never links to the provisions that bear them now.
RENUMBER_NOTE_RE = re.compile(r"\[[^\[\]\n]{0,80}?(?:이동|종전\s*제)[^\[\]\n]{0,80}\]")
OMITTED_RE = re.compile(r"생\s*략\s*[.]?\s*$")
# The same, as the rest of a paragraph's line: "①부터 ⑨까지 생략", "① 내지 <16> 생략", "① 및 ② 생략" (``end``: the last).
OMITTED_RANGE_RE = re.compile(r"\s*(?:부터|내지|및|,)\s*(?P<end><\d{1,3}>|[①-⑳㉑-㉟㊱-㊿])\s*(?:까지)?\s*생\s*략")
# After a reference to another law's clause, wording that makes the clause's content part of the sentence
# ("법 제34조제1항 각 호의 사항을 알려야 한다"): such a reference is followed like a pointer.
CONTENT_AFTER_RE = re.compile(r"^\s*(?:각\s*(?:호|목)\s*(?:의|에)|(?:의|에서\s*정한|에\s*따른)\s*(?:사항|기준|요건|서류|내용|정보))")
# The 부칙 of another (amending) act, quoted in a law's history: "부칙(정부조직법) <제8852호,2008.2.29>". It holds only
# the articles that concern this law, so its numbering has gaps by design.
EXCERPT_ADDENDA_RE = re.compile(r"^부\s*칙\s*[(（][^)）]+[)）]")
# A 부칙 heading line further on ("부칙 <제861호,2005.7.29>", "## 부칙").
ADDENDA_LINE_RE = re.compile(r"^[ \t#]*부\s*칙(?=\s|[<(（]|$)", re.MULTILINE)
# "부칙 제1조 단서": a 부칙 names its own articles with the word; a bare "제3조" in a 부칙 is the 본칙's — but the
# consolidated text's "[시행일 : 2017.12.30] 제5조" inside a 부칙 dates that 부칙's own article
ADDENDA_WORD_BEFORE_RE = re.compile(r"(?:부\s*칙|\[\s*시행일[^\]\n]{0,40}\])\s*$")

# A chunk's pointer into another law, as the index keeps it beside its in-document target paths
# ("↗상호저축은행법|본문/제34조/제1항"); retrieval finds the law's document when the collection holds it.
LAW_POINTER = "↗"


def law_pointer(law: str, clause: str) -> str:
    return f"{LAW_POINTER}{law}|{clause}"


def read_law_pointer(target: str) -> tuple[str, str] | None:
    """(law, clause) of a pointer made by ``law_pointer``; None for an in-document target path."""
    if not target.startswith(LAW_POINTER):
        return None
    law, _, clause = target[len(LAW_POINTER) :].partition("|")
    return (law, clause) if law and clause else None
# The parser's reasons for a reference into another document (a collection may resolve it).
EXTERNAL_REASONS = ("other law", "other document")
