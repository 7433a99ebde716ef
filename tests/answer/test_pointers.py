"""A clause that leaves what the question asks for to another instrument or a table ("시험의 과목 … 필요한 사항은
행정안전부령으로 정한다", "…부령으로 정하는 서류를 첨부하여", "별표 3의 … 기준에 따라") does not answer it: shown as a
related clause, unless the excerpts hold what it points to (jogak.answer.generators.pointer)."""

from __future__ import annotations

from jogak.answer import answer_hits
from jogak.answer.generators.pointer import asked_heads, pointed_heads
from jogak.grammar.pointers import pointed_phrases

from .helpers import clause_hit

LAW = "공인관리사법"
RULE = "공인관리사법 시행규칙"

EXAM = ("제12조 (관리사 시험)\n① 관리사 시험은 매년 1회 이상 실시한다.\n② 시험의 과목 및 방법 등에 관하여 필요한 사항은 "
        "행정안전부령으로 정한다.")
REGISTER = ("제20조 (등록)\n관리사로 일하려는 사람은 등록신청서에 행정안전부령으로 정하는 서류를 첨부하여 시장ㆍ군수ㆍ구청장에게 "
            "제출하여야 한다.")
SUBJECTS = ("제5조 (시험과목)\n법 제12조제2항에 따른 시험의 과목은 다음 각 호와 같다.\n1. 민법 중 총칙\n2. 관리 실무\n"
            "3. 관계 법령")


def _law(n: int, article: str, path: str, text: str, score: float):
    return clause_hit(LAW, n, article, path, text, score)


def test_the_grammar_finds_what_a_sentence_leaves_elsewhere() -> None:
    assert pointed_heads("시험의 과목 및 방법 등에 관하여 필요한 사항은 행정안전부령으로 정한다.") >= {"과목", "방법"}
    assert pointed_heads("등록신청서에 문화체육관광부령으로 정하는 서류를 첨부하여 제출해야 한다.") == {"서류"}
    assert pointed_heads("종이 기록물은 별표 3의 상태검사 기준에 따라 3개 등급으로 구분한다.") == {"기준"}
    assert pointed_heads("이 경우 기록물의 상태검사 기준은 별표 3과 같다.") == {"기준"}
    # terms write it politely or go on after it: the phrase is still what the table says
    assert pointed_heads("월 이용요금은 별표 1과 같습니다.") == {"요금"}
    assert pointed_heads("환불 금액은 별표 1에 따르며, 회사는 3일 안에 돌려준다.") == {"금액"}
    assert [w for *_, w in pointed_phrases("금융위원회가 정하여 고시하는 기준에 따라 산정한다.")] == ["금융위원회의 고시"]
    # a decree filling the quoted term in, and examples before the pointer, say what the thing is
    assert pointed_phrases('법 제17조제1항에서 "대통령령으로 정하는 서류"란 다음 각 호의 서류를 말한다.') == []
    assert pointed_heads("대지, 높이 및 형태, 구조안전 등 대통령령으로 정하는 항목에 대하여 실시한다.") == frozenset()
    # "… 등에 필요한 사항은" as "… 등에 관하여 필요한 사항은"; "및" read as an adverb still joins the phrase
    assert pointed_heads("육성종목의 지정 기준 및 절차 등에 필요한 사항은 문화체육관광부령으로 정한다.") >= {"기준", "절차"}


def test_asking_a_qualification_is_asking_the_requirements_a_clause_leaves_away() -> None:
    # "어떤 자격이 필요해요" asks what "…의 임무 및 요건은 대통령령으로 정한다" leaves to the decree
    hits = [_law(0, "제6조의2 (구매담당관)", "본문/제6조의2",
                 "제6조의2 (구매담당관)\n① 공공기관의 장은 구매 업무를 총괄하여 관리하는 자를 구매담당관으로 지정할 수 있다. "
                 "이 경우 구매담당관의 임무 및 요건은 대통령령으로 정한다.", 1.0)]
    a = answer_hits("구매담당관으로 지정되려면 어떤 자격이 필요해요?", hits).answer
    assert a.outcome != "answer", a.answer
    # … nor does another clause of the same Act that shares a word of the question ("교육")
    center = _law(1, "제17조의3 (지원센터)", "본문/제17조의3",
                  "제17조의3 (지원센터)\n② 지원센터는 다음 각 호의 사업을 수행한다.\n1. 정보제공 사업\n"
                  "2. 구매와 관련된 교육사업", 0.95)
    from jogak.answer.generators.extractive import ExtractiveAnswerer
    from jogak.answer.generators.weights import ExtractiveWeights

    # any unit naming a word the others leave open may join, and any may be the answer instead: the rule decides
    gen = ExtractiveAnswerer(ExtractiveWeights().with_overrides(relative_keep=0.0, typed_switch=0.0, threshold=0.2))
    a = answer_hits("구매담당관으로 지정되려면 어떤 자격이나 교육이 필요해요?", [*hits, center], generator=gen).answer
    assert a.outcome != "answer", a.answer


def test_the_question_asks_for_a_thing() -> None:
    assert asked_heads("관리사 시험은 어떤 과목을 봐요?") == {"과목"}
    assert asked_heads("같이 내야 하는 서류가 구체적으로 뭐뭐예요?") == {"서류"}
    assert asked_heads("각 등급 기준이 뭐예요?") == {"기준"}
    assert asked_heads("어떤 경우에 환불돼요?") == frozenset()  # too general to be the thing asked


def test_a_clause_that_only_points_away_is_related_not_the_answer() -> None:
    hits = [_law(0, "제12조 (관리사 시험)", "본문/제12조", EXAM, 1.0),
            _law(1, "제20조 (등록)", "본문/제20조", REGISTER, 0.8)]
    a = answer_hits("관리사 시험은 어떤 과목을 봐요?", hits).answer
    assert a.outcome == "related", a.answer
    assert "행정안전부령으로 정한다" in a.answer, a.answer  # the related clause says where the answer is
    assert a.answer.startswith("물으신 내용은 행정안전부령에서 정하도록"), a.answer  # and the answer says so
    a = answer_hits("관리사 등록할 때 같이 내야 하는 서류가 구체적으로 뭐뭐예요?", hits).answer
    assert a.outcome == "related", a.answer


def test_the_same_clause_still_answers_what_it_states() -> None:
    hits = [_law(0, "제12조 (관리사 시험)", "본문/제12조", EXAM, 1.0)]
    a = answer_hits("관리사 시험은 1년에 몇 번 봐요?", hits).answer
    assert a.outcome == "answer" and "매년 1회" in a.answer, a.answer


def test_the_rule_that_fills_the_pointer_in_answers() -> None:
    hits = [_law(0, "제12조 (관리사 시험)", "본문/제12조", EXAM, 1.0),
            clause_hit(RULE, 1, "제5조 (시험과목)", "본문/제5조", SUBJECTS, 0.9)]
    a = answer_hits("관리사 시험은 어떤 과목을 봐요?", hits).answer
    assert a.outcome == "answer", a.answer
    assert "관리 실무" in a.answer and a.citations[0].path.startswith("본문/제5조"), a.answer


CENTER = ("제18조의2 (지원센터의 설치ㆍ운영)\n① 장관은 관리사 업무를 지원하기 위하여 관리사지원센터를 설치ㆍ운영하거나 "
          "전문기관을 지정하여 그 업무를 위탁할 수 있다.")


def test_who_holds_a_role_today_is_no_statutes_answer() -> None:
    # a law says who may run or designate a centre, never which body runs it today: related, not an answer
    hits = [_law(0, "제18조의2 (지원센터의 설치ㆍ운영)", "본문/제18조의2", CENTER, 1.0)]
    a = answer_hits("관리사지원센터는 지금 어느 기관이 맡아서 운영하고 있어요?", hits).answer
    assert a.outcome == "related", a.answer
    # … while who may run it is what the clause says
    a = answer_hits("관리사지원센터는 누가 설치하고 운영할 수 있어요?", hits).answer
    assert a.outcome == "answer", a.answer
