"""Quantities and times in text, and questions that ask for one ("며칠", "얼마", "how long"): shared by the
retriever's learned reranker and the answerer's answer-type checks."""

from __future__ import annotations

import re

TIME_UNITS = r"(?:영업일|일|개월|달|년|시간|주|business\s+days?|days?|months?|years?|hours?|weeks?)"
# Counters of people, animals, things, scores, sizes and weights count too ("10인 이상", "2마리", "60점",
# "120센티", "20킬로"); not 호 / 장 / 조, which number clauses and chapters ("제3호", "제2장").
QTY_UNITS = (r"(?:%|퍼센트|만\s*원|원|억|영업일|일|개월|달|년|시간|분|주|명|인|회|번|배|포인트|세|살|개|마리|대|층|"
             r"가구|세대|건|박|점|평|톤|킬로그램|킬로미터|킬로|센티미터|센티|미터|제곱미터|㎡|㎏|㎞|㎝|kg|km|cm|mm|℃|"
             r"units?|days?|months?|years?|hours?|weeks?|percent|per\s*cent|USD)")
TIME_ANSWER = re.compile(
    rf"\d+\)?\s*{TIME_UNITS}|다음\s*날|익일|즉시|당일|지체\s*없이|\d{{4}}\s*년\s*\d+\s*월|\d{{4}}\.\s*\d+\.|"
    r"within|immediately|promptly|without\s+delay|"
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d", re.I)
QTY_ANSWER = re.compile(
    rf"\d[\d,]*(?:\.\d+)?\)?\s*{QTY_UNITS}|분의\s*\d|\d+\s*/\s*\d+|(?:USD|\$)\s*\d", re.I)
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


def states_quantity(text: str) -> bool:
    """Whether the text states an amount, a count, a period or a time."""
    return bool(TIME_OR_QTY.search(text))
