"""A purpose article ("제1조 (목적)") shares the vocabulary of every question about its document and answers
almost none: it is discounted (``authority["purpose"]``) unless the question asks about a purpose (real
store on disk, hash embedder, real BM25)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "index"))

from fakes import HashEmbedder

from jogak.index import open_store
from jogak.retrieve import SearchOptions, search

# 제1조 repeats the words of the question ("반품", "환불", "배송비"); 제4조 is the rule that answers it
TERMS = """솔빛몰 반품 정책

제1조 (목적)
이 정책은 솔빛몰에서 산 상품의 반품, 교환, 환불과 반품 배송비에 관한 기준을 정함을 목적으로 한다.

제2조 (적용 범위)
이 정책은 솔빛몰 회원의 모든 주문에 적용한다.

제3조 (교환)
교환은 같은 상품으로만 할 수 있다.

제4조 (반품 배송비)
단순 변심으로 반품하면 왕복 배송비 6,000원은 고객이 부담한다.
"""


@pytest.fixture()
def store(tmp_path: Path):
    (tmp_path / "반품정책.txt").write_text(TERMS, encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=HashEmbedder())
    assert not st.ingest([str(tmp_path / "반품정책.txt")]).failed
    yield st
    st.close()


def _first_article(store, question: str, **overrides) -> str:
    res = search(store, question, k=3, options=SearchOptions.from_config({}, **overrides))
    return res.hits[0].chunk.metadata.article


def test_the_purpose_article_yields_to_the_rule(store) -> None:
    q = "반품 배송비 환불 기준이 어떻게 돼요?"
    # without the prior the purpose article, holding every word of the question, comes first
    assert _first_article(store, q, authority={"purpose": 1.0}).startswith("제1조")
    assert _first_article(store, q).startswith("제4조")


def test_a_question_about_the_purpose_still_finds_it(store) -> None:
    assert _first_article(store, "이 반품 정책의 목적이 뭐예요?").startswith("제1조")
