"""A question whether something is among what a named clause lists ("제4조 종합계획에는 … 내용도 들어가요?") is
answered with that list whole: the entry asked about may score below the others (its words differ from the
question's: "외국에서 들어오는 김치" / "수입김치"), and a list cut to its best-scoring entries would drop it
(answer.generators.named.one_document)."""

from __future__ import annotations

from jogak.answer.ask import answer_hits
from jogak.grammar.patterns import INCLUSION_QUESTION_RE

from .helpers import clause_hit

ITEMS = ["물빛김치산업의 진흥에 관한 기본방향", "물빛김치 관련 기술의 개발 및 보급 등에 관한 사항",
         "물빛김치의 품질표준화 및 품질향상에 관한 사항", "물빛김치 및 김치재료의 안정적 수급에 관한 사항",
         "물빛김치 관련 전문인력 육성에 관한 사항", "물빛김치산업과 농어업의 연계 강화에 관한 사항",
         "물빛김치의 소비촉진 및 유통지원에 관한 사항", "물빛김치문화의 계승ㆍ발전에 관한 사항",
         "물빛김치의 세계화를 위한 홍보에 관한 사항", "수입김치의 실태조사에 관한 사항",
         "그 밖에 물빛김치산업의 진흥을 위하여 필요한 사항"]
ART = "제4조(종합계획의 수립)\n① 장관은 물빛김치산업의 진흥을 위하여 5년마다 물빛김치산업 종합계획을 세워야 한다. " \
      "다만, 다른 계획에 반영된 경우에는 세운 것으로 본다.\n② 종합계획에는 다음 각 호의 사항이 포함되어야 한다.\n" + \
      "".join(f"{i}. {t}\n" for i, t in enumerate(ITEMS, 1)) + \
      "③ 장관은 종합계획을 세우거나 바꾸려면 관계 기관의 장과 미리 협의하여야 한다. 다만, 경미한 사항은 협의하지 아니할 수 있다.\n" \
      "④ 장관은 종합계획을 시ㆍ도지사에게 알려야 한다. 시ㆍ도지사는 그에 따라 계획을 세운다.\n"


def _answer(question: str) -> str:
    hits = [clause_hit("물빛김치법", 0, "제4조 (종합계획의 수립)", "본문/제4조", ART)]
    a = answer_hits(question, hits).answer
    assert a.outcome == "answer", a.answer
    return a.answer


def test_an_inclusion_question_gets_the_whole_list() -> None:
    text = _answer("물빛김치법 제4조 종합계획에는 외국에서 들어오는 김치에 관한 내용도 들어가요?")
    assert "종합계획에는 다음 각 호의 사항이 포함되어야 한다" in text, text
    for item in ITEMS:
        assert item in text, (item, text)
    assert "5년마다" not in text  # the other paragraphs are not what was asked


def test_another_question_about_the_clause_is_answered_by_its_paragraphs() -> None:
    text = _answer("물빛김치법 제4조 종합계획은 몇 년마다 세워요?")
    assert "5년마다" in text, text


def test_what_asks_inclusion() -> None:
    for q in ("종합계획에는 외국에서 들어오는 김치에 관한 내용도 들어가요?", "무급휴직 중인 저도 들어가요?",
              "기숙사나 교내 근로 같은 것도 들어 있어요?", "공익사업에 환경 지키는 일도 포함돼요?", "택배 기사도 해당돼요?"):
        assert INCLUSION_QUESTION_RE.search(q), q
    for q in ("초등학생 아이 혼자 2층 공부방에 들어가도 돼요?", "요양병원에 들어가셔서 태그를 못 써요",
              "정책위원회에 들어가는 공무원은 어느 부처예요?"):
        assert not INCLUSION_QUESTION_RE.search(q), q
