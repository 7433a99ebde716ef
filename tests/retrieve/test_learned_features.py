"""The learned reranker's "law_cue" feature: on only when the question speaks of the law or of public regulation
and the clause is a statute's, a decree's or a rule's — a company's terms restating the rule never get it."""

from __future__ import annotations

from types import SimpleNamespace

from jogak.retrieve.learned import FEATURES, clause_features

TITLES = ("축산물 위생관리법", "축산물 위생관리법 시행령", "이용약관_새참정육")


def _law_cue(question: str) -> list[float]:
    meta = [SimpleNamespace(article="제10조 (판매 등의 금지)", doc_title=t) for t in TITLES]
    scores = [{"dense": 0.8, "dense_rank": j + 1} for j in range(len(TITLES))]
    rows = clause_features(question, scores, [0.03, 0.02, 0.01], meta, ["고기를 판다."] * len(TITLES),
                           [1] * len(TITLES), [0.8] * len(TITLES))
    return [r[FEATURES.index("law_cue")] for r in rows]


def test_a_question_about_fines_marks_the_law_clauses_only() -> None:
    assert _law_cue("소비기한 지난 고기를 팔다 걸리면 과태료가 얼마예요?") == [1.0, 1.0, 0.0]
    assert _law_cue("법적으로는 며칠 안에 알려야 해요?") == [1.0, 1.0, 0.0]


def test_an_everyday_question_without_the_cue_marks_none() -> None:
    assert _law_cue("고기를 받고 냄새가 나면 언제까지 알려야 해요?") == [0.0, 0.0, 0.0]
