"""As-of retrieval: only the version of each work in force on a day answers.

The day is the caller's (``as_of`` filter: ``--as-of``, ``"as_of"`` in the HTTP body), else one the
question names ("2022년 5월에", "작년", "개정 전", "in 2022"; shown in ``filters`` with its phrase), else
today. A question that asks to compare ("개정 전후", "무엇이 달라졌", "신구") keeps every version. The day
becomes a ``doc_id in …`` filter over the versioned documents in force; documents without versions are
never filtered. When a work the collection holds had no version in force on the day, a warning says so —
the answer must not come from a version that was not in force. Two exceptions: with no day asked (today by
default) a work the collection knows only by a text not yet in force (promulgated with a later 시행일, as
much of a current-law archive is) is searched in that text; and a day read from the question's own words
("작년에 팔았어요", "4년 전 수술") is most often the day of the asker's event, not a request for a version, so
when no version of a work was in force then, the nearest one held is searched. In both a warning and the
answer say which text answered. A day the caller gives (``--as-of``) has no such fallback, and neither has a
question asking the old rule itself ("개정 전에는 얼마였나요?").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import TYPE_CHECKING

from jogak.filters import BEFORE_CHANGE, BEFORE_CURRENT, Filter
from jogak.index.versions import Timelines, Version, current, in_force, today
from jogak.korean import kiwi

if TYPE_CHECKING:
    from kiwipiepy import Token

_Y = r"((?:19|20)\d{2})"
# a year or month phrase that is a range bound is a decision-date filter ("2010년 이후 판례"), not a day
_NOT_RANGE = r"(?!\s*(?:년\s*)?(?:이후|이전|以後|以前|부터|까지|이래|후|전|~|-|에서\s*\d|사이))"
_DAY = re.compile(rf"{_Y}\s*[년.-]\s*(\d{{1,2}})\s*[월.-]\s*(\d{{1,2}})\s*일?(?:\s*(?:에|에는|당시|기준|현재))?")
_MONTH = re.compile(rf"{_Y}\s*년\s*(\d{{1,2}})\s*월{_NOT_RANGE}(?:\s*(?:에|에는|당시|기준|중|경))?")
_YEAR = re.compile(rf"{_Y}\s*년(?:도)?{_NOT_RANGE}(?:\s*(?:에|에는|당시|기준|중|때))?")
_RELATIVE = re.compile(r"(재작년|작년|지난\s*해|올해|금년|지난\s*달|(\d+)\s*년\s*전)(?:에|에는|당시|기준|까지는)?")
# an event before the change: "새 정책이 시행되기 전에 쌓인 포인트", "개정 전에 체결한 계약", "약관이 바뀌기 전에
# 가입했는데" (the verb in any form: 가입한, 가입했는데, 샀어요)
_BEFORE_EVENT = re.compile(r"(?:(?:시행|개정|변경)\s*(?:되기\s*)?|바뀌기\s*)(?:전|이전)에\s*(?:[가-힣]+\s+)??"
                           r"(?:쌓|적립|받|산(?![가-힣])|샀|사서|구매|구입|체결|계약|가입|발생|생긴|생겼|맺|등록|신청)[가-힣]*")
# the old rule itself: "개정 전에는", "바뀌기 전에는", "예전에는" — not "예전에 한 동의" (an earlier act of the asker's)
_BEFORE = re.compile(r"개정\s*(?:되기\s*)?(?:전|이전)(?:에는|에|의|엔)?|바뀌기\s*전(?:에는|엔|에)?|예전(?:에는|엔)"
                     r"|예전\s*(?:규정|규칙|법|약관|기준|제도)|(?i:\bbefore\s+the\s+(?:amendment|change)\b)")
_EN = re.compile(rf"(?i)\b(?:in|as\s+of|on)\s+{_Y}(?:-(\d{{2}})(?:-(\d{{2}}))?)?\b(?!\s*(?:or|and)\b)")
_COMPARE = re.compile(r"비교|달라진|달라졌|바뀐\s*(?:점|내용|것)|무엇이\s*바뀌|뭐가\s*바뀌|차이|개정\s*전후|신구|전후\s*비교"
                      r"|(?i:\bcompare|\bwhat\s+changed|\bdifference)")


@dataclass
class AsOf:
    """The day a search is about and what it does to the collection."""

    day: str | None  # ISO; None: compare (every version)
    filter: Filter | None  # what ``filters`` shows (None: the default day and nothing excluded)
    allowed: list[str] | None  # doc ids the search may use (None: all)
    warnings: list[str] = field(default_factory=list)
    timelines: Timelines = field(default_factory=dict)
    compare: bool = False
    excluded: list[str] | None = None  # the complement of ``allowed`` in the collection (None: nothing)


def from_question(query: str) -> tuple[Filter | None, tuple[int, int] | None, bool]:
    """(as-of filter the question sets, the phrase's span, whether it asks to compare versions)."""
    compare = bool(_COMPARE.search(query))
    for rx, build in ((_DAY, _day), (_MONTH, _month), (_YEAR, _year), (_EN, _en), (_RELATIVE, _relative),
                      (_BEFORE_EVENT, lambda m: BEFORE_CHANGE), (_BEFORE, lambda m: BEFORE_CURRENT)):
        m = rx.search(query)
        if m:
            value = build(m)
            if value == BEFORE_CURRENT and _event_follows(query, m):
                value = BEFORE_CHANGE
            if value:
                phrase = m.group(0).strip()
                return Filter("as_of", "eq", value, origin="question", phrase=phrase), (m.start(), m.end()), compare
    return None, None, compare


def _event_follows(query: str, m: re.Match[str]) -> bool:
    """"바뀌기 전에 500만원 넣어 뒀는데", "개정 전에 켰던 기록": the first predicate after a bare "…전에" (not the
    topic "전에는", which asks the old rule) is an action verb — the asker's act before the change, whose rule
    the current text's 부칙 gives. "개정 전에 유효기간이 얼마였나요" (copula) and "어떻게 됐어요" (되다) ask the
    old rule itself."""
    if not m.group(0).rstrip().endswith("에"):
        return False
    rest = re.split(r"[.?!\n]", query[m.end():], maxsplit=1)[0]
    toks = kiwi().tokenize(rest)
    for i, t in enumerate(toks):
        if t.tag.startswith(("VV", "XSV")):
            return t.form != "되"
        if t.tag.startswith(("VA", "VCP", "VCN", "XSA")):
            ending = next((x for x in toks[i + 1:] if x.tag.startswith("E") and x.tag != "EP"), None)
            if ending is not None and ending.tag in ("ETN", "ETM"):
                continue  # a noun or a modifier ("모금함", "좋은"): the clause's predicate comes later
            return _background(toks, i)
    return False


def _background(toks: list[Token], i: int) -> bool:
    """A first predicate that is no action verb but sets the scene in a connective clause ("바뀌기 전에 연
    모금함이 아직 진행 중인데, …도 적용돼요?" — the analyser reads "연" as a determiner, not 열다) speaks of the
    asker's situation when the question's last clause is not in the past: the old rule itself is asked in the
    past ("…얼마였나요?", "…어땠어요?")."""
    ending = next((t for t in toks[i + 1:] if t.tag.startswith("E") and t.tag != "EP"), None)
    if ending is None or ending.tag != "EC" or ending.form not in _SCENE_ENDINGS:
        return False
    last = max((j for j, t in enumerate(toks) if t.tag == "EC" and t.form in _SCENE_ENDINGS), default=i)
    return not any(t.tag == "EP" and t.form in ("었", "았", "였", "ᆻ") for t in toks[last + 1:])


# connective endings that give the background of what follows ("…인데", "…이고", "…어서", "…니까")
_SCENE_ENDINGS = frozenset({"ᆫ데", "는데", "은데", "고", "어서", "아서", "여서", "니까", "으니까", "ᆫ데요"})


def _day(m: re.Match[str]) -> str:
    return f"{m.group(1)}-{int(m.group(2)):02d}-{int(m.group(3)):02d}"


def _month(m: re.Match[str]) -> str:
    return f"{m.group(1)}-{int(m.group(2)):02d}"


def _year(m: re.Match[str]) -> str:
    return m.group(1)


def _en(m: re.Match[str]) -> str:
    return "-".join(x for x in m.groups() if x)


def _relative(m: re.Match[str]) -> str:
    t = date.today()
    word = re.sub(r"\s+", "", m.group(1))
    if word in ("올해", "금년"):
        return ""  # this year is today, the default day: not a filter (a text not yet in force still answers)
    if word == "지난달":
        return (t.replace(day=1) - timedelta(days=1)).isoformat()
    years = 2 if word == "재작년" else 1 if word in ("작년", "지난해") else int(m.group(2) or 1)
    return str(t.year - years)


def resolve(tl: Timelines, as_of: Filter | None, compare: bool, doc_ids: set[str],
            doc_filter: set[str] | None = None) -> AsOf:
    """The documents (of ``doc_ids``, the collection's) a search on the as-of day may use (``as_of`` None:
    today, shown only when it excludes a version). ``doc_filter``: the titles the search is limited to."""
    versioned = {v.doc_id for vs in tl.values() for v in vs}
    if not versioned:
        warn = [] if as_of is None or as_of.origin != "explicit" else [
            "as_of has no effect: no document in the collection has an effective date"]
        return AsOf(None, as_of if as_of is not None and as_of.origin == "explicit" else None, None, warn, tl)
    if compare and (as_of is None or as_of.origin == "question"):
        return AsOf(None, as_of, None, timelines=tl, compare=True)
    day = as_of.value if as_of is not None else today()
    chosen: list[Version] = []
    warnings: list[str] = []
    for work, versions in tl.items():
        if doc_filter is not None and not any(v.doc_title in doc_filter for v in versions):
            versioned -= {v.doc_id for v in versions}  # outside the search's documents: not this filter's
            continue
        if day in (BEFORE_CURRENT, BEFORE_CHANGE):
            v = _previous(versions) or (current(versions) if day == BEFORE_CHANGE else None)
            if v is None and day == BEFORE_CHANGE:
                # an act before the change of a work known only by a text not yet in force: that text's 부칙
                # says how the change applies to it
                v = _pending(versions, today())
                if v is not None:
                    warnings.append(_pending_notice(work, v, today()))
        else:
            v = in_force(versions, day)
            if v is None and as_of is None:
                # nobody asked for a day and the work is known only by a text not yet in force (a law
                # promulgated with a later 시행일): that text answers, named as such, rather than nothing
                v = _pending(versions, day)
                if v is not None:
                    warnings.append(_pending_notice(work, v, day))
            elif v is None and as_of.origin == "question":
                # the question's day is most often its event's: the nearest text held answers, named as such
                v = _nearest(versions, day)
                if v is not None:
                    warnings.append(_nearest_notice(work, v, day))
        if v is None:
            warnings.append(_none_in_force(work, versions, day))
            continue
        chosen.append(v)
        if v.caveat:
            warnings.append(f"{work} in force on {day}: {v.caveat}")
    allowed = {v.doc_id for v in chosen}
    excluded = versioned - allowed
    shown = as_of if (as_of is not None or not excluded) else None
    if as_of is None and excluded:
        shown = Filter("as_of", "eq", day, origin="default")
    ids = None if not excluded else sorted(doc_ids - excluded)
    return AsOf(_day_of(day, chosen), shown, ids, warnings, tl, excluded=sorted(excluded & doc_ids) or None)


def _day_of(day: str, chosen: list[Version]) -> str | None:
    """The day the search is about: for "before the change", the day before the earliest start of a chosen
    version's successor (so later stages see an event before the change)."""
    if day not in (BEFORE_CURRENT, BEFORE_CHANGE):
        return day
    ends = sorted(v.effective_to for v in chosen if v.effective_to)
    if not ends:
        return None
    return (date.fromisoformat(ends[0]) - timedelta(days=1)).isoformat()


def _previous(versions: list[Version]) -> Version | None:
    now = current(versions)
    chain = [v for v in versions if not v.superseded_by]
    if now is None or now not in chain:
        return None
    i = chain.index(now)
    return chain[i - 1] if i > 0 else None


def _pending(versions: list[Version], day: str) -> Version | None:
    """The earliest version taking effect after ``day`` when none took effect on or before it."""
    if any(v.effective_from <= day for v in versions):
        return None
    later = sorted((v for v in versions if not v.superseded_by), key=lambda v: v.effective_from)
    return later[0] if later else None


def _nearest(versions: list[Version], day: str) -> Version | None:
    """The version closest to ``day`` when none was in force on it: the earliest starting after it, else the
    latest (the work ended before it)."""
    chain = sorted((v for v in versions if not v.superseded_by), key=lambda v: v.effective_from)
    later = [v for v in chain if v.effective_from > day]
    return later[0] if later else (chain[-1] if chain else None)


def _nearest_notice(work: str, v: Version, day: str) -> str:
    return (f"{work}: the collection holds no text in force on {day} (the day the question names); the text "
            f"in force from {v.effective_from} is used instead, and the rule on that day may have differed")


def _pending_notice(work: str, v: Version, day: str) -> str:
    return (f"{work}: the collection holds only the text that takes effect on {v.effective_from} (not yet in "
            f"force on {day}); it is used, and it may differ from the law in force today")


def _none_in_force(work: str, versions: list[Version], day: str) -> str:
    if day in (BEFORE_CURRENT, BEFORE_CHANGE):
        return f"the collection holds no version of {work} before the one in force today"
    first = next((v for v in versions if not v.superseded_by), versions[0])
    return (f"no version of {work} in the collection was in force on {day} (the earliest version it holds "
            f"takes effect on {first.effective_from})")
