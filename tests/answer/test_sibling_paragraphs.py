"""A rule and what follows from it sit in two paragraphs of one clause ("① … 신고할 수 있습니다" → "② … 두 배를
3영업일 안에 돌려 드립니다"): a paragraph of a chosen unit's clause joins the answer at ``sibling_keep`` of the
best score, while a unit of another clause must reach ``relative_keep`` and answer something new."""

from __future__ import annotations

from jogak.answer.context import build_context
from jogak.answer.generators.candidates import Candidate
from jogak.answer.generators.selection import select
from jogak.answer.generators.weights import ExtractiveWeights
from jogak.answer.units import split_units
from jogak.model import Chunk, ChunkMetadata, Hit

CLAUSES = ["제12조 (부당한 요금)\n① 기사가 일부러 먼 길로 돌아간 경우 승객은 30일 안에 앱으로 신고할 수 있습니다.\n"
           "② 회사는 확인하여 더 받은 금액의 두 배를 3영업일 안에 돌려 드립니다.",
           "제13조 (포인트)\n① 포인트는 요금의 1퍼센트를 쌓아 드립니다."]


def _candidates() -> list[Candidate]:
    hits = []
    for i, text in enumerate(CLAUSES):
        md = ChunkMetadata(source="t.txt", doc_title="이용약관", chunk_no=i, article=text.split("\n")[0],
                           page_start=None, page_end=None, char_start=1000 * i, char_end=1000 * i + len(text))
        hits.append(Hit(Chunk(f"t-{i:03d}", text, md), 1.0 - i / 10))
    ctx = build_context(hits, question="일부러 돌아가면 얼마를 돌려받아요?")
    out = []
    for ex in ctx.excerpts:
        units = [u for u in split_units(ex.text) if u.kind != "heading"]
        out.extend(Candidate(ex, u, units) for u in units)
    # ①: the best; ②: the same clause at 0.75 of it, nothing new; 제13조: 0.8, nothing new
    for c, score in zip(out, (0.8, 0.6, 0.64), strict=True):
        c.score, c.matched = score, ["돌아가다"]
    return out


def _chosen_texts(w: ExtractiveWeights) -> list[str]:
    cands = _candidates()
    return [c.unit.text for c in select(cands, cands[0], w)]


def test_the_following_paragraph_joins_the_rule() -> None:
    texts = _chosen_texts(ExtractiveWeights())
    assert any("3영업일" in t for t in texts)
    assert not any("포인트" in t for t in texts)  # another clause adding nothing stays out


def test_at_the_old_share_it_did_not() -> None:
    texts = _chosen_texts(ExtractiveWeights(sibling_keep=0.85))
    assert not any("3영업일" in t for t in texts)
