"""A definitions article ("제2조 (정의)") names every term its document uses — a company's terms define their
trade words — so its wording meets many questions it does not answer: it is discounted
(``authority["definition"]``) unless the question asks what a word means or what counts as what (real store
on disk, hash embedder, real BM25)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "index"))

from fakes import HashEmbedder

from jogak.grammar.patterns import DEFINITION_HEADING_RE, DEFINITION_QUESTION_RE
from jogak.index import open_store
from jogak.retrieve import SearchOptions, search

# 제2조 repeats the question's words ("제트스키", "패들보드", "빌리"); 제5조 is the rule that answers it
TERMS = """물빛레저 이용약관

제1조 (적용)
이 약관은 물빛레저의 모든 이용자에게 적용한다.

제2조 (용어의 정의)
이 약관에서 사용하는 용어의 뜻은 다음과 같다.
1. "대여기구"란 회사가 빌려주는 제트스키와 패들보드를 말한다.
2. "이용자"란 회사의 대여기구를 빌리는 사람을 말한다.

제3조 (예약)
예약은 이용일 하루 전까지 전화로 한다.

제5조 (대여 시간)
대여기구는 한 번에 1시간씩 빌릴 수 있으며, 제트스키는 오후 6시까지 반납한다.
"""


@pytest.fixture()
def store(tmp_path: Path):
    (tmp_path / "이용약관.txt").write_text(TERMS, encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=HashEmbedder())
    assert not st.ingest([str(tmp_path / "이용약관.txt")]).failed
    yield st
    st.close()


def _first_article(store, question: str, **overrides) -> str:
    res = search(store, question, k=3, options=SearchOptions.from_config({}, **overrides))
    return res.hits[0].chunk.metadata.article


def test_the_definitions_article_yields_to_the_rule(store) -> None:
    q = "패들보드 빌려주는 회사 제트스키 몇 시까지?"
    # without the prior the definitions article, holding the question's words, comes first
    assert _first_article(store, q, authority={"definition": 1.0}).startswith("제2조")
    assert _first_article(store, q).startswith("제5조")


def test_a_question_about_a_meaning_still_finds_it(store) -> None:
    # the prior is what is tested: the article heads (on by default) are left out, as the hash embedder's
    # bag-of-characters head of 제5조, which repeats 대여기구 and 제트스키, says nothing about meaning
    q = "대여기구 뜻이 뭐예요? 제트스키도 대여기구에 해당돼요?"
    assert _first_article(store, q, article_dense=False).startswith("제2조")
    assert _first_article(store, q, article_dense=False, authority={"definition": 0.5}).startswith("제2조")


@pytest.mark.parametrize("heading", ["제2조 (정의)", "제2조(용어의 정의)", "제3조 (용어의 뜻)", "정의",
                                     "Article 1 (Definitions)", "1. Definitions"])
def test_definition_headings(heading: str) -> None:
    assert DEFINITION_HEADING_RE.search(heading)


@pytest.mark.parametrize("heading", ["제7조 (정의로운 거래)", "제4조 (계약의 해지)", "Defined Benefit Plan"])
def test_other_headings(heading: str) -> None:
    assert not DEFINITION_HEADING_RE.search(heading)


def test_questions_about_meaning() -> None:
    assert DEFINITION_QUESTION_RE.search("수상레저기구에 패들보드도 포함돼요?")
    assert not DEFINITION_QUESTION_RE.search("제트스키는 몇 시까지 반납해요?")
