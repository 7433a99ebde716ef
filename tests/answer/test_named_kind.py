"""A question naming an article: the kind of document a bare word before it says ("법 제2조", "시행령 제2조",
"약관 제2조") picks the document among several with that article, in retrieval and in the answer; a named
article whose list paragraph is long is quoted with the list (a real store on disk, no embedder)."""

from __future__ import annotations

from typing import Any

import pytest

from jogak.answer.ask import ask
from jogak.grammar.laws import kinds_before_articles
from jogak.index.store import open_store
from jogak.retrieve import search

ACT = """# 소음관리법

제1조(목적) 이 법은 생활 소음을 줄여 조용한 생활환경을 만드는 것을 목적으로 한다.

제2조(공사 소음) ① 공사를 하는 자는 오후 10시부터 다음 날 오전 6시까지 소음이 나는 공사를 하여서는 아니 된다.
② 시장은 제1항을 위반한 자에게 공사의 중지를 명할 수 있다.
"""
DECREE = """# 소음관리법 시행령

제1조(목적) 이 영은 「소음관리법」에서 위임된 사항을 정함을 목적으로 한다.

제2조(공사 중지 명령) 법 제2조제2항에 따른 공사의 중지 명령은 서면으로 하며, 중지 기간은 7일 이내로 한다.
"""
TERMS = """# 고요 이용약관

제1조(목적) 이 약관은 고요 방음 시공 서비스의 이용 조건을 정한다.

제2조(시공 시간) 회사는 평일 오전 9시부터 오후 6시까지만 시공한다.

제3조(준비물) ① 고객은 시공 전에 다음 각 호를 준비한다.
1. 집 열쇠
2. 주차 공간
3. 전기 사용 허락
4. 엘리베이터 사용 예약
5. 이웃 알림 문자
② 준비물이 없으면 시공일을 바꿀 수 있다.
③ 시공일을 바꾸면 회사는 하루 전까지 알린다.
④ 회사는 시공이 끝나면 사진을 보낸다.

제4조(시공의 취소) ① 고객은 다음 각 호의 경우 시공을 취소할 수 있다.
1. 회사가 약속한 날에 오지 않은 경우
2. 견적보다 비용이 10퍼센트 넘게 오른 경우
3. 시공 기사가 바뀐 경우
4. 자재가 주문과 다른 경우
5. 고객이 이사를 가게 된 경우
6. 건물 관리사무소가 공사를 막은 경우
7. 천재지변이 생긴 경우
8. 고객이 입원한 경우
② 시공을 취소하면 회사는 계약금을 7일 안에 환불한다.
③ 시공 취소에는 취소 수수료를 받지 아니한다.
④ 환불은 고객이 계약금을 낸 수단으로 한다.
⑤ 시공 취소는 앱이나 전화로 한다.
⑥ 시공을 취소한 뒤 다시 신청하면 새로 견적을 낸다.

제5조(보험) ① 회사는 시공 사고에 대비하여 배상책임보험에 든다.
② 회사는 다음 각 호의 어느 하나에 해당하는 때에 보험에 가입하거나 재가입한다.
1. 사업을 시작한 날
2. 대표자가 바뀐 날
3. 보험이 끝나는 날
③ 보험금은 다음 각 호와 같다.
1. 사망: 1억원
2. 부상: 3천만원
3. 재산 피해: 1천만원
4. 보험을 새로 들거나 다시 든 뒤 생긴 후유장애: 2천만원
5. 치료 중 사망: 1억원
6. 입원: 하루 5만원
7. 통원: 하루 2만원
④ 회사는 보험에 든 사실을 7일 안에 고객에게 알린다.
⑤ 보험에 관한 세부 사항은 회사가 정한다.
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Any:
    d = tmp_path_factory.mktemp("named_kind")
    for name, text in (("소음관리법.md", ACT), ("소음관리법 시행령.md", DECREE), ("이용약관_고요.md", TERMS)):
        (d / name).write_text(text, encoding="utf-8")
    st = open_store(d / "db", embedder=False)
    assert not st.ingest([str(d / n) for n in ("소음관리법.md", "소음관리법 시행령.md", "이용약관_고요.md")]).failed
    yield st
    st.close()


def test_the_word_before_an_article_names_a_kind_of_document() -> None:
    assert kinds_before_articles("법 제11조를 보면 지원해 준다던데요?") == {"statute"}
    assert kinds_before_articles("시행령 제14조에서는 뭐라고 해요?") == {"decree"}
    assert kinds_before_articles("약관 제17조에 나오는 증명서요") == {"other"}
    assert kinds_before_articles("가맹사업법 제10조") == set()  # a law's own name: laws_named reads it
    assert kinds_before_articles("제3조에 따라") == set()


@pytest.mark.parametrize(("question", "title"), [
    ("법 제2조를 보면 밤에 공사하면 안 되는 시간이 언제예요?", "소음관리법"),
    ("시행령 제2조를 보면 공사 중지는 며칠까지 할 수 있어요?", "소음관리법 시행령"),
    ("약관 제2조에는 시공을 몇 시까지 한다고 돼 있어요?", "이용약관_고요"),
])
def test_a_named_article_is_read_in_the_kind_of_document_named(store: Any, question: str, title: str) -> None:
    res = search(store, question, k=5)
    assert res.hits[0].chunk.metadata.doc_title == title and res.hits[0].chunk.metadata.path.startswith("본문/제2조")
    ans = ask(store, question)
    assert ans.citations and {c.doc_title for c in ans.citations} == {title}


def test_a_named_article_keeps_its_list_beside_shorter_paragraphs(store: Any) -> None:
    # ② and ③ answer the first two parts better than ① does; ① (lead + five items) still comes whole — with
    # six units at most it had been left out for ② ③ ④
    ans = ask(store, "고요 약관 제3조를 보면 준비물이 없으면 시공일을 바꿔요? 바꾸면 언제 알려 줘요? 준비할 건 뭐뭐예요?")
    for item in ("집 열쇠", "주차 공간", "전기 사용 허락", "엘리베이터 사용 예약", "이웃 알림 문자"):
        assert item in ans.answer
    assert {c.path for c in ans.citations} >= {"본문/제3조/제1항", "본문/제3조/제1항/제5호", "본문/제3조/제2항",
                                               "본문/제3조/제3항"}


def test_a_list_question_gets_the_list_paragraph_before_better_scoring_sentences(store: Any) -> None:
    # 제4조 is 14 units and ② – ⑥ hold the question's words; the list it asks for (① and its eight items) comes
    # first — ranked by score alone, ② – ⑥ filled the answer and left no room for it
    ans = ask(store, "고요 약관 제4조에 시공 취소하면 계약금 환불은 며칠 안에, 어떤 수단으로 해 주고 취소 수수료는 받는지, "
                     "앱이나 전화로 취소하는지, 다시 신청하면 견적은 새로 내는지, 그리고 취소 사유는 뭐뭐예요?")
    for item in ("약속한 날에 오지 않은", "10퍼센트 넘게 오른", "시공 기사가 바뀐", "자재가 주문과 다른", "이사를 가게 된",
                 "관리사무소가 공사를 막은", "천재지변", "고객이 입원한"):
        assert item in ans.answer


def test_a_long_list_does_not_crowd_out_the_paragraph_asked_about(store: Any) -> None:
    # 제5조 is 15 units; an item of ③'s seven amounts repeats the question's words, but ③ is about amounts: a list
    # paragraph ranks by its opening sentence, and ② (when to take the insurance out again) is quoted
    ans = ask(store, "고요 약관 제5조에서는 보험을 언제 새로 들거나 다시 들어야 한다고 해요?")
    paths = {c.path for c in ans.citations}
    assert {"본문/제5조/제2항", "본문/제5조/제2항/제3호"} <= paths and "본문/제5조/제3항" not in paths
