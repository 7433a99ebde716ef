"""An addenda article amending other laws ("제3조 (다른 법률의 개정)") rewrites words in other statutes: it
names the law, its ministry and the very words a question uses, and answers no question but one about that
amendment — it is discounted (``authority["amending"]``) unless the question asks about an amendment (real
store on disk, hash embedder, real BM25)."""

from __future__ import annotations

import pytest
from law_stores import law_store, prior_hits, rrf_of

from jogak.grammar.patterns import AMENDING_HEADING_RE, AMENDING_QUESTION_RE

# 부칙 제3조 repeats the question's words (꿀벌, 양봉, 등록, 시장ㆍ군수); 본문 제5조 is the rule that answers it
ACT = """양봉산업의 육성 및 지원에 관한 법률

제1조(목적) 이 법은 양봉산업의 발전을 위하여 필요한 사항을 정한다.

제5조(양봉농가의 등록) ① 꿀벌을 기르는 양봉농가는 벌통 30개 이상이면 시장ㆍ군수에게 등록하여야 한다.
② 등록한 사항이 바뀌면 30일 이내에 변경등록을 하여야 한다.

제9조(지원) 국가는 등록한 양봉농가에 사육 비용을 지원할 수 있다.

부칙 <제17000호, 2020. 2. 11.>

제1조(시행일) 이 법은 공포 후 1년이 경과한 날부터 시행한다.

제3조(다른 법률의 개정) ① 축산법 일부를 다음과 같이 개정한다.
제22조제1항 중 "꿀벌 양봉 등록은 시장ㆍ군수에게"를 "꿀벌 양봉농가 등록은 양봉산업법에 따라 시장ㆍ군수에게"로 한다.
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    yield from law_store(tmp_path_factory.mktemp("amending"), {"양봉산업법.md": ACT})


def _first(store, question: str, **overrides) -> str:
    return prior_hits(store, question, k=3, rerank="auto", **overrides)[0].chunk.metadata.path or ""


def test_the_amending_article_yields_to_the_rule(store) -> None:
    q = "꿀벌 양봉 등록은 시장ㆍ군수에게 하나요?"
    # without the prior (and the addenda one) the amending instructions, holding the question's words, come first
    assert _first(store, q, authority={"amending": 1.0, "addenda": 1.0}).startswith("부칙")
    assert _first(store, q).startswith("본문/제5조")


def _amending_score(store, question: str, **overrides) -> float:
    return rrf_of(store, question, "부칙/제3조", **overrides)


def test_a_question_about_the_amendment_is_not_discounted(store) -> None:
    asks = "축산법 개정으로 꿀벌 양봉 등록 문구가 어떻게 바뀌었나요?"
    assert AMENDING_QUESTION_RE.search(asks)
    assert _amending_score(store, asks) == pytest.approx(_amending_score(store, asks, authority={"amending": 1.0}))
    assert _first(store, asks, authority={"addenda": 1.0}).startswith("부칙")
    plain = "꿀벌 양봉 등록 문구가 어떻게 되나요?"
    assert _amending_score(store, plain) == pytest.approx(
        0.8 * _amending_score(store, plain, authority={"amending": 1.0}))


@pytest.mark.parametrize("heading", ["제3조(다른 법률의 개정)", "제6조 (다른 법령의 개정)", "제4조(다른 법령 등의 개정)"])
def test_amending_headings(heading: str) -> None:
    assert AMENDING_HEADING_RE.search(heading)


@pytest.mark.parametrize("heading", ["제3조(다른 법률과의 관계)", "제2조(개정에 관한 경과조치)", "제7조(다른 법령의 적용)"])
def test_other_headings_are_not_amending(heading: str) -> None:
    assert not AMENDING_HEADING_RE.search(heading)
