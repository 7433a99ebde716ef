"""Whether an answer fits its question: the kind of thing it asks for (a time, an amount, a place, a
contact) and what it is about (a wh-question's focus noun phrase)."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable
from functools import lru_cache

from jogak.answer.generators.candidates import Candidate, article_key
from jogak.answer.generators.leads import lead_quotes
from jogak.answer.generators.weights import ExtractiveWeights
from jogak.answer.units import Unit, normalise_ws
from jogak.grammar.definitions import asks_a_meaning
from jogak.grammar.laws import OFFENCE_COUNT_RE, asks_a_graded_sanction, asks_the_law, title_kind
from jogak.grammar.patterns import (
    ASKS_LIABILITY_RE,
    ASKS_WHERE_TO_FILE_RE,
    DEFINITION_HEADING_RE,
    FILING_PLACE_RE,
    LIABILITY_ANSWER_RE,
    REFERENCE_VERB_STEMS,
    asks_present_fact,
)
from jogak.lexicon.quantities import (
    ASK_HOW_MANY,
    ASKS_QUANTITY,
    CYCLE_ANSWER,
    MONEY_ANSWER,
    MONEY_FIGURE,
    QTY_ANSWER,
    TIME_ANSWER,
    TIME_OR_QTY,
    asks_a_bound,
    asks_a_charge,
    asks_a_cycle,
    asks_exact_figure,
    asks_money,
    asks_quantity,
    asks_time,
    counters_asked,
    figure_asked,
    states_figure,
)
from jogak.lexicon.ranges import Amount, fits_range, meets_condition

__all__ = ["also_asked", "answers_type", "asks_quantity", "lists_several", "narrowed", "question_focus", "range_factors",
           "row_fits", "typed_part", "wanted_types"]

# A question asking "when / how long" wants a time expression, "how much" an amount, "where" a place
# (scoring: a unit that lacks one is scored down per missing type).
_ANSWER_TYPES = [
    (re.compile(r"언제|며칠(?!\s*째)|몇\s*일(?!\s*째)|얼마나\s*(?:걸|오래|빨리|미리|일찍)|얼마\s*(?:동안|전)|"
                r"\bwhen\b|how\s+(?:long|soon|quickly)|deadline|by\s+when|how\s+much\s+notice", re.I),
     TIME_ANSWER),
    (re.compile(rf"얼마|{ASK_HOW_MANY}|최대|최소|한도|상한|비율|퍼센트|%|금액|비용|요금|가격|단가|"
                r"how\s+(?:much|many)|percent|\brate\b|maximum|minimum|\bcap\b|price|\bcost", re.I),
     QTY_ANSWER),
    (re.compile(r"어디|where", re.I), re.compile(r"\[[^\]]+\]|메뉴|센터|위원회|소비자원|앱|website|office", re.I)),
]
# The types an answer must carry to answer at all: a question that asks (with an interrogative — not a
# noun such as 기간 or 금액) how much / how many / how long / when, and that no chosen unit answers with a
# quantity or a time, is not answered by these excerpts (an abstention signal).
_CONTACT_ANSWER = re.compile(r"\d{2,4}[-.)]\s?\d{3,4}[-.]\d{4}|\+\d{1,3}[\s-]?\d|[\w.+-]+@[\w-]+\.[\w.]+|"
                             r"https?://|www\.", re.I)
_REQUIRED_TYPES = [
    (ASKS_QUANTITY, TIME_OR_QTY),  # a time or an amount answers either cue (jogak.lexicon.quantities)
    (re.compile(r"전화번호|연락처|전화\s*번호|이메일|메일\s*주소|홈페이지|phone|e-?mail|website|\burl\b", re.I),
     _CONTACT_ANSWER),
    (ASKS_LIABILITY_RE, LIABILITY_ANSWER_RE),  # "물어 줘요?": a unit on paying or compensating
    (ASKS_WHERE_TO_FILE_RE, FILING_PLACE_RE),  # "어디에 신고해요?": a unit naming the body that takes it
]
# Interrogatives whose focus — the noun phrase marked as topic/subject right before them ("해외 배송비는
# 얼마예요" → 해외, 배송비) — an answer must be about.
_WH = frozenset({"얼마", "몇", "언제", "며칠", "어디", "누구", "무엇", "뭐"})
_FOCUS_SKIP = frozenset({"MAG", "MM", "NNB", "NR", "SN", "XSN"})


def wanted_types(question: str) -> list[re.Pattern[str]]:
    """The answer types a question asks for ("언제" a time, "얼마" an amount, "어디" a place), as the
    patterns a unit that has one matches."""
    wants = [rx for cue, rx in _ANSWER_TYPES if cue.search(question)]
    if asks_a_cycle(question):  # "보고는 얼마마다 해요?" wants "2년마다", not any amount ("1천만원 이하의 과태료")
        wants = [rx for rx in wants if rx is not QTY_ANSWER and rx is not TIME_ANSWER] + [CYCLE_ANSWER]
    return wants


def typed_part(part: str, ranked: list[Candidate], floor: float,
               among: Callable[[Candidate], bool]) -> Candidate | None:
    """For a part of a question that asks a figure ("셔틀까지 타면 얼마 더 내요?": money; "며칠": a period;
    ``figure_asked``) whose best unit (``ranked[0]``, by the part's own score) states none: the best unit ``among``
    the answer's own clauses or tables that does, scoring ``floor`` of the part's best — else None. The fee of the
    shuttle is the row below the class fee in the table the answer quotes, not the sentence about the van that
    shares the part's words. A part asking whether something costs ("…도 내야 해요?") is answered by a best unit
    saying it costs nothing ("…는 내지 아니한다"): no other figure joins."""
    charge = not asks_quantity(part) and asks_a_charge(part)
    kind = figure_asked(part) if asks_quantity(part) else MONEY_FIGURE if charge else None
    if not ranked or kind is None or kind.search(ranked[0].unit.display()):
        return None
    if charge and MONEY_ANSWER.search(ranked[0].unit.display()):
        return None  # "선생님도 입장료를 내야 해요?" is answered by "인솔자는 입장료를 내지 아니한다", not by another fee row
    return next((c for c in ranked[1:] if c.score >= floor * ranked[0].score and among(c)
                 and kind.search(c.unit.display())), None)


def _article_title(c: Candidate) -> str:
    """The heading of the article a unit sits in ("제2조 (정의)"), else its chunk's clause name."""
    return c.unit.heading or str(c.excerpt.chunk.metadata.article or "")


def answers_type(question: str, chosen: list[Candidate], law: bool | None = None,
                 cands: list[Candidate] | None = None, max_lead: int = ExtractiveWeights().max_lead_chars) -> bool:
    """Whether the chosen units state what the question asks for when it asks for a quantity or a time
    ("며칠", "얼마", "how long"), a contact ("전화번호", "e-mail"), who pays for a loss ("물어 줘요?": a unit on
    paying, compensating or bearing it) or where to file ("어디에 신고해요?": a unit naming the body that takes
    it): some unit itself (a table row with
    its header) holds one; a count asked with its counter ("몇 번", "몇 퍼센트") needs a number of that kind.
    A unit of a definitions article ("제2조 (정의)") leading the answer answers only a question asking what
    something is (``asks_a_meaning``): its list of terms is no list of the facts a question asks for.
    A question asking what the law says ("법으로는", "법적으로") — or ``law``: pointing to the law otherwise
    (``documents.points_to_law``) — is not answered by a company's own terms restating or bettering it: the
    answer's leading unit comes from a statute, decree or rule (a law's unit quoted after the terms' does not
    make the terms' rule the law's answer). A question asking who holds a role or a designation today
    (``asks_present_fact``) is not answered by a statute's clause."""
    if chosen and DEFINITION_HEADING_RE.search(_article_title(chosen[0])) and not asks_a_meaning(question):
        return False  # a definitions article says what words mean: not what a question about facts asks
    led_by_law = bool(chosen) and title_kind(chosen[0].excerpt.chunk.metadata.doc_title or "") != "other"
    if (asks_the_law(question) if law is None else law) and not led_by_law:
        return False
    if asks_present_fact(question) and led_by_law:
        return False  # "지금 어느 기관이 운영하고 있어요?": a statute names who may, not who does today
    if asks_exact_figure(question) and chosen and not any(
            states_figure(_said(c, cands or chosen, max_lead), question) for c in chosen if article_key(c) == article_key(chosen[0])):
        return False  # "과태료가 실제로 얼마" answered by "300만원 이하의 과태료": the figure is not in its clause
    if asks_quantity(question) and not asks_a_bound(question) and asks_a_graded_sanction(question) and not any(
            OFFENCE_COUNT_RE.search(_said(c, cands or chosen, max_lead)) for c in chosen):
        return False  # "처음 걸리면 과태료가 얼마" answered by the ceiling: the first offence's figure is a table's
    wants = [rx for cue, rx in _REQUIRED_TYPES if cue.search(question)] + counters_asked(question)
    if asks_a_cycle(question):  # "몇 년마다": a cycle or a period, not "1년이 지나지 아니한 자" (a lapse)
        wants = [rx for rx in wants if rx is not TIME_OR_QTY] + [CYCLE_ANSWER]
    elif kinds := [rx for asks, rx in ((asks_money, MONEY_ANSWER), (asks_time, TIME_ANSWER)) if asks(question)]:
        # "한 번에 얼마예요?" is not answered by "마사지 2회", "며칠 만에 받아요?" by "3천원"; asking both, each is
        wants = [rx for rx in wants if rx is not TIME_OR_QTY] + kinds
    # a definitions list joined beside another clause's answer states no asked figure ("…목재가 무게로 70퍼센트 이상
    # 들어간 제품을 말하며" is no price for "한 사람에 얼마예요?")
    lead = article_key(chosen[0]) if chosen else None
    stating = [c for c in chosen if article_key(c) == lead or not DEFINITION_HEADING_RE.search(_article_title(c))]
    return all(any(rx.search(_said(c, cands or chosen, max_lead)) for c in stating) for rx in wants)


def _said(c: Candidate, cands: list[Candidate], max_lead: int) -> str:
    """What the answer says with a unit: a list item comes with its lead when the lead is quoted with it
    ("다음 각 호의 어느 하나에 해당하는 자에게는 500만원 이하의 과태료를 부과한다." + "4. 제28조제4항을 위반하여 …한
    자"): the amount a question about the sanction asks is in the lead, the violation in the item. Only a lead the
    answer can quote (``lead_quotes``): one the excerpts do not hold is not said."""
    text = c.unit.display()
    if c.unit.kind == "item" and (leads := lead_quotes(c, cands, max_lead)):
        return " ".join([*(normalise_ws(u.text) for _, u in leads), text])
    return text


# Separators of things named one after another in one sentence: "대지, 높이 및 형태, 구조안전, 화재안전",
# "열람실 이용료, 복사ㆍ출력 요금과 독서 강좌 수강료".
_ENUMERATION_SEP = re.compile(r"[,ㆍ·]")


def lists_several(chosen: list[Candidate]) -> bool:
    """Whether the chosen units name several things, as a question asking for an enumeration ("어떤 경우들이에요?",
    "뭐뭐 내야 해요?") needs: two items or table rows, or a sentence naming things one after another. One
    sentence stating one case ("사람이 죽거나 크게 다친 사고가 나면 … 보고한다") is no answer to "어떤 경우들"."""
    if sum(c.unit.kind in ("item", "table_row") for c in chosen) >= 2:
        return True
    return any(len(_ENUMERATION_SEP.findall(c.unit.text)) >= 2 for c in chosen)


def row_fits(u: Unit, amounts: list[Amount]) -> bool | None:
    """Whether a table row's condition (its first cell: "공연일 9일 전부터 7일 전까지") holds (True) or misses
    (False) the amount the question states ("공연 8일 남기고"); None when there is nothing to compare. Not list
    items: a statute's items name amounts as labels ("15세 이상 관람가") or in passing ("영업 기간이 1년 미만인
    경우"), where a question's "15세" or "1년" is no condition."""
    if not amounts or u.kind != "table_row" or len(u.cells) < 2:
        return None
    return fits_range(amounts, u.cells[0])


def range_factors(units: list[Unit], amounts: list[Amount], w: ExtractiveWeights) -> list[float]:
    """Each unit's score factor for the amount the question states: a table row whose condition cell holds it
    × ``range_hit``, misses it × ``range_miss`` (``row_fits``); the sentences or list items stating as their
    condition the range that holds it most closely × ``condition_hit`` ("만 6세 미만인 아이는" for "다섯 살 딸";
    "7일 이상" over "3일 이상" for "7일"); those whose condition ranges all miss it × ``condition_miss`` ("만 6세
    이상인 아이가" for "다섯 살"), milder than a table row's miss: a text may name amounts in passing."""
    out = [1.0] * len(units)
    if not amounts:
        return out
    gaps: dict[int, float] = {}
    for i, u in enumerate(units):
        if u.kind == "table_row":
            fit = row_fits(u, amounts)
            out[i] = 1.0 if fit is None else w.range_hit if fit else w.range_miss
        elif (gap := meets_condition(amounts, u.text)) is not None:
            gaps[i] = gap
    closest = min(gaps.values(), default=None)
    for i, gap in gaps.items():
        out[i] = w.condition_miss if gap == math.inf else w.condition_hit if gap == closest else 1.0
    return out


def question_focus(question: str) -> list[str]:
    """The noun phrase a wh-question asks about: the last (at most two) nouns marked as topic or subject
    right before the interrogative ("해외 배송비는 얼마예요?" → ["해외", "배송비"]; "포인트는 얼마 동안" →
    ["포인트"]). Empty when the question has no such phrase."""
    from jogak.korean import kiwi

    if not any("\uac00" <= ch <= "\ud7a3" for ch in question):
        return []
    toks = kiwi().tokenize(question)
    for i, t in enumerate(toks):
        if t.form not in _WH:
            continue
        j = i - 1
        while j >= 0 and toks[j].tag in _FOCUS_SKIP:
            j -= 1
        if j < 1 or toks[j].tag not in ("JX", "JKS") or toks[j].form not in ("은", "는", "이", "가"):
            continue
        nouns: list[str] = []
        k = j - 1
        while k >= 0 and toks[k].tag in ("NNG", "NNP") and len(nouns) < 2:
            nouns.append(toks[k].form)
            k -= 1
        return [w for w in reversed(nouns) if len(w) >= 2]
    return []


def also_asked(question: str) -> list[str]:
    """The noun a yes/no question asks the rule to extend to, marked by "도" ("아이스팩도 가져가 줘요?",
    "주말에도 수업해요?", "화상으로도 받을 수 있어요?" → ["아이스팩"], ["주말"], ["화상"]): a clause that never
    speaks of it does not answer whether it holds for it. The last such noun of the asking sentence only; empty
    without one."""
    from jogak.korean import kiwi

    if not any("\uac00" <= ch <= "\ud7a3" for ch in question):
        return []
    # only the sentence that asks: "…서류도 안 줬어요. 원래 설명해 줘야 하는 거예요?" describes, then asks
    body = question.rstrip().rstrip("?？ ")
    asked_from = max(body.rfind(x) for x in ".?!。？") + 1
    toks = kiwi().tokenize(question)
    found: list[str] = []
    for i, t in enumerate(toks):
        if t.start < asked_from:
            continue
        if _fused_do(toks, i):
            found = [t.form[:-1]]
            continue
        if t.tag != "JX" or t.form != "도":
            continue
        j = i - 1
        if j >= 0 and toks[j].tag == "JKB" and toks[j].form in ("에", "로", "으로", "에서"):
            j -= 1
        word = ""
        while j >= 0 and toks[j].tag in ("NNG", "NNP") and (
                not word or toks[j].start + toks[j].len == toks[j + 1].start):  # one written word: "아이스팩"
            word = toks[j].form + word
            j -= 1
        if len(word) >= 2:
            found = [word]
    return found


def _fused_do(toks: list, i: int) -> bool:
    """A word the analyser does not know keeps its "도" ("왕사슴벌레도" is one NNG): a long noun ending in 도 before a
    predicate is that noun with the particle ("제도", "한도", "정도" are short or split off; "…자치도" is a province)."""
    t = toks[i]
    return (t.tag in ("NNG", "NNP") and len(t.form) >= 4 and t.form.endswith("도") and not t.form.endswith("자치도")
            and i + 1 < len(toks) and toks[i + 1].tag.startswith(("VV", "VA", "VX", "XSV")))


_CLAUSE_WORDS = ("NNG", "NNP", "VV", "VA", "XR", "SL")


@lru_cache(maxsize=4096)
def _narrowings(text: str, strict: bool = True) -> tuple[tuple[str, frozenset[str]], ...]:
    """The nouns ``text`` narrows by a relative clause, each with the clause's content words: "보상으로 지급된
    포인트" → (("포인트", {"보상", "지급"}),). ``strict``: a clause that only refers ("제1항에 따른 신고": the
    verb is in ``REFERENCE_VERB_STEMS``, or a clause number is in it) narrows nothing; not strict (a
    question), any relative clause before the noun counts."""
    from jogak.korean import has_hangul, kiwi

    if not has_hangul(text):
        return ()
    toks = kiwi().tokenize(text)
    out = []
    for i, t in enumerate(toks):
        if t.tag != "ETM" or i + 1 >= len(toks) or toks[i + 1].tag not in ("NNG", "NNP"):
            continue
        j = i - 1
        while j >= 0 and toks[j].tag in ("EP", "XSV", "XSA", "VX", "EC"):
            j -= 1
        if not strict:
            out.append((toks[i + 1].form, frozenset()))
            continue
        if j < 0 or toks[j].form in REFERENCE_VERB_STEMS or toks[j].tag.split("-")[0] not in _CLAUSE_WORDS:
            continue
        # the clause's content words: back from its verb to the sentence's last break, at most four ("관람할 수
        # 있는 영화": 있 is the verb, 관람 what it is about)
        k = j - 1
        while k >= 0 and j - k <= 8 and toks[k].tag not in ("SF", "SP", "SE", "SS"):
            k -= 1
        window = toks[k + 1 : j]
        if any(w.form in REFERENCE_VERB_STEMS and w.tag.startswith("VV") for w in window) or any(
                a.tag == "SN" and b.form in ("조", "항", "호") for a, b in itertools.pairwise(window)):
            continue  # "제1항에 따라 발급받은 자격증": issued under a clause, not a kind of certificate
        content = [w.form for w in [*window, toks[j]] if w.tag.split("-")[0] in _CLAUSE_WORDS]
        words = set(content[-4:])
        out.append((toks[i + 1].form, frozenset(words)))
    return tuple(out)


def narrowed(question: str, text: str) -> bool:
    """Whether ``text`` speaks of a narrower kind of what the question asks about: a noun of the question that
    the text restricts by a relative clause the question neither has nor hints at ("보상으로 지급된 포인트의
    유효기간은 90일" for "포인트 유효기간은?", whose rule is "포인트의 유효기간은 1년")."""
    found = _narrowings(text)
    if not found:
        return False
    q_words, q_narrowed = _question_words(question)
    return any(noun in q_words and noun not in q_narrowed and not (words & q_words) for noun, words in found)


@lru_cache(maxsize=256)
def _question_words(question: str) -> tuple[frozenset[str], frozenset[str]]:
    """The question's content words and the nouns it narrows itself — read once per question, not once per
    candidate unit."""
    from jogak.korean import kiwi

    words = frozenset(t.form for t in kiwi().tokenize(question) if t.tag.split("-")[0] in _CLAUSE_WORDS)
    return words, frozenset(noun for noun, _ in _narrowings(question, strict=False))
