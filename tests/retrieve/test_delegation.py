"""An Act clause that leaves the details to its decree ("… 서류는 대통령령으로 정한다") is followed by the decree's
clause that fills them in ("법 제12조제2항에 따른 서류는 …"), when the first ranking holds it; never a clause of
another family's decree, nor one naming another article (real store on disk, hash embedder, real BM25)."""

from __future__ import annotations

from pathlib import Path

import pytest
from law_stores import labels, law_store

from jogak.retrieve import SearchOptions
from jogak.retrieve.delegation import follow_delegation
from jogak.retrieve.pipeline import first_ranking

ACT = """---
제목: 이웃돌봄법
법령구분: 법률
---

# 이웃돌봄법

##### 제11조 (돌봄 지원)

국가는 돌봄이 필요한 이웃을 지원한다.

##### 제12조 (지원의 신청)

**①** 돌봄 지원을 받으려는 사람은 시장에게 신청하여야 한다.

**②** 제1항에 따른 신청에 필요한 서류는 대통령령으로 정한다.
"""

DECREE = """---
제목: 이웃돌봄법 시행령
법령구분: 대통령령
---

# 이웃돌봄법 시행령

##### 제4조 (지원 대상)

법 제11조에 따른 지원 대상은 혼자 사는 노인으로 한다.

##### 제5조 (신청 서류)

법 제12조제2항에 따른 서류는 신청서와 주민등록등본으로 한다.
"""

OTHER = """---
제목: 마을돌봄법 시행령
법령구분: 대통령령
---

# 마을돌봄법 시행령

##### 제3조 (신청 서류)

법 제12조제2항에 따른 서류는 신청서로 한다.
"""


@pytest.fixture()
def store(tmp_path: Path):
    yield from law_store(tmp_path, {"이웃돌봄법.md": ACT, "이웃돌봄법 시행령.md": DECREE, "마을돌봄법 시행령.md": OTHER})



def test_the_decree_clause_follows_the_act_clause_that_delegates_to_it(store) -> None:
    first = first_ranking(store, "돌봄 지원 신청하려면 무엇이 필요해요?", 10, None, SearchOptions.from_config())
    ranked = labels(store, first.ordered)
    act = ranked.index("이웃돌봄법 제12조")
    # put the Act's 제12조 first and its decree's 제5조 last, as an everyday question often ranks them
    entries = [first.ordered[act], *[e for j, e in enumerate(first.ordered) if j != act]]
    decree = next(e for e, lab in zip(first.ordered, ranked, strict=True) if lab == "이웃돌봄법 시행령 제5조")
    entries = [e for e in entries if e is not decree] + [decree]
    out = labels(store, follow_delegation(first.scope, entries))
    assert out[:2] == ["이웃돌봄법 제12조", "이웃돌봄법 시행령 제5조"]
    # another family's decree naming the same number stays where it was; so does the decree's 제4조 (법 제11조)
    assert out.index("마을돌봄법 시행령 제3조") > 1 and out.index("이웃돌봄법 시행령 제4조") > 1


def test_off_or_without_delegation_nothing_moves(store) -> None:
    first = first_ranking(store, "돌봄 지원 신청하려면 무엇이 필요해요?", 10, None, SearchOptions.from_config())
    rev = list(reversed(first.ordered))
    off = SearchOptions.from_config(delegation_top=0)
    first_off = first_ranking(store, "돌봄 지원 신청하려면 무엇이 필요해요?", 10, None, off)
    assert follow_delegation(first_off.scope, rev) == rev
    # 제11조 delegates nothing (its decree's 제4조 names it, but stays), and 제12조 is below the first three: no move
    by = dict(zip(labels(store, first.ordered), first.ordered, strict=True))
    order = [by[k] for k in ("이웃돌봄법 제11조", "마을돌봄법 시행령 제3조", "이웃돌봄법 시행령 제5조",
                             "이웃돌봄법 시행령 제4조", "이웃돌봄법 제12조")]
    assert follow_delegation(first.scope, order) == order
