"""As-of retrieval, answers that say their version, diff — over a real store of the three
주택임대차보호법 versions and of two versions of a small policy (issue 15)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.versions.test_grammar_structure import VERSIONS, needs_versions

from jogak.answer.ask import ask
from jogak.filters import BEFORE_CHANGE, BEFORE_CURRENT
from jogak.index.store import open_store
from jogak.index.versions import diff, lexical_timelines
from jogak.retrieve import search
from jogak.retrieve.asof import from_question
from jogak.server.app import create_app
from jogak.server.settings import ServerSettings

POLICY_OLD = """# 포인트 정책

## 제1조 (목적)
이 정책은 포인트의 적립과 소멸을 정한다.

## 제2조 (포인트 유효기간)
① 포인트의 유효기간은 적립일로부터 2년이다.
② 유효기간이 지난 포인트는 소멸한다.

## 부칙
① 이 정책은 2023년 1월 1일부터 시행한다.
"""
POLICY_NEW = """# 포인트 정책

## 제1조 (목적)
이 정책은 포인트의 적립과 소멸을 정한다.

## 제2조 (포인트 유효기간)
① 포인트의 유효기간은 적립일로부터 1년이다.
② 유효기간이 지난 포인트는 소멸한다.

## 제3조 (포인트 사용)
포인트는 1,000포인트 이상부터 사용할 수 있다.

## 부칙
① 이 정책은 2025년 1월 1일부터 시행한다.
② 이 정책 시행 전에 적립된 포인트의 유효기간은 종전 정책에 따라 적립일로부터 2년으로 한다.
"""


@pytest.fixture(scope="module")
def law_store(tmp_path_factory: pytest.TempPathFactory) -> Any:
    if not VERSIONS.is_dir():
        pytest.skip("shared corpus korean_law_sets absent")
    db = tmp_path_factory.mktemp("versions") / "db"
    st = open_store(db, embedder=False)
    rep = st.ingest([str(VERSIONS)])
    assert not rep.failed and len(rep.added) == 3
    yield st
    st.close()


@pytest.fixture(scope="module")
def policy_store(tmp_path_factory: pytest.TempPathFactory) -> Any:
    d = tmp_path_factory.mktemp("policy")
    (d / "포인트정책@2023.md").write_text(POLICY_OLD, encoding="utf-8")
    (d / "포인트정책.md").write_text(POLICY_NEW, encoding="utf-8")
    st = open_store(d / "db", embedder=False)
    assert not st.ingest([str(d / "포인트정책@2023.md"), str(d / "포인트정책.md")]).failed
    yield st
    st.close()


def _versions_of(hits: list[Any]) -> set[str]:
    return {h.chunk.metadata.effective_from for h in hits if "transitional" not in h.matched}


@needs_versions
def test_versions_are_ordered_by_start_with_their_ends(law_store: Any) -> None:
    [(work, vs)] = lexical_timelines(law_store.lexical()).items()
    assert work == "주택임대차보호법"
    assert [(v.effective_from, v.effective_to, v.promulgated) for v in vs] == [
        ("2020-07-31", "2023-07-11", "2020-07-31"), ("2020-12-10", None, "2020-06-09"),
        ("2023-07-11", None, "2023-07-11")]
    # the 2020-06-09 text starts after the 2020-07-31 one, which already holds its amendment (제6조 <개정
    # 2020.6.9>, from 2020-12-10) and 제6조의3 besides: it is never the text in force
    assert vs[1].superseded_by == vs[0].doc_id and not vs[1].in_force("2021-01-01")
    assert vs[0].in_force("2021-01-01")


@needs_versions
def test_search_as_of_2024_cites_the_2023_version_only(law_store: Any) -> None:
    res = search(law_store, "계약갱신요구권", k=5, filters=["as_of=2024-01-01"])
    assert res.hits and _versions_of(res.hits) == {"2023-07-11"}
    top = res.hits[0]
    assert top.chunk.metadata.path.startswith("본문/제6조의3")
    assert top.version == {**top.version, "effective_from": "2023-07-11", "effective_to": None, "current": True}
    assert [f.to_dict() for f in res.filters] == [{"key": "as_of", "op": "eq", "value": "2024-01-01",
                                                   "origin": "explicit"}]
    # the 2020-07-31 amendment's 부칙 (it applies to leases existing then) comes with 제6조의3
    trans = [h for h in res.hits if "transitional" in h.matched]
    assert trans and trans[0].chunk.metadata.path.startswith("부칙 <제17470호,2020.7.31>/제2조")
    assert "본문/제6조의3" in trans[0].chunk.metadata.transitional_for and trans[0].via == top.chunk.id


@needs_versions
def test_no_version_in_force_says_so_instead_of_answering(law_store: Any) -> None:
    res = search(law_store, "계약갱신요구권", k=5, filters=["as_of=2020-07-15"])
    assert res.hits == []
    assert any("no version of 주택임대차보호법 in the collection was in force on 2020-07-15" in w
               and "2020-07-31" in w for w in res.warnings)
    ans = ask(law_store, "계약갱신요구권은 몇 번 쓸 수 있나요?", filters=["as_of=2020-07-15"])
    assert not ans.supported and not ans.citations and "2020-07-15" in ans.answer


@needs_versions
def test_default_is_today_and_a_date_in_the_question_sets_as_of(law_store: Any) -> None:
    res = search(law_store, "계약갱신요구권", k=5)
    assert _versions_of(res.hits) == {"2023-07-11"}
    assert [f.origin for f in res.filters if f.key == "as_of"] == ["default"]
    res = search(law_store, "2020년 8월에 계약갱신요구권은?", k=5)
    [f] = [f for f in res.filters if f.key == "as_of"]
    assert (f.value, f.origin, f.phrase) == ("2020-08-31", "question", "2020년 8월에")
    assert _versions_of(res.hits) == {"2020-07-31"}
    res = search(law_store, "개정 전에는 차임 증액 한도가 어땠나요?", k=5)
    assert _versions_of(res.hits) == {"2020-07-31"}  # the version before the one in force today
    res = search(law_store, "계약갱신요구권 개정 전후 비교", k=10)
    assert len(_versions_of(res.hits)) >= 2  # a comparison keeps every version


@needs_versions
def test_a_clause_whose_amendment_starts_later_is_not_cited_before_it(law_store: Any) -> None:
    # the 2020-07-31 text has 제6조 ① as amended on 2020-06-09, in force from 2020-12-10
    res = search(law_store, "임대차기간이 끝나기 몇 개월 전까지 갱신거절 통지를 해야 하나요?", k=8,
                 filters=["as_of=2020-08-01"])
    assert not any(h.chunk.metadata.path == "본문/제6조/제1항" for h in res.hits)
    assert any("takes effect on 2020-12-10, after 2020-08-01" in w for w in res.warnings)
    res = search(law_store, "임대차기간이 끝나기 몇 개월 전까지 갱신거절 통지를 해야 하나요?", k=8,
                 filters=["as_of=2021-01-01"])
    assert any((h.chunk.metadata.path or "").startswith("본문/제6조") for h in res.hits)
    assert _versions_of(res.hits) == {"2020-07-31"}  # not the superseded 2020-06-09 text


@needs_versions
def test_answers_name_a_non_current_version_and_never_mix_two(law_store: Any) -> None:
    ans = ask(law_store, "임차인은 계약갱신요구권을 몇 회 행사할 수 있나요?", filters=["as_of=2020-08-01"])
    assert ans.citations and all(c.effective_from == "2020-07-31" and c.effective_to == "2023-07-11"
                                 for c in ans.citations)
    assert "당시 시행되던 주택임대차보호법(2020. 7. 31. 시행 ~ 2023. 7. 11. 전)" in ans.answer and "1회" in ans.answer
    d = ans.to_dict()["citations"][0]
    assert d["effective_from"] == "2020-07-31"
    # the amendment's own 부칙 (it applies to leases existing then) is stated and cited with 제6조의3
    assert "부칙 <제17470호,2020.7.31> 제2조 (계약갱신 요구 등에 관한 적용례) ①의 경과 규정" in ans.answer
    assert any(c.path and c.path.startswith("부칙 <제17470호,2020.7.31>/제2조") for c in ans.citations)
    # in the 2023 text that 부칙 is history: shown by search, not stated in the answer
    later = ask(law_store, "임차인은 계약갱신요구권을 몇 회 행사할 수 있나요?", filters=["as_of=2024-01-01"])
    assert "경과 규정" not in later.answer and "1회" in later.answer
    for day in ("2020-08-01", "2021-06-01", "2024-01-01", "2022-05-01"):
        for q in ("계약갱신요구권은 몇 번 쓸 수 있나요?", "차임 증액청구 한도는?", "임대차 존속기간은 몇 년인가요?"):
            a = ask(law_store, q, filters=[f"as_of={day}"])
            assert len({c.effective_from for c in a.citations}) <= 1, (day, q)


@needs_versions
def test_diff_lists_6_3_added_and_7_changed(law_store: Any) -> None:
    d = diff(law_store, "주택임대차보호법", "2020-06-09", "2020-07-31")
    by = {a["label"]: a for a in d["articles"]}
    assert by["제6조의3"]["status"] == "added" and by["제6조의3"]["title"] == "계약갱신 요구 등"
    assert by["제7조"]["status"] == "changed"
    changed = by["제7조"]["sentences"]
    assert any("20분의 1" in s["new"] for s in changed)
    assert any(m["op"] == "ins" for s in changed for m in s["new_marks"])
    assert d["counts"]["added"] == 1 and d["counts"]["removed"] == 0
    assert (d["from"]["effective_from"], d["to"]["effective_from"]) == ("2020-12-10", "2020-07-31")


def test_an_event_before_the_change_follows_the_transitional_rule(policy_store: Any) -> None:
    res = search(policy_store, "2024년에 적립한 포인트 유효기간은 얼마인가요?", k=3)
    assert [f.value for f in res.filters if f.key == "as_of"] == ["2024-12-31"]
    assert _versions_of(res.hits) == {"2023-01-01"}
    trans = [h for h in res.hits if "transitional" in h.matched]
    assert trans and trans[0].chunk.metadata.transitional_for == ["본문/제2조"]
    assert trans[0].chunk.metadata.effective_from == "2025-01-01"  # the current version's 부칙 ②
    ans = ask(policy_store, "2024년에 적립한 포인트 유효기간은 얼마인가요?")
    assert "2년" in ans.answer and "2023. 1. 1. 시행" in ans.answer
    now = ask(policy_store, "포인트 유효기간은 얼마인가요?")
    assert "1년" in now.answer and all(c.effective_from == "2025-01-01" for c in now.citations)


def test_effective_at_ingest_dates_a_text_that_says_nothing(tmp_path: Path) -> None:
    src = tmp_path / "보관규정.md"
    src.write_text("# 보관 규정\n\n제1조 (보관 기간)\n계약 자료는 5년 동안 보관한다.\n", encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=False)
    try:
        st.ingest([str(src)])
        assert lexical_timelines(st.lexical()) == {}
        rep = st.ingest([str(src)], effective="2024-03-01")
        assert rep.updated == ["보관규정.md"]  # the start changed: re-chunked
        [(work, [v])] = lexical_timelines(st.lexical()).items()
        assert (work, v.effective_from) == ("보관규정", "2024-03-01")
    finally:
        st.close()


@needs_versions
def test_cli_diff_and_search_as_of(law_store: Any) -> None:
    root = law_store.location
    run = [str(Path(sys.executable).parent / "jogak")]
    p = subprocess.run([*run, "diff", "주택임대차보호법", "--from", "2020-06-09", "--to", "2020-07-31", "--store",
                        root, "--json"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert {a["label"]: a["status"] for a in d["articles"]}["제6조의3"] == "added"
    p = subprocess.run([*run, "search", "계약갱신요구권", "--as-of", "2020-07-15", "--store", root],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and "no hits: no version of 주택임대차보호법" in p.stdout, p.stderr
    p = subprocess.run([*run, "search", "x", "--as-of", "2020-13-45", "--store", root],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and "not a date" in p.stderr


@needs_versions
def test_http_search_ask_and_diff(law_store: Any) -> None:
    root = law_store.location
    with TestClient(create_app(ServerSettings(store=root, embedder=False, warm_up=False))) as c:
        r = c.post("/v1/search", json={"query": "계약갱신요구권", "as_of": "2024-01-01", "k": 3}).json()
        assert r["hits"][0]["version"]["effective_from"] == "2023-07-11"
        assert {"key": "as_of", "op": "eq", "value": "2024-01-01", "origin": "explicit"} in r["filters"]
        r = c.post("/v1/ask", json={"question": "계약갱신요구권은 몇 번?", "as_of": "2020-08-01"}).json()
        assert r["citations"][0]["effective_from"] == "2020-07-31"
        assert c.post("/v1/search", json={"query": "x", "as_of": "soon"}).status_code == 422
        d = c.get("/v1/collections/default/diff",
                  params={"work": "주택임대차보호법", "from": "2020-06-09", "to": "2020-07-31"}).json()
        assert {a["label"]: a["status"] for a in d["articles"]}["제7조"] == "changed"
        assert c.get("/v1/collections/default/diff", params={"work": "없는법", "from": "2020-01-01",
                                                              "to": "2021-01-01"}).status_code == 404
        v = c.get("/v1/collections/default/versions").json()
        assert [x["current"] for x in v["works"][0]["versions"]] == [False, False, True]


def test_before_the_change_an_event_or_the_old_rule(policy_store: Any, tmp_path: Path) -> None:
    # an event before the change: the earlier version, with the current version's transitional provision
    res = search(policy_store, "정책이 시행되기 전에 적립된 포인트의 유효기간은?", k=3)
    assert [f.value for f in res.filters if f.key == "as_of"] == ["before-change"]
    assert _versions_of(res.hits) == {"2023-01-01"}
    assert any("transitional" in h.matched for h in res.hits)
    # one version only: the event question is answered by it (its 부칙 says how the change applies) ...
    src = tmp_path / "포인트정책.md"
    src.write_text(POLICY_NEW, encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=False)
    try:
        st.ingest([str(src)])
        res = search(st, "정책이 시행되기 전에 적립된 포인트의 유효기간은?", k=3)
        assert res.hits and _versions_of(res.hits) == {"2025-01-01"}
        # ... but the old rule itself is not in the collection: no answer from the current text
        ans = ask(st, "개정 전에는 포인트 유효기간이 얼마였나요?")
        assert not ans.citations and not ans.supported
        assert any("holds no version of 포인트정책 before the one in force today" in w for w in ans.warnings)
    finally:
        st.close()


@needs_versions
def test_a_title_shared_by_versions_names_the_one_in_force(law_store: Any) -> None:
    [(_, vs)] = lexical_timelines(law_store.lexical()).items()
    assert law_store.document("주택임대차보호법").doc_id == vs[-1].doc_id  # the 2023-07-11 text


def test_a_few_versions_out_of_force_are_excluded_by_name(tmp_path: Path) -> None:
    # a large collection (all Korean law) keeps most documents: the search excludes the few versions not in
    # force ("nin") instead of listing every allowed document in each mask and vector query
    from jogak.retrieve.options import SearchOptions
    from jogak.retrieve.scope import open_scope

    (tmp_path / "포인트정책@2023.md").write_text(POLICY_OLD, encoding="utf-8")
    (tmp_path / "포인트정책.md").write_text(POLICY_NEW, encoding="utf-8")
    for name in ("배송정책", "회원정책", "쿠폰정책"):
        (tmp_path / f"{name}.md").write_text(f"# {name}\n\n## 제1조 (목적)\n이 정책은 {name}의 기준을 정한다.\n",
                                             encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=False)
    try:
        assert not st.ingest(sorted(str(p) for p in tmp_path.glob("*.md"))).failed
        scope = open_scope(st, "포인트 유효기간은?", 5, None, SearchOptions.from_config())
        [f] = [f for f in scope.filters if f.origin == "as_of"]
        assert f.op == "nin" and len(f.value) == 1
        res = search(st, "포인트 유효기간은?", k=5)
        assert res.hits and {h.chunk.metadata.effective_from for h in res.hits} == {"2025-01-01"}
        assert "1년" in res.hits[0].chunk.text
    finally:
        st.close()


def test_a_work_known_only_by_a_text_not_yet_in_force_answers_from_it_and_says_so(tmp_path: Path) -> None:
    # much of a current-law archive is promulgated with a later 시행일: with no day asked, that text is
    # searched (named as not yet in force); a day asked for keeps the strict rule
    (tmp_path / "포인트정책.md").write_text(POLICY_NEW.replace("2025년 1월 1일", "2099년 1월 1일"), encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=False)
    try:
        assert not st.ingest([str(tmp_path / "포인트정책.md")]).failed
        res = search(st, "포인트 유효기간은?", k=5)
        assert res.hits and "1년" in res.hits[0].chunk.text
        assert any("takes effect on 2099-01-01" in w and "not yet in force" in w for w in res.warnings)
        ans = ask(st, "포인트 유효기간은?")
        assert ans.citations and "2099. 1. 1. 시행 예정인" in ans.answer and "아직 시행 전" in ans.answer
        # a policy is not a law: it "applies", it is not "in force as a 법령"
        assert "지금 적용되는 내용과 다를 수 있습니다" in ans.answer and "법령" not in ans.answer
        assert any("2099-01-01" in w for w in ans.warnings)
        # shown as related clauses (nothing asserted), the same text is only said to come from that version
        from jogak.answer.versions import annotate
        from jogak.model import Answer

        shown = Answer("포인트 유효기간은?", "관련 조항: …", False, citations=ans.citations, outcome="related")
        annotate(shown, list(res.hits), [], "ko")
        assert shown.answer.startswith("참고: 아래 조항 중 일부는 2099. 1. 1. 시행 예정인") and "따른 답" not in shown.answer
        res = search(st, "포인트 유효기간은?", k=5, filters=["as_of=2026-06-01"])
        assert res.hits == [] and any("was in force on 2026-06-01" in w for w in res.warnings)
    finally:
        st.close()


@pytest.mark.parametrize(("question", "value"), [
    ("회원 탈퇴하면 예전에 한 동의를 취소할 수 있나요?", None),  # an earlier act of the asker's, not the old rule
    ("약관이 바뀌기 전에 가입했는데 요금이 그대로예요?", BEFORE_CHANGE),  # an event before the change
    ("예전에는 포인트 유효기간이 얼마였어요?", BEFORE_CURRENT),
    ("예전 규정으로는 며칠이었어요?", BEFORE_CURRENT),
    ("정책이 시행되기 전에 적립된 포인트의 유효기간은?", BEFORE_CHANGE),
])
def test_before_the_change_read_from_the_question(question: str, value: str | None) -> None:
    f, _, _ = from_question(question)
    assert (f.value if f else None) == value


def test_the_event_phrase_is_taken_out_of_the_query_whole() -> None:
    # the retrievers see the question minus the phrase: a verb cut in half ("쌓" of "쌓인") would leave "인"
    q = "새 멤버십 정책이 시행되기 전에 쌓인 포인트도 1년 지나면 사라지나요?"
    f, span, _ = from_question(q)
    assert f is not None and f.phrase == "시행되기 전에 쌓인" and span is not None
    assert q[span[1]:].startswith(" 포인트도")
    f, _, _ = from_question("개정 전에 체결한 계약은 어떻게 되나요?")
    assert f is not None and f.phrase == "개정 전에 체결한"


def test_the_question_s_own_day_before_every_version_is_searched_in_the_nearest_text(policy_store: Any) -> None:
    # "2022년에 적립한": the asker's event; no text was in force then, the 2023 one (the nearest) answers and
    # the answer says which text it follows and that the rule then may have differed
    res = search(policy_store, "2022년에 적립한 포인트 유효기간은 얼마인가요?", k=3)
    assert res.hits and _versions_of(res.hits) == {"2023-01-01"}
    assert any("no text in force on 2022" in w and "2023-01-01" in w for w in res.warnings)
    ans = ask(policy_store, "2022년에 적립한 포인트 유효기간은 얼마인가요?")
    assert ans.citations and "2년" in ans.answer
    assert ans.answer.startswith("질문의 때(2022년)에 시행되던 판은 컬렉션에 없어 포인트정책(2023. 1. 1. 시행)에 따라 답합니다")
    assert "당시 시행되던" not in ans.answer  # it was not in force then
    # the caller's own day has no such fallback
    strict = ask(policy_store, "포인트 유효기간은 얼마인가요?", filters=["as_of=2022-06-01"])
    assert not strict.citations and "2022-06-01" in strict.answer


def test_an_act_before_the_change_or_the_old_rule_read_from_the_sentence() -> None:
    def value(q: str) -> Any:
        f = from_question(q)[0]
        return f.value if f else None

    # the first predicate after a bare "…전에" is the asker's act: the current text's 부칙 says how it applies
    assert value("약관이 바뀌기 전에 한 사람 대출에 500만원 넣어 뒀거든요. 빼야 돼요?") == BEFORE_CHANGE
    assert value("약관이 새로 바뀌기 전에 켰던 찾기 모드 기록은 언제 지워져요?") == BEFORE_CHANGE
    # a copula, an adjective or 되다: the old rule itself; "전에는" (topic) always
    assert value("개정 전에 포인트 유효기간이 얼마였나요?") == BEFORE_CURRENT
    assert value("개정 전에 포인트 유효기간이 어떻게 됐어요?") == BEFORE_CURRENT
    assert value("바뀌기 전에는 포인트를 몇 년 동안 썼어요?") == BEFORE_CURRENT
    # a first predicate that only sets the scene ("…진행 중인데, …도 적용돼요?"): the asker's situation, unless
    # the question's last clause asks in the past
    assert value("약관이 바뀌기 전에 마중물에 연 모금함이 아직 진행 중인데, 수수료 8%도 이 모금함에 적용돼요?") == BEFORE_CHANGE
    assert value("바뀌기 전에 수수료가 5%였고 지금은 8%인데 언제부터 바뀌었어요?") == BEFORE_CURRENT
    assert value("개정 전에 포인트 유효기간이 2년인데 맞나요?") == BEFORE_CURRENT
    # this year is today, the default: no filter
    assert value("올해 예순둘인데 할인을 받을 수 있어요?") is None


def test_an_act_before_a_change_not_yet_in_force_is_answered_from_that_text(tmp_path: Path) -> None:
    # the collection holds only a text taking effect later: "바뀌기 전에 가입했는데" is answered from it (its 부칙
    # says how the change treats members who joined before), named as not yet in force
    src = tmp_path / "포인트정책.md"
    src.write_text(POLICY_NEW.replace("2025년 1월 1일", "2099년 1월 1일"), encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=False)
    try:
        st.ingest([str(src)])
        res = search(st, "정책이 바뀌기 전에 적립한 포인트의 유효기간은 얼마인가요?", k=3)
        assert [f.value for f in res.filters if f.key == "as_of"] == [BEFORE_CHANGE]
        assert res.hits and _versions_of(res.hits) == {"2099-01-01"}
        assert any("takes effect on 2099-01-01" in w for w in res.warnings)
        # the old rule itself is not in the collection: no answer from the coming text
        ans = ask(st, "개정 전에는 포인트 유효기간이 얼마였나요?")
        assert not ans.citations and not ans.supported
    finally:
        st.close()


def test_a_law_not_yet_in_force_is_said_to_differ_from_the_law_in_force(tmp_path: Path) -> None:
    (tmp_path / "포인트적립법.md").write_text(POLICY_NEW.replace("2025년 1월 1일", "2099년 1월 1일"), encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=False)
    try:
        assert not st.ingest([str(tmp_path / "포인트적립법.md")]).failed
        ans = ask(st, "포인트 유효기간은?")
        assert "2099. 1. 1. 시행 예정인 포인트적립법" in ans.answer, ans.answer
        assert "지금 시행 중인 법령과 다를 수 있습니다" in ans.answer
    finally:
        st.close()
