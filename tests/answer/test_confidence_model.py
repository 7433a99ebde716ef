"""The answer confidence comes from the model fitted on the ranking the excerpts came from: the learned
reranker's ordering (hits it scored carry a "learned" score) or the first ranking."""

from __future__ import annotations

from jogak.answer import answer_hits
from jogak.answer.generators.extractive import ExtractiveAnswerer
from jogak.answer.generators.weights import ExtractiveWeights
from jogak.model import Chunk, ChunkMetadata, Hit, Segment

TEXT = "단순 변심에 의한 반품은 왕복 배송비 6,000원(편도 3,000원)을 고객이 부담한다."


def _hit(reranked: bool) -> Hit:
    md = ChunkMetadata(source="반품교환환불정책.pdf", doc_title="반품교환환불정책", chunk_no=0,
                       article="제2조 (반품 배송비)", page_start=1, page_end=1, char_start=0, char_end=len(TEXT),
                       block_type="body", path="본문/제2조/제1항",
                       segments=[Segment("본문/제2조/제1항", "제2조 (반품 배송비)", 0, len(TEXT))])
    scores = {"dense": 0.9, "rerank": 0.7, "learned": 0.7} if reranked else {"dense": 0.9}
    return Hit(Chunk(id="c0", text=TEXT, metadata=md), 1.0, 0, matched=["dense", "bm25"], scores=scores)


def test_the_model_follows_the_ranking() -> None:
    w = ExtractiveWeights()
    zero = dict.fromkeys([*w.confidence_model, *w.reranked_confidence_model], 0.0)  # overrides merge: every weight set
    gen = ExtractiveAnswerer(ExtractiveWeights().with_overrides(
        confidence_model={**zero, "bias": 3.0}, reranked_confidence_model={**zero, "bias": -3.0}))
    q = "단순 변심인데 반품 배송비 얼마예요?"
    first = answer_hits(q, [_hit(False)], generator=gen).answer
    reranked = answer_hits(q, [_hit(True)], generator=gen).answer
    assert first.confidence > 0.9 and first.outcome == "answer"
    assert reranked.confidence < 0.1 and reranked.outcome != "answer"


def test_shipped_models_are_both_there() -> None:
    w = ExtractiveWeights()
    assert w.confidence_model != w.reranked_confidence_model
    assert set(w.confidence_model) == set(w.reranked_confidence_model)


def test_a_ceiling_does_not_answer_an_exact_figure_question() -> None:
    # "실제로 얼마" asks the figure itself; "300만원 이하의 과태료" only bounds it (the figure is in a decree's
    # table): no answer, the clause shown as related — the same clause asked for its upper limit answers
    text = "제1항을 위반한 자에게는 300만원 이하의 과태료를 부과한다."
    md = ChunkMetadata(source="법.md", doc_title="어떤 법", chunk_no=0, article="제9조 (과태료)", page_start=1,
                       page_end=1, char_start=0, char_end=len(text), block_type="body", path="본문/제9조/제1항",
                       segments=[Segment("본문/제9조/제1항", "제9조 (과태료)", 0, len(text))])
    hit = Hit(Chunk(id="c9", text=text, metadata=md), 1.0, 0, matched=["dense", "bm25"],
              scores={"dense": 0.9, "rerank": 5.0, "learned": 5.0})
    exact = answer_hits("위반하면 과태료가 실제로 얼마 나와요?", [hit]).answer
    limit = answer_hits("위반하면 과태료가 최대 얼마까지 나와요?", [hit]).answer
    assert limit.outcome == "answer" and exact.outcome == "related"
    assert exact.confidence < limit.confidence - 0.1
