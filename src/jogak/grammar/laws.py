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
