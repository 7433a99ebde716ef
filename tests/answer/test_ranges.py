"""Numeric conditions (jogak.lexicon.ranges): a table row or list item whose condition holds the amount the
question states wins over its neighbours, which share every word but the numbers."""

from __future__ import annotations

import math

import pytest

from jogak.answer.ask import answer_hits
from jogak.answer.generators.fit import range_factors
from jogak.answer.generators.weights import ExtractiveWeights
from jogak.answer.units import Unit
from jogak.lexicon.ranges import Amount, Span, fits_range, meets_condition, question_amounts, spans
from jogak.model import Chunk, ChunkMetadata, Hit, Segment


@pytest.mark.parametrize(("text", "expected"), [
    ("공연일 9일 전부터 7일 전까지", [Span("day", 7, 9)]),
    ("공연일 10일 전까지", [Span("day", 10, None)]),  # up to 10 days before: 10 days or more before
    ("공연일 2일 전부터 전날 오후 5시까지", [Span("day", 1, 2)]),
    ("만 65세 이상인 사람", [Span("age", 65, None)]),
    ("3만원 이상 5만원 미만", [Span("won", 30_000, 50_000, hi_open=True)]),
    ("3~5일", [Span("day", 3, 5)]),
    ("구매일부터 7일 이내", [Span("day", None, 7)]),
    ("이용 당일", [Span("day", 0, 0)]),
    ("입장권 값의 10퍼센트(최대 4,000원)", []),  # amounts, not conditions
    ("만 6세 이상 만 13세 미만인 아이", [Span("age", 6, 13, hi_open=True)]),  # 만 (full age) before each bound
    ("10분 넘게 늦어지면", [Span("minute", 10, None, lo_open=True)]),
    ("7일이 지나면", [Span("day", 7, None)]),
])
def test_spans(text: str, expected: list[Span]) -> None:
    assert spans(text) == expected


def test_question_amounts() -> None:
    assert question_amounts("공연 5일 전에 취소하면 수수료가 얼마예요?") == [Amount(5, "day")]
    assert question_amounts("공연은 3주 뒤예요") == [Amount(21, "day")]
    assert question_amounts("이틀 전에 취소했어요") == [Amount(2, "day")]
    assert question_amounts("매주 월요일 3일차에") == []  # 요일, 차 are no amounts of days


def test_fits_range() -> None:
    five = question_amounts("5일 전에 취소")
    assert fits_range(five, "공연일 6일 전부터 3일 전까지") is True
    assert fits_range(five, "공연일 10일 전까지") is False
    assert fits_range(five, "만 65세 이상") is None  # another kind of amount: nothing to compare
    assert fits_range([], "공연일 10일 전까지") is None


TEXT = """별표 1 예매 취소 수수료
| 취소한 때 | 취소 수수료 |
| 공연일 10일 전까지 | 없음 |
| 공연일 9일 전부터 7일 전까지 | 입장권 값의 10퍼센트 |
| 공연일 6일 전부터 3일 전까지 | 입장권 값의 20퍼센트 |
| 공연일 2일 전부터 전날까지 | 입장권 값의 30퍼센트 |"""


def _hits() -> list[Hit]:
    md = ChunkMetadata(source="관람약관.txt", doc_title="관람약관", chunk_no=0, article="별표 1 (예매 취소 수수료)",
                       page_start=None, page_end=None, char_start=0, char_end=len(TEXT), block_type="appendix",
                       path="별표1", doc_id="관람약관",
                       segments=[Segment("별표1", "별표 1 (예매 취소 수수료)", 0, len(TEXT))])
    return [Hit(Chunk(id="a", text=TEXT, metadata=md), 1.0, 0)]


@pytest.mark.parametrize(("question", "row", "others"), [
    ("공연 5일 전에 예매를 취소하면 수수료가 얼마예요?", "20퍼센트", ("10퍼센트", "30퍼센트")),
    ("공연 8일 남기고 표를 취소하면 수수료가 얼마예요?", "10퍼센트", ("20퍼센트", "30퍼센트")),
    ("공연 이틀 전에 취소하면 수수료가 얼마예요?", "30퍼센트", ("10퍼센트", "20퍼센트")),
])
def test_the_row_whose_range_holds_the_amount_answers(question: str, row: str, others: tuple[str, ...]) -> None:
    a = answer_hits(question, _hits()).answer
    shown = a.answer  # an answer, or the related clauses it shows
    assert row in shown, shown
    assert not any(o in a.answer for o in others), a.answer


@pytest.mark.parametrize(("question", "expected"), [
    ("다섯 살 딸만 태워 보내도 돼요?", [Amount(5, "age")]),
    ("스물다섯 살인데 서류를 내야 해요?", [Amount(25, "age")]),
    ("열한 살 큰애도 들어가요?", [Amount(11, "age")]),
    ("비행기 안에서 세 시간 넘게 갇혀 있었어요", [Amount(3, "hour")]),
    ("30초 만에 바로 취소했어요", [Amount(0.5, "minute")]),
    ("두 해 동안 살았어요", [Amount(24, "month")]),
    ("한 달 넘게 못 냈어요", [Amount(1, "month")]),  # once, though both word tables know it
    ("살림을 합쳤어요", []),
    ("이 사람 세 해요", []),  # 해 as a verb, not a year
])
def test_question_amounts_in_words(question: str, expected: list[Amount]) -> None:
    assert question_amounts(question) == expected


def test_meets_condition_measures_how_closely() -> None:
    five = question_amounts("다섯 살 딸")
    assert meets_condition(five, "만 6세 미만인 아이는 보호자와 함께 타야 합니다.") == 1
    assert meets_condition(five, "만 6세 이상 만 13세 미만인 아이가 혼자 타려면") == math.inf  # states one, misses
    week = question_amounts("7일 늦어지면")
    assert meets_condition(week, "7일 이상 늦어지면 10%를 지급한다.") == 0
    assert meets_condition(week, "3일 이상 늦어지면 5%를 지급한다.") == 4
    # a range qualifying a noun is no condition on the reader
    assert meets_condition(question_amounts("한 해 동안"), "1년 이하의 징역 또는 1천만원 이하의 벌금에 처한다.") is None


def test_only_the_closest_condition_lifts_its_sentence() -> None:
    w = ExtractiveWeights(condition_miss=0.9)
    units = [Unit(0, 0, t, "sentence") for t in ("만 6세 미만인 아이는 보호자와 함께 타야 합니다.",
                                                  "만 13세 미만인 아이가 혼자 타려면 보호자가 불러야 합니다.",
                                                  "아이는 뒷좌석에 앉습니다.")]
    assert range_factors(units, question_amounts("다섯 살 딸"), w) == [w.condition_hit, 1.0, 1.0]
    assert range_factors(units, question_amounts("일곱 살 아들"), w) == [w.condition_miss, w.condition_hit, 1.0]
    assert range_factors(units, [], w) == [1.0, 1.0, 1.0]
