"""The extractive answerer: one weights dataclass (config-loadable, stated in the docstring), no state."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from jogak.answer.context import build_context
from jogak.answer.generators import extractive
from jogak.answer.generators.extractive import Candidate, ExtractiveAnswerer
from jogak.answer.generators.weights import ExtractiveWeights, Mix
from jogak.answer.units import split_units
from jogak.model import Chunk, ChunkMetadata, Hit

from .helpers import TinyRetriever, haru_chunks

QUESTIONS = ["단순 변심인데 반품 배송비 얼마예요?", "배송이 늦으면 보상받나요?", "포인트 유효기간은 언제까지예요?",
             "해외로도 배송해 주나요? 해외 배송비는 얼마예요?", "불량품이면 배송비는 누가 내요?",
             "멤버십 등급은 어떻게 정해지나요?"]


@pytest.fixture(scope="module")
def contexts():
    retriever = TinyRetriever(haru_chunks())
    return [(q, build_context(retriever.search(q), question=q)) for q in QUESTIONS]


def test_the_docstring_states_the_weights_the_code_uses() -> None:
    w, doc = ExtractiveWeights(), extractive.__doc__
    m, p = w.mix, w.mix_plain
    for phrase in (f"{m.lexical:.2f} · lexical + {m.focus:.2f} · focus + {m.bigram:.2f} · bigram + "
                   f"{m.semantic:.2f} · semantic",
                   f"{p.lexical:.2f} · lexical + {p.focus:.2f} · focus + {p.bigram:.2f} · bigram",
                   f"{w.rank_prior:.2f} · rank prior", f"× {w.answer_type_miss:.2f} for each answer type",
                   f"rescaled {w.semantic_lo:.2f}–{w.semantic_hi:.2f}", f"must score {w.threshold:.2f}",
                   f"covered to {w.min_coverage:.2f}", f"up to {w.sem_cover_max:.1f} of the uncovered",
                   f"lexicon variant {w.variant_match:.2f}", f"compound part {w.partial_match:.1f}",
                   f"({w.context_match:.1f}; the FAQ question of an FAQ answer {w.faq_question_match:.1f})",
                   f"appendix {w.tier_weight('supplementary'):.1f}, footnote {w.tier_weight('background'):.2f}",
                   f"FAQ answer {w.prior('faq'):.2f}", f"addenda {w.prior('addenda'):.1f}",
                   f"reasoning {w.prior('case_reasoning'):.2f}", f"worked example {w.prior('example'):.2f}"):
        assert phrase in " ".join(doc.split()), phrase
    assert m.lexical + m.focus + m.bigram + m.semantic == pytest.approx(1.0)
    assert p.lexical + p.focus + p.bigram == pytest.approx(1.0)


def test_weights_come_from_the_answer_config_section() -> None:
    w = ExtractiveWeights.from_config({"k": 6, "extractive": {
        "threshold": 0.3, "max_units": "3", "mix": {"semantic": 0.2}, "authority": {"faq": 1.0}}})
    assert (w.threshold, w.max_units, w.mix.semantic, w.mix.lexical) == (0.3, 3, 0.2, 0.55)
    assert w.authority["faq"] == 1.0 and w.authority["footnote"] == 0.75  # merged over the table
    assert ExtractiveWeights.from_config({}) == ExtractiveWeights() == ExtractiveWeights.from_config(None)
    with pytest.raises(ValueError, match="unknown extractive answerer weight 'treshold'"):
        ExtractiveWeights.from_config({"extractive": {"treshold": 0.3}})
    with pytest.raises(ValueError, match="unknown part"):
        ExtractiveWeights.from_config({"extractive": {"mix": {"semantics": 0.3}}})
    gen = ExtractiveAnswerer.from_config({"extractive": {"min_coverage": 0.2}}, threshold=0.5)
    assert (gen.weights.min_coverage, gen.weights.threshold) == (0.2, 0.5)
    assert ExtractiveAnswerer(ExtractiveWeights(mix_plain=Mix(1.0, 0.0, 0.0))).weights.mix_plain.lexical == 1.0


def _candidate(score: float, lexical: float) -> Candidate:
    text = "제1조 (목적)\n이 약관은 회사의 서비스 이용 조건을 정한다."
    md = ChunkMetadata(source="a.txt", doc_title="약관", chunk_no=0, article="제1조 (목적)", page_start=None,
                       page_end=None, char_start=0, char_end=len(text))
    ctx = build_context([Hit(Chunk("a-000", text, md), 1.0)], question="목적")
    units = split_units(text)
    return Candidate(ctx.excerpts[0], units[-1], units, lexical=lexical, score=score)


def test_zero_means_zero_not_the_default() -> None:
    best = _candidate(score=0.9, lexical=0.5)
    assert ExtractiveAnswerer().abstains(best, coverage=0.2)  # the default gate (0.35) declines
    gate_off = ExtractiveAnswerer(min_coverage=0.0)
    assert gate_off.weights.min_coverage == 0.0
    assert not gate_off.abstains(best, coverage=0.2)
    assert ExtractiveAnswerer(threshold=0.0).weights.threshold == 0.0


def test_scoring_returns_its_result_and_keeps_nothing(contexts) -> None:
    gen = ExtractiveAnswerer(use_embeddings=False)
    before = dict(vars(gen))
    q, ctx = contexts[0]
    scored = gen.score(q, ctx)
    assert scored.candidates and scored.candidates[0].score >= scored.candidates[-1].score
    assert 0.0 < scored.coverage <= 1.0 and scored.noun_weights
    assert gen.generate(q, ctx).info["coverage"] == scored.coverage
    assert vars(gen) == before  # nothing about the request stayed on the instance


def test_one_instance_answers_concurrent_requests_as_separate_ones(contexts) -> None:
    shared = ExtractiveAnswerer(use_embeddings=False)
    alone = [ExtractiveAnswerer(use_embeddings=False).generate(q, ctx) for q, ctx in contexts]
    with ThreadPoolExecutor(max_workers=len(contexts)) as pool:
        together = list(pool.map(lambda qc: shared.generate(*qc), contexts * 3))
    for i, d in enumerate(together):
        a = alone[i % len(contexts)]
        assert (d.answer, d.evidence_ids, d.abstained, d.info) == (a.answer, a.evidence_ids, a.abstained, a.info)
