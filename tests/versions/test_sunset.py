"""유효기간 (sunset) clauses: a 부칙 saying "제N조의 개정규정은 …까지 효력을 가진다" gives that wording an end.
Read from the text (grammar), set on the clauses it names unless a later amendment rewrote them (a
consolidated statute keeps every old 부칙), carried by the chunks, and said before an answer that cites a
clause whose wording has lapsed on the day asked about (real store on disk, lexical-only)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from jogak.answer.ask import ask
from jogak.grammar.effective import Sunset, sunsets
from jogak.index.store import open_store
from jogak.load import load_bytes
from jogak.retrieve import search
from jogak.structure import parse

LAW = """---
제목: 지원법
법령구분: 법률
시행일자: 2024-01-01
공포일자: 2023-07-01
---

# 지원법

##### 제1조 (목적)
이 법은 지원을 정한다.

##### 제2조 (특별 지원금)
① 국가는 피해 주민에게 특별 지원금을 지급할 수 있다. <신설 2015.3.1>
② 특별 지원금은 1인당 100만원으로 한다. <신설 2015.3.1>

##### 제3조 (보조금)
보조금은 예산의 범위에서 지급한다. <개정 2023.7.1>

##### 제4조 (신청)
지원을 받으려는 자는 시장에게 신청한다. <신설 2015.3.1>

## 부칙

부칙 <제100호,2015.3.1>

제1조(시행일) 이 법은 공포한 날부터 시행한다.

제2조(유효기간) 제2조의 개정규정은 2020년 12월 31일까지 효력을 가진다.

제3조(유효기간) 제3조 및 제4조의 개정규정은 2018년 12월 31일까지 효력을 가진다.

부칙 <제200호,2023.7.1>

이 법은 2024년 1월 1일부터 시행한다.
"""


def test_sunset_clauses_are_read_with_their_targets() -> None:
    assert sunsets("제2조(유효기간) 제5조의2의 개정규정은 2027년 12월 31일까지 효력을 가진다.", None) == [
        Sunset(("5의2",), date(2027, 12, 31))]
    # counted from the 부칙's start: the day the period elapses is the day before the same date N years on
    [whole] = sunsets("제2조(유효기간) 이 법은 시행 후 4년이 경과하는 날까지 효력을 가진다.", date(2020, 1, 1))
    assert whole.whole and whole.end == date(2023, 12, 31)
    # … or a period from it ("시행일부터 3년간"), the proviso after it no target; a clause's own later start
    # ("같은 개정규정 시행 이후 1년간") is not the 부칙's, so no end is set
    [period] = sunsets("제2조(유효기간) 제10조의3의 개정규정은 이 법 시행일부터 3년간 효력을 가진다. 다만, 유효기간 내에 "
                       "제10조의3의 개정규정에 따라 사용승인을 신청한 경우에는 유효기간 경과 후에도 이 법을 적용한다.",
                       date(2025, 2, 14))
    assert period == Sunset(("10의3",), date(2028, 2, 13))
    assert sunsets("제2조 제38조의2제3항의 개정규정은 같은 개정규정 시행 이후 1년간 효력을 가진다.", date(2025, 1, 1)) == []
    [decree] = sunsets("제2조(규제의 존속기한) 제16조의 개정규정은 이 영이 시행된 날부터 6개월간 효력을 가진다.", date(2025, 1, 1))
    assert decree.end == date(2025, 6, 30)
    [paragraph] = sunsets("제28조제1항의 개정규정은 2010년 1월 1일부터 적용하되, 2014년 12월 31일까지 효력을 가진다.", None)
    assert paragraph.articles == ("28",) and dict(paragraph.paragraphs) == {"28": (1,)}
    # another act's parts, an appendix, or a parenthesis limiting the clause are no targets of this text
    assert sunsets("① 「농지법 시행령」 별표 2의 개정규정은 2011년 6월 30일까지 효력을 가진다.", None) == []
    [limited] = sunsets("제31조(제29조제4항에 관한 부분으로 한정한다)의 개정규정은 2027년 1월 1일까지 효력을 가진다.", None)
    assert limited.articles == ("31",)
    assert sunsets("이 법은 공포한 날부터 시행한다.", None) == []
    # a part of a clause, or the Act's article named in a decree: no end rather than a wrong one
    assert sunsets("제2조(유효기간) 제8조의2제1호 및 제22조제1항제8호의 개정규정 중 법 제53조제3항에 관한 부분은 "
                   "2022년 12월 31일까지 효력을 가진다.", None) == []
    # 한국장학재단법 부칙 ‹제15970호› 제2조: the proviso of 제50조 ① lapses, not the 항 (its main rule is in force)
    assert sunsets("제2조(대학의 학자금 지원 신청에 관한 유효기간) 제50조제1항 단서의 개정규정은 2022년 12월 31일까지 "
                   "효력을 가진다.", None) == []
    assert sunsets("제3조 본문 및 제4조제1항 각 호 외의 부분 후단의 개정규정은 2022년 12월 31일까지 효력을 가진다.", None) == []
    # 공공주택 특별법 부칙 ‹제18311호›: "같은 조" does not end the list at its 은; a chapter given with its articles dates
    # those articles; a 목 ("같은 조 제3호마목") is a part of its 호, not dated
    [sun] = sunsets("제2조(유효기간) 제2조제2호의2, 같은 조 제3호마목, 제33조, 제5장의3(제40조의7부터 제40조의13까지) 및 "
                    "제57조의3제2호의 개정규정은 2026년 12월 31일까지 효력을 가진다.", None)
    assert sun.articles == ("2", "33", "40의7", "40의13", "57의3") and sun.ranges == (("40의7", "40의13"),)
    assert sun.items == (("2", 0, ((2, 2),)), ("57의3", 0, ((2, 0),)))


RESET = """---
제목: 고용촉진법
법령구분: 법률
시행일자: 2024-01-01
공포일자: 2023-12-31
---

# 고용촉진법

##### 제5조 (고용 의무)
**①** 공공기관은 매년 정원의 100분의 3 이상씩 청년을 고용하여야 한다. <개정 2013.5.22>
**②** 장관은 실적을 공표하여야 한다. <신설 2018.12.31>

##### 제6조 (지원)
국가는 고용을 지원할 수 있다. <개정 2020.1.1>

## 부칙

부칙 <제11792호,2013.5.22>

제1조(시행일) 이 법은 공포한 날부터 시행한다.

제2조(유효기간) 제5조의 개정규정은 2026년 12월 31일까지 효력을 가진다. <개정 2016.12.27, 2018.12.31, 2023.12.31>

제3조(유효기간) 제6조의 개정규정은 2019년 12월 31일까지 효력을 가진다.
"""


def test_a_period_re_set_by_later_amendments_limits_the_wording_of_its_last_re_setting() -> None:
    # 청년고용촉진 특별법 부칙 ‹제11792호› 제2조: its period was extended four times (the notes on the clause); 제5조 gained
    # a 항 in 2018, before the last extension — its wording is limited to 2026-12-31 all the same
    [sun] = sunsets("제2조(유효기간) 제5조의 개정규정은 2026년 12월 31일까지 효력을 가진다. <개정 2016.12.27, 2023.12.31>", None)
    assert sun.reset == date(2023, 12, 31)
    tree = parse(load_bytes(RESET.encode(), "고용촉진법.md"))
    assert tree.find("본문/제5조").attrs["effective_to"] == "2026-12-31"
    assert "effective_to" not in tree.find("본문/제6조").attrs  # rewritten in 2020, after its 2013 sunset


def test_the_end_is_set_unless_a_later_amendment_rewrote_the_clause() -> None:
    tree = parse(load_bytes(LAW.encode(), "지원법.md"))
    assert tree.find("본문/제2조").attrs["effective_to"] == "2020-12-31"
    assert tree.find("본문/제4조").attrs["effective_to"] == "2018-12-31"
    # 제3조 was rewritten in 2023, after the 2015 부칙 that limited the wording of its day
    assert "effective_to" not in tree.find("본문/제3조").attrs
    assert "effective_to" not in tree.find("본문/제1조").attrs


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Any:
    d = tmp_path_factory.mktemp("sunset")
    (d / "지원법.md").write_text(LAW, encoding="utf-8")
    st = open_store(d / "db", embedder=False)
    assert not st.ingest([str(d / "지원법.md")]).failed
    yield st
    st.close()


def test_a_lapsed_clause_is_found_and_the_answer_says_it_lapsed(store: Any) -> None:
    q = "특별 지원금은 1인당 얼마예요?"
    res = search(store, q, k=5)
    top = res.hits[0].chunk.metadata
    assert top.article.startswith("제2조") and top.clause_effective_to == "2020-12-31"
    assert any(w.endswith("has lapsed") and "2020-12-31" in w for w in res.warnings)
    a = ask(store, q)
    assert a.citations and a.citations[0].article.startswith("제2조")
    assert "2020. 12. 31.까지 효력이 있었습니다" in a.answer
    # asked about a day inside the 유효기간, nothing is said
    before = search(store, q, k=5, filters=["as_of=2019-06-01"])
    assert not any("has lapsed" in w for w in before.warnings)


def test_a_clause_without_an_end_carries_none(store: Any) -> None:
    res = search(store, "보조금은 어떻게 지급해요?", k=3)
    md = res.hits[0].chunk.metadata
    assert md.article.startswith("제3조") and md.clause_effective_to is None


def test_a_long_past_transitional_provision_is_aged_only_for_a_present_question() -> None:
    from jogak.grammar.effective import aged_transitional, asks_past

    path, title = "부칙 <제24539호,2013.5.22>/제2조", "제2조 (목재생산업의 등록에 관한 경과조치)"
    text = "이 영 시행 당시 목재생산업을 경영하고 있는 자는 2013년 11월 23일까지 등록하여야 한다."
    assert aged_transitional(path, title, text, date(2026, 12, 1))
    assert not aged_transitional(path, title, text, date(2016, 12, 1))  # three years on: not long past
    assert not aged_transitional(path, "제1조 (시행일)", "이 영은 공포한 날부터 시행한다.", date(2026, 12, 1))
    assert not aged_transitional("부칙/제2조", title, text, date(2026, 12, 1))  # undated: a document's own 부칙
    assert not asks_past("제재소를 목재생산업으로 등록하려면 자본금이 얼마 있어야 해요?")
    assert asks_past("2013년에 이미 제재소를 하고 있었으면요?") and asks_past("법이 바뀌기 전부터 하던 곳은요?")
