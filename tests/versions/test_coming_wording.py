"""A clause whose only text in the collection takes effect later (a consolidated statute holds pending
amendments with their own start): asked about today it is still found and the answer says it is the
coming wording; asked about a day before that start it is left out, as before."""

from __future__ import annotations

from typing import Any

import pytest

from jogak.answer.ask import ask
from jogak.index.store import open_store
from jogak.retrieve import search

POLICY = """# 포인트 정책

## 제1조 (목적)
이 정책은 포인트의 적립과 사용을 정한다.

## 제2조 (포인트 유효기간)
포인트의 유효기간은 적립일로부터 1년이다.

## 제3조 (포인트 사용)
포인트는 5,000포인트 이상 모이면 현금처럼 사용할 수 있다. <개정 2025. 1. 1.>

## 부칙 <2025. 1. 1.>
이 정책은 2025년 1월 1일부터 시행한다. 다만, 제3조의 개정규정은 2099년 1월 1일부터 시행한다.
"""
QUESTION = "포인트가 몇 포인트 모여야 현금처럼 쓸 수 있나요?"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Any:
    d = tmp_path_factory.mktemp("coming")
    (d / "포인트정책.md").write_text(POLICY, encoding="utf-8")
    st = open_store(d / "db", embedder=False)
    rep = st.ingest([str(d / "포인트정책.md")])
    assert not rep.failed
    yield st
    st.close()


def _articles(res: Any) -> list[str]:
    return [h.chunk.metadata.article for h in res.hits]


def test_today_the_only_text_is_found_with_a_notice(store: Any) -> None:
    res = search(store, QUESTION, k=5)
    assert "제3조 (포인트 사용)" in _articles(res)[:2]
    assert any(w.endswith("coming wording") and "2099-01-01" in w for w in res.warnings)


def test_the_answer_says_it_is_the_coming_wording(store: Any) -> None:
    a = ask(store, QUESTION)
    assert a.citations and a.citations[0].article.startswith("제3조")
    assert a.answer.startswith("포인트정책 제3조 (포인트 사용)은(는) 2099. 1. 1. 시행 예정인 문언입니다")
    assert "오늘 시행 중인 문언은 컬렉션에 없습니다" in a.answer


def test_a_day_asked_before_the_start_leaves_it_out(store: Any) -> None:
    res = search(store, QUESTION, k=5, filters=["as_of=2030-01-01"])
    assert "제3조 (포인트 사용)" not in _articles(res)
    assert any("takes effect on 2099-01-01, after 2030-01-01" in w and not w.endswith("coming wording")
               for w in res.warnings)
