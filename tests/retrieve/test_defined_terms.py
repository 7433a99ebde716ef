"""A question that asks what a term means ("이 약관에서 말하는 대여기구는 어떤 걸 말해요?") is answered by the
definitions item that defines the term: the chunk is found by the term (the ``defines`` column written at
ingest, ``retrieve/lookup.py``) and the answer quotes the item (``answer/generators/defined.py``), even when
another article's title holds the term (real store on disk, hash embedder, real BM25)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "index"))

from fakes import HashEmbedder

from jogak.answer.ask import answer_hits
from jogak.grammar.definitions import (
    as_said_terms,
    asked_terms,
    asks_a_meaning,
    defined_term,
    definitions_in,
    introduced_terms,
    restricted_compound,
)
from jogak.index import open_store
from jogak.korean import modifying_verb
from jogak.retrieve import SearchOptions, search

# 제7조's title and text repeat "대여기구" more often than the definition does
TERMS = """물빛레저 이용약관

제1조 (적용)
이 약관은 물빛레저의 모든 이용자에게 적용한다.

제2조 (용어의 정의)
이 약관에서 사용하는 용어의 뜻은 다음과 같다.
1. "대여기구"란 회사가 빌려주는 제트스키와 패들보드를 말한다.
2. "이용자"란 회사의 대여기구를 빌리는 사람을 말한다.
3. "안전장비"란 다음 각 목의 물품을 말한다.
  가. 구명조끼
  나. 헬멧
4. "야간대여기구"란 해가 진 뒤에도 빌려주는 조명을 단 제트스키를 말한다.

제7조 (대여기구의 점검)
① 회사는 대여기구를 빌려주기 전에 대여기구의 연료와 엔진을 점검한다.
② 이용자는 대여기구에 이상이 있으면 바로 회사에 알린다.
"""

# a statute introduces its term inside a clause, the way Korean laws mostly do; 제5조's title holds it as well
LAW = """물빛복지법

제4조 (선택적 복지제도 실시)
① 사업주는 근로자가 여러 가지 복지항목 중에서 자신의 필요에 따라 골라 혜택을 받는 제도(이하 "선택적 복지제도"라 한다)를 설정하여 실시할 수 있다.
② 사업주는 선택적 복지제도를 실시할 때에는 모든 근로자가 공평하게 혜택을 받게 하여야 한다.

제5조 (선택적 복지제도의 설계)
① 사업주는 선택적 복지제도를 설계하는 경우 선택적 복지제도의 기본항목과 선택적 복지제도의 추가항목을 균형 있게 반영하여야 한다.
② 사업주는 선택적 복지제도의 항목을 선택하는 데 불편이 없도록 전산 서비스를 제공한다.
"""

# another document defines "이용자" differently
RULES = """물빛마리나 운영규정

제1조 (목적)
이 규정은 물빛마리나의 운영에 필요한 사항을 정한다.

제2조 (정의)
이 규정에서 사용하는 용어의 뜻은 다음과 같다.
1. "이용자"란 마리나에 배를 정박하는 선주를 말한다.

제4조 (이용자의 의무)
이용자는 정박한 배를 스스로 관리한다. 이용자는 관리사무소의 지시에 따른다.
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    d = tmp_path_factory.mktemp("defined")
    (d / "이용약관_물빛레저.txt").write_text(TERMS, encoding="utf-8")
    (d / "운영규정_물빛마리나.txt").write_text(RULES, encoding="utf-8")
    (d / "물빛복지법.txt").write_text(LAW, encoding="utf-8")
    st = open_store(d / "db", embedder=HashEmbedder())
    docs = [str(d / n) for n in ("이용약관_물빛레저.txt", "운영규정_물빛마리나.txt", "물빛복지법.txt")]
    assert not st.ingest(docs).failed
    yield st
    st.close()


def _first(store, question: str) -> tuple[str, str]:
    hit = search(store, question, k=3, options=SearchOptions.from_config({})).hits[0]
    return hit.chunk.metadata.doc_title, hit.chunk.metadata.article or ""


@pytest.mark.parametrize("question, term", [
    ("제대혈 관리 및 연구에 관한 법률에서 말하는 제대혈위탁은 어떤 걸 말해요?", "제대혈위탁"),
    ("생명윤리법에서 말하는 유전자검사는 어떤 검사예요?", "유전자검사"),
    ("가사서비스에는 어떤 일들이 들어가요?", "가사서비스"),
    ("약관에서 돌봄매니저는 어떤 사람을 말해요?", "돌봄매니저"),
    ("\"수입유통식별표\"는 뭐예요?", "수입유통식별표"),
    ("제대혈 위탁이 뭐예요?", "제대혈위탁"),
    # what it is, then a second question in the same sentence
    ("포스터에 있던 자조금이라는 게 정확히 뭐고 누구 돈으로 모으는 거예요?", "자조금"),
    ("자조금이 뭐고 누가 내요?", "자조금"),
])
def test_questions_that_ask_what_a_term_is(question: str, term: str) -> None:
    assert term in asked_terms(question)


@pytest.mark.parametrize("question", [
    "환불은 어떤 경우에 받을 수 있어요?", "이용자는 어떤 서류를 내야 해요?", "육아도우미는 아이돌봄사랑 뭐가 달라요?",
    "대여기구는 몇 시까지 반납해요?", "VIP 등급에는 어떤 혜택이 있어요?",
    "재활용이고 뭐고 한 봉투에 다 넣어서 버려도 돼요?",
])
def test_questions_that_ask_something_else(question: str) -> None:
    assert asked_terms(question) == []


@pytest.mark.parametrize(("question", "term"), [
    ("안전장비에 구명조끼 말고 어떤 물품이 들어가요? 약관에서 말하는 안전장비는 뭐예요?", "안전장비"),
    ("약관에 나와 있는 대여기구는 어떤 거예요?", "대여기구"),
    ("법에서 정한 이용자는 어떤 사람이에요?", "이용자"),
    ('시행령에서 "대통령령으로 정하는 수 이상의 근로자를 사용하는 사업주"는 어떤 회사예요?', "사용하는사업주"),
])
def test_a_naming_verb_or_a_quote_keeps_the_term(question: str, term: str) -> None:
    assert term in asked_terms(question, modifying_verb)


@pytest.mark.parametrize("question", [
    "본인인증을 해야만 빌릴 수 있는 대여기구는 어떤 거예요?",  # which gear, not what "대여기구" means
    "파도가 높을 때 못 쓰는 안전장비는 뭐예요?",
    "보증금을 꼭 내야 하는 이용자는 어떤 사람들이에요?",
])
def test_a_noun_restricted_by_a_relative_clause_asks_which_not_what(question: str) -> None:
    assert not any(t in ("대여기구", "안전장비", "이용자") for t in asked_terms(question, modifying_verb))
    assert any(t in ("대여기구", "안전장비", "이용자") for t in asked_terms(question))  # without the analyser's reading


def test_which_gear_a_clause_restricts_is_not_answered_by_the_definition(store) -> None:
    # the definitions item of "대여기구" says what the word means; which gear needs a licence is 제7조's to say
    q = "면허가 있어야만 빌릴 수 있는 대여기구는 어떤 거예요?"
    assert "defines" not in search(store, q, k=3, options=SearchOptions.from_config({})).hits[0].matched
    assert "defines" in search(store, "약관에서 말하는 대여기구는 어떤 거예요?", k=3,
                               options=SearchOptions.from_config({})).hits[0].matched


def test_what_a_definition_defines() -> None:
    assert defined_term('6. "제대혈위탁"이란 산모가 …을 말한다.') == "제대혈위탁"
    assert defined_term("“회원”이라 함은 회사와 계약을 맺은 사람을 말한다.") == "회원"
    assert defined_term('"Services" means the services described in Exhibit A.') == "Services"
    assert defined_term("회원은 회사의 대여기구를 빌릴 수 있다.") is None
    # a hanja gloss or a short name between the term and 란 / 이라 함은, and the older Acts' '"…"는 …을 말한다'
    assert defined_term('5. "퇴비"(堆肥)란 가축분뇨를 발효시켜 만든 물질을 말한다.') == "퇴비"
    assert defined_term('3. "문화예술교육시설"(이하 "교육시설"이라 한다)이라 함은 다음 각 목의 시설을 말한다.') \
        == "문화예술교육시설"
    assert defined_term('5. "인쇄문화산업단지"는 인쇄사 등이 조성한 집합체를 말한다.') == "인쇄문화산업단지"
    # … but only as a numbered item: unnumbered, a topic and 말한다 is a rule ("tells")
    assert defined_term('"회사"는 회원이 요청하면 그 사실을 말한다.') is None
    assert defined_term('2. "회사"는 다음 각 호의 의무를 진다.') is None
    assert list(definitions_in(TERMS)) == ["대여기구", "이용자", "안전장비", "야간대여기구"]


def test_a_term_introduced_inside_a_clause() -> None:
    text = '① 사업주는 … 받는 제도(이하 "선택적 복지제도"라 한다)를 설정한다. 주식회사 하루(이하 “회사”라 합니다)는'
    assert introduced_terms(text) == ["선택적복지제도", "회사"]
    assert introduced_terms("제3조에 따라 이하 같다.") == [] and introduced_terms("(이하 같다)") == []
    assert list(definitions_in(LAW)) == ["선택적복지제도"]


def test_the_clause_introducing_a_term_answers_what_it_is(store) -> None:
    q = "물빛복지법에서 말하는 선택적 복지제도는 어떤 제도예요?"
    assert _first(store, q)[1].startswith("제4조")  # not 제5조, whose title and text repeat the words
    a = answer_hits(q, search(store, q, k=5, options=SearchOptions.from_config({})).hits).answer
    assert a.outcome == "answer" and a.answer.startswith("사업주는 근로자가 여러 가지 복지항목"), a.answer


def test_the_definition_comes_first_for_a_meaning_question(store) -> None:
    assert _first(store, "물빛레저 약관에서 말하는 대여기구는 어떤 걸 말해요?") == ("이용약관_물빛레저", "제2조 (용어의 정의)")
    # the same words asking something else: the rule, not the definition
    assert _first(store, "물빛레저 대여기구에 이상이 있으면 어떻게 해요?")[1].startswith("제7조")


@pytest.mark.parametrize(("question", "term", "by_law"), [
    ("나라에서 말하는 '해양레저관광'에 다이빙도 들어가요?", "해양레저관광", True),
    ("키즈카페도 어린이 안전 법에서 말하는 어린이 시설에 들어가요?", "어린이시설", True),
    ("법에서 말하는 '실종아동'은 몇 살까지예요?", "실종아동", True),
    ("첫숨제대혈 약관에서 말하는 보관기간은 언제부터 언제까지예요?", "보관기간", False),
    # a quoting ending after the term ends it too
    ("법에서 말하는 말산업이라고 하면 말 키우는 것만 말하는 거예요?", "말산업", True),
    ("법에서 말하는 사유수면이라는 건 어떤 물이에요?", "사유수면", True),
])
def test_a_term_named_as_a_text_uses_it(question: str, term: str, by_law: bool) -> None:
    assert (term, by_law) in as_said_terms(question)


def test_a_term_named_as_the_law_uses_it_finds_the_laws_definition(store) -> None:
    # not a meaning question ("…에 들어가요?"), yet about the term as the text says it: its definition first;
    # "이용자" is defined by the terms and the rules alike — "약관에서 말하는" picks no law, "규정에서" neither
    assert asked_terms("물빛레저 약관에서 말하는 대여기구에 야간용 제트스키도 들어가요?") == []
    assert _first(store, "물빛레저 약관에서 말하는 대여기구에 야간용 제트스키도 들어가요?") == \
        ("이용약관_물빛레저", "제2조 (용어의 정의)")
    assert _first(store, "법에서 말하는 선택적 복지제도에 건강검진 지원도 들어가요?")[1].startswith("제4조")
    # the same words without the cue ask about the rule
    assert _first(store, "물빛레저 대여기구에 이상이 있으면 어떻게 해요?")[1].startswith("제7조")


def test_the_named_document_defines_the_term(store) -> None:
    assert _first(store, "물빛마리나 운영규정에서 말하는 이용자는 어떤 사람이에요?") == ("운영규정_물빛마리나", "제2조 (정의)")
    assert _first(store, "물빛레저 약관에서 말하는 이용자는 어떤 사람이에요?") == ("이용약관_물빛레저", "제2조 (용어의 정의)")


def test_the_answer_quotes_the_definition(store) -> None:
    q = "물빛레저 약관에서 말하는 대여기구는 어떤 걸 말해요?"
    hits = search(store, q, k=5, options=SearchOptions.from_config({})).hits
    a = answer_hits(q, hits).answer
    assert a.outcome == "answer"
    assert a.answer.startswith('1. "대여기구"란 회사가 빌려주는 제트스키와 패들보드를 말한다.'), a.answer
    assert "점검한다" not in a.answer and '"이용자"란' not in a.answer


def test_a_definition_brings_its_own_list(store) -> None:
    q = "물빛레저 약관에서 말하는 안전장비는 어떤 거예요?"
    hits = search(store, q, k=5, options=SearchOptions.from_config({})).hits
    a = answer_hits(q, hits).answer
    assert '"안전장비"란' in a.answer and "구명조끼" in a.answer and "헬멧" in a.answer, a.answer
    assert '"대여기구"란' not in a.answer


@pytest.mark.parametrize(("question", "asks"), [
    ("유전자검사는 어떤 검사예요?", True),
    ("약관에서 말하는 도수 보증이 정확히 뭘 해 주는 거예요?", True),
    ("미쁨저축은행 약관에 나오는 안심연락처는 뭐예요?", True),
    ("렌즈정기구독은 어떤 식으로 렌즈를 받는 상품이에요?", True),
    ("택배 기사도 근로자에 해당돼요?", True),
    ("바둑 관련 법에서 '기보'라고 하면 정확히 뭘 가리키는 거예요?", True),
    ("문화예술진흥법에서 '문화시설'이라고 하면 어떤 곳들이 들어가요?", True),
    ("수삼은 정확히 어떤 인삼을 가리키는 말이에요?", True),
    ("환불해 달라고 하면 며칠 걸려요?", False),
    ("매니저한테 그만두겠다고 하면 언제까지 일해야 해요?", False),
    ("사장님이 주말에 나오라고 하면 어떤 수당을 받아요?", False),
    ("사내근로복지기금에서는 직원들한테 어떤 지원을 해 줘요?", False),
    ("공부방에서 하면 안 되는 게 뭐뭐예요?", False),
    ("앱에 가입하면 회사가 저에 대해서 어떤 정보들을 가져가요?", False),
])
def test_a_question_asking_what_something_is(question: str, asks: bool) -> None:
    assert asks_a_meaning(question) is asks


def test_a_restricted_noun_finds_the_compound_the_text_defines(store) -> None:
    # "해가 진 뒤에도 빌려주는 대여기구" is what the terms call "야간대여기구": its definition answers
    q = "해가 진 야간에도 빌릴 수 있는 대여기구는 어떤 거예요?"
    assert restricted_compound(q, ["대여기구", "야간대여기구", "이용자"], modifying_verb) == "야간대여기구"
    hit = search(store, q, k=3, options=SearchOptions.from_config({})).hits[0]
    assert "defines" in hit.matched and "야간대여기구" in hit.chunk.text
    # no compound names the restriction: no definition looked up
    assert restricted_compound("면허가 있어야만 빌릴 수 있는 대여기구는 어떤 거예요?", ["대여기구", "야간대여기구"],
                               modifying_verb) is None


@pytest.mark.parametrize(("text", "verb"), [
    ("본인인증을 해야만 살 수 있는", ("있", "VA")),
    ("약관에서 말하는", ("말하", "XSV")),  # a noun + 하 read as one verb
    ("법에서 정해진", ("정하", "VV")),  # the main verb before its auxiliary
    ("약관에 나와 있는", ("나오", "VV")),
    ("약관의 대여기구", None),  # no adnominal ending: nothing modifies the next noun
])
def test_the_verb_modifying_the_next_noun(text: str, verb: tuple[str, str] | None) -> None:
    assert modifying_verb(text) == verb


# a definition whose 목 list is longer than a chunk: the chunker cuts it between 나목 and 다목
LONG_DEFINITION = "물빛주류법\n\n제2조 (정의)\n이 법에서 사용하는 용어의 뜻은 다음과 같다.\n" \
    "1. \"술\"이란 알코올분 1도 이상의 음료를 말한다.\n2. \"물빛전통주\"란 다음 각 목에 해당하는 술을 말한다.\n" + "".join(
        f"{m}. {who}가 물빛 지역에서 난 쌀과 누룩을 주원료로 하여 전래의 방법으로 빚고 거르고 익혀서 관할 관청의 면허를 받아 제조한 술로서 "
        f"그 제조 방법과 원료의 산지를 병에 적고, 제조한 날부터 30일 이상 항아리에서 숙성하였으며, 물빛 지역 밖에서 들여온 원료를 "
        f"전체 원료 무게의 100분의 10 넘게 쓰지 아니한 것\n"
        for m, who in (("가", "무형유산 보유자"), ("나", "식품명인"), ("다", "농업경영체와 생산자단체"), ("라", "어업경영체"))) + \
    "3. \"지역특산주\"란 제2호다목의 술을 말한다.\n\n제3조 (적용 범위) 이 법은 물빛 지역의 술에 적용한다.\n"


def test_a_definitions_list_cut_by_the_chunker_is_read_whole(tmp_path: Path) -> None:
    from jogak.answer.ask import ask

    (tmp_path / "물빛주류법.txt").write_text(LONG_DEFINITION, encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=False)
    assert not st.ingest([str(tmp_path / "물빛주류법.txt")]).failed
    a = ask(st, "법에서 말하는 물빛전통주는 어떤 술들이에요? 다 알려 주세요.")
    assert a.outcome == "answer", a.answer
    for who in ("무형유산 보유자", "식품명인", "농업경영체와 생산자단체", "어업경영체"):
        assert who in a.answer, (who, a.answer)
    st.close()


# an Act's definition that leaves what the term covers to its decree, which lists it; a second item's delegation is
# filled in by the decree's next 항, and another law's decree fills in the same words
HORSE_ACT = "물빛승마법\n\n제2조 (정의)\n이 법에서 사용하는 용어의 뜻은 다음과 같다.\n" \
    "1. \"승마산업\"이란 말의 사육ㆍ조련ㆍ이용 등에 관한 산업으로서 대통령령으로 정하는 산업을 말한다.\n" \
    "2. \"승마사업자\"란 승마산업을 경영하는 자로서 대통령령으로 정하는 기준에 해당하는 자를 말한다.\n\n" \
    "제3조 (책무) 국가는 승마산업을 육성한다.\n"
HORSE_DECREE = "물빛승마법 시행령\n\n제2조 (승마산업 및 승마사업자)\n" \
    "① 「물빛승마법」(이하 \"법\"이라 한다) 제2조제1호에서 \"대통령령으로 정하는 산업\"이란 다음 각 호의 산업을 말한다.\n" \
    "1. 말의 생산업 및 유통업\n2. 말의 부산물을 이용한 향장품의 제조업\n" \
    "② 법 제2조제2호에서 \"대통령령으로 정하는 기준에 해당하는 자\"란 말 세 마리 이상을 기르는 자를 말한다.\n"
OTHER_DECREE = "물빛양봉법 시행령\n\n제2조 (양봉산업)\n" \
    "법 제2조제1호에서 \"대통령령으로 정하는 산업\"이란 다음 각 호의 산업을 말한다.\n1. 꿀의 채취업\n2. 벌통의 제조업\n"


def test_a_definition_left_to_the_decree_brings_the_decrees_list(tmp_path: Path) -> None:
    from jogak.grammar.pointers import filled_phrases

    assert filled_phrases(HORSE_DECREE.splitlines()[3]) == [("산업", "대통령령")]
    assert filled_phrases("1. 말의 생산업 및 유통업") == []
    for name, text in (("물빛승마법", HORSE_ACT), ("물빛승마법 시행령", HORSE_DECREE), ("물빛양봉법 시행령", OTHER_DECREE)):
        (tmp_path / f"{name}.txt").write_text(text, encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=HashEmbedder())
    assert not st.ingest([str(p) for p in sorted(tmp_path.glob("*.txt"))]).failed
    q = "승마산업은 뭐예요? 향장품 만드는 것도 들어가요?"
    hits = search(st, q, k=8, options=SearchOptions.from_config({})).hits
    assert any(h.chunk.metadata.doc_title == "물빛승마법 시행령" for h in hits)
    a = answer_hits(q, hits).answer
    assert a.outcome == "answer", a.answer
    assert a.answer.startswith('1. "승마산업"이란'), a.answer
    # the decree's list, not the other law's, nor the next item's filler
    assert "향장품의 제조업" in a.answer and "말의 생산업 및 유통업" in a.answer, a.answer
    assert "꿀의 채취업" not in a.answer and "세 마리" not in a.answer, a.answer
    assert any(c.doc_title == "물빛승마법 시행령" for c in a.citations), a.citations
    st.close()
