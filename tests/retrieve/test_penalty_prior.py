"""A penalty provision ("제33조 (과태료)") lists the articles whose breach it punishes, so it shares the words of every
duty's question ("검사를 받아야 해요?") while answering only what a breach brings: it is discounted
(``authority["penalty"]``) unless the question may ask about a breach or its sanction (real store on disk, hash
embedder, real BM25)."""

from __future__ import annotations

import pytest
from law_stores import law_store, prior_hits, rrf_of

from jogak.grammar.laws import PENALTY_QUESTION_RE

# 제33조 repeats the question's words (홍삼, 검사, 받, 판매) for each breach; 제17조 states the duty in its own words
ACT = """홍삼산업법

제1조(목적) 이 법은 홍삼산업의 발전을 위하여 필요한 사항을 정한다.

제17조(검사) ① 홍삼을 팔려는 자는 미리 검사기관의 확인을 거쳐야 한다.
② 검사에 합격한 홍삼에는 검사증지를 붙인다.

제20조(신고) 홍삼 가공업을 하려는 자는 시장ㆍ군수에게 신고하여야 한다.

제33조(과태료) ① 다음 각 호의 어느 하나에 해당하는 자에게는 500만원 이하의 과태료를 부과한다.
1. 제17조제1항을 위반하여 검사를 받지 아니하고 홍삼을 판매한 자
2. 제17조제2항을 위반하여 검사증지를 붙이지 아니하고 홍삼을 판매한 자
3. 제20조에 따른 신고를 하지 아니하고 홍삼 가공업을 한 자
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    yield from law_store(tmp_path_factory.mktemp("penalty"), {"홍삼산업법.md": ACT})


def _first(store, question: str, **overrides) -> str:
    return prior_hits(store, question, **overrides)[0].chunk.metadata.path or ""


def _penalty_score(store, question: str, **overrides) -> float:
    return rrf_of(store, question, "본문/제33조", **overrides)


def test_the_penalty_article_yields_to_the_duty(store) -> None:
    q = "홍삼을 판매하려면 검사를 받아야 해요?"
    assert not PENALTY_QUESTION_RE.search(q)
    # without the prior the penalty article, repeating the duty's words item by item, comes first
    assert _first(store, q, authority={"penalty": 1.0}).startswith("본문/제33조")
    assert _first(store, q).startswith("본문/제17조")


@pytest.mark.parametrize("question", ["검사 안 받고 홍삼을 팔다가 걸리면 어떻게 돼요?", "검사증지 없이 팔면 과태료가 얼마예요?",
                                      "신고를 하지 않으면 불이익이 있나요?"])
def test_a_question_about_a_breach_is_not_discounted(store, question: str) -> None:
    assert PENALTY_QUESTION_RE.search(question)
    assert _penalty_score(store, question) == pytest.approx(_penalty_score(store, question, authority={"penalty": 1.0}))


def test_a_duty_question_discounts_it(store) -> None:
    q = "홍삼 가공업을 하려면 어디에 신고해요?"
    assert _penalty_score(store, q) == pytest.approx(
        0.9 * _penalty_score(store, q, authority={"penalty": 1.0}), rel=1e-4)
