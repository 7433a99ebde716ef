"""The law behind a company's rule (``retrieve/companion.py``): a question the park's terms answer first
("주말에 강아지랑 같이 가도 돼요?") gets the law clause stating the same rule among its first hits, though its own
words rank the terms' other clauses above it (real store on disk, hash embedder, real BM25)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from law_stores import HashEmbedder, labels, law_store

from jogak.index import open_store
from jogak.retrieve import SearchOptions, search
from jogak.retrieve.companion import law_companion
from jogak.retrieve.pipeline import first_ranking

ACT = """---
제목: 동네수목원법
법령구분: 법률
---

# 동네수목원법

##### 제3조 (수목원의 등록)

수목원을 조성한 자는 시장ㆍ군수에게 등록하여야 한다.

##### 제8조 (금지행위)

누구든지 수목원에서 다음 각 호의 행위를 하여서는 아니 된다.
1. 나무를 꺾는 행위
2. 반려동물을 동반하여 입장하는 행위
3. 취사를 하는 행위

##### 제12조 (과태료)

제8조를 위반한 자에게는 30만원 이하의 과태료를 부과한다.
"""

TERMS = """# 솔향수목원 이용약관

제4조 (관람시간)
주말 관람시간은 오전 9시부터 오후 6시까지입니다. 강아지 산책로는 주말에 닫습니다.

제5조 (입장료)
주말 입장료는 어른 5천원, 어린이 2천원입니다. 강아지 동반 할인은 없습니다.

제6조 (주차)
주말에는 주차장이 붐비니 강아지와 함께 오시면 대중교통을 이용해 주세요.

제8조 (매점)
주말에는 매점에서 강아지 간식도 팝니다. 같이 오신 분들은 매점 앞 그늘에서 쉬어 가세요.

제9조 (주말 행사)
주말마다 같이 걷기 행사를 합니다. 강아지 그림 그리기 대회도 열립니다.

제10조 (반려동물)
① 주말에 강아지나 고양이를 데리고 가면 안 됩니다. 반려동물을 동반하여 입장할 수 없습니다.
② 안내견은 들어올 수 있습니다.
"""

Q = "주말에 강아지나 고양이를 데리고 가도 돼요?"


class ConceptEmbedder(HashEmbedder):
    """A hash embedder that also knows a few meanings: words of one concept share a dimension, the way a real
    model puts "강아지" near "반려동물" — so the leaf vectors carry what the test is about."""

    name = "test/concept-64"
    CONCEPTS = (("강아지", "고양이", "반려동물", "동물", "안내견"), ("데리고", "동반"), ("가도", "들어올", "입장"),
                ("과태료", "벌금"), ("등록", "조성"))

    def _vec(self, text: str) -> np.ndarray:
        v = 0.2 * super()._vec(text)
        for i, words in enumerate(self.CONCEPTS):
            v[i] += sum(text.count(w) for w in words)
        n = np.linalg.norm(v)
        return v / n if n else v


@pytest.fixture(params=[False, True], ids=["chunk-vectors", "leaf-vectors"])
def store(tmp_path: Path, request: pytest.FixtureRequest):
    if not request.param:
        yield from law_store(tmp_path, {"동네수목원법.md": ACT, "이용약관_솔향수목원.md": TERMS})
        return
    for name, text in (("동네수목원법.md", ACT), ("이용약관_솔향수목원.md", TERMS)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=ConceptEmbedder(), config={"index": {"leaves": True}})
    assert not st.ingest([str(p) for p in sorted(tmp_path.glob("*.md"))]).failed
    assert st.lexical(st.snapshot()).leaves() is not None
    yield st
    st.close()


def _labels(store, question: str, at: int) -> list[str]:
    hits = search(store, question, k=5, options=SearchOptions.from_config({}, companion_at=at, rerank=None)).hits
    return [f"{h.chunk.metadata.doc_title} {h.chunk.metadata.article.split()[0]}" for h in hits]


def test_the_law_clause_nearest_the_question_and_the_leading_rule_is_picked(store) -> None:
    # the company's clauses first, the laws' after them, whatever the ranking: 제8조, not 제3조 or 제12조, is placed
    opts = SearchOptions.from_config({}, companion_at=3, rerank=None)
    first = first_ranking(store, Q, k=5, options=opts)
    chunks = store.chunk_map([e.key for e in first.ordered])
    title = {e.key: chunks[e.key].metadata.doc_title for e in first.ordered}
    terms = [e for e in first.ordered if title[e.key] != "동네수목원법"]
    lead = next(e for e in terms if "반려동물" in chunks[e.key].metadata.article)
    entries = [lead] + [e for e in terms if e is not lead] + [e for e in first.ordered if title[e.key] == "동네수목원법"]
    out = law_companion(first.scope, entries, first.cands.qvec)
    assert labels(store, out)[:2] == labels(store, entries)[:2]
    assert labels(store, out)[2] == "동네수목원법 제8조", labels(store, out)
    assert "companion" in out[2].scores


def test_the_law_clause_behind_the_rule_joins_the_first_hits(tmp_path: Path) -> None:
    store = next(law_store(tmp_path, {"동네수목원법.md": ACT, "이용약관_솔향수목원.md": TERMS}))
    before = _labels(store, Q, 0)
    assert before[0].startswith("이용약관_솔향수목원") and not any("동네수목원법" in x for x in before[:3]), before
    after = _labels(store, Q, 3)
    assert after[2] == "동네수목원법 제8조", after
    assert after[:2] == before[:2]  # the company's clauses before it keep their place


def test_a_law_already_near_the_top_is_left_alone(store) -> None:
    q = "수목원에서 개를 데리고 들어가면 과태료가 얼마예요?"
    assert _labels(store, q, 3) == _labels(store, q, 0)


def test_a_collection_without_laws_is_left_alone(tmp_path: Path) -> None:
    for st in law_store(tmp_path, {"이용약관_솔향수목원.md": TERMS}):
        assert _labels(st, Q, 3) == _labels(st, Q, 0)


def test_the_plain_pipelines_have_no_companion() -> None:
    assert SearchOptions.plain_hybrid().companion_at == 0 and SearchOptions.baseline().companion_at == 0


def test_the_companion_joins_the_answer_context_without_pushing_a_clause_out(tmp_path: Path) -> None:
    from jogak.answer.ask import AskOptions, ask_composed

    store = next(law_store(tmp_path, {"동네수목원법.md": ACT, "이용약관_솔향수목원.md": TERMS}))

    def titles(at: int) -> list[str]:
        opts = AskOptions(k=3)
        opts.retrieve_options = {"companion_at": at, "rerank": None}
        ctx = ask_composed(store, Q, k=3, options=opts).context
        return [e.chunk.metadata.doc_title for e in ctx.excerpts]

    without = titles(0)
    assert len(without) == 3 and "동네수목원법" not in without, without
    with_law = titles(3)
    assert len(with_law) == 4 and "동네수목원법" in with_law, with_law
    assert [t for t in with_law if t != "동네수목원법"] == without  # the company's three clauses all stay
    store.close()
