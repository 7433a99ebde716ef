"""Lists in answers. A question asking for a list ("어떤 항목들이 들어가요?") answered from a table: every row of the
group the first cell names comes along — an answer listing one fee of four misstates the list; listed items keep
their labels."""

from __future__ import annotations

from jogak.answer import answer_hits
from jogak.model import Chunk, ChunkMetadata, Hit, Segment

TEXT = """별표 1 관리비와 사용료 기준
구분 | 항목 | 금액
관리비 | 일반관리비(인건비와 사무비) | 전용면적 1제곱미터당 월 1,200원
관리비 | 청소비와 경비비 | 전용면적 1제곱미터당 월 900원
관리비 | 승강기 유지비 | 호실마다 월 8,000원
관리비 | 공용 전기료와 공용 수도료 | 사용량을 전용면적 비율로 나눈 금액
수선적립금 | 건물 수선 | 전용면적 1제곱미터당 월 500원
사용료 | 두 번째 자동차 주차료 | 월 50,000원
사용료 | 이사 승강기 사용료 | 1회 30,000원"""


def _hits() -> list[Hit]:
    md = ChunkMetadata(source="관리규약.txt", doc_title="관리규약", chunk_no=0, article="별표 1 (관리비와 사용료 기준)",
                       page_start=None, page_end=None, char_start=0, char_end=len(TEXT), block_type="appendix",
                       path="별표1", doc_id="관리규약",
                       segments=[Segment("별표1", "별표 1 (관리비와 사용료 기준)", 0, len(TEXT))])
    return [Hit(Chunk(id="a", text=TEXT, metadata=md), 1.0, 0)]


def _shown(question: str) -> str:
    a = answer_hits(question, _hits()).answer
    return a.answer  # an answer, or the related clauses it shows


def test_a_list_question_brings_every_row_of_the_group() -> None:
    shown = _shown("관리비에는 어떤 항목들이 들어가요?")
    for item in ("일반관리비", "청소비와 경비비", "승강기 유지비", "공용 전기료와 공용 수도료"):
        assert item in shown, shown
    assert "두 번째 자동차 주차료" not in shown  # another group's row


def test_a_single_fee_question_stays_one_row() -> None:
    shown = _shown("두 번째 자동차 주차료는 한 달에 얼마예요?")
    assert "월 50,000원" in shown
    assert "청소비와 경비비" not in shown


PLAN = """제5조의3 (수선계획의 수립)
관리단이 수립하는 수선계획에는 다음 각 호의 사항이 포함되어야 한다.
1. 계획기간
2. 외벽 보수, 옥상 방수 등 수선대상 및 수선방법
3. 수선대상별 예상 수선주기"""


def test_listed_items_keep_their_labels() -> None:
    # without "1." / "2." the items run together: "…포함되어야 한다. 계획기간 외벽 보수, 옥상 방수 …"
    md = ChunkMetadata(source="시행령.md", doc_title="시행령", chunk_no=0, article="제5조의3 (수선계획의 수립)",
                       page_start=None, page_end=None, char_start=0, char_end=len(PLAN), block_type="body",
                       path="본문/제5조의3", doc_id="시행령",
                       segments=[Segment("본문/제5조의3", "제5조의3 (수선계획의 수립)", 0, len(PLAN))])
    a = answer_hits("수선계획에는 어떤 내용들이 들어가야 해요?", [Hit(Chunk(id="p", text=PLAN, metadata=md), 1.0, 0)]).answer
    assert "1. 계획기간" in a.answer and "2. 외벽 보수" in a.answer and "3. 수선대상별" in a.answer, a.answer
