"""A list the chunker cut through is read whole (answer/continuation.py, units.Carry): the chunk holding the
rest of the list joins the hits, a chunk that continues a clause is read under the clause's heading,
paragraph and list lead, and an answer listing "who cannot" gives every item — on a real store on disk."""

from __future__ import annotations

import pytest

from jogak.answer.ask import AskOptions, ask
from jogak.answer.continuation import LIST_PART, follow_lists
from jogak.answer.units import chunk_end, chunk_units, split_units
from jogak.index import open_store
from jogak.model import Hit

ITEMS = [
    "미성년자, 피성년후견인 또는 피한정후견인",
    "파산선고를 받고 복권되지 아니한 사람으로서 조합의 재산을 관리하는 일을 맡으려는 사람",
    "금고 이상의 실형을 선고받고 그 집행이 끝나거나 집행이 면제된 날부터 3년이 지나지 아니한 사람",
    "금고 이상의 형의 집행유예를 선고받고 그 유예기간 중에 있는 사람",
    "조합의 돈을 빼돌린 일로 벌금형을 받고 5년이 지나지 아니한 사람",
    "이 법을 위반하여 조합원 자격을 잃은 날부터 2년이 지나지 아니한 사람",
    "법원의 판결이나 다른 법률에 따라 자격이 상실되거나 정지된 사람",
]
LAW = f"""# 마을공방조합법

제1조(목적) 이 법은 마을공방조합의 설립과 운영에 필요한 사항을 정하여 주민의 공동 작업을 돕는 것을 목적으로 한다.

제7조(조합원의 자격)
① 마을에 주소를 둔 사람은 누구든지 조합에 가입하여 공방을 함께 쓸 수 있다.
② 조합은 가입 신청을 받은 날부터 14일 안에 가입 여부를 정하여 신청인에게 알려야 한다.
③ 다음 각 호의 어느 하나에 해당하는 사람은 조합원이 될 수 없다.
1. {ITEMS[0]}
2. {ITEMS[1]}
3. {ITEMS[2]}
3의2. {ITEMS[3]}
4. {ITEMS[4]}
5. {ITEMS[5]}
6. {ITEMS[6]}
④ 조합원이 제3항 각 호의 어느 하나에 해당하게 되면 그날부터 조합원의 자격을 잃는다.

제8조(조합비) 조합원은 매달 10일까지 조합비 1만원을 낸다.
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    d = tmp_path_factory.mktemp("lists")
    (d / "마을공방조합법.md").write_text(LAW, encoding="utf-8")
    st = open_store(d / "db", embedder=False)
    rep = st.ingest([str(d / "마을공방조합법.md")], strategy="structure", size=300)
    assert not rep.failed, rep.failed
    yield st
    st.close()


def _article_chunks(st) -> list:
    return [c for c in st.chunks() if (c.metadata.clause or "").endswith("제7조")]


def test_the_list_is_cut_across_chunks(store) -> None:
    # the premise: the structure chunker cuts 제7조 ③'s list, so one chunk starts with an item
    parts = _article_chunks(store)
    assert len(parts) >= 2
    assert any(split_units(c.text)[0].kind == "item" for c in parts[1:])


def test_a_continuing_chunk_reads_under_its_clause() -> None:
    units = split_units("3의2. 집행유예 중인 사람\n4. 벌금형을 받은 사람")
    assert [u.item for u in units] == ["3의2.", "4."]  # an inserted item is an item, not a one-word sentence


def test_carry_gives_heading_paragraph_and_lead(store) -> None:
    first, second = _article_chunks(store)[:2]
    carry = chunk_end(first)
    assert carry.heading.startswith("제7조") and carry.marker == "③"
    items = [u for u in chunk_units(second, carry) if u.kind == "item"]
    assert items and all(u.heading.startswith("제7조") and u.marker == "③" and "조합원이 될 수 없다" in u.context
                         for u in items)
    # read alone, its items have no heading, paragraph or lead
    alone = [u for u in chunk_units(second) if u.kind == "item"]
    assert alone and not any(u.heading or u.marker or u.context for u in alone)


def test_follow_lists_brings_the_rest_of_the_list(store) -> None:
    parts = _article_chunks(store)
    head = next(c for c in parts if "조합원이 될 수 없다" in c.text)
    tail = parts[parts.index(head) + 1]
    got = follow_lists(store, [Hit(head, 1.0, 0)])
    assert [h.chunk.id for h in got] == [head.id, tail.id] and LIST_PART in got[1].matched
    # from the tail alone: the chunk before it holds the list's lead and first items
    got = follow_lists(store, [Hit(tail, 1.0, 0)])
    assert head.id in [h.chunk.id for h in got]
    # a hit already present is not added twice; the budget bounds what joins
    assert len(follow_lists(store, [Hit(head, 1.0, 0), Hit(tail, 0.9, 1)])) == 2
    assert follow_lists(store, [Hit(head, 1.0, 0)], max_added=0) == [Hit(head, 1.0, 0)]


def test_a_list_answer_names_every_item(store) -> None:
    a = ask(store, "조합원이 될 수 없는 사람은 어떤 사람들이에요?")
    assert a.outcome == "answer", a.answer
    missing = [i for i in ITEMS if i not in a.answer]
    assert not missing, a.answer
    assert a.answer.index(ITEMS[2]) < a.answer.index(ITEMS[3]) < a.answer.index(ITEMS[6])  # in document order
    # the citations of the later items point at their own 호 of ③, not at a chunk without a clause
    assert any(c.article.endswith("③ 제6호") for c in a.citations), [c.article for c in a.citations]


def test_without_whole_lists_the_hits_stay_as_retrieved(store) -> None:
    opts = AskOptions(whole_lists=False, whole_clauses=False)
    a = ask(store, "조합원이 될 수 없는 사람은 어떤 사람들이에요?", options=opts)
    assert not any(LIST_PART in (c.get("matched") or []) for c in a.to_dict().get("excerpts", []))
