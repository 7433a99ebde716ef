"""Quantities and times in text, and questions that ask for one ("며칠", "얼마", "how long"): shared by the
retriever's learned reranker and the answerer's answer-type checks."""

from __future__ import annotations

import re

from jogak.lexicon.ranges import NATIVE_NUMBER

TIME_UNITS = r"(?:영업일|일|개월|달|년|시간|주|business\s+days?|days?|months?|years?|hours?|weeks?)"
# Counters of people, animals, things, scores, sizes and weights count too ("10인 이상", "2마리", "60점",
# "120센티", "20킬로"); not 호 / 장 / 조, which number clauses and chapters ("제3호", "제2장").
QTY_UNITS = (r"(?:%|퍼센트|만\s*원|원|억|영업일|일|개월|달|년|시간|분|주|명|인|회|번|배|포인트|세|살|개|마리|대|층|"
             r"가구|세대|건|박|점|평|톤|킬로그램|킬로미터|킬로|센티미터|센티|미터|제곱미터|㎡|㎏|㎞|㎝|kg|km|cm|mm|℃|"
             r"units?|days?|months?|years?|hours?|weeks?|percent|per\s*cent|USD)")
TIME_ANSWER = re.compile(
    rf"\d+\)?\s*{TIME_UNITS}|다음\s*날|익일|즉시|당일|전\s*날|전일|지체\s*없이|\d{{4}}\s*년\s*\d+\s*월|\d{{4}}\.\s*\d+\.|"
    r"within|immediately|promptly|without\s+delay|"
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d", re.I)
# a number with its Sino magnitudes, as statutes write money: "2천만원", "1억5천만원", "3백만 원", "1만 5천 원"
AMOUNT = r"\d[\d,]*(?:\.\d+)?(?:\s*[십백천만억](?:\s*\d[\d,]*(?:\.\d+)?)?)*"
QTY_ANSWER = re.compile(
    rf"{AMOUNT}\)?\s*{QTY_UNITS}|분의\s*\d|\d+\s*/\s*\d+|(?:USD|\$)\s*\d", re.I)
TIME_OR_QTY = re.compile(f"{TIME_ANSWER.pattern}|{QTY_ANSWER.pattern}", re.I)
# "얼마나 걸려요" asks for a time, "얼마예요" for an amount: either kind answers either cue. A bare "언제" /
# "when" is not here — an event answers it as well as a date ("upon delivery", "검수 완료 후") — but a
# deadline ("언제까지", "by when") is.
# "몇 달째 비어 있어요" / "며칠째" tell how long something has lasted; they ask nothing.
ASK_HOW_MANY = r"몇(?!\s*(?:달|개월|년|해|주|일|시간)\s*째)"
ASKS_QUANTITY = re.compile(rf"며칠(?!\s*째)|{ASK_HOW_MANY}|얼마|언제\s*까지|how\s+(?:long|soon|quickly|much|many)|what\s+percent|"
                           r"by\s+when", re.I)


def asks_quantity(question: str) -> bool:
    """Whether the question asks (with an interrogative, not a noun such as 기간 or 금액) how much / how
    many / how long / by when."""
    return bool(ASKS_QUANTITY.search(question))


# "며칠 만에 받아요?", "몇 년 지나야", "언제까지", "얼마나 걸려요" ask a time: a price ("3천원") does not answer them.
# "몇 년마다" asks a cycle (``ASKS_CYCLE``); "몇 달째" tells how long something has lasted; "몇 분" stays with
# TIME_OR_QTY (TIME_ANSWER has no 분: "3분의 1" is a share).
ASKS_TIME = re.compile(r"며칠(?!\s*째)|몇\s*(?:일|달|개월|년|해|주|시간)(?!\s*(?:째|마다|에\s*한\s*번))|언제\s*까지|"
                       r"얼마\s*(?:나|만큼)?\s*(?:걸|오래|동안|만에)|how\s+(?:long|soon)|by\s+when", re.I)


def asks_time(question: str) -> bool:
    """Whether the question asks how long, how soon or by when (``ASKS_TIME``)."""
    return bool(ASKS_TIME.search(question))


def states_quantity(text: str) -> bool:
    """Whether the text states an amount, a count, a period or a time."""
    return bool(TIME_OR_QTY.search(text))


# "몇 년마다 / 얼마마다 / 얼마나 자주 / how often" ask a cycle. A cycle answers it ("5년마다", "매년", "연 1회", "분기별"),
# and so does a period ("유효기간은 … 3년으로 한다"); a lapse that qualifies someone does not ("취소된 후 1년이 지나지 아니한
# 자" is who may apply, not how often), nor a deadline ("배치한 날부터 15일 이내에 통보" is when, not how often).
ASKS_CYCLE = re.compile(r"몇\s*(?:년|해|개월|달|주|일|시간|분기)\s*(?:마다|에\s*한\s*번)|얼마\s*(?:마다|만에\s*한\s*번)|"
                        r"얼마나\s*자주|how\s+often", re.I)
CYCLE_ANSWER = re.compile(
    rf"(?<![\d,.])\d+\)?\s*{TIME_UNITS}(?!\s*(?:\d+\s*(?:개월|일)\s*)?(?:이|가)?\s*(?:지나|경과)|\s*(?:이내|까지|안에|내에|안으로))|매\s*(?:년|월|일|주|분기|반기|학기|회계\s*연도)|"
    r"(?:해|달|날|분기|반기|학기)\s*마다|(?:분기|반기|연|월|주)\s*(?:별|\d+\s*회)|"
    r"(?:every|each|per)\s+(?:year|month|week|day|quarter)|annual|monthly|weekly|daily|quarterly", re.I)


def asks_a_cycle(question: str) -> bool:
    """Whether the question asks how often something happens (``ASKS_CYCLE``)."""
    return bool(ASKS_CYCLE.search(question))


# "실제로 / 정확히 얼마" asks the figure itself — one a ceiling ("300만원 이하의 과태료", "6개월 이내의 기간을 정하여",
# "연 19.9퍼센트 이내에서") leaves open (the figure is set elsewhere: a decree's table, the contract); a question
# asking the bound ("최대 얼마까지", "한도가") is answered by it. A deadline ("7일 이내에") is a figure.
_EXACT = re.compile(r"실제(?:로)?|정확(?:히|한|하게)|구체적(?:으로|인)|(?<![가-힣])딱(?=\s*(?:얼마|며칠|몇))")
_ASKS_BOUND = re.compile(r"최대|최고|최소|까지|한도|상한|하한|이하|이상|이내|미만|초과|범위")
_CEILING = re.compile(rf"(?:{QTY_ANSWER.pattern})\s*(?:이하|이내|미만|한도|범위)\s*(?:의|에서|로)", re.I)


def asks_a_bound(question: str) -> bool:
    """Whether the question asks for a bound ("최대", "까지", "이하") rather than a figure."""
    return bool(_ASKS_BOUND.search(question))


def asks_exact_figure(question: str) -> bool:
    """Whether the question asks for a quantity with "실제로 / 정확히 / 구체적으로" and not for its bound."""
    return asks_quantity(question) and bool(_EXACT.search(question)) and not asks_a_bound(question)


# the kind of figure an exact question asks: money, a period, a share (else any quantity or time)
_FIGURE_KINDS = [
    (re.compile(r"과태료|벌금|과징금|포상금|보상금|수수료|요금|비용|금액|이자|돈|[0-9]\s*원|몇\s*(?:원|만\s*원)"),
     re.compile(rf"{AMOUNT}\s*원")),
    (re.compile(r"며칠|몇\s*(?:일|달|개월|년|주|시간)|기간"), TIME_ANSWER),
    (re.compile(r"몇\s*(?:%|퍼센트|프로)|비율|이자율|요율"), re.compile(r"\d\s*(?:%|퍼센트)|분의\s*\d")),
]


# "얼마 더 내요", "얼마 받아요", "얼마씩 들어요": money asked by its verb, with no money word in the question
_MONEY_VERB_RE = re.compile(r"얼마(?:나|를|씩|까지|정도|쯤)?\s*(?:더\s*)?(?:내|받|들|줘|주|드려|돌려|물|벌|비싸|깎|환불|청구|부과)")


def figure_asked(question: str) -> re.Pattern[str] | None:
    """The pattern of the figure a question asks for — money, a period, a share (``states_figure``'s kinds, or
    money asked by its verb: "얼마 더 내요?") — else None."""
    kind = next((rx for cue, rx in _FIGURE_KINDS if cue.search(question)), None)
    if kind is None and _MONEY_VERB_RE.search(question):
        kind = _FIGURE_KINDS[0][1]
    return kind


# "얼마예요?" asks a price — in the used question sets every "…얼마예요" with no other measure in it asks money — as do
# "얼마" with a money word ("보증금", "참가비", "기계값", "위약금", "수당") or a money verb ("얼마 내요"); "얼마나 걸려요 /
# 자주 / 오래 / 많이 / 넓어요" ask a time, a cycle or a size.
_HOW_MUCH = re.compile(r"얼마(?!\s*(?:나|만큼)?\s*(?:자주|걸|오래|동안|지나|됐|되었|남|전에|후에|뒤에|빨리|늦|마다|만에|넓|크|길|높|멀|"
                       r"무거|많|깊|세게|심))")
_MONEY_WORD = re.compile(r"과태료|벌금|과징금|포상금|보상금|수수료|요금|비용|금액|이자|돈|원(?=[이가은는도을를만]|\s|\?|$)|"
                         r"(?:이용|입장|수강|보관|대관|응시|사용|관람|수업|등록|가입|배송|연체|임대|진료)료|"
                         r"(?:참가|회|입회|관리|주차|숙박|교통|식|간식|급식|교육|수리|치료|이사)비|값|운임|월세|보증금|위약금|"
                         r"수당|시급|월급|급여|임금|가격|[사위]로금|환불금|보험금|지원금|장려금|가산금|연체금|세금")
_PRICE_END = re.compile(r"얼마(?:예요|에요|이에요|인가요|입니까|죠|일까요|인지|야)")
_OTHER_MEASURE = re.compile(r"나이|살|키|무게|거리|넓이|면적|크기|점수|정원|인원|시간|기간|동안|오래|자주|비율|퍼센트|%|몇|며칠|처벌")
# what answers a money question: an amount in won or points, a share of something ("결제금액의 10%", "100분의 50",
# "2배"), or that nothing is charged
MONEY_ANSWER = re.compile(rf"{AMOUNT}\s*원|\d[\d,]*\s*포인트|\d\s*(?:%|퍼센트)|분의\s*\d|\d\s*배(?![가-힣])|무료|"
                          r"(?:받|내|청구하|부과하|부담하)지\s*(?:않|아니)|면제|실비")


def asks_money(question: str) -> bool:
    """Whether the question asks how much money (a price, a fee, a fine, an allowance): "얼마" with a money word
    or verb, or a bare "…얼마예요?" with no other measure in the question."""
    if not _HOW_MUCH.search(question):
        return False
    if _MONEY_VERB_RE.search(question) or _MONEY_WORD.search(question):
        return True
    return bool(_PRICE_END.search(question)) and not _OTHER_MEASURE.search(question)


# "처음 등록할 때 따로 내는 돈도 있어요?", "셔틀을 타면 돈 내야 돼요?", "비용이 들어요?": a charge asked about
# without "얼마" — the answer is its amount
_CHARGE_VERB = re.compile(r"(?:내|받|들|붙|청구하|(?<!수\s)(?<!수)있)(?:는지|나요|어요|아요|[어아]?야\s*(?:돼|되|해)|습니까|을까요|죠|"
                          r"[어아]?\s*\?|요)")
_REFUND = re.compile(r"돌려|환불|반환|돌려받|되돌려")


def asks_a_charge(part: str) -> bool:
    """Whether a part of a question asks if something costs money ("따로 내는 돈도 있어요?") — its answer is
    an amount (``figure_asked``'s money) though the part asks no "얼마"."""
    return (bool(_MONEY_WORD.search(part) and _CHARGE_VERB.search(part)) and not asks_quantity(part)
            and not _REFUND.search(part))  # "돈을 돌려받을 수 있어요?" asks a refund, not a charge


MONEY_FIGURE = _FIGURE_KINDS[0][1]


def states_figure(text: str, question: str = "") -> bool:
    """Whether the text states a figure of the kind ``question`` asks (money, a period, a share; any quantity
    or time without a question) that is not only a ceiling ("300만원 이하의 과태료")."""
    rest = _CEILING.sub(" ", text)
    kind = next((rx for cue, rx in _FIGURE_KINDS if cue.search(question)), None)
    return bool(kind.search(rest)) if kind is not None else states_quantity(rest)


# A count asked with its counter ("몇 번", "몇 명", "몇 퍼센트") is answered only by a number with a counter of the
# same kind: "PT 트레이너를 몇 번까지 바꿔 줘요?" is not answered by "결제금액의 10퍼센트", nor "최저임금의 몇 퍼센트" by
# "3개월 이내". Times of day and periods stay with TIME_ANSWER (a "1년" answers "몇 개월"). Each entry: the
# question's cue, the counters (after a number) that answer it.
# a number: digits, or a Sino/native numeral word standing on its own ("이 회사" is no "2회")
_NUMBER = rf"(?:\d[\d,]*(?:\.\d+)?|(?<![가-힣])[일이삼사오육칠팔구십백천]+|{NATIVE_NUMBER})\s*"
_COUNTERS = [  # (question cue, counters after a number, other forms of the answer)
    (r"몇\s*(?:번|회|차례)(?!\s*(?:째|으로|항목|호|조))",
     r"(?:번|회|차례)(?:$|[^가-힣]|[을를이가은는도의와과로만씩에]|까지|마다|이상|이내|이하|미만|초과)", None),
    (r"몇\s*(?:명|사람)|몇\s*인(?![가-힣])",
     r"(?:명|인)(?:$|[^가-힣]|[을를이가은는도의와과만씩에]|으로|까지|마다|이상|이내|이하|미만|초과)", None),
    (r"몇\s*(?:살|세)(?!\s*대)", r"(?:세|살)(?!대)", None),
    (r"몇\s*(?:퍼센트|프로|%|할(?![가-힣]))|what\s+percent", r"(?:%|퍼센트|프로|percent|할(?![가-힣]))",
     r"분의\s*\d|\d\s*/\s*\d"),  # "100분의 10", "1/10"
    (r"몇\s*(?:원|만\s*원|천\s*원|억|천만|백만)", r"(?:[십백천만억]\s*)*원|억", None),
    (r"몇\s*(?:킬로(?!그)|미터|km|센티)", r"(?:킬로미터|킬로|km|미터|m(?![a-z])|센티미터|센티|cm)", None),
    # a clock time ("몇 시에", "몇 시부터"): "오후 9시", "22:00" — not "3시간" nor a count of buses
    (r"몇\s*시(?![가-힣])|몇\s*시(?=[에부까쯤]|이후|이전|전|후)", r"시(?!간|대|행|설|청|장|도|험|세|점|기)",
     r"\d{1,2}\s*:\s*\d{2}|자정|정오"),
    # an area ("몇 평", "몇 제곱미터", "얼마나 넓어야", "넓이가 얼마"): 평, square metres or hectares ("5만제곱미터")
    (r"몇\s*(?:평|제곱\s*미터|㎡)|얼마나\s*넓|(?:넓이|면적)(?:가|이|는|은|를|을)?\s*(?:얼마|어느\s*정도)",
     r"(?:[십백천만]\s*)*(?:평|제곱\s*미터|㎡|m2|m²|헥타르|ha(?![a-z]))", None),
    # a measure or a count of things: answered by a number with that unit ("몇 마이크로그램까지" is not answered by
    # "분기마다 1회", "몇 대까지 주차" by "30분"); the unit's neighbours in the answer are guarded where a word
    # starts with it ("2권" but not "권리")
    (r"몇\s*(?:마이크로그램|밀리그램|킬로그램|그램|톤|㎍|mg|kg)",
     r"(?:마이크로그램|밀리그램|킬로그램|그램|톤|㎍|㎎|mg|kg|μg)", None),
    (r"몇\s*(?:리터|밀리리터|데시벨|ppm)", r"(?:리터|밀리리터|ℓ|㎖|데시벨|dB|ppm)", None),
    (r"몇\s*마리", r"마리", None),
    (r"몇\s*대(?!\s*몇)(?=[까가는를도만예요야]|\s|$|\?)", r"대(?!상|학|리|표|한|출|금|책|응|비|신|여|기|가)", None),
    (r"몇\s*권(?!리|한)", r"권(?!리|한|고|유|장)", None),
    (r"몇\s*층", r"층", None),
    (r"몇\s*배(?![송상달])", r"배(?!송|상|정|우|출|치|포|제|달|당)", None),
]
_COUNTER_RULES = [(re.compile(cue, re.I), re.compile(rf"{_NUMBER}(?:{ans})" + (f"|{other}" if other else ""), re.I))
                  for cue, ans, other in _COUNTERS]


# A unit written in Latin letters after "몇" ("몇 TOE", "몇 kWh", "몇 MW", "몇 GB"): answered only by a number in that
# unit — "대통령령으로 정하는 기준량 이상" states none.
_LATIN_UNIT = re.compile(r"몇\s*(?P<unit>[A-Za-z][A-Za-z0-9/²³]{0,7})(?![A-Za-z0-9])")


def counters_asked(question: str) -> list[re.Pattern[str]]:
    """Patterns an answer must match for each count the question asks with a counter ("몇 번" → a number of
    times, "몇 퍼센트" → a percentage or a fraction, "몇 TOE" → a number of TOE); empty when it asks none."""
    out = [ans for cue, ans in _COUNTER_RULES if cue.search(question)]
    for m in _LATIN_UNIT.finditer(question):
        unit = m.group("unit")
        if not any(cue.search(m.group(0)) for cue, _ans in _COUNTER_RULES):  # "몇 km", "몇 kg": their rule reads it
            out.append(re.compile(rf"\d[\d,]*(?:\.\d+)?\s*(?:천|만|백만|억)?\s*{re.escape(unit)}(?![A-Za-z])", re.I))
    return out


# The part a figure plays, read from the words right after it: a deadline ("30일 이내에", "12월 31일까지"), a cycle
# ("5년마다"), a period ("3년간"), a start ("6개월이 지나"), a bound ("1억원 이상"); "other" when none says.
# Two clauses' figures conflict only when they play the same part (answer/verify.py ``disagree``).
FIGURE_PARTS = (("by", ("까지", "이내", "안에", "내에", "안으로")), ("every", ("마다",)),
                ("for", ("간", "동안")), ("after", ("부터", "후", "뒤", "이후", "지나", "경과", "이 지나", "이 경과")),
                ("bound", ("이상", "이하", "초과", "미만", "을 넘", "를 넘", "이 넘")))


def figure_part(after: str) -> str:
    """The part a figure plays, given the text right after it (``FIGURE_PARTS``)."""
    after = after.lstrip()
    return next((part for part, starts in FIGURE_PARTS if after.startswith(starts)), "other")
