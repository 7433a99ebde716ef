"""A question asking who cannot get a licence ("…허가를 못 받는 사람은 누구예요?") is followed to the 결격사유 article of
the leading hits' law that shares the most of its words — a decree's hit brings its Act — and nothing moves for
other questions or with the stage off (real store on disk, hash embedder, real BM25)."""

from __future__ import annotations

from pathlib import Path

import pytest
from law_stores import labels, law_store

from jogak.grammar.laws import asks_who_is_barred
from jogak.retrieve import SearchOptions
from jogak.retrieve.disqualification import follow_disqualification
from jogak.retrieve.pipeline import first_ranking

ACT = """---
제목: 마을택배사업법
법령구분: 법률
---

# 마을택배사업법

##### 제3조 (마을택배사업의 허가)

**①** 마을택배사업을 경영하려는 자는 시장의 허가를 받아야 한다.

**②** 제1항에 따른 허가의 기준은 대통령령으로 정한다.

##### 제4조 (결격사유)

다음 각 호의 어느 하나에 해당하는 자는 제3조제1항에 따른 마을택배사업의 허가를 받을 수 없다.

1. 피성년후견인

2. 파산선고를 받고 복권되지 아니한 자

##### 제9조 (배송기사의 등록)

마을택배사업자는 배송기사를 시장에게 등록하여야 한다.

##### 제10조 (배송기사의 결격사유)

다음 각 호의 어느 하나에 해당하는 사람은 배송기사로 등록할 수 없다.

1. 운전면허가 없는 사람
"""

DECREE = """---
제목: 마을택배사업법 시행령
법령구분: 대통령령
---

# 마을택배사업법 시행령

##### 제2조 (허가의 기준)

법 제3조제2항에 따른 마을택배사업 허가의 기준은 차량 1대 이상을 갖추는 것으로 한다.
"""


@pytest.fixture()
def store(tmp_path: Path):
    yield from law_store(tmp_path, {"마을택배사업법.md": ACT, "마을택배사업법 시행령.md": DECREE})



Q = "마을택배사업 허가를 아예 못 받는 사람은 어떤 사람들이에요?"


@pytest.mark.parametrize(("question", "asks"), [
    (Q, True), ("배송기사로 일할 수 없는 사람은 누구예요?", True), ("어떤 사람은 차릴 수가 없어요?", True),
    ("허가를 받으려면 어떤 서류가 필요해요?", False), ("반품할 수 없는 물건도 있어요?", False),
    ("벽에 박은 못 자국도 메워야 해요?", False),
])
def test_who_is_barred_is_read_from_the_question(question: str, asks: bool) -> None:
    assert asks_who_is_barred(question) is asks


def _ordered(store, question: str, first_labels: list[str], options: SearchOptions | None = None):
    first = first_ranking(store, question, 10, None, options or SearchOptions.from_config())
    by = dict(zip(labels(store, first.ordered), first.ordered, strict=True))
    head = [by[k] for k in first_labels]
    return first.scope, head + [e for e in first.ordered if e not in head]


def test_the_disqualification_article_goes_before_the_licence_clause(store) -> None:
    scope, order = _ordered(store, Q, ["마을택배사업법 제3조", "마을택배사업법 제9조"])
    out = labels(store, follow_disqualification(scope, order))
    # the 결격사유 article naming the licence asked about, not the drivers' one
    assert out[:2] == ["마을택배사업법 제4조", "마을택배사업법 제3조"], out
    assert out.index("마을택배사업법 제10조") > 1


def test_a_decree_hit_brings_its_acts_disqualification_article(store) -> None:
    scope, order = _ordered(store, Q, ["마을택배사업법 시행령 제2조"])
    order = [e for e in order if labels(store, [e])[0] not in ("마을택배사업법 제4조",)]  # not retrieved at all
    out = labels(store, follow_disqualification(scope, order))
    assert out[0] == "마을택배사업법 제4조", out


def test_other_questions_or_the_stage_off_move_nothing(store) -> None:
    scope, order = _ordered(store, "마을택배사업 허가를 받으려면 뭘 갖춰야 해요?", ["마을택배사업법 제3조"])
    assert follow_disqualification(scope, order) == order
    off = SearchOptions.from_config(disqualification_top=0)
    scope, order = _ordered(store, Q, ["마을택배사업법 제3조"], off)
    assert follow_disqualification(scope, order) == order


def test_a_compound_the_article_splits_counts_half() -> None:
    from jogak.retrieve.disqualification import _shared

    # "산후조리원" asked; the 결격사유 lead says "산후 조리원을 설치ㆍ운영" (Kiwi: 산후 / 조리 / 원)
    assert _shared({"산후조리원", "차리다"}, {"산후", "조리", "원", "설치", "운영"}) == 0.5
    assert _shared({"허가", "운송"}, {"허가", "운송", "사업"}) == 2
    assert _shared({"강아지"}, {"산후", "조리"}) == 0
