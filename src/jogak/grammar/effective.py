"""When a text takes effect, as its 부칙 says it, and the amendment notes on its clauses.

    이 법은 공포한 날부터 시행한다.                                  → the promulgation date
    이 법은 공포 후 6개월이 경과한 날부터 시행한다.                  → promulgation + 6 months + 1 day
    이 정책은 2025년 1월 1일부터 시행한다.                          → 2025-01-01
    다만, 제8조의2제2항, 제14조제1항의 개정규정은 공포 후 3개월이 경과한 날부터 시행한다.
                                                                 → those clauses start later
    <개정 2013.8.13>, <신설 2020.7.31>, [본조신설 2020.7.31]       → per-clause amendment notes
    제2조(유효기간) 제5조의2의 개정규정은 2027년 12월 31일까지 효력을 가진다.
                                                                 → those clauses lapse after that day

"공포 후 N개월이 경과한 날" is counted as the Civil Act counts periods (민법 제157조, 제159조, 제160조): the
day of promulgation is not counted, the period ends on the day before the same date N months later, and
the law takes effect on the next day — so 2020-06-09 + 6 months → 2020-12-10, the 시행일자 law.go.kr gives.
Transitional provisions (경과조치, 적용례, "종전의 규정에 따른다") are recognised by their wording.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

from jogak.grammar.patterns import AMENDMENT_WORDS, label

# What a 부칙 calls the text it belongs to: "이 법", "이 영", "이 규칙", "이 정책", "이 약관", "이 규정" …
_SUBJECT = r"이\s*(?:법|영|령|규칙|정책|약관|규정|지침|기준|방침|고시|훈령|예규|조례)"
_KDATE = r"(?:19|20)\d{2}\s*년\s*\d{1,2}\s*월\s*\d{1,2}\s*일"
_DOTDATE = r"(?:19|20)\d{2}\s*[.-]\s*\d{1,2}\s*[.-]\s*\d{1,2}\.?"
# the start a sentence names: 공포한 날 / 공포 후 N개월(년, 일)이 경과한 날 / an absolute date
START_EXPR = (rf"(?:공포한\s*날|공포일|공포\s*후\s*\d+\s*(?:개월|년|일)이?\s*경과한\s*날|{_KDATE}|{_DOTDATE})")
# "이 법은 … 부터 시행한다" — the text's own start, also when the sentence goes on ("이 약관은 2026년 9월 1일부터
# 시행하며, …", "이 규칙은 공포한 날부터 시행하되, 2006년 1월 1일부터 적용한다")
MAIN_START_RE = re.compile(rf"{_SUBJECT}\s*[은는]\s*(?P<expr>{START_EXPR})\s*(?:로)?부터\s*시행(?:한다|하며|하고|하되)")
# "다만, 제8조의2제2항ㆍ제4항 … 의 개정규정은 공포 후 3개월이 경과한 날부터 시행한다" — clauses that start later;
# "… 적용한다" with a date is the same for a policy ("다만, 제4조제1항의 분기별 공시는 2027년 4월 1일부터 적용한다"); a
# date followed by anything else ("2027년 1월 1일 이후에 가입하는 회원부터 적용한다") says to whom the rule applies
# A 다만 sentence may chain starts ("다만, 제10조의2의 개정규정은 2026년 8월 1일부터 시행하고, 제23조의 개정규정은 …부터
# 시행한다"): each segment is read on its own, its targets never reaching past a "시행하고" into the segment before.
_SEGMENT_END = r"(?:시행|적용)(?:한다|하고|하며)"
LATER_START_RE = re.compile(
    rf"(?:다만\s*,?|(?<=시행하고)\s*,|(?<=시행하며)\s*,)\s*(?P<targets>(?:(?!{_SEGMENT_END})[^.。])*?)"
    rf"(?:의\s*개정\s*규정|의\s*규정)?\s*[은는]\s*(?P<expr>{START_EXPR})\s*(?:로)?부터\s*{_SEGMENT_END}")
# "… 제175조제4항제2호의2의 개정규정은 다음 각 호의 구분에 따른 날부터 시행한다. 1. 상시 50명 이상 …: 2027년 1월 1일 2. …:
# 2028년 1월 1일": one set of clauses whose start depends on the case (the items name no clause) — not in force for
# anyone before the earliest of the dates, which is the start recorded
LATER_CASES_RE = re.compile(
    rf"(?:다만\s*,?|(?<=시행하고)\s*,|(?<=시행하며)\s*,)\s*(?P<targets>(?:(?!{_SEGMENT_END})[^.。])*?)"
    r"의\s*개정\s*규정은\s*다음\s*각\s*호의\s*구분에\s*따른\s*날\s*(?:로)?부터\s*시행한다")
# "다만, 다음 각 호의 개정규정은 해당 각 호의 구분에 따른 날부터 시행한다." and then one item per start:
# "1. 제15조의2의 개정규정: 공포 후 6개월이 경과한 날", "2. 제7조의 개정규정: 2027년 7월 1일"
LATER_LIST_LEAD_RE = re.compile(r"다만\s*,?\s*다음\s*각\s*호의\s*(?:개정\s*)?규정은\s*(?:해당\s*)?각\s*호의\s*구분에\s*따른\s*날"
                                r"\s*(?:로)?부터\s*시행한다")
LATER_ITEM_RE = re.compile(rf"(?m)^\s*\d+\.\s*(?P<targets>[^:：\n]*?)\s*[:：]\s*(?P<expr>{START_EXPR})")
# article references inside a LATER_START target list: "제8조의2제2항ㆍ제4항, 제14조제1항"
TARGET_ARTICLE_RE = re.compile(label("조", "n", "m"))
# the 항 a target names right after its article ("제2항ㆍ제4항" of "제8조의2제2항ㆍ제4항"; "같은 조 제3항")
_TARGET_PARAGRAPHS_LEAD = re.compile(r"\s*제\s*\d+\s*항")
_TARGET_PARAGRAPH_RE = re.compile(label("항", "p"))
_PARAGRAPH_RANGE_RE = re.compile(rf"{label('항', 'a')}\s*부터\s*{label('항', 'b')}\s*까지")
# an article named with a parenthesis that limits it to a part ("제13조(… 에 관한 부분으로 한정한다)"): a part, not the article
_LIMITED_RE = re.compile(rf"{label('조', branch=True)}(?:\s*제\s*\d+\s*[항호](?:\s*의\s*\d+)?)*\s*\([^()\n]*(?:한정|부분)[^()\n]*\)")
# a clause named with the part of it meant ("제50조제1항 단서", "제3조 본문", "제4조제1항 각 호 외의 부분 후단"): a
# part, not the clause — dating it whole would date the rest of the clause too
_PART_RE = re.compile(rf"{label('조', branch=True)}(?:\s*제\s*\d+\s*[항호목](?:\s*의\s*\d+)?)*"
                      r"(?:\s*각\s*호\s*외의\s*부분)?\s*(?:단서|본문|전단|후단|각\s*호\s*외의\s*부분)")
# a 목 named as a target ("같은 조 제3호마목"): a part of its 호, which stays undated
_MOK_TARGET_RE = re.compile(r"(?:제\s*\d+\s*조(?:\s*의\s*\d+)?)?(?:\s*제\s*\d+\s*항)?\s*제\s*\d+\s*호(?:\s*의\s*\d+)?"
                            r"\s*[가-하]\s*목")
# "제5장의3(제40조의7부터 제40조의13까지)": a chapter and, in its parenthesis, the articles it holds (nothing else)
_CHAPTER_ARTICLES_RE = re.compile(rf"{label('장', branch=True)}\s*\(\s*(?P<arts>{label('조', branch=True)}"
                                  rf"(?:\s*(?:부터|,|및|ㆍ)\s*{label('조', branch=True)})*(?:\s*까지)?)\s*\)")
# the 호 a target names right after its 항 or article ("제4항제2호의2", "제5항제1호 및 제3호")
_TARGET_ITEMS_LEAD = re.compile(r"\s*제\s*\d+\s*호")
_TARGET_ITEM_RE = re.compile(label("호", "i", "s"))
_ITEM_RANGE_RE = re.compile(rf"{label('호', 'a')}\s*부터\s*{label('호', 'b')}\s*까지")
# "제12조부터 제14조까지": the rest after the first article of a range
_ARTICLE_RANGE_RE = re.compile(r"\s*(?:부터|내지)\s*$")
# "<개정 2015.1.6>", "<개정 2013.8.13, 2020.6.9>", "[본조신설 2020.7.31]", "[전문개정 2008.3.21]"
AMENDMENT_NOTE_RE = re.compile(rf"[<\[]\s*(?P<word>{'|'.join(sorted(AMENDMENT_WORDS, key=len, reverse=True))})"
                               r"\s*(?P<dates>[0-9.,\s]*?)\s*[>\]]")
_NOTE_DATE_RE = re.compile(r"((?:19|20)\d{2})\.\s*(\d{1,2})\.\s*(\d{1,2})")
# A 부칙 header with its amendment's number and promulgation date: "부칙 <제17470호,2020.7.31>"
ADDENDA_DATE_RE = re.compile(r"<\s*제?\s*[\d-]+\s*호\s*,\s*(?P<date>(?:19|20)\d{2}\.\s*\d{1,2}\.\s*\d{1,2})\.?\s*>")
# A consolidated law's 부칙 of ANOTHER law's amendment ("부칙(정부조직법) <제21065호,2025.10.1>", 타법개정): its
# article numbers ("제19조제4항 … 의 개정규정", "제3조에 따른 경과조치") are that law's, never this text's
OTHER_LAW_ADDENDA_RE = re.compile(r"^\s*부\s*칙\s*\(\s*(?P<law>[^()<>\n]*?[가-힣][^()<>\n]*?(?:법|법률|령|규칙|규정))\s*\)")
# a 시행일 clause says when, not how old and new rules meet ("이 법 시행 전에 공포되었으나 …" notwithstanding)
START_TITLE_RE = re.compile(r"^\s*시행\s*일(?:\s*등)?\s*$")
# "종전의 제9조에 따라 변경 등록을 신청한 경우에는 … 종전의 제9조에 따른다": the former text's article, which the
# amendment may have renumbered or rewritten — a transitional clause keeps it, it does not modify today's 제9조.
FORMER_TEXT_BEFORE_RE = re.compile(r"종전\s*의\s*$")
# "법률 제7908호 기부금품모집규제법 일부개정법률에 따른 제4조제3항제5호 …의 개정규정": an article written right after
# an amending Act named by its number is that Act's text (often of the law's former name), not today's article of
# this document. Only right after it: "(법률 제9780호 … 부칙 제6조에 따라 … 보는 자)는 제7조제1항에 따라" names this law's.
_AMENDING_ACT = (r"법률\s*제\s*\d+\s*호\s*[^\s,()「」]+(?:\s+[^\s,()「」]+){0,3}?\s*(?:중\s*)?"
                 r"(?:일부|전부)?\s*개정\s*법률")
AMENDING_ACT_BEFORE_RE = re.compile(_AMENDING_ACT + r"\s*(?:에\s*따른|에\s*따라|에\s*의한|의|로\s*개정된)?\s*$")
AMENDING_ACT_RE = re.compile(_AMENDING_ACT)
ACT_NUMBER_RE = re.compile(r"법률\s*제\s*\d+\s*호")
# the name in "법률 제19685호 자동차관리법 일부개정법률" (up to 개정법률, or to the reference that holds it)
AMENDING_ACT_NAME_RE = re.compile(r"법률\s*제\s*\d+\s*호\s*(?P<name>[^,()「」]+?)\s*(?:중\s*)?(?:(?:일부|전부)?\s*개정\s*법률|$)")
# "별표 2 제7호 및 같은 표 비고 제8호": a list of references goes on past "같은 표/조/항/호"
SAME_UNIT_RE = re.compile(r"같은\s*(?:표|조|항|호)")
# What a 부칙 clause is about: the reference that is its topic ("제26조의9의 개정규정은 … 제26조의5의 개정규정에 따른
# 준수사항을 위반하여 …부터 적용한다" applies to 제26조의9; 제26조의5 only says which duty). Read right after a reference.
TOPIC_AFTER_RE = re.compile(r"\s*(?:의\s*)?(?:(?:개정|신설)\s*)?(?:규정\s*)?(?:\([^()\n]{0,80}\)\s*)?(?:(?:은|는)(?![가-힣])|중\s)")
# "… 별표 6의 개정규정에도 불구하고 종전의 규정에 따른다": the 부칙 clause is about an appendix's amendment; an article it
# names before ("제5조제1호에 따른 … 사람에 대한") only says whom it concerns
_APPENDIX = r"별\s*표\s*\d+(?:\s*의\s*\d+)?"
APPENDIX_TOPIC_RE = re.compile(rf"{_APPENDIX}(?:\s*(?:,|및|ㆍ|·)\s*{_APPENDIX})*\s*(?:의\s*)?(?:개정\s*)?규정\s*(?:에도\s*불구하고|(?:은|는)(?![가-힣])|중\s)")
# A 부칙 clause about the whole law — how other laws' citations of it read, every earlier 처분, every 벌칙 and
# 과태료 — modifies no single article: it is never linked to one by its wording.
WHOLE_LAW_TITLE_RE = re.compile(r"다른\s*법(?:령|률)|일반적\s*(?:경과\s*조치|적용\s*례)|처분\s*등에\s*관한|벌칙")
# Transitional wording: the clause says how old and new rules meet (경과조치, 적용례, 종전의 규정에 따른다,
# 시행 당시 존속 중인 …에도 적용한다, 시행 전에 …)
TRANSITIONAL_TITLE_RE = re.compile(r"경과\s*조치|적용\s*례|특례|종전")
TRANSITIONAL_TEXT_RE = re.compile(
    r"종전(?:의)?\s*(?:규정|정책|약관|규칙|기준|예)\s*(?:에\s*(?:따른다|따르|따라|의한다|의하|의함)|을\s*적용)"
    r"|시행\s*(?:당시|전에|전|이전에)|개정\s*규정은[^.。]*적용")


# What a 부칙 clause speaks of: a word of two or more syllables before 은 / 는 / 에는 ("…이용자의 월 이용료는", "환불에는");
# a verb's "-는" form ("시행하는") yields a stem no article title holds
TOPIC_WORD_RE = re.compile(r"(?<![가-힣])([가-힣]{2,}?)(?:에는|은|는)(?![가-힣])")


# "제5조의2의 개정규정은 2027년 12월 31일까지 효력을 가진다", "이 법은 시행 후 4년이 경과하는 날까지 효력을 가진다"
# (유효기간: a sunset); the end is a date or a period counted from the start of that 부칙's text
END_EXPR = (rf"(?:{_KDATE}|{_DOTDATE}|(?:{_SUBJECT}\s*)?시행\s*(?:일\s*부터|후)\s*(?P<n>\d+)\s*(?P<unit>개월|년)이?\s*"
            r"경과하는\s*날)")
# … or for a period from that start: "제10조의3의 개정규정은 이 법 시행일부터 3년간 효력을 가진다", "… 이 영이 시행된 날부터
# 1년간 효력을 가진다" (not "같은 개정규정 시행 이후 1년간": that clause's own later start is not the text's)
PERIOD_EXPR = (rf"(?:{_SUBJECT}\s*(?:이|의)?\s*)?(?:시행일|시행된\s*날|시행한\s*날)\s*부터\s*(?P<pn>\d+)\s*(?P<punit>개월|년)\s*"
               r"(?:간|동안)")
# ("같은 조 제3호"'s 은 ends no target list)
SUNSET_RE = re.compile(rf"(?P<targets>[^.。\n]*?)(?:의\s*개정\s*규정|의\s*규정)?\s*(?<!같)[은는]\s*(?:[^.。\n]*?\s)?"
                       rf"(?:(?P<expr>{END_EXPR})\s*까지|(?P<period>{PERIOD_EXPR}))\s*효력을\s*가진다")
# a 부칙 clause's own head before its sentence: "제2조(유효기간) ", "① "
_CLAUSE_HEAD_RE = re.compile(rf"^\s*(?:{label('조', branch=True)}\s*\((?![^)]*제\s*\d)[^)\n]*\)\s*)?(?:[①-⑳]\s*)?")
_WHOLE_TEXT_RE = re.compile(rf"^\s*{_SUBJECT}\s*$")
# ... or inside a line (a PDF's run-on 부칙): an article head whose parenthesis is a title, not a reference
_HEAD_IN_TEXT_RE = re.compile(rf"{label('조', branch=True)}\s*\((?![^)]*제\s*\d)[^)\n]*\)\s*")


@dataclass(frozen=True, slots=True)
class Sunset:
    """Clauses (as ``LaterStart`` names them) whose wording has effect only until ``end`` (that day
    included); ``whole``: the text itself ("이 법은 … 까지 효력을 가진다")."""

    articles: tuple[str, ...]
    end: date
    paragraphs: tuple[tuple[str, tuple[int, ...]], ...] = ()
    ranges: tuple[tuple[str, str], ...] = ()
    items: tuple[tuple[str, int, tuple[tuple[int, int], ...]], ...] = ()
    whole: bool = False
    # the last time a later amendment re-set the period (the 유효기간 clause's own "<개정 2016.12.27, 2023.12.31>")
    reset: date | None = None


@dataclass(frozen=True, slots=True)
class LaterStart:
    """Clauses (article numbers as "6" / "6의3") that start later than the text, and when; ``paragraphs``:
    for an article named only by some of its 항 ("제24조제2항"), their numbers — the rest of it starts with the
    text."""

    articles: tuple[str, ...]
    start: date
    paragraphs: tuple[tuple[str, tuple[int, ...]], ...] = ()
    # "제12조부터 제14조까지": (first, last) — every article between them in the text (제12조의2 too) starts later
    ranges: tuple[tuple[str, str], ...] = ()
    # "제175조제4항제2호의2": (article, 항 or 0, ((2, 2),)) — only those 호 of it start later
    items: tuple[tuple[str, int, tuple[tuple[int, int], ...]], ...] = ()

    def paragraphs_of(self, article: str) -> tuple[int, ...]:
        """The 항 of ``article`` that start later (empty: the whole article)."""
        return dict(self.paragraphs).get(article, ())


def parse_date(s: str) -> date | None:
    """"2025년 1월 1일", "2020.7.31", "2020. 7. 31.", "2020-07-31" → a date (None when not one)."""
    m = re.search(r"((?:19|20)\d{2})\s*(?:년|[.-])\s*(\d{1,2})\s*(?:월|[.-])\s*(\d{1,2})", s or "")
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def add_months(d: date, months: int) -> date:
    y, m = divmod(d.month - 1 + months, 12)
    year, month = d.year + y, m + 1
    return date(year, month, min(d.day, calendar.monthrange(year, month)[1]))


def resolve_start(expr: str, promulgated: date | None) -> date | None:
    """The date a START_EXPR names; relative ones need the promulgation date (None without it)."""
    absolute = parse_date(expr)
    if absolute is not None:
        return absolute
    if promulgated is None:
        return None
    if re.search(r"공포한\s*날|공포일", expr):
        return promulgated
    m = re.search(r"(\d+)\s*(개월|년|일)", expr)
    if not m:
        return None
    n, unit = int(m.group(1)), m.group(2)
    # the period runs from the day after promulgation and ends the day before the same date N later; the
    # text takes effect the day after it ends
    end = promulgated + timedelta(days=n) if unit == "일" else add_months(promulgated, n if unit == "개월" else 12 * n)
    return end + timedelta(days=1)


def main_start(text: str, promulgated: date | None) -> date | None:
    """The start "이 법은 …부터 시행한다" names in a 부칙 text."""
    m = MAIN_START_RE.search(text)
    return resolve_start(m.group("expr"), promulgated) if m else None


def later_starts(text: str, promulgated: date | None) -> list[LaterStart]:
    """The "다만, 제N조…의 개정규정은 …부터 시행한다" exceptions of a 시행일 clause, inline or listed one per item
    after "다만, 다음 각 호의 개정규정은 해당 각 호의 구분에 따른 날부터 시행한다"."""
    out: list[LaterStart] = []
    lead = LATER_LIST_LEAD_RE.search(text)
    items = list(LATER_ITEM_RE.finditer(text, lead.end())) if lead else []
    for m in [*LATER_START_RE.finditer(text), *items]:
        start = resolve_start(m.group("expr"), promulgated)
        arts, paragraphs, spans, subs = _targets(_whole_targets(m.group("targets")))
        if start is not None and arts:
            out.append(LaterStart(arts, start, paragraphs, spans, subs))
    for m in LATER_CASES_RE.finditer(text):
        arts, paragraphs, spans, subs = _targets(_whole_targets(m.group("targets")))
        days: list[date | None] = []
        pos = m.end()
        for it in LATER_ITEM_RE.finditer(text, pos):
            # the items right after the lead, one after another, each naming a case (not a clause)
            if text[pos: it.start()].strip(" \t\n.") or TARGET_ARTICLE_RE.search(it.group("targets")):
                break
            days.append(resolve_start(it.group("expr"), promulgated))
            pos = it.end()
        if arts and days and None not in days:
            out.append(LaterStart(arts, min(d for d in days if d), paragraphs, spans, subs))
    return out


def _whole_targets(targets: str) -> str:
    """The part of a later start's target list that names whole clauses: not an article limited by a parenthesis
    ("제13조(법 제82조의2제3항 … 에 관한 부분으로 한정한다)") nor a list whose "개정규정 중 … 에 관한 부분" starts later
    ("제5조의2, 제23조 및 제37조의 개정규정 중 "제4조의3제1항"에 관한 부분"): dating those whole would hide text in force."""
    targets = _drop_parts(_LIMITED_RE.sub(" ", targets))
    targets = re.sub(r"\([^()\n]*\)", " ", targets)
    parts = re.split(r"의\s*개정\s*규정", targets)
    kept = [part for j, part in enumerate(parts)
            if not re.match(r"\s*중(?:\s|$)", part) and not (j + 1 < len(parts) and re.match(r"\s*중(?:\s|$)", parts[j + 1]))]
    return ", ".join(kept)


def _drop_parts(targets: str) -> str:
    """A target list without the parts of clauses it names ("제50조제1항 단서", "제3조제1항제3호라목"). Each part becomes
    "제0조", an article no text has, so a "같은 조 …" / "같은 항 …" right after it is read as that part's (and left
    undated), never as the article named before it."""
    return _MOK_TARGET_RE.sub(" 제0조 ", _PART_RE.sub(" 제0조 ", targets))


def sunsets(text: str, start: date | None) -> list[Sunset]:
    """The 유효기간 clauses of a 부칙 text: what has effect only until when (a period counted from ``start``,
    the 부칙's own start; None: only absolute dates are read). Targets naming no article of the text
    ("별표 2의 개정규정은 …", "법률 제12345호 … 부칙 제3조") are left out."""
    out: list[Sunset] = []
    for line in text.splitlines():
        line = _CLAUSE_HEAD_RE.sub("", line, count=1)
        notes = [d for note in amendment_notes(line) if (d := parse_date(note.split(" ")[-1])) is not None]
        reset = max(notes, default=None)
        for m in SUNSET_RE.finditer(line):
            end = _end(m, start)
            targets = m.group("targets")
            heads = list(_HEAD_IN_TEXT_RE.finditer(targets))
            targets = targets[heads[-1].end():] if heads else targets
            # a chapter named with its articles ("제5장의3(제40조의7부터 제40조의13까지)"): those articles are the target
            targets = _CHAPTER_ARTICLES_RE.sub(lambda c: f" {c.group('arts')} ", targets)
            # a parenthesis limits the clause before it ("제31조(제29조의2제4항에 관한 부분으로 한정한다)"): not a target
            targets = re.sub(r"\([^)\n]*\)", "", targets)
            # another act's or an appendix's parts, or a part of a clause ("제8조의2제1호의 개정규정 중 법 제53조제3항에
            # 관한 부분"): not a whole clause of this text, so no end is set rather than a wrong one
            # a part of a clause ("제50조제1항 단서") is no target: the clause goes on in force
            targets = _drop_parts(targets)
            if end is None or re.search(r"법률\s*제|부칙|별표|「|\s중\s|(?:^|\s)(?:법|영|규칙)\s+제\s*\d", targets):
                continue
            if _WHOLE_TEXT_RE.match(targets):
                out.append(Sunset((), end, whole=True, reset=reset))
                continue
            arts, paragraphs, spans, subs = _targets(targets)
            if arts:
                out.append(Sunset(arts, end, paragraphs, spans, subs, reset=reset))
    return out


def _end(m: re.Match[str], start: date | None) -> date | None:
    n, unit = (m.group("n"), m.group("unit")) if m.group("period") is None else (m.group("pn"), m.group("punit"))
    if n is None:
        return parse_date(m.group("expr"))
    if start is None:
        return None
    # the period runs from the start; the day it elapses is the day before the same date N later
    return add_months(start, int(n) if unit == "개월" else 12 * int(n)) - timedelta(days=1)


def _targets(targets: str) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[int, ...]], ...],
                                     tuple[tuple[str, str], ...], tuple[tuple[str, int, tuple[tuple[int, int], ...]], ...]]:
    """The articles a target list names, for those named only by 항 the 항 numbers ("제4항부터 제6항까지": 4, 5, 6),
    the article ranges ("제12조부터 제14조까지": its two ends; the articles between them are the document's), and the
    호 a target names ("제175조제4항제2호의2": (175, 4, ((2, 2),)); 항 0: a 호 right under the article)."""
    found = list(TARGET_ARTICLE_RE.finditer(targets))
    whole: set[str] = set()
    paras: dict[str, list[int]] = {}
    spans: list[tuple[str, str]] = []
    subs: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for j, a in enumerate(found):
        art = _article_key(a)
        rest = targets[a.end(): found[j + 1].start() if j + 1 < len(found) else len(targets)]
        if _TARGET_PARAGRAPHS_LEAD.match(rest):
            nums = [int(p.group("p")) for p in _TARGET_PARAGRAPH_RE.finditer(rest)]
            for r in _PARAGRAPH_RANGE_RE.finditer(rest):
                nums.extend(range(int(r.group("a")), int(r.group("b")) + 1))
            paras.setdefault(art, []).extend(nums)
            heads = list(_TARGET_PARAGRAPH_RE.finditer(rest))
            for k, h in enumerate(heads):
                part = rest[h.end(): heads[k + 1].start() if k + 1 < len(heads) else len(rest)]
                if _TARGET_ITEMS_LEAD.match(part):
                    subs.setdefault((art, int(h.group("p"))), []).extend(_items(part))
        elif _TARGET_ITEMS_LEAD.match(rest):
            subs.setdefault((art, 0), []).extend(_items(rest))
        else:
            whole.add(art)
            if _ARTICLE_RANGE_RE.match(rest) and j + 1 < len(found):
                spans.append((art, _article_key(found[j + 1])))
    arts = tuple(dict.fromkeys(k for a in found if (k := _article_key(a)) != "0"))  # "제0조": a dropped part
    items = tuple((a, p, tuple(dict.fromkeys(v))) for (a, p), v in subs.items()
                  if a != "0" and a not in whole and (p == 0 or p in paras.get(a, ())))
    return (arts, tuple((a, tuple(sorted(set(p)))) for a, p in paras.items() if a not in whole and a != "0"),
            tuple(s for s in spans if "0" not in s), items)


def _items(part: str) -> list[tuple[int, int]]:
    """The 호 a target part names ("제2호의2", "제1호 및 제3호", "제5호부터 제12호까지") as (number, 의-number)."""
    out = [(int(m.group("i")), int(m.group("s") or 0)) for m in _TARGET_ITEM_RE.finditer(part)]
    for r in _ITEM_RANGE_RE.finditer(part):
        out.extend((n, 0) for n in range(int(r.group("a")), int(r.group("b")) + 1))
    return out


def _article_key(m: re.Match[str]) -> str:
    return f"{m.group('n')}의{m.group('m')}" if m.group("m") else m.group("n")


def amendment_notes(text: str) -> list[str]:
    """The amendment notes of a text as "개정 2013-08-13" strings, one per date, in order."""
    out: list[str] = []
    for m in AMENDMENT_NOTE_RE.finditer(text or ""):
        dates = _NOTE_DATE_RE.findall(m.group("dates"))
        for j, (y, mo, d) in enumerate(dates or [("", "", "")]):
            # "<신설 2020.12.29, 2022.6.10>": made on the first date, amended on the later ones
            word = "개정" if j and m.group("word") in ("신설", "본조신설") else m.group("word")
            note = f"{word} {int(y):04d}-{int(mo):02d}-{int(d):02d}" if y else word
            if note not in out:
                out.append(note)
    return out


def is_transitional(title: str, text: str) -> bool:
    """A 부칙 clause about how the old and the new rules meet (경과조치, 적용례, 종전의 규정에 따른다); never
    the 시행일 clause itself."""
    if START_TITLE_RE.match(title or ""):
        return False
    return bool(TRANSITIONAL_TITLE_RE.search(title or "") or TRANSITIONAL_TEXT_RE.search(text or ""))


def other_law_of_addenda(header: str) -> str | None:
    """The law a 부칙 header names when the 부칙 is another law's amendment ("부칙(정부조직법) <…>" →
    "정부조직법"); None for the text's own 부칙 ("부칙 <제17470호,2020.7.31>", "부칙 (2024. 1. 1.)")."""
    m = OTHER_LAW_ADDENDA_RE.match(header or "")
    return m.group("law").strip() if m else None


# A question about a past day or a change names a year ("2013년에 …", "2024.5.") or asks about the old rule
_PAST_CUE_RE = re.compile(r"(?:19|20)\d{2}|종전|예전|이전|전에는|당시|바뀌기|바뀐|개정|경과|부칙")


def asks_past(question: str) -> bool:
    """Whether a question asks about a past day or a change (a year, 종전, 당시, 바뀌기 전, 개정, 경과, 부칙 …)."""
    return bool(_PAST_CUE_RE.search(question or ""))


def aged_transitional(path: str, title: str, text: str, today: date, years: int = 5) -> bool:
    """A transitional provision (``is_transitional``) in a statute's dated 부칙 ("부칙 <제24539호,2013.5.22>")
    more than ``years`` years before ``today``: it says how that amendment met the old rules ("이 영 시행 당시
    목재생산업을 경영하고 있는 자는 2013년 11월 23일까지 …"), long since played out — no answer to a question asked
    in the present (one that does not ``asks_past``)."""
    m = ADDENDA_DATE_RE.search(path or "")
    enacted = parse_date(m.group("date")) if m else None
    return enacted is not None and (today - enacted).days > 365 * years and is_transitional(title, text)
