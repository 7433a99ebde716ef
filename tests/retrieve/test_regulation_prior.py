"""A question about public regulation or what a public body does ("구청이 …", "과태료") that names no document:
in a collection of laws and terms, the terms' candidates are discounted by ``regulation_prior`` — a company's
terms do not bind a 구청 or set a fine (real store on disk, hash embedder, real BM25)."""

from __future__ import annotations

from pathlib import Path

import pytest
from law_stores import law_store

from jogak.retrieve import SearchOptions
from jogak.retrieve.pipeline import first_ranking

ACT = """---
제목: 동네텃밭법
법령구분: 법률
---

# 동네텃밭법

##### 제5조 (공영텃밭)

지방자치단체는 놀고 있는 공유지에 주민이 가꿀 공영텃밭을 열 수 있다.

##### 제9조 (과태료)

텃밭에서 물건을 판 사람에게는 50만원 이하의 과태료를 부과한다.
"""

TERMS = """# 풀빛농장 텃밭 이용약관

제3조 (텃밭 분양)
회사는 회원에게 텃밭을 분양하고, 회원은 텃밭에서 채소를 가꾼다.

제7조 (판매 금지)
회원은 텃밭에서 기른 채소를 팔 수 없으며, 어기면 회사는 분양을 취소한다.
"""


@pytest.fixture()
def store(tmp_path: Path):
    yield from law_store(tmp_path, {"동네텃밭법.md": ACT, "이용약관_풀빛농장.md": TERMS})


def _weights(store, question: str, prior: float) -> dict[str, float | None]:
    """Per document title, the regulation weight its first candidate carries (None: not discounted)."""
    first = first_ranking(store, question, k=5, options=SearchOptions.from_config({}, regulation_prior=prior))
    chunks = store.chunk_map([e.key for e in first.ordered])
    out: dict[str, float | None] = {}
    for e in first.ordered:
        out.setdefault(chunks[e.key].metadata.doc_title, e.scores.get("regulation"))
    return out


def test_a_public_body_question_discounts_the_terms(store) -> None:
    w = _weights(store, "구청이 놀고 있는 땅에 텃밭을 열어 줄 수 있어요?", 0.9)
    assert w["동네텃밭법"] is None
    assert w["이용약관_풀빛농장"] == 0.9, w


def test_a_fine_question_discounts_the_terms(store) -> None:
    assert _weights(store, "텃밭 채소를 팔다 걸리면 얼마 내요?", 0.9)["이용약관_풀빛농장"] == 0.9


def test_a_question_asking_whose_permission_discounts_the_terms(store) -> None:
    # whose 허락 or what to get: a permit is a public body's to give (every such used question's gold is a law's)
    assert _weights(store, "텃밭에서 기른 채소를 팔려면 누구한테 허락을 받아야 해요?", 0.9)["이용약관_풀빛농장"] == 0.9
    assert _weights(store, "공유지에 텃밭을 만들려면 뭘 받아야 해요?", 0.9)["이용약관_풀빛농장"] == 0.9


def test_a_customer_question_is_left_alone(store) -> None:
    # no cue of regulation: every document competes as it ranks
    assert set(_weights(store, "텃밭에서 기른 채소를 팔아도 돼요?", 0.9).values()) == {None}


def test_a_named_document_and_the_switch_win(store) -> None:
    # the question names the terms: document routing lifts them, no discount
    assert set(_weights(store, "풀빛농장 약관에서 구청이 텃밭을 열 수 있어요?", 0.9).values()) == {None}
    assert set(_weights(store, "구청이 놀고 있는 땅에 텃밭을 열어 줄 수 있어요?", 1.0).values()) == {None}


def test_a_collection_of_terms_only_is_left_alone(tmp_path: Path) -> None:
    for st in law_store(tmp_path, {"이용약관_풀빛농장.md": TERMS}):
        assert set(_weights(st, "구청이 텃밭을 열어 줄 수 있어요?", 0.9).values()) == {None}


def _first_titles(store, question: str, laws_first: int) -> list[str]:
    from jogak.retrieve import search

    res = search(store, question, k=4, options=SearchOptions.from_config({}, sanction_laws_first=laws_first,
                                                                           regulation_prior=1.0))
    return [h.chunk.metadata.doc_title for h in res.hits]


# the terms repeat the breach word for word; the Act punishes it in other words
TERMS_SALE = TERMS.replace("회원은 텃밭에서 기른 채소를 팔 수 없으며, 어기면 회사는 분양을 취소한다.",
                           "회원이 텃밭에서 기른 채소를 몰래 팔다가 걸리면 회사는 분양을 취소하고 "
                           "텃밭에서 기른 채소를 거두어 간다.")


def test_a_state_sanction_question_ranks_the_laws_first(tmp_path: Path) -> None:
    q = "텃밭에서 기른 채소를 몰래 팔다가 걸리면 어떤 처벌을 받아요?"
    for st in law_store(tmp_path, {"동네텃밭법.md": ACT, "이용약관_풀빛농장.md": TERMS_SALE}):
        assert _first_titles(st, q, 0)[0] == "이용약관_풀빛농장"  # as ranked: the terms' words
        titles = _first_titles(st, q, 3)
        # only the Act can impose a 처벌: its clauses first, the terms' behind them, still listed
        assert titles[:2] == ["동네텃밭법", "동네텃밭법"] and "이용약관_풀빛농장" in titles, titles
        # a question about the company's own consequence asks no state sanction: left as ranked
        assert _first_titles(st, "약관에서는 텃밭에서 기른 채소를 몰래 팔다가 걸리면 어떻게 돼요?", 3)[0] == "이용약관_풀빛농장"
        # one naming the company only asks what its terms do about it: left as ranked, the terms first
        assert _first_titles(st, "풀빛농장 텃밭에서 채소를 몰래 팔다 걸리면 과태료를 내야 해요?", 3)[0] == "이용약관_풀빛농장"
