"""A question asking who cannot get a licence is answered from the 결격사유 article that names the licence clause,
not from the licence clause its words match (jogak.answer.generators.barred)."""

from __future__ import annotations

from jogak.answer import answer_hits

from .helpers import clause_hit

LAW = "화물자동차 운수사업법"

LICENCE = ("제3조 (화물자동차 운송사업의 허가 등)\n① 화물자동차 운송사업을 경영하려는 자는 국토교통부령으로 정하는 바에 "
           "따라 국토교통부장관의 허가를 받아야 한다. 허가를 받은 자가 허가사항을 변경하려면 변경허가를 받아야 한다.")
BARRED = ("제4조 (결격사유)\n다음 각 호의 어느 하나에 해당하는 자는 제3조제1항에 따른 화물자동차 운송사업의 허가를 받을 수 "
          "없다.\n1. 피성년후견인 또는 피한정후견인\n2. 파산선고를 받고 복권되지 아니한 자")
HITS = [clause_hit(LAW, 0, "제3조 (화물자동차 운송사업의 허가 등)", "본문/제3조/제1항", LICENCE, 1.0),
        clause_hit(LAW, 1, "제4조 (결격사유)", "본문/제4조", BARRED, 0.9)]


def test_who_cannot_get_the_licence_is_answered_from_the_disqualification_article() -> None:
    a = answer_hits("화물 운송 사업 허가를 아예 못 받는 사람은 어떤 사람들이에요?", HITS).answer
    assert a.citations and a.citations[0].path.startswith("본문/제4조"), a.answer
    assert "피성년후견인" in a.answer and "파산선고" in a.answer, a.answer


def test_how_to_get_the_licence_is_still_the_licence_clause() -> None:
    a = answer_hits("화물 운송 사업 허가는 누구한테 받아야 해요?", HITS).answer
    assert a.citations and a.citations[0].path.startswith("본문/제3조"), a.answer
