"""Haru Market's two 멤버십정책 versions (examples/haru-market: 2023-01-01 and 2025-01-01) over a real
store: date-dependent questions answered from the version in force then, points earned in 2024 following
부칙 ②, and no answer mixing two versions (issue 15)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jogak.answer.ask import ask
from jogak.eval.answers import load_questions
from jogak.index.store import open_store
from jogak.index.versions import lexical_timelines

ROOT = Path(__file__).resolve().parents[2]
HARU = ROOT / "examples" / "haru-market"


@pytest.fixture(scope="module")
def haru(tmp_path_factory: pytest.TempPathFactory) -> Any:
    if not any(HARU.glob("*@*.pdf")):
        pytest.skip("sample corpus not built")
    st = open_store(tmp_path_factory.mktemp("haru_versions") / "db", embedder=False)
    assert not st.ingest([str(HARU)]).failed
    yield st
    st.close()


def test_the_two_membership_versions(haru: Any) -> None:
    tl = lexical_timelines(haru.lexical())
    assert [(v.effective_from, v.effective_to) for v in tl["멤버십정책"]] == [
        ("2023-01-01", "2025-01-01"), ("2025-01-01", None)]


def test_points_earned_in_2024_follow_addenda_2(haru: Any) -> None:
    ans = ask(haru, "2024년에 적립한 하루포인트는 유효기간이 얼마나 돼요?")
    assert "2년" in ans.answer and "1년" not in ans.answer
    assert any(c.article.startswith("부칙") and c.effective_from == "2025-01-01" for c in ans.citations)
    assert "종전 정책에 따라" in ans.answer
    now = ask(haru, "하루포인트 유효기간은 얼마나 돼요?")
    assert "1년" in now.answer and all(c.effective_from != "2023-01-01" for c in now.citations)


def test_no_answer_mixes_two_versions(haru: Any) -> None:
    for q in load_questions(HARU / "questions.yaml"):
        ans = ask(haru, q["question"])
        plain = {(c.doc_title, c.effective_from) for c in ans.citations
                 if c.effective_from and not c.article.startswith("부칙")}
        titles = [t for t, _ in plain]
        assert len(titles) == len(set(titles)), (q["id"], plain)
