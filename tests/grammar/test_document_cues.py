"""The grammar's document cues: a question asking what *the law* says ("법적으로", "법에서는"; "방법이" is not
the law) and the kind a title names — what the answer stage reads to pick among documents that restate a rule."""

from __future__ import annotations

import pytest

from jogak.grammar.laws import (
    abbreviates,
    asks_a_sanction,
    asks_about_regulation,
    asks_the_law,
    law_names_in,
    laws_named,
    title_kind,
)
from jogak.grammar.patterns import PURPOSE_HEADING_RE


@pytest.mark.parametrize(("question", "law"), [
    ("법적으로는 물건 받고 며칠 안에 청약을 철회할 수 있어요?", True),
    ("법에서는 받은 날부터 며칠 안에 철회할 수 있다고 하나요?", True),
    ("법에 정해진 철회 기간이 있나요?", True),
    ("환불 방법이 뭐예요?", False),
    ("불법으로 결제된 건 어떻게 해요?", False),
    ("물건 받고 며칠 안에 철회할 수 있어요?", False),
    ("법령상으로는 본사가 공사비를 몇 퍼센트 내요?", True),
    ("법령으로는 가맹점 몇 퍼센트의 동의가 필요해요?", True),
    ("법률로는 어떻게 돼요?", True),
    ("법에선 뭐라고 해요?", True),
    ("결제 방법에는 뭐가 있어요?", False),
    ("법원에서는 어떻게 판단해요?", False),
    # the law asked by its parts
    ("회사가 이걸 못 하게 막는 법 조항이 있어요?", True),
    ("법 규정으로 정해진 게 있나요?", True),
    ("손님을 안 태우면 법 위반이에요?", True),
    ("업체가 법을 어겨서 손해를 봤어요", True),
    ("환불 방법 규정이 어떻게 돼요?", False),  # 방법 is no law
    ("불법 위반 사례가 있어요?", False),
])
def test_law_cue(question: str, law: bool) -> None:
    assert asks_the_law(question) is law


@pytest.mark.parametrize(("question", "regulation"), [
    ("가게에서 유통기한 지난 고기를 팔다 걸리면 과태료가 얼마예요?", True),
    ("구청에 신고 안 하고 가게를 열면 어떻게 돼요?", True),
    ("나라에서 영업을 못 하게 막을 수도 있어요?", True),
    ("허가 없이 장사하면 처벌받아요?", True),
    ("법적으로는 며칠 안에 환불해 줘야 해요?", True),  # the law cue counts too
    ("이거 환불 가능한 상품인가요?", False),  # "…인가요" is no 인가 (a permit)
    ("시청 중에 끊기면 환불돼요?", False),  # watching, not the city hall
    ("구청이 빈 땅에 주차장을 만들 수 있어요?", True),  # a public body as the one who acts
    ("군청 직원이 가게에 점검하러 와도 돼요?", True),
    ("공무원이 서류를 보여 달라면 줘야 해요?", True),
    ("군에서 하는 교육을 꼭 들어야 해요?", True),
    ("이 영상은 시청이 가능한가요?", False),
    ("이 원두는 어느 나라 거예요?", False),  # a country, not the state
    ("가려던 나라에 경보가 내렸는데 취소돼요?", False),
    ("포인트는 언제 없어져요?", False),
])
def test_regulation_cue(question: str, regulation: bool) -> None:
    # what the learned reranker's "law_cue" reads: a question about what binds a business, not a company's terms
    assert asks_about_regulation(question) is regulation


@pytest.mark.parametrize(("question", "sanction"), [
    ("산모 동의 없이 채취하면 어떤 처벌을 받아요?", True),
    ("나이 때문에 안 뽑으면 벌금이 최대 얼마예요?", True),
    ("명령을 무시하면 과태료가 얼마까지 나와요?", True),
    ("약관을 어기면 어떤 처벌이 있어요?", False),  # the company's own rules: its 징계 called a 처벌 loosely
    ("취업규칙상 지각하면 벌금이 있어요?", False),
    ("포인트는 언제 없어져요?", False),
    # the everyday "벌": a state sanction where the question speaks of the law, else a club's or a school's punishment
    ("마크를 몰래 붙이면 법적으로 어떤 벌을 받아요?", True),
    ("서류를 들고 나가면 법으로는 벌이 어떻게 돼요?", True),
    ("신고를 안 하면 벌칙은요?", True),
    ("시세를 조작하면 감옥에 얼마나 가요?", True),
    ("클럽에서는 어떤 일을 하면 벌을 받거나 쫓겨날 수 있어요?", False),
    ("벌이도 시원찮은 사람한테 빌려주는 거, 법적으로 막혀 있어요?", False),  # 벌이: earnings
    ("벌도 가축전염병 예방법에서 말하는 가축으로 쳐요?", False),  # a bee
    ("감옥에 갔다 온 지 1년 된 사람이 면허를 받을 수 있어요?", False),
    ("다른 방법이 없으면 벌을 받나요?", False),  # 방법 is no word of the law
])
def test_sanction_cue(question: str, sanction: bool) -> None:
    # a state sanction is a statute's to impose: the answer stage points such a question to the laws
    assert asks_a_sanction(question) is sanction


@pytest.mark.parametrize("question", ["법적으로 어떤 벌을 받아요?", "법으로는 벌이 어떻게 돼요?", "신고 안 하면 벌칙은요?",
                                      "시세를 조작하면 감옥에 얼마나 가요?"])
def test_the_everyday_punishment_is_asked(question: str) -> None:
    from jogak.grammar.laws import asks_the_sanction, sanctions_asked

    assert asks_the_sanction(question) and sanctions_asked(question)[0] == "벌칙"


def test_title_kinds() -> None:
    assert title_kind("전자상거래 등에서의 소비자보호에 관한 법률") == "statute"
    assert title_kind("개인정보 보호법 시행령") == "decree"
    assert title_kind("근로기준법 시행규칙") == "rule"
    assert title_kind("솔빛몰_이용약관") == "other"


@pytest.mark.parametrize(("heading", "purpose"), [
    ("제1조 (목적)", True), ("제1조(목적)", True), ("Article 1 (Purpose)", True), ("Purpose", True), ("목적", True),
    ("제2조 (정의)", False), ("제2조 (개인정보의 처리 목적)", False), ("Article 2 (Purpose of Processing)", False),
])
def test_purpose_headings(heading: str, purpose: bool) -> None:
    # a purpose article is discounted in retrieval and answers; a clause *about* purposes of processing is not
    assert bool(PURPOSE_HEADING_RE.search(heading)) is purpose


def test_law_names_in_a_question_carry_the_instrument_they_point_to() -> None:
    assert law_names_in("가맹사업법 시행령 제15조를 보면") == [("가맹사업법", "decree")]
    assert law_names_in("개인정보보호법시행령에서는") == [("개인정보보호법", "decree")]
    assert law_names_in("대리점법에 따르면 공급업자는") == [("대리점법", "act")]
    assert law_names_in("법에서는 어떻게 돼요? 불법인가요?") == []
    assert abbreviates("약관규제법", "약관의 규제에 관한 법률") and abbreviates("가맹사업법", "가맹사업거래의 공정화에 관한 법률")
    assert not abbreviates("근로기준법", "가맹사업거래의 공정화에 관한 법률")


def test_a_short_name_made_of_the_title_words_first_syllables() -> None:
    titles = ["온라인투자연계금융업 및 이용자 보호에 관한 법률", "온라인투자연계금융업 및 이용자 보호에 관한 법률 시행령",
              "대부업 등의 등록 및 금융이용자 보호에 관한 법률", "소비자생활협동조합법", "중대재해 처벌 등에 관한 법률"]
    assert abbreviates("온투법", titles[0]) and abbreviates("생협법", titles[3]) and abbreviates("중처법", titles[4])
    assert not abbreviates("투온법", titles[0]) and not abbreviates("노래법", titles[3])
    assert laws_named("온투법 제24조에 계약서에 들어가야 하는 게 뭐뭐예요?", titles) == {titles[0]}
    assert laws_named("온투법 시행령 제21조에", titles) == {titles[1]}
    assert laws_named("생협법 제27조에 예외가 있다던데", titles) == {titles[3]}
    # initials that fit two Acts of the collection name neither
    assert laws_named("공특법 제3조", ["공공주택 특별법", "공공기관 특별법"]) == set()
    assert laws_named("공특법 제3조", ["공공주택 특별법", "산업안전보건법"]) == {"공공주택 특별법"}


@pytest.mark.parametrize(("question", "present"), [
    ("임상시험지원센터는 지금 어느 기관이 맡아서 운영하고 있어요?", True),
    ("현재 특구로 지정돼 있는 지역은 어디예요?", True),
    ("요즘 인증기관으로 지정되어 있는 곳이 몇 곳이에요?", True),
    ("지원센터는 누가 운영할 수 있어요?", False),  # who may: the law's to say
    ("지금 바로 환불받을 수 있어요?", False),  # no entity asked
    ("특구로 지정되려면 어디에 신청해요?", False),  # no present state
    ("지금 운영하고 있는 가게는 어디에 신고해요?", False),  # a procedure of the asker's, not who holds a role
])
def test_present_fact_cue(question: str, present: bool) -> None:
    from jogak.grammar.patterns import asks_present_fact

    assert asks_present_fact(question) is present
