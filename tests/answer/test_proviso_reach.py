"""A proviso ("다만, …") qualifies its paragraph's main text, not only the sentence right before it: a chosen rule
brings the proviso a sentence or two further on in its 항, with the sentences between (never the proviso alone
after the rule). ``proviso_reach`` 1 is the behaviour until session 29 (only a proviso right after the rule)."""

from __future__ import annotations

from jogak.answer.context import build_context
from jogak.answer.generators.candidates import Candidate
from jogak.answer.generators.selection import complete
from jogak.answer.generators.weights import ExtractiveWeights
from jogak.answer.units import split_units
from jogak.model import Chunk, ChunkMetadata, Hit

CLAUSE = ("제9조 (수강 취소)\n"
          "① 회원은 강좌 시작 7일 전까지 수강을 취소하고 낸 돈 전부를 돌려받을 수 있다. 취소는 앱에서 한다. "
          "다만, 할인 강좌는 시작 14일 전까지 취소하여야 한다.\n"
          "② 회사는 취소 신청을 받은 날부터 3영업일 안에 돌려준다.\n"
          "③ 회원은 강의실에서 음식을 먹지 아니한다. 이를 어기면 퇴실을 요청할 수 있다. 휴대전화는 무음으로 한다. "
          "다만, 보호자 연락은 받을 수 있다.\n"
          "④ 회원은 사물함을 쓸 수 있다.\n사물함 열쇠는 안내데스크에서 받는다. 다만, 주말에는 경비실에서 받는다.")


def _candidates() -> list[Candidate]:
    md = ChunkMetadata(source="t.txt", doc_title="이용약관", chunk_no=0, article="제9조 (수강 취소)",
                       page_start=None, page_end=None, char_start=0, char_end=len(CLAUSE))
    ctx = build_context([Hit(Chunk("t-000", CLAUSE, md), 1.0)], question="수업 취소하면 돈 돌려받아요?")
    out = []
    for ex in ctx.excerpts:
        units = [u for u in split_units(ex.text) if u.kind != "heading"]
        out.extend(Candidate(ex, u, units) for u in units)
    return out


def _texts(first: str, w: ExtractiveWeights) -> list[str]:
    cands = _candidates()
    best = next(c for c in cands if c.unit.text.startswith(first))
    return [c.unit.text for c in complete([best], cands, w)]


def test_the_proviso_two_sentences_on_comes_with_the_sentence_between() -> None:
    texts = _texts("회원은 강좌 시작 7일 전까지", ExtractiveWeights())
    assert any(t.startswith("다만, 할인 강좌") for t in texts)
    assert any(t.startswith("취소는 앱에서") for t in texts)  # the proviso is never pinned on the rule alone
    assert not any("3영업일" in t for t in texts)  # another 항 is not the proviso's paragraph


def test_only_the_next_unit_at_reach_one() -> None:
    texts = _texts("회원은 강좌 시작 7일 전까지", ExtractiveWeights(proviso_reach=1))
    assert not any(t.startswith("다만") for t in texts)


def test_a_proviso_beyond_the_reach_stays_out() -> None:
    texts = _texts("회원은 강의실에서", ExtractiveWeights(proviso_reach=2))
    assert not any(t.startswith("다만") for t in texts)
    texts = _texts("회원은 강의실에서", ExtractiveWeights())
    assert texts[-1].startswith("다만, 보호자") and len(texts) == 4


def test_the_run_stays_on_the_paragraphs_line() -> None:
    # a sentence on a new line may be another provision (a 목 read as a sentence): its proviso is its own
    assert _texts("회원은 사물함을", ExtractiveWeights()) == ["회원은 사물함을 쓸 수 있다."]
    assert _texts("사물함 열쇠는", ExtractiveWeights())[-1].startswith("다만, 주말에는")


def test_no_proviso_in_the_paragraph_adds_nothing() -> None:
    assert _texts("회사는 취소 신청을", ExtractiveWeights()) == ["회사는 취소 신청을 받은 날부터 3영업일 안에 돌려준다."]
