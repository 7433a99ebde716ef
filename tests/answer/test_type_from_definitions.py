"""A definitions list joined beside another clause's answer states no figure the question asks
(answer.generators.fit.answers_type): "70퍼센트" in 제2조 (정의) is no price for "각각 얼마예요?"."""

from __future__ import annotations

from jogak.answer.ask import answer_hits
from jogak.answer.generators.extractive import ExtractiveAnswerer
from jogak.answer.generators.fit import answers_type

from .helpers import clause_hit

AGES = """제12조(공예 클래스)
③ 공예 클래스를 들을 수 있는 나이는 다음 각 호와 같다.
1. 소반 만들기: 만 15세 이상
2. 짜맞춤 상자: 만 12세 이상
3. 옻칠 수저: 만 12세 이상"""
DEFS = """제2조(정의)
이 약관에서 쓰는 말의 뜻은 다음과 같다.
1. "공예 클래스"란 강사가 하루 동안 가르치는 소반 만들기, 짜맞춤 상자, 옻칠 수저 강좌를 말한다.
2. "목재제품"이란 목재가 무게로 70퍼센트 이상 들어간 제품을 말한다."""
FEES = """제13조(수강료)
① 짜맞춤 상자 클래스는 한 사람에 45,000원, 옻칠 수저 클래스는 한 사람에 38,000원이다."""
Q = "짜맞춤 상자랑 옻칠 수저는 한 사람에 각각 얼마예요?"


def _units(*texts: tuple[str, str, str]) -> list:
    hits = [clause_hit("약관", i, title, path, text, chunk_id=path) for i, (title, path, text) in enumerate(texts)]
    ctx = answer_hits(Q, hits).context
    return ExtractiveAnswerer().score(Q, ctx).candidates


def test_a_joined_definition_states_no_asked_price() -> None:
    cands = _units(("제12조 (공예 클래스)", "본문/제12조", AGES), ("제2조 (정의)", "본문/제2조", DEFS))
    age = next(c for c in cands if "짜맞춤 상자: 만 12세" in c.unit.text)
    dfn = next(c for c in cands if "70퍼센트" in c.unit.text)
    assert not answers_type(Q, [age, dfn], cands=cands)  # an age list and a definition's share: no price


def test_a_clause_stating_the_price_still_answers() -> None:
    cands = _units(("제13조 (수강료)", "본문/제13조", FEES), ("제2조 (정의)", "본문/제2조", DEFS))
    fee = next(c for c in cands if "45,000원" in c.unit.text)
    dfn = next(c for c in cands if "70퍼센트" in c.unit.text)
    assert answers_type(Q, [fee, dfn], cands=cands)
