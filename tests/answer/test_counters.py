"""A count asked with its counter ("몇 번", "몇 명", "몇 퍼센트") is answered only by a number of that kind, and
a question asking what the law says is not answered by a company's terms (jogak.answer.generators.fit)."""

from __future__ import annotations

from typing import Any

import pytest

from jogak.answer import answer_hits
from jogak.lexicon.quantities import counters_asked
from jogak.model import Hit

from .helpers import clause_hit


@pytest.mark.parametrize(("question", "text", "expected"), [
    ("트레이너를 몇 번까지 바꿔 줘요?", "총 결제금액의 10퍼센트를 배상금으로 더하여 드립니다.", False),
    ("트레이너를 몇 번까지 바꿔 줘요?", "담당 트레이너는 계약 기간 중 2회까지 바꿀 수 있습니다.", True),
    ("연장은 몇 번까지 돼요?", "연장은 한 번만 할 수 있습니다.", True),
    ("최저임금의 몇 퍼센트까지 깎을 수 있어요?", "수습을 시작한 날부터 3개월 이내인 사람", False),
    ("최저임금의 몇 퍼센트까지 깎을 수 있어요?", "최저임금액의 100분의 10을 뺀 금액", True),
    ("선생님을 몇 명이나 둘 수 있어요?", "전담 교사를 1명 이상 둔다.", True),
    ("위원은 몇 명이에요?", "위원장을 포함한 15인 이내의 위원으로 구성한다.", True),
    ("몇 살부터 혼자 이용할 수 있어요?", "만 13세 이상인 어린이는 혼자 이용할 수 있다.", True),
    ("몇 살부터 혼자 이용할 수 있어요?", "1세대에 2명까지 등록한다.", False),
    ("보험은 최소 몇 억 원짜리로 들어야 해요?", "1억원 이상의 보험에 가입하여야 한다.", True),
    ("시속 몇 킬로까지 달려도 돼요?", "최고속도는 매시 80킬로미터로 한다.", True),
    ("셔틀버스는 몇 시에 서요?", "셔틀버스 2대를 운행한다.", False),
    ("셔틀버스는 몇 시에 서요?", "셔틀버스는 오전 8시 30분에 정문에 선다.", True),
    ("새벽조는 몇 시부터 일해요?", "새벽조: 22:00 ~ 다음 날 07:00", True),
    ("면회는 몇 시까지 돼요?", "면회는 3시간을 넘지 못한다.", False),
    ("가게는 최소 몇 평이어야 해요?", "점포는 1층에 두어야 한다.", False),
    ("가게는 최소 몇 평이어야 해요?", "점포의 전용면적은 33제곱미터 이상으로 한다.", True),
    ("휴게실은 몇 제곱미터 이상이어야 해요?", "휴게실을 1곳 이상 둔다.", False),
    ("휴게실은 몇 제곱미터 이상이어야 해요?", "휴게실의 면적은 20제곱미터 이상으로 한다.", True),
    # an area asked without a counter: a height is no answer, "5만제곱미터" and hectares are
    ("농민이면 얼마나 넓은 산에서까지 할 수 있어요?", "높이 50센티미터 이상 형질변경을 수반하는 경우", False),
    ("농민이면 얼마나 넓은 산에서까지 할 수 있어요?", "5만제곱미터 미만의 산지에서 재배하는 경우로 한정한다", True),
    ("숲 넓이가 얼마 이상이어야 해요?", "10헥타르 이상인 산림", True),
    ("미세먼지는 몇 마이크로그램까지 괜찮아요?", "미세먼지를 분기마다 1회 이상 측정한다.", False),
    ("미세먼지는 몇 마이크로그램까지 괜찮아요?", "미세먼지는 100㎍/㎥ 이하로 유지한다.", True),
    ("강아지는 몇 마리까지 키워요?", "세대당 모두 합해 두 마리까지 기를 수 있다.", True),
    ("차는 최소 몇 대 있어야 해요?", "등록 신청은 30일 이내에 한다.", False),
    ("차는 최소 몇 대 있어야 해요?", "자동차 20대를 말한다.", True),
    ("한 번에 몇 권까지 빌려요?", "회원은 대출 권리를 2년간 가진다.", False),
    ("한 번에 몇 권까지 빌려요?", "한 번에 5권까지 14일 동안 빌릴 수 있습니다.", True),
    ("몇 톤짜리부터 신고해요?", "최대 적재량이 2.5톤 이상인 화물자동차", True),
    ("최대 몇 배를 더 내요?", "부정수급액의 5배 이하의 금액을 징수한다.", True),
    ("최대 몇 배를 더 내요?", "배송비는 3천원으로 한다.", False),
    # a unit in Latin letters: a number in that unit answers, a delegated "기준량" does not
    ("1년에 에너지를 몇 TOE 이상 쓰면 신고해요?", "에너지사용량이 대통령령으로 정하는 기준량 이상인 자", False),
    ("1년에 에너지를 몇 TOE 이상 쓰면 신고해요?", "연간 에너지사용량이 2천 티오이 이상인 자", False),
    ("1년에 에너지를 몇 TOE 이상 쓰면 신고해요?", "연간 에너지사용량이 2,000 TOE 이상인 자", True),
    ("태양광은 몇 kW까지 신고만 하면 돼요?", "발전설비용량 100kW 이하", True),
])
def test_a_counted_question_needs_a_number_of_its_kind(question: str, text: str, expected: bool) -> None:
    wants = counters_asked(question)
    assert wants
    assert all(rx.search(text) for rx in wants) is expected


@pytest.mark.parametrize("question", [
    "몇 번째 방문부터 할인돼요?",  # an ordinal asks which, not how many times
    "몇 세대가 살아요?",  # households: a count of things, not an age
    "며칠 안에 돌려줘요?",  # periods stay with the time check
    "하루 몇 시간 일해요?",  # hours are a period, not a clock time
    "얼마예요?",
    "몇 대 몇으로 나눠요?",  # a ratio: "대" joins two numbers
    "몇 배송 업체가 있어요?",  # 배송, not a multiple
])
def test_no_counter_is_asked(question: str) -> None:
    assert not counters_asked(question)


def _hit(doc: str, n: int, article: str, path: str, text: str, score: float) -> Hit:
    return clause_hit(doc, n, article, path, text, score)


TRAINER = "회사의 사정으로 담당 트레이너를 배정할 수 없어 계약을 해지하는 경우 총 결제금액의 10퍼센트를 배상금으로 더하여 드립니다."


def test_a_percentage_does_not_answer_how_many_times() -> None:
    hits = [_hit("이용약관_온결피트니스", 0, "제9조 (중도 해지)", "본문/제9조/제4항", TRAINER, 1.0)]
    a = answer_hits("온결피트니스에서 담당 트레이너를 바꿔 달라고 하면 몇 번까지 바꿔 줘요?", hits).answer
    assert a.outcome != "answer", a.answer
    assert "10퍼센트" in a.answer  # still shown as a related clause


STAFF = "조리원은 신생아실에 간호사를 24시간 두며, 돌보는 인력 1명이 맡는 신생아는 낮에는 4명을 넘지 아니한다."


def test_what_the_law_says_is_not_answered_from_the_terms() -> None:
    hits = [_hit("이용약관_아람산후조리원", 0, "제17조 (인력의 배치)", "본문/제17조/제1항", STAFF, 1.0)]
    law = answer_hits("법으로는 산후조리원 간호 인력 한 명이 신생아를 몇 명까지 볼 수 있어요?", hits).answer
    assert law.outcome != "answer", law.answer
    terms = answer_hits("아람산후조리원은 간호 인력 한 명이 신생아를 몇 명까지 봐요?", hits).answer
    assert terms.outcome == "answer" and "4명" in terms.answer, terms.answer


@pytest.mark.parametrize(("question", "text"), [
    ("몇 번까지 돼요?", "한 여행에서 3회를 넘지 않습니다."), ("몇 번 해요?", "연 2회의 점검을 한다."),
    ("몇 명까지 봐요?", "1명이 맡는 신생아는 4명을 넘지 아니한다."), ("몇 명이에요?", "위원 5인으로 구성한다."),
])
def test_a_particle_after_the_counter_still_counts(question: str, text: str) -> None:
    assert all(rx.search(text) for rx in counters_asked(question))


@pytest.mark.parametrize(("question", "text"), [("몇 번이에요?", "회사에 알립니다."), ("몇 번 해요?", "1회계연도"),
                                                ("몇 명이에요?", "3인분"), ("몇 번까지 돼요?", "3번지")])
def test_words_that_only_begin_with_a_counter_do_not_count(question: str, text: str) -> None:
    assert not any(rx.search(text) for rx in counters_asked(question))


def test_a_numeral_inside_a_word_is_no_number() -> None:
    # "청구할 수" holds 구 + 할 ("9할"), "이회사" 이 + 회: neither states a count
    assert not any(rx.search("그 금액을 청구할 수 있다") for rx in counters_asked("몇 퍼센트씩 내요?"))
    assert not any(rx.search("그 이회사는") for rx in counters_asked("몇 번 해요?"))


@pytest.mark.parametrize(("question", "text", "expected"), [
    # the figure itself asked: a ceiling does not give it, a figure or a deadline does
    ("처음 걸리면 과태료가 실제로 얼마 나와요?", "위반한 자에게는 300만원 이하의 과태료를 부과한다.", False),
    ("처음 걸리면 과태료가 실제로 얼마 나와요?", "1차 위반: 과태료 100만원", True),
    ("자격 정지가 정확히 며칠이에요?", "6개월 이내의 기간을 정하여 그 자격의 효력을 정지시킬 수 있다.", False),
    ("연체 이자율은 정확히 몇 퍼센트예요?", "약정이자율은 연 19.9퍼센트 이내에서 대출계약서에 정한다.", False),
    ("환불은 정확히 며칠 안에 해 줘요?", "회사는 취소를 받은 날부터 7일 이내에 환불한다.", True),
    # a figure of another kind beside the ceiling does not give it ("3회 이상 안내" is no amount of money)
    ("과태료가 실제로 얼마 나와요?", "300만원 이하의 과태료를 부과한다. 다만, 3회 이상 안내한 경우에는 그러하지 아니하다.", False),
    ("정지가 정확히 며칠이에요?", "6개월 이내의 기간을 정하여 정지시킬 수 있다. 승객 5명 이상이 신고하면", False),
    # the bound asked, or no exactness asked: the ceiling is the answer
    ("과태료는 최대 얼마까지 나와요?", "위반한 자에게는 300만원 이하의 과태료를 부과한다.", True),
    ("과태료는 얼마예요?", "위반한 자에게는 300만원 이하의 과태료를 부과한다.", True),
])
def test_an_exact_figure_is_not_answered_by_a_ceiling(question: str, text: str, expected: bool) -> None:
    from jogak.lexicon.quantities import asks_exact_figure, states_figure

    assert (not asks_exact_figure(question) or states_figure(text, question)) is expected


def test_a_parking_ticket_is_no_exactness_cue() -> None:
    from jogak.lexicon.quantities import asks_exact_figure

    assert not asks_exact_figure("차 타다가 주차 딱지를 뗐는데, 회사는 고지서 받고 며칠 안에 알려 줘요?")
    assert asks_exact_figure("과태료가 딱 얼마예요?")


RENTAL_TERMS = "회사는 차를 내주기 전에 운전자격확인시스템으로 모든 운전자의 운전면허를 확인하며, 면허가 정지된 사람에게는 차를 빌려주지 아니한다."
RENTAL_LAW = "자동차대여사업자는 차를 대여하기 전에 운전자격확인시스템을 이용하여 운전면허를 확인하여야 하며, 운전면허가 정지된 자에게 차를 대여하여서는 아니 된다."


def test_what_the_law_says_is_led_by_the_law_not_by_terms_quoting_it_first() -> None:
    # the terms restate the rule in the asker's words and score best; the law's clause scores near it: asked what
    # the law says, the answer leads with the law (a law's unit quoted after the terms' does not make it the law's answer)
    hits = [_hit("대여약관_바람카", 0, "제6조 (대여할 때의 확인)", "본문/제6조/제2항", RENTAL_TERMS, 1.0),
            _hit("여객자동차 운수사업법", 1, "제34조의2 (자동차대여사업자의 준수사항)", "본문/제34조의2/제2항", RENTAL_LAW, 0.9)]
    from jogak.answer.generators.extractive import ExtractiveAnswerer

    sure = ExtractiveAnswerer(answer_confidence=0.0)  # the outcome is not what is tested: which document leads is
    law = answer_hits("법으로는 렌터카 회사가 차를 내주기 전에 운전면허를 확인해야 해요? 면허가 정지된 사람한테 빌려줘도 돼요?",
                      hits, generator=sure).answer
    assert law.outcome == "answer", law.answer
    assert law.citations[0].doc_title == "여객자동차 운수사업법", law.answer
    terms = answer_hits("바람카는 차를 내주기 전에 운전면허를 확인해요? 면허가 정지된 사람한테 빌려줘요?", hits,
                        generator=sure).answer
    assert terms.outcome == "answer" and terms.citations[0].doc_title == "대여약관_바람카", terms.answer


@pytest.mark.parametrize(("question", "text", "expected"), [
    # how often: a cycle or a period answers, a lapse that says who may apply does not
    ("품질인증은 몇 년마다 새로 받아야 돼요?", "1. 품질인증이 취소된 후 1년이 지나지 아니한 자", False),
    ("품질인증은 몇 년마다 새로 받아야 돼요?", "품질인증의 유효기간은 품질인증을 받은 날부터 3년으로 한다.", True),
    ("계획은 얼마마다 세워요?", "장관은 5년마다 기본계획을 수립하여야 한다.", True),
    ("안전점검은 얼마나 자주 해요?", "관리주체는 매년 안전점검을 실시한다.", True),
    ("안전점검은 얼마나 자주 해요?", "놀이기구는 분기별로 점검한다.", True),
    ("교육은 얼마나 자주 받아요?", "교육은 연 2회 이상 실시한다.", True),
    ("교육은 얼마나 자주 받아요?", "형의 집행이 끝난 날부터 2년 6개월이 지나지 아니한 사람", False),
    ("How often is the register checked?", "The register is checked every year.", True),
])
def test_how_often_is_answered_by_a_cycle_not_a_lapse(question: str, text: str, expected: bool) -> None:
    from jogak.lexicon.quantities import CYCLE_ANSWER, asks_a_cycle

    assert asks_a_cycle(question)
    assert bool(CYCLE_ANSWER.search(text)) is expected


@pytest.mark.parametrize("question", ["몇 년 지나야 다시 신청할 수 있어요?", "얼마 동안 유효해요?", "보내 주기로 한 날이 언제예요?"])
def test_a_lapse_or_a_period_is_no_cycle_question(question: str) -> None:
    from jogak.lexicon.quantities import asks_a_cycle

    assert not asks_a_cycle(question)


CERT_WHO = "다만, 다음 각 호의 어느 하나에 해당하는 자는 품질인증을 신청할 수 없다."
CERT_LAPSE = "1. 제29조에 따라 품질인증이 취소된 후 1년이 지나지 아니한 자"
CERT_TERM = "품질인증의 유효기간은 품질인증을 받은 날부터 3년으로 한다."


def test_a_cycle_question_skips_the_lapse_of_a_disqualification() -> None:
    # the clause on who may not apply scores best ("품질인증", "받아야"), and its item holds a "1년": asked how often the
    # certificate is renewed, the answer is the validity period, not the year a revoked holder must wait
    hits = [_hit("전통주법", 0, "제22조 (품질인증)", "본문/제22조/제2항", f"② {CERT_WHO}\n{CERT_LAPSE}", 1.0),
            _hit("전통주법", 1, "제22조 (품질인증)", "본문/제22조/제3항", f"③ {CERT_TERM}", 0.95)]
    from jogak.answer.generators.extractive import ExtractiveAnswerer

    sure = ExtractiveAnswerer(answer_confidence=0.0)
    a = answer_hits("품질인증은 한 번 받으면 계속 가요, 아니면 몇 년마다 새로 받아야 돼요?", hits, generator=sure).answer
    assert "3년" in a.answer and "1년이 지나지" not in a.answer, a.answer


@pytest.mark.parametrize(("doc", "question", "wrong", "right", "figure"), [
    # asked the price of one more massage, the clause on what the stay includes ("2회", "세 끼") states no price
    ("이용약관_아람", "아람조리원에서 산모 마사지를 추가로 받으면 한 번에 얼마예요?",
     ("제9조 (제공하는 서비스)", "① 조리원은 이용요금에 포함하여 다음 각 호의 서비스를 제공한다.\n1. 산모의 하루 세 끼 식사\n"
      "2. 산모 전신 마사지 2회"),
     ("제10조 (추가 서비스)", "① 산모 전신 마사지를 추가로 받으면 1회에 80,000원을 낸다."), "80,000원"),
    # asked how soon a printed book arrives, the clause pricing it ("3천원") says no time
    ("수강약관_가람", "가람에서 종이 교재도 같이 주문하면 며칠 만에 받을 수 있어요?",
     ("제8조 (수강료)", "② 종이 교재를 배송받기로 고른 경우에는 그 교재값 3천원을 더 받는다."),
     ("제9조 (교재 배송)", "② 종이 교재는 주문한 날부터 3영업일 안에 보낸다."), "3영업일"),
])
def test_a_figure_of_another_kind_does_not_answer(doc: str, question: str, wrong: tuple[str, str],
                                                  right: tuple[str, str], figure: str) -> None:
    # a money question is not answered by a count, a time question by a price: the clause is only shown as related;
    # the clause stating the asked kind of figure is the answer
    from jogak.answer.generators.extractive import ExtractiveAnswerer

    sure = ExtractiveAnswerer(answer_confidence=0.0)

    def ask(article: str, text: str) -> Any:
        return answer_hits(question, [_hit(doc, 0, article, f"본문/{article.split()[0]}/제1항", text, 1.0)],
                           generator=sure).answer

    a = ask(*wrong)
    assert a.outcome != "answer", a.answer
    b = ask(*right)
    assert b.outcome == "answer" and figure in b.answer, b.answer
