"""A question about a sanction ("…하면 과태료가 얼마예요?") is answered by the penalty item that punishes the breach
it describes — found through the duty clause the item cites by number ("제4조제2항을 위반하여"), not by sharing
words with the question — with the amount from the item's lead (a real store on disk, no embedder)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from jogak.answer.ask import answer_hits, ask
from jogak.answer.context import build_context
from jogak.answer.continuation import follow_lists
from jogak.answer.generators.extractive import ExtractiveAnswerer
from jogak.answer.generators.leads import lead_quotes
from jogak.answer.generators.weights import ExtractiveWeights
from jogak.grammar.laws import PENALTY_HEADING_RE, asks_the_sanction, sanctions_asked, violated_clauses
from jogak.index.store import open_store
from jogak.model import Chunk, ChunkMetadata, Hit, Segment
from jogak.retrieve import search
from jogak.retrieve.options import SearchOptions

ACT = """# 수영장 안전관리법

제1조(목적) 이 법은 수영장 이용자의 안전을 지키는 것을 목적으로 한다.

제2조(안전요원) ① 수영장 운영자는 개장 시간 동안 안전요원을 1명 이상 배치하여야 한다.
② 안전요원은 매년 응급처치 교육을 받아야 한다.

제3조(수질 검사) 수영장 운영자는 매월 물의 상태를 검사하고 그 결과를 게시하여야 한다.

제4조(이용료의 반환) ① 수영장 운영자는 이용료를 미리 받을 수 있다.
② 수영장 운영자는 수영장을 열지 못하게 된 경우에는 이용자가 미리 낸 돈을 7일 이내에 돌려주어야 한다.

제5조(사고 보고) 수영장 운영자는 이용자가 다친 사고가 나면 지체 없이 시장에게 보고하여야 한다.

제9조(과태료) ① 다음 각 호의 어느 하나에 해당하는 자에게는 300만원 이하의 과태료를 부과한다.
1. 제2조제1항을 위반하여 안전요원을 배치하지 아니한 자
2. 제3조를 위반하여 검사 결과를 게시하지 아니한 자
3. 제4조제2항을 위반하여 반환 조치를 하지 아니한 자
② 제5조를 위반하여 보고를 하지 아니한 자에게는 100만원 이하의 과태료를 부과한다.
③ 제1항 및 제2항에 따른 과태료는 시장이 부과ㆍ징수한다.
"""


def _ingested(d: Any, name: str, text: str) -> Any:
    """``text`` as file ``name`` in a real store on disk (lexical only), closed after use."""
    (d / name).write_text(text, encoding="utf-8")
    st = open_store(d / "db", embedder=False)
    assert not st.ingest([str(d / name)]).failed
    yield st
    st.close()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Any:
    yield from _ingested(tmp_path_factory.mktemp("sanction"), "수영장 안전관리법.md", ACT)


def test_penalty_provisions_and_the_clauses_they_punish() -> None:
    assert PENALTY_HEADING_RE.search("제9조 (과태료)") and PENALTY_HEADING_RE.search("제40조(벌칙)")
    assert not PENALTY_HEADING_RE.search("제4조 (이용료의 반환)")
    # some statutes in the archive double the title's brackets (공익신탁법 "제30조 ((벌칙))")
    assert PENALTY_HEADING_RE.search("제30조 ((벌칙))").group("kind") == "벌칙"
    assert PENALTY_HEADING_RE.search("제33조 ((과태료))") and not PENALTY_HEADING_RE.search("제16조 ((과태료의 부과기준))")
    assert not PENALTY_HEADING_RE.search("제2조 (과태료 부과에 관한 적용례)")  # a 부칙 article citing 제9조 and 제4조
    assert violated_clauses("3. 제4조제2항을 위반하여 반환 조치를 하지 아니한 자") == [("제4조", 2)]
    assert violated_clauses("제10조의2에 따른 명령을 위반한 자") == [("제10조의2", None)]
    # another law's clause ("「민법」 제5조", "법 제3조", "같은 법 제2조") is not this law's
    assert violated_clauses("「민법」 제5조, 법 제3조 또는 같은 법 제2조를 위반한 자") == []


def _best_units(st: Any, question: str, lift: float) -> list[str]:
    ctx = build_context(search(st, question, k=8).hits, question=question)
    answerer = ExtractiveAnswerer(use_embeddings=False, weights=replace(ExtractiveWeights(), sanction_link=lift))
    return [c.unit.text for c in answerer.score(question, ctx).candidates if c.unit.answerable][:3]


def test_the_item_punishing_the_breach_asked_about_comes_first(store: Any) -> None:
    q = "수영장이 문을 못 열게 됐는데 미리 받은 돈을 안 돌려주고 버티면 과태료가 최대 얼마예요?"
    best = _best_units(store, q, ExtractiveWeights().sanction_link)
    assert best[0].startswith("제4조제2항을 위반하여"), best
    # without the link the duty itself (or another item) leads: the question shares few words with the item
    assert not _best_units(store, q, 0.0)[0].startswith("제4조제2항을 위반하여")
    ans = ask(store, q)
    assert "300만원 이하의 과태료" in ans.answer and "제4조제2항을 위반하여" in ans.answer, ans.answer
    assert all(c.article.startswith("제9조") for c in ans.citations[:2]), [c.article for c in ans.citations]


def test_a_question_not_about_a_sanction_is_left_alone(store: Any) -> None:
    q = "수영장이 문을 못 열게 되면 미리 낸 돈은 며칠 안에 돌려받아요?"
    assert _best_units(store, q, 1.0) == _best_units(store, q, 0.0)


def test_retrieval_puts_the_penalty_article_before_the_duty_it_punishes(store: Any) -> None:
    q = "수영장이 문을 못 열게 됐는데 미리 받은 돈을 안 돌려주고 버티면 과태료가 최대 얼마예요?"
    off = search(store, q, k=5, options=SearchOptions.from_config(sanction_top=0))
    on = search(store, q, k=5)
    assert off.hits[0].chunk.metadata.path.startswith("본문/제4조")  # the duty matches the question's words
    assert on.hits[0].chunk.metadata.path.startswith("본문/제9조") and "sanction" in on.hits[0].matched
    assert on.hits[1].chunk.metadata.path.startswith("본문/제4조")
    # a question about the duty itself, or mentioning a sanction only as a circumstance, is left as it was
    for q in ("수영장이 문을 못 열게 되면 미리 낸 돈은 며칠 안에 돌려받아요?",
              "과태료를 낸 적이 있는 수영장도 미리 받은 돈은 7일 안에 돌려줘야 해요?"):
        assert [h.chunk.id for h in search(store, q, k=5).hits] == [
            h.chunk.id for h in search(store, q, k=5, options=SearchOptions.from_config(sanction_top=0)).hits]


def test_the_kind_of_sanction_asked_picks_the_provision() -> None:
    assert sanctions_asked("어떤 처벌을 받아요?") == ("벌칙", "과태료")
    assert sanctions_asked("과태료가 얼마예요?") == ("과태료",)
    assert sanctions_asked("과징금은 얼마까지 나와요?") == ("과징금",)
    assert asks_the_sanction("몰래 운영하면 어떤 처벌을 받아요?")
    assert not asks_the_sanction("학대해서 처벌받은 사람은 몇 년 동안 취직을 못 해요?")
    assert not asks_the_sanction("회사 약관에 따른 과태료는 얼마예요?")  # a company's own rules: no state sanction


LONG = "# 공기질 관리법\n\n제3조(측정) 소유자는 매년 실내공기질을 측정하여야 한다.\n\n제9조(과태료) ① 다음 각 호의 어느 하나에 해당하는 " \
       "자에게는 500만원 이하의 과태료를 부과한다.\n" + "".join(
           f"{i}. 제{i + 10}조제{i % 3 + 1}항을 위반하여 시설의 점검 결과를 기록하지 아니하거나 거짓으로 기록하여 보존한 자로서 "
           f"시정명령을 받고도 {i}개월 안에 고치지 아니한 자\n" for i in range(1, 12)) + \
       "12. 제3조를 위반하여 실내공기질을 측정하지 아니한 자\n② 과태료는 시장이 부과한다.\n"


def test_an_item_of_a_list_cut_by_the_chunker_is_said_with_its_lead(tmp_path: Any) -> None:
    # the 과태료 article's list is longer than a chunk: item 12 sits in a later chunk than the lead holding the
    # amount; the answer quotes that lead (from the chunk before, which the context holds) with the item
    (tmp_path / "공기질 관리법.md").write_text(LONG, encoding="utf-8")
    st = open_store(tmp_path / "db", embedder=False)
    assert not st.ingest([str(tmp_path / "공기질 관리법.md")]).failed
    q = "사무실에서 실내공기질을 아예 측정하지 않으면 과태료가 얼마나 돼요?"
    ctx = build_context(follow_lists(st, search(st, q, k=6).hits), question=q)
    cands = ExtractiveAnswerer(use_embeddings=False).score(q, ctx).candidates
    item = next(c for c in cands if c.unit.text.startswith("제3조를 위반하여"))
    lead = next(c for c in cands if "500만원 이하의 과태료를 부과한다" in c.unit.text)
    assert item.excerpt.n != lead.excerpt.n  # the list was cut: lead and item in two excerpts
    quotes = lead_quotes(item, cands, ExtractiveWeights().max_lead_chars)
    assert [(n, u.text) for n, u in quotes] == [(lead.excerpt.n, lead.unit.text)]
    ans = ask(st, q)
    if ans.outcome == "answer":
        assert "500만원 이하의 과태료" in ans.answer, ans.answer
    st.close()


def test_a_sentence_qualifying_the_rule_comes_with_it() -> None:
    text = ("제67조(과태료) ⑤ 제49조를 위반하여 보증에 가입하지 아니한 임대사업자에게는 임대보증금의 100분의 10 이하에 상당하는 "
            "금액의 과태료를 부과한다. 이 경우 그 금액이 3천만원을 초과하는 경우에는 3천만원으로 한다. 과태료는 시장이 부과한다.")
    md = ChunkMetadata(source="임대법.txt", doc_title="임대법", chunk_no=0, article="제67조 (과태료)", page_start=None,
                       page_end=None, char_start=0, char_end=len(text), block_type="body", path="본문/제67조/제5항",
                       doc_id="임대법", segments=[Segment("본문/제67조/제5항", "제67조 (과태료) ⑤", 0, len(text))])
    a = answer_hits("임대사업자가 보증에 가입하지 아니하면 과태료는 최대 얼마예요?",
                    [Hit(Chunk(id="c", text=text, metadata=md), 1.0, 0)]).answer
    assert "100분의 10 이하" in a.answer and "3천만원으로 한다" in a.answer, a.answer
    assert "시장이 부과한다" not in a.answer, a.answer


EMPLOYER_ACT = """# 인증표시 관리법

제1조(목적) 이 법은 인증표시의 신뢰를 지키는 것을 목적으로 한다.

제4조(거짓 표시의 금지) 누구든지 인증을 받지 아니한 제품에 인증표시를 하거나 이와 비슷한 표시를 하여서는 아니 된다.

제5조(표시의 관리) 인증을 받은 자는 인증표시를 제품의 포장에 알아보기 쉽게 하여야 한다.

제20조(벌칙) 제4조를 위반하여 인증표시를 한 자는 3년 이하의 징역 또는 3천만원 이하의 벌금에 처한다.

제21조(양벌규정) 법인의 대표자나 법인 또는 개인의 대리인, 사용인, 그 밖의 종업원이 그 법인 또는 개인의 업무에 관하여 제20조의 위반행위를 하면 그 행위자를 벌하는 외에 그 법인 또는 개인에게도 해당 조문의 벌금형을 과(科)한다. 다만, 법인 또는 개인이 그 위반행위를 방지하기 위하여 해당 업무에 관하여 상당한 주의와 감독을 게을리하지 아니한 경우에는 그러하지 아니하다.

제22조(과태료) 제5조를 위반하여 인증표시를 하지 아니한 자에게는 100만원 이하의 과태료를 부과한다.
"""
EMPLOYER_Q = "직원이 회사 몰래 인증 안 받은 제품에 인증표시를 붙였대요. 회사도 같이 벌금을 물어요?"


@pytest.fixture(scope="module")
def act_store(tmp_path_factory: Any) -> Any:
    """EMPLOYER_ACT ingested once into a real store on disk (lexical only), shared by the tests that only read it."""
    yield from _ingested(tmp_path_factory.mktemp("act"), "인증표시 관리법.md", EMPLOYER_ACT)


def test_whether_the_business_is_punished_too_is_the_employer_provisions_to_say(act_store: Any) -> None:
    assert sanctions_asked(EMPLOYER_Q)[0] == "양벌" and asks_the_sanction(EMPLOYER_Q)
    assert sanctions_asked("대표인 저나 회사도 같이 처벌받아요? 직원이 몰래 판 거예요.") == ("벌칙", "과태료")  # staff named after
    assert sanctions_asked("저희 직원이 몰래 팔았대요. 대표인 저나 회사도 같이 처벌받아요?")[0] == "양벌"
    assert sanctions_asked("인증 안 받고 표시하면 어떤 처벌을 받아요?") == ("벌칙", "과태료")
    # the owner in person when the staff did it behind their back: a sole proprietor is the 개인 a 양벌규정 punishes
    assert sanctions_asked("직원이 사장 몰래 가짜 마크를 붙여 팔았대요. 사장인 저까지 벌금을 물어요?")[0] == "양벌"
    # … also asked by someone else ("가게 주인도 같이")
    assert sanctions_asked("가게 직원이 사장 몰래 팔다가 걸렸어요. 가게 주인도 같이 처벌받아요?")[0] == "양벌"
    # … not when the staff did nothing wrong (the owner's own duty is asked)
    assert sanctions_asked("용역 직원이 일하다 다치면 사장인 저도 처벌받아요?")[:1] != ("양벌",)
    assert sanctions_asked("용역 직원이 일하다 다치면 사장님도 처벌받아요?")[:1] != ("양벌",)
    # the employer may be an association or a co-operative as well as a company
    assert sanctions_asked("조합 경리 직원이 장부를 엉터리로 썼대요. 직원만 처벌받아요, 조합도 벌금을 물어요?")[0] == "양벌"
    # the head in person may answer for their own duty (a 경영책임자): not the business's 양벌규정
    assert sanctions_asked("용역 직원이 공장에서 일하다 다치면 사장인 저도 처벌받아요?") == ("벌칙", "과태료")
    on = search(act_store, EMPLOYER_Q, k=5)
    off = search(act_store, EMPLOYER_Q, k=5, options=SearchOptions.from_config(sanction_top=0))
    assert on.hits[0].chunk.metadata.article.startswith("제21조"), [h.chunk.metadata.article for h in on.hits]
    assert not off.hits[0].chunk.metadata.article.startswith("제21조")  # the question's words match the duty
    ans = ask(act_store, EMPLOYER_Q)
    assert ans.citations and ans.citations[0].article.startswith("제21조"), ans.answer
    assert "해당 조문의 벌금형을 과(科)한다" in ans.answer and "상당한 주의와 감독을 게을리하지 아니한" in ans.answer
    # the same breach asked without the business: the 벌칙 article, as before
    plain = ask(act_store, "인증 안 받은 제품에 인증표시를 붙이면 어떤 처벌을 받아요?")
    assert plain.citations and plain.citations[0].article.startswith("제20조"), plain.answer


def test_the_employer_provision_goes_before_a_leading_penalty_article(act_store: Any) -> None:
    # the question's words match the 벌칙 article itself (no duty clause leads): the business is still the
    # 양벌규정's to answer for
    q = "직원이 사장 몰래 3년 이하의 징역 또는 3천만원 이하의 벌금에 처하는 짓을 했대요. 직원만 처벌받아요, 회사도 받아요?"
    hits = search(act_store, q, k=5).hits
    assert hits[0].chunk.metadata.article.startswith("제21조"), [h.chunk.metadata.article for h in hits]
    off = search(act_store, q, k=5, options=SearchOptions.from_config(sanction_top=0)).hits
    assert off[0].chunk.metadata.article.startswith("제20조")


def test_the_first_offences_figure_is_not_the_ceiling(act_store: Any) -> None:
    # "처음 걸리면 얼마" asks what a table of sanctions by the number of offences says; the Act's "100만원 이하"
    # is its ceiling: shown as a related clause, never asserted as the answer
    first = ask(act_store, "인증받은 제품에 인증표시를 안 해서 처음 걸리면 과태료가 얼마 나와요?")
    assert first.outcome != "answer", first.answer
    plain = ask(act_store, "인증받은 제품에 인증표시를 안 하면 과태료가 얼마 나와요?")
    assert plain.outcome == "answer" and "100만원 이하의 과태료" in plain.answer, plain.answer


def test_the_everyday_punishment_asked_of_the_law_is_the_penalty_article(act_store: Any) -> None:
    # "법적으로 어떤 벌을 받아요?": the prohibition (제4조) shares the question's words; the 벌칙 says what happens
    ans = ask(act_store, "인증 안 받은 제품에 인증표시를 붙이면 법적으로 어떤 벌을 받아요?")
    assert ans.citations and ans.citations[0].article.startswith("제20조"), ans.answer
    assert "3년 이하의 징역 또는 3천만원 이하의 벌금" in ans.answer
