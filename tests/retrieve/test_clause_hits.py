"""Issue 12 on a real store (hash embedder, real BM25, real files): hits are clauses (the chunks of one
long article collapse into one hit), every leaf is indexed and carried over when other documents come
and go, a leaf that answers lifts its clause, and a document a question names by its opening line or a
law's short name is preferred."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "index"))

from fakes import HashEmbedder

from jogak.index import open_store
from jogak.retrieve import SearchOptions, search
from jogak.retrieve.clauses import unfold
from jogak.retrieve.documents import named_titles

FILLER = "회원은 회사가 정한 절차에 따라 서비스를 이용할 수 있으며 회사는 이를 성실히 안내하여야 한다. " * 3

TERMS = f"""다온마켓 이용약관

제1조 (목적)
이 약관은 다온마켓이 제공하는 서비스의 이용 조건을 정한다.

제2조 (회원의 의무)
① {FILLER}
② {FILLER}
③ {FILLER}
④ 회원은 비밀번호를 타인에게 알려주어서는 아니 되며, 도용 사실을 안 경우 즉시 회사에 통지하여야 한다.
⑤ {FILLER}

제3조 (포인트)
포인트는 적립일로부터 1년이 지나면 소멸한다.
"""

POLICY = """누리북스 개인정보처리방침

제1조 (수집 항목)
회사는 이름, 연락처, 배송지 주소를 수집한다.

제2조 (보유 기간)
회원 탈퇴 시 지체 없이 파기한다. 다만 전자상거래 기록은 5년간 보관한다.
"""


@pytest.fixture()
def store(tmp_path: Path):
    (tmp_path / "약관.txt").write_text(TERMS, encoding="utf-8")
    (tmp_path / "처리방침.txt").write_text(POLICY, encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=HashEmbedder(), config={"index": {"leaves": True}})
    rep = st.ingest([str(tmp_path / "약관.txt"), str(tmp_path / "처리방침.txt")], size=300, overlap=50)
    assert not rep.failed
    st.files = tmp_path  # type: ignore[attr-defined]
    yield st
    st.close()


def _clause_chunks(st, doc_title: str, clause: str) -> list:
    return [c for c in st.chunks() if c.metadata.doc_title == doc_title and c.metadata.clause == clause]


def test_the_chunks_of_one_clause_are_one_hit(store) -> None:
    parts = _clause_chunks(store, "약관", "본문/제2조")
    assert len(parts) >= 3  # the long article was cut into several chunks, all keyed to its clause
    res = search(store, "회원은 회사가 정한 절차에 따라 서비스를 이용", k=5)
    clauses = [(h.chunk.metadata.doc_id, h.chunk.metadata.clause) for h in res.hits]
    assert len(clauses) == len(set(clauses))  # five results are five different clauses
    top = res.hits[0]
    assert top.chunk.metadata.clause == "본문/제2조"
    assert set(top.also) <= {c.id for c in parts} and top.also and top.chunk.id not in top.also
    assert top.to_dict()["also"] == top.also
    # without collapsing, the same article fills several slots
    flat = search(store, "회원은 회사가 정한 절차에 따라 서비스를 이용", k=5,
                  options=SearchOptions.from_config(collapse=False))
    assert sum(h.chunk.metadata.clause == "본문/제2조" for h in flat.hits) >= 2


def test_a_clause_too_long_to_be_one_collapses_by_its_parts(store) -> None:
    # a contract's "Section 8" of tens of chunks is a section of clauses: past collapse_max_chunks its
    # chunks collapse by the node below it (here the 항), and no hit stands for the whole of it
    parts = _clause_chunks(store, "약관", "본문/제2조")
    q = "회원은 회사가 정한 절차에 따라 서비스를 이용"
    short = search(store, q, k=10, options=SearchOptions.from_config(collapse_max_chunks=len(parts) - 1))
    mine = [h for h in short.hits if (h.chunk.metadata.doc_title, h.chunk.metadata.clause) == ("약관", "본문/제2조")]
    assert len(mine) >= 2
    by_id = {c.id: c for c in parts}
    for h in mine:  # a hit folds in only chunks under its own 항; a chunk across 항s stays a hit alone
        path = h.chunk.metadata.path
        if path == "본문/제2조":
            assert not h.also
        else:
            assert all(by_id[i].metadata.path.startswith(path) for i in h.also)
    whole = search(store, q, k=10, options=SearchOptions.from_config(collapse_max_chunks=len(parts)))
    assert sum((h.chunk.metadata.doc_title, h.chunk.metadata.clause) == ("약관", "본문/제2조") for h in whole.hits) == 1


def test_unfold_gives_the_answerer_the_whole_clause(store) -> None:
    res = search(store, "회원은 회사가 정한 절차에 따라 서비스를 이용", k=3)
    top = res.hits[0]
    hits = unfold(store, list(res.hits))
    n = len(top.also)
    parts = hits[1 : 1 + n]  # the clause's other chunks right after it, in document order
    assert hits[0] is top and {h.chunk.id for h in parts} == set(top.also)
    assert [h.chunk.metadata.chunk_no for h in parts] == sorted(h.chunk.metadata.chunk_no for h in parts)
    assert all(h.chunk.metadata.clause == "본문/제2조" and h.matched[-1] == "clause_part" for h in parts)
    assert hits[1 + n :] == list(res.hits[1:])  # the other hits keep their order
    assert len({h.chunk.id for h in hits}) == len(hits)


def test_the_answerer_gets_whole_clauses_unless_configured_off(store) -> None:
    from jogak.answer.ask import AskOptions, ask_composed

    q = "회원은 회사가 정한 절차에 따라 서비스를 이용"
    whole = ask_composed(store, q, k=3, options=AskOptions(k=3))
    part = ask_composed(store, q, k=3, options=AskOptions.from_config({"k": 3, "whole_clauses": False}))
    assert any("clause_part" in e.hit.matched for e in whole.context.excerpts)
    assert not any("clause_part" in e.hit.matched for e in part.context.excerpts)
    # retrieval options given to the answer stage reach the search (a mapping of SearchOptions fields)
    fb = ask_composed(store, "도용 사실을 알게 되면 어떻게 하나요", k=5,
                      options=AskOptions(k=5, retrieve_options={"feedback": True}))
    assert any("feedback" in e.hit.matched for e in fb.context.excerpts)


def test_feedback_adds_a_list_from_the_top_clauses_words(store) -> None:
    q = "도용 사실을 알게 되면 어떻게 하나요"
    plain = search(store, q, k=5)
    fb = search(store, q, k=5, options=SearchOptions.from_config(feedback=True))
    assert "feedback" not in {m for h in plain.hits for m in h.matched}
    assert any("feedback" in h.matched for h in fb.hits)
    assert fb.hits[0].chunk.metadata.clause == plain.hits[0].chunk.metadata.clause


def test_leaves_are_indexed_with_their_breadcrumb_and_survive_rebuilds(store) -> None:
    li = store.lexical().leaves()
    paths = set(li.paths)
    assert {"본문/제2조/제4항", "본문/제3조"} <= paths
    assert li.vectors is not None and li.vectors.shape == (len(li), 64)
    j = li.paths.index("본문/제2조/제4항")
    assert "제2조" in li.tokens[j] and "비밀" in li.tokens[j]  # the breadcrumb travels with the leaf
    n = len(li)
    # another document ingested and one removed: the untouched rows keep their leaves (not re-embedded)
    (store.files / "추가.txt").write_text("추가 문서\n\n제1조 (기타)\n기타 사항은 관계 법령에 따른다.\n",
                                          encoding="utf-8")
    emb = store.embedder
    store.ingest([str(store.files / "추가.txt")])
    li2 = store.lexical().leaves()
    assert len(li2) == n + 1 and "본문/제2조/제4항" in li2.paths
    assert store.remove("추가.txt")
    li3 = store.lexical().leaves()
    assert sorted(li3.paths) == sorted(li.paths)
    assert emb is store.embedder


def test_a_leaf_that_answers_lifts_its_clause_and_is_named(store) -> None:
    q = "비밀번호를 남에게 알려줘도 되나요?"
    res = search(store, q, k=3)
    top = res.hits[0]
    assert top.chunk.metadata.clause == "본문/제2조"
    assert top.leaf == "본문/제2조/제4항" and "leaf_bm25" in top.matched


def test_a_document_named_by_its_opening_line_is_preferred(store) -> None:
    res = search(store, "누리북스는 제 정보를 언제 파기하나요?", k=3)
    assert res.hits[0].chunk.metadata.doc_title == "처리방침"
    assert res.hits[0].scores.get("document")


def test_law_short_names_name_the_act_or_its_decree() -> None:
    titles = ["정보통신망 이용촉진 및 정보보호 등에 관한 법률", "가맹사업거래의 공정화에 관한 법률",
              "가맹사업거래의 공정화에 관한 법률 시행령", "개인정보 보호법", "개인정보 보호법 시행령", "가맹계약서_고소한들치킨"]
    assert named_titles("정보통신망법에 따르면 광고 문자는?", titles) == {titles[0]}
    # people drop words of a long name ("가맹사업거래의 …" → 가맹사업법); the decree is named only with 시행령
    assert named_titles("가맹사업법 제10조대로라면 언제 돌려줘요?", titles) == {titles[1]}
    assert named_titles("가맹사업법 시행령 제15조를 보면?", titles) == {titles[2]}
    # the decree's name holds the Act's whole title: only the decree is named
    assert named_titles("개인정보보호법 시행령 제3조", titles) == {titles[4]}
    assert named_titles("개인정보 보호법 제3조", titles) == {titles[3]}
    assert named_titles("결제방법이 뭐예요? 법에서는요?", titles) == set()
    # a title inside a longer law name is not named: "응급의료법" names 응급의료에 관한 법률, not 의료법
    laws = ["의료법", "응급의료에 관한 법률", "의료법 시행령"]
    assert named_titles("응급의료법 제9조에서 동의는 누구한테 받아요?", laws) == {laws[1]}
    assert named_titles("의료법 제9조와 응급의료법 제9조는 어떻게 달라요?", laws) == {laws[0], laws[1]}
    assert named_titles("의료법 제17조에 따르면?", laws) == {laws[0]}


def test_leaves_are_indexed_only_when_asked(tmp_path: Path) -> None:
    (tmp_path / "약관.txt").write_text(TERMS, encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=HashEmbedder())
    st.ingest([str(tmp_path / "약관.txt")], size=300, overlap=50)
    assert st.lexical().leaves() is None  # index.leaves is off by default: nothing more is embedded
    res = search(st, "비밀번호를 남에게 알려줘도 되나요?", k=3)
    assert res.hits[0].chunk.metadata.clause == "본문/제2조" and res.hits[0].leaf is None
    st.close()


# A brand and a trade: the trade is what every question about the trade says, and the law calls it something else,
# so the word occurs in the company's terms only — it must not name them. "한결상조": the trade inside the brand's
# compound ("상조"; the statute says "선불식 할부거래"); "물결 다이빙 체험 이용약관": trade words after the brand ("체험").
TRADES = [
    ("한결상조 회원약관\n\n제1조 (목적)\n이 약관은 상조 서비스의 이용 조건을 정한다.\n\n"
     "제2조 (해약)\n회원은 언제든지 상조 계약을 해약할 수 있다.\n",
     "선불식 할부거래법\n\n제1조 (목적)\n이 법은 선불식 할부거래를 공정하게 한다.\n\n"
     "제2조 (해제)\n소비자는 선불식 할부계약을 해제할 수 있다.\n",
     "한결상조는 해약하면 돈을 돌려줘요?", "상조 해약하면 돈을 돌려줘요?"),
    ("물결 다이빙 체험 이용약관\n\n제1조 (목적)\n이 약관은 체험 다이빙의 이용 조건을 정한다.\n\n"
     "제2조 (취소)\n회원은 체험 하루 전까지 취소할 수 있다.\n",
     "수중레저법\n\n제1조 (목적)\n이 법은 수중레저활동의 안전을 정한다.\n\n"
     "제2조 (금지)\n누구든지 야간에 수중레저활동을 하여서는 아니 된다.\n",
     "물결은 체험을 언제까지 취소할 수 있어요?", "체험 다이빙을 밤에 해도 돼요?"),
]


@pytest.mark.parametrize(("terms", "law", "named_q", "trade_q"), TRADES, ids=["in-the-compound", "after-the-brand"])
def test_a_trade_word_does_not_name_the_document(tmp_path: Path, terms: str, law: str, named_q: str,
                                                 trade_q: str) -> None:
    (tmp_path / "약관.txt").write_text(terms, encoding="utf-8")
    (tmp_path / "법률.txt").write_text(law, encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=HashEmbedder())
    st.ingest([str(tmp_path / "약관.txt"), str(tmp_path / "법률.txt")], size=300, overlap=50)
    named = search(st, named_q, k=3)
    assert named.hits[0].chunk.metadata.doc_title == "약관" and named.hits[0].scores.get("document")
    trade = search(st, trade_q, k=4)
    assert not any(h.scores.get("document") for h in trade.hits)
    st.close()


def test_the_brand_of_a_title_line() -> None:
    from jogak.retrieve.documents import _name_parts

    assert _name_parts("물결 다이빙 체험 이용약관") == ["물결"]
    assert _name_parts("주식회사 햇살 이용약관") == ["햇살"]
    assert _name_parts("이용약관 (주식회사 햇살)") == ["이용", "햇살"]
