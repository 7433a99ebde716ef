"""A question that asks several things ("… 며칠이나 못 해요? 벌점은 언젠가 없어지긴 해요?"): its parts, each part's own
ranking of the answer's units, and — for a part asking a figure ("차까지 타면 얼마 더 내요?") whose best unit states none —
the unit of the answer's own clauses or tables that states it (``selection.select`` lets such units join only from a
clause the answer quotes)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from jogak.answer.generators.candidates import Candidate
from jogak.answer.generators.fit import typed_part
from jogak.answer.generators.selection import group_of
from jogak.grammar.patterns import INTERROGATIVE_RE, QUESTION_JOINT_RE

# a yes/no question's ending, the sentence's last words ("…대 주나요?", "…받을 수 있어요?", "…돼요?")
_YES_NO_END = re.compile(r"[가-힣]\s*(?:나요|까요|어요|아요|여요|해요|돼요|되나요|인가요|예요|에요|죠|지요|습니까|ㅂ니까)\s*[?？]\s*$")
Ranking = tuple[str, list[Candidate]]  # a part's words, the answerable units by their score on that part


def question_parts(question: str) -> list[str]:
    """The questions of a question that asks several ("… 며칠이나 못 해요? 벌점은 언젠가 없어지긴 해요?"; one
    sentence joining two by "-고," as in "며칠 전에 알려 주고, 한 번에 몇 시간까지 끊어요?"), else []."""
    parts = []
    for sentence in re.split(r"(?<=[?？])\s+", question.strip()):
        parts += _joined(sentence)
    parts = [p for p in parts if re.search(r"[가-힣A-Za-z]{2}", p)]
    return parts if len(parts) > 1 else []


def _joined(sentence: str) -> list[str]:
    """A sentence split where "-고," / "-며," joins two clauses that each ask something: a wh-question, then another
    or a yes/no question ("직원은 어떻게 두는 거고, 운영비는 나라가 대 주나요?"); whole otherwise."""
    out, start = [], 0
    for m in QUESTION_JOINT_RE.finditer(sentence):
        left, right = sentence[start:m.start() + 1], sentence[m.end():]
        if INTERROGATIVE_RE.search(left) and (INTERROGATIVE_RE.search(right) or _YES_NO_END.search(right)):
            out.append(left)
            start = m.end()
    return [*out, sentence[start:]]


def part_rankings(question: str, rank: Callable[[str], list[Candidate]]) -> list[Ranking]:
    """Each part of ``question`` with its units ranked by ``rank`` (answerable ones, best first)."""
    return [(p, rank(p)) for p in question_parts(question)]


def shared_parts(rankings: Sequence[Ranking], keep: float) -> list[Candidate]:
    """When several parts share their best unit, each such part's next unit (another unit, scoring ``keep`` of the
    part's best): one unit rarely answers two questions, and the runner-up of the part it answers less is the
    other's answer ("공동모금회도 복권을 팔 수 있어요? 당첨됐는데 안 찾아가면 그 돈은 어떻게 돼요?": both parts rank the
    당첨금 paragraph first, the first part's next is the one allowing 복권)."""
    if keep <= 0:
        return []
    bests = [r[0].key for _, r in rankings if r]
    shared = {k for k in bests if bests.count(k) > 1}
    out: list[Candidate] = []
    for _, r in rankings:
        if r and r[0].key in shared:
            nxt = next((c for c in r[1:] if c.key not in shared), None)
            if nxt is not None and nxt.score >= keep * r[0].score and nxt not in out:
                out.append(nxt)
    return out


def figure_parts(rankings: Sequence[Ranking], chosen: list[Candidate], floor: float) -> list[Candidate]:
    """For each part asking a figure its best unit does not state: the best unit of a chosen unit's clause or
    table that does (``fit.typed_part``)."""
    groups = {group_of(c) for c in chosen}
    return [t for p, r in rankings if (t := typed_part(p, r, floor, lambda c: group_of(c) in groups)) is not None]
