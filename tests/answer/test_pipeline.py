"""Units, context builder, citation narrowing/rendering, the support judge and the extractive answerer
on hand-made hits (no index needed)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from jogak.answer.ask import AskOptions, answer_hits
from jogak.answer.citations import case_name, locate, render_sources
from jogak.answer.context import LABELS, build_context, estimate_tokens
from jogak.answer.text import is_pointer, split_sentences
from jogak.answer.units import split_units
from jogak.answer.verify import MorphemeOverlapJudge, disagree, validate_ids
from jogak.model import CaseInfo, Chunk, ChunkMetadata, Hit, Segment

from .helpers import TinyRetriever, haru_chunks

ABSTAIN = "제공된 문서에서 근거를 찾지 못했습니다."


@pytest.fixture(scope="module")
def chunks() -> list[Chunk]:
    return haru_chunks()


@pytest.fixture(scope="module")
def retriever(chunks) -> TinyRetriever:
    return TinyRetriever(chunks)


def _chunk(text: str, article: str = "", block_type: str | None = "body", doc: str = "정책", path: str | None = None,
           cid: str = "c", case: dict | None = None, segments: list | None = None, refs: list | None = None,
           start: int = 0) -> Chunk:
    md = ChunkMetadata(source=f"{doc}.pdf", doc_title=doc, chunk_no=0, article=article, page_start=3, page_end=3,
                       char_start=start, char_end=start + len(text), block_type=block_type, path=path,
                       refs=refs or [], doc_id=doc,
                       segments=[Segment(g["path"], g.get("cite", ""), g["start"], g["end"]) for g in segments or []])
    md.case = CaseInfo(**case) if case else None
    return Chunk(id=cid, text=text, metadata=md)


# ── units ─────────────────────────────────────────────────────────────────────────────────────


def test_sentences_do_not_end_at_numbers_dates_or_abbreviations():
    t = "대법원 2003. 7. 24. 선고 2001다48781 판결이다. 다음 문장이다. See Sec. 4.2 of the Agreement. Next one."
    sents = [t[s:e] for s, e in split_sentences(t)]
    assert sents == ["대법원 2003. 7. 24. 선고 2001다48781 판결이다.", "다음 문장이다.",
                     "See Sec. 4.2 of the Agreement.", "Next one."]


def test_sentences_do_not_end_inside_an_aside():
    # statutes put full stops inside their asides; a quote cut there starts or ends mid-bracket
    t = ('행위(이하 "음주측정방해행위"라 한다. 이하 같다)를 하여서는 아니 된다. 좌석안전띠(안전띠를 말한다. 이하 이 조에서 '
         "같다)를 매도록 한다. 1) 첫째이다. 2) 둘째이다. (참고로 보면 된다.) 끝.")
    sents = [t[s:e] for s, e in split_sentences(t)]
    assert sents == ['행위(이하 "음주측정방해행위"라 한다. 이하 같다)를 하여서는 아니 된다.',
                     "좌석안전띠(안전띠를 말한다. 이하 이 조에서 같다)를 매도록 한다.",
                     "1) 첫째이다.", "2) 둘째이다.", "(참고로 보면 된다.)", "끝."]
    # an aside that never closes protects nothing
    t = "운전면허(조건부 운전면허는 포함한다. 다음 문장이다."
    assert [t[s:e] for s, e in split_sentences(t)] == ["운전면허(조건부 운전면허는 포함한다.", "다음 문장이다."]


def test_units_paragraph_markers_items_tables_faq():
    text = ("제2조 (회원 등급)\n① 등급은 매월 1일에 산정한다. 단, 예외가 있다. ② 등급별 기준은 다음과 같다.\n"
            "1. 일반: 10만 원 미만\n2. VIP: 60만 원 이상\n"
            "결제수단 | 처리 기간\n신용카드 | 3~5영업일\n"
            "자주 묻는 질문 (FAQ)\nQ. 언제 들어오나요? A. 다음 날 적립됩니다. Q. 또? A. 네.")
    units = split_units(text)
    kinds = [(u.kind, u.marker) for u in units]
    assert kinds[:5] == [("heading", ""), ("sentence", "①"), ("sentence", "①"), ("sentence", "②"), ("item", "②")]
    item = units[5]
    assert item.kind == "item" and item.text == "VIP: 60만 원 이상" and item.item == "2."
    assert item.context == "등급별 기준은 다음과 같다."
    row = next(u for u in units if u.kind == "table_row")
    assert row.display() == "결제수단: 신용카드, 처리 기간: 3~5영업일"
    faq = [u for u in units if u.kind == "faq_a"]
    assert [u.text for u in faq] == ["다음 날 적립됩니다.", "네."]
    assert faq[0].context == "언제 들어오나요?" and faq[0].heading == "자주 묻는 질문 (FAQ)"
    for u in units:
        assert text[u.start:u.end] == u.text  # verbatim offsets


def test_units_pdf_wrapped_lines_join_and_lettered_items():
    text = "② 적립금으로 결제한 금액에는 적립되지 않는\n다. ③ 리뷰는 100포인트.\n다음과 같다.\n가. 첫째\n나. 둘째"
    units = split_units(text)
    assert [u.marker for u in units if u.kind == "sentence"][:2] == ["②", "③"]
    assert [u.text for u in units if u.kind == "item"] == ["첫째", "둘째"]


def test_pointer_sentences():
    assert is_pointer("지연 일수별 보상 금액은 부록A 참조.")
    assert is_pointer("세부 기준은 별표 2에 따른다.")
    assert is_pointer("Liquidated damages: see Schedule B.")
    assert not is_pointer("도착 예정일보다 3일 이상 늦어지면 결제금액의 5%를 지급한다.")
    assert not is_pointer("부록A 참조 없이도 회사는 하루포인트로 보상하며, 보상 금액은 결제금액의 5%이다.")


# ── context ───────────────────────────────────────────────────────────────────────────────────


def test_context_numbers_tiers_pointer_adjacency(chunks):
    by_path = {c.metadata.path: c for c in chunks if c.metadata.doc_title == "반품교환환불정책"}
    hits = [
        Hit(by_path["부록A/제2조"], 0.9, 0),
        Hit(by_path["본문/제8조"], 0.8, 1),
        Hit(by_path["본문/제2조"], 0.7, 2),
        Hit(by_path["부록A/제1조"], 0.6, 3, matched=["xref"], via=by_path["본문/제8조"].id),
    ]
    ctx = build_context(hits)
    heads = [e.header for e in ctx.excerpts]
    assert heads[0] == "[발췌 1] (반품교환환불정책 · 제8조 (배송 지연 보상))"
    assert heads[1].startswith("[발췌 2] (보충 증거 · 반품교환환불정책 · 부록A 제1조 (보상 기준)) ← 발췌 1의 참조 대상")
    assert heads[2] == "[발췌 3] (반품교환환불정책 · 제2조 (반품 배송비))"
    assert heads[3] == "[발췌 4] (반품교환환불정책 · 부록A 제2조 (지급 방법))"
    assert ctx.excerpts[1].via == 1
    text = ctx.text
    assert text.index("■ 주요 증거 (본문)") < text.index("[발췌 1]") < text.index("[발췌 2]")
    assert text.index("[발췌 3]") < text.index("■ 보충 증거 (부록)") < text.index("[발췌 4]")
    p = ctx.prompt("질문?")
    assert p.startswith("[정책 발췌]\n■ 주요 증거") and p.endswith("\n\n[고객 문의]\n질문?")
    assert "근거를 찾지 못했습니다" in ctx.system_prompt()
    # raw text untouched: the excerpt body is the chunk text
    assert by_path["본문/제8조"].text.strip() in text


def test_budget_drops_lowest_ranked_whole_excerpts(chunks):
    hits = [Hit(c, 1.0 - i / 100, i) for i, c in enumerate(chunks[:8])]
    full = build_context(hits, budget=100_000)
    assert len(full.excerpts) == 8
    budget = full.tokens // 2
    ctx = build_context(hits, budget=budget)
    assert ctx.tokens <= budget
    kept = {e.chunk.id for e in ctx.excerpts}
    assert kept == {h.chunk.id for h in hits[: len(kept)]}  # a prefix of the ranking survives
    for e in ctx.excerpts:
        assert e.chunk.text.strip() in ctx.text  # never cut
    assert any("dropped" in w for w in ctx.warnings)
    one = build_context(hits, budget=5)
    assert len(one.excerpts) == 1 and any("never cut" in w for w in one.warnings)


def test_token_estimate_is_pessimistic():
    assert estimate_tokens("가나다") == 3
    assert estimate_tokens("hello world") == 4  # ceil(5/4) * 2
    assert estimate_tokens("6,000원") == 1 + 1 + 1 + 1


def test_english_labels():
    c = _chunk("4.2 Returns. The Buyer may return defective Goods within 30 days.", "Section 4.2 (Returns)",
               doc="Supply Agreement")
    ctx = build_context([Hit(c, 1.0)])
    assert ctx.lang == "en"
    assert ctx.excerpts[0].header == "[Excerpt 1] (Supply Agreement · Section 4.2 (Returns))"
    assert ctx.text.startswith("■ Primary evidence (main body)")
    assert ctx.prompt("Can I return?").startswith("[Document excerpts]\n")
    ans = answer_hits("How many days do I have to return defective goods?", [Hit(c, 1.0)]).answer
    assert "(Source: Supply Agreement · Section 4.2 (Returns))" in ans.answer
    none = answer_hits("What is the governing law?", [Hit(c, 1.0)]).answer
    assert none.answer == LABELS["en"]["abstain"]


# ── citations ─────────────────────────────────────────────────────────────────────────────────


def test_narrowing_with_segments_to_paragraph(chunks):
    c = next(c for c in chunks if c.metadata.path == "본문/제2조" and c.metadata.doc_title == "반품교환환불정책")
    i = c.text.index("상품 불량")
    clause = locate(c, i, i + 10)
    assert clause.article == "제2조 (반품 배송비) ②" and clause.path == "본문/제2조/제2항"


def test_narrowing_segments_without_cite_labels_and_paragraph_words():
    text = "제2조 (반품 배송비)\n① 첫째 문장이다.\n② 둘째 문장이다."
    segs = [{"path": "본문/제2조/제1항", "start": 100 + text.index("①"), "end": 100 + text.index("②")},
            {"path": "본문/제2조/제2항", "cite": "제2조 (반품 배송비) 제2항", "start": 100 + text.index("②"),
             "end": 100 + len(text)}]
    c = _chunk(text, "제2조 (반품 배송비)", segments=segs, start=100)
    i = text.index("첫째")
    assert locate(c, i, i + 3).article == "제2조 (반품 배송비) ①"
    i = text.index("둘째")
    assert locate(c, i, i + 3).article == "제2조 (반품 배송비) ②"
    # a numbered section (path 본문/2, printed "2. 제목") without cite labels
    text = "2. 개인정보의 보유 기간\n① 첫째 문장이다.\n② 둘째 문장이다."
    segs = [{"path": "본문/2/제2항", "start": text.index("②"), "end": len(text)}]
    c = _chunk(text, "2. 개인정보의 보유 기간", segments=segs, start=0)
    i = text.index("둘째")
    assert locate(c, i, i + 3).article == "2. 개인정보의 보유 기간 ②"


def test_narrowing_fallback_recursive_chunk_heading_inside_and_inherited():
    text = "내한다. ③ 소멸된 포인트는 복구되지 않는다.\n제6조 (등급 조정과 제외)\n① 반품으로 등급이 하향 조정된다."
    c = _chunk(text, "제5조 (하루포인트 유효기간과 소멸), 제6조 (등급 조정과 제외)", block_type=None)
    units = split_units(text)
    first = next(u for u in units if "복구" in u.text)
    second = next(u for u in units if "하향" in u.text)
    assert locate(c, first.start, first.end, first).article == "제5조 (하루포인트 유효기간과 소멸) ③"
    assert locate(c, second.start, second.end, second).article == "제6조 (등급 조정과 제외) ①"


def test_case_law_citation():
    case = {"case_number": "2001다48781", "decision_date": "2003-07-24", "court": "대법원",
            "full_case_name": "대법원 2003. 7. 24. 선고 2001다48781 전원합의체 판결", "title": "민법의 법원：관습법"}
    text = "[1] 관습법이란 사회의 거듭된 관행으로 생성한 사회생활규범이 법적 규범으로 승인·강행되기에 이른 것을 말한다."
    c = _chunk(text, "판결요지 [1]", doc="민법판례집", case=case)
    ans = answer_hits("관습법이란 무엇인가요?", [Hit(c, 1.0)]).answer
    assert "(참고 판례: 대법원 2003. 7. 24. 선고 2001다48781 전원합의체 판결)" in ans.answer
    d = ans.citations[0].to_dict()
    assert d["case_number"] == "2001다48781" and d["decision_date"] == "2003-07-24" and d["court"] == "대법원"
    assert d["full_case_name"].startswith("대법원 2003. 7. 24.")
    assert case_name(CaseInfo(court="대법원", decision_date="2005-11-25", case_number="2005다35554")) == \
        "대법원 2005. 11. 25. 선고 2005다35554 판결"


def test_render_sources_groups_documents():
    from jogak.model import Citation

    a = Citation(1, "x", "s", "반품교환환불정책", "제2조 (반품 배송비) ①", None, "body", 1, 1, "q", 1.0)
    b = Citation(2, "y", "s", "반품교환환불정책", "제3조 (반품·교환 신청 기간) ①", None, "body", 1, 1, "q", 1.0)
    assert render_sources([a, b, a]) == \
        "(근거: 반품교환환불정책 · 제2조 (반품 배송비) ①; 반품교환환불정책 · 제3조 (반품·교환 신청 기간) ①)"
    assert render_sources([a], "en").startswith("(Source: ")


# ── judge and checks ──────────────────────────────────────────────────────────────────────────


def test_judge_scores():
    j = MorphemeOverlapJudge()
    clause = "상품 불량, 오배송, 배송 중 파손으로 인한 반품·교환의 배송비는 회사 전액 부담으로 한다."
    assert j.score("상품 불량으로 반품하면 배송비는 회사가 전액 부담합니다.", clause) >= 0.5
    assert j.score("단순 변심 반품은 7일 이내에 신청할 수 있습니다.", clause) < 0.5
    # a number the clause does not state is not supported
    assert j.score("불량 반품의 배송비는 3,000원입니다.", clause) < j.score("불량 반품의 배송비는 회사 부담입니다.", clause)
    # pointer-only evidence never supports
    assert j.score("보상 금액은 부록A에 있습니다.", "지연 일수별 보상 금액은 부록A 참조.") == 0.0
    assert j.score(clause, clause) == 1.0
    lex_only = MorphemeOverlapJudge(use_embeddings=False)
    assert "lexical only" in lex_only.description
    assert lex_only.supports("상품 불량 반품의 배송비는 회사 전액 부담", clause)


def test_validate_ids():
    ids, warnings = validate_ids([1, "2", 2, 7, "x", 0, 1.5], 3)
    assert ids == [1, 2]
    assert len(warnings) == 4 and "outside the excerpt range (1–3)" in warnings[0] + warnings[1] + warnings[2]


def test_disagreement_detection():
    assert disagree("단순 변심 반품은 상품을 받은 날부터 7일 이내에 신청할 수 있다.",
                    "단순 변심 반품은 상품을 받은 날부터 14일 이내에 신청할 수 있다.")
    assert not disagree("회사는 배송이 늦어지면 하루포인트로 보상한다.",
                        "3일 이상 늦어지면 결제금액의 5%를 하루포인트로 지급한다.")
    # figures of different things in two rules of one subject are no conflict: when the plan is due, how often
    # it is made
    assert not disagree("구청장은 종합계획을 통보받은 해의 12월 31일까지 지역 교육계획을 세워야 한다.",
                        "구청장은 종합계획을 반영하여 협의를 거쳐 5년마다 지역 교육계획을 세워야 한다.")
    # ... while the same deadline with another number is one, whatever else the clauses say
    assert disagree("적립한 포인트의 유효기간은 적립일부터 1년이다.",
                    "지연 보상으로 지급한 포인트의 유효기간은 지급일부터 90일이다.")
    # figures of two things are no conflict: a lesson's length is no fee's period, and money is no period
    assert not disagree("4. 성인 씨름반: 만 19세 이상, 주 2회 90분",
                        "구분: 성인 씨름반, 단위: 1개월(주 2회), 금액: 110,000원")
    assert not disagree("성인반 수강료는 한 달에 110,000원이다.", "성인반은 한 달에 30일 동안 수업한다.")
    assert disagree("성인반 수강료는 한 달에 110,000원이다.", "성인반 수강료는 한 달에 100,000원이다.")
    # a table row is about what its first cell names: the 유아반 item is no restatement of the 성인반 row
    assert not disagree("1. 유아 놀이씨름반: 만 5세부터 만 6세까지, 주 1회 40분", "성인 씨름반 | 1개월(주 2회) | 110,000원")
    assert disagree("성인 씨름반의 수강료는 1개월에 100,000원으로 한다.", "성인 씨름반 | 1개월 | 110,000원")


# ── extractive answerer ───────────────────────────────────────────────────────────────────────


def test_extractive_return_shipping(retriever):
    q = "단순 변심인데 반품 배송비 얼마예요?"
    c = answer_hits(q, retriever.search(q))
    ans = c.answer
    assert ans.generator == "extractive" and ans.supported
    assert "왕복 배송비 6,000원(편도 3,000원)을 고객이 부담한다." in ans.answer
    assert "(근거: 반품교환환불정책 · 제2조 (반품 배송비) ①)" in ans.answer
    assert ans.citations[0].quote in retriever.chunks[0].text or ans.citations[0].support == 1.0
    # deterministic
    assert answer_hits(q, retriever.search(q)).answer.answer == ans.answer


def test_extractive_follows_pointer_to_appendix_and_attributes_it(retriever):
    q = "택배가 예정일보다 5일 늦게 왔어요. 보상은 얼마나 받을 수 있나요?"
    ans = answer_hits(q, retriever.search(q)).answer
    assert "부록A에 따르면" in ans.answer
    assert "참조" not in ans.answer.split("(근거")[0]  # the pointer sentence is never the answer
    assert any(c.article.startswith("부록A 제1조 (보상 기준)") for c in ans.citations)
    assert all(c.support > 0 for c in ans.citations)


def test_extractive_table_row_and_faq(retriever):
    q = "체크카드로 결제했는데 환불은 며칠 걸려요?"
    ans = answer_hits(q, retriever.search(q)).answer
    assert "3~7영업일" in ans.answer and "제5조 (환불 처리 기간) ①" in ans.answer
    q = "쿠폰으로 할인받은 금액에도 포인트가 적립되나요?"
    ans = answer_hits(q, retriever.search(q)).answer
    assert "멤버십정책 · 자주 묻는 질문 (FAQ)" in ans.answer


def test_extractive_does_not_assert_without_evidence(retriever):
    """No confident answer where the documents say nothing: either the most relevant clauses, shown as
    related (a line says they may not answer; no statement is asserted), or nothing at all."""
    for q in ("해외로도 배송해 주나요? 해외 배송비는 얼마예요?", "하루마켓 주식은 어디서 살 수 있나요?"):
        ans = answer_hits(q, retriever.search(q)).answer
        assert ans.outcome in ("related", "none") and not ans.supported, ans.answer
        assert ans.confidence < 0.5
        if ans.outcome == "none":
            assert ans.answer == ABSTAIN and not ans.citations
        else:
            lines = ans.answer.split("\n")
            assert lines[0].startswith("질문에 답하는 조항이라고 확신하지 못했습니다")
            assert 1 <= len(lines) - 1 <= len(ans.citations) and all(x.startswith("· ") for x in lines[1:])
            assert [c.ref for c in ans.citations] == list(range(1, len(ans.citations) + 1))
    empty = answer_hits("아무거나", []).answer
    assert empty.answer == ABSTAIN and empty.outcome == "none" and empty.confidence == 0.0


def test_body_wins_over_disagreeing_appendix(chunks):
    body = next(c for c in chunks if c.metadata.path == "본문/제3조" and c.metadata.doc_title == "반품교환환불정책")
    appx = copy.deepcopy(next(c for c in chunks if c.metadata.path == "부록A/제1조"))
    text = "제1조 (신청 기간)\n① 단순 변심에 의한 반품·교환은 상품을 받은 날부터 14일 이내에 신청할 수 있다."
    appx.text = text
    appx.id = "appx"
    appx.metadata.segments = []
    appx.metadata.article = "부록A 제1조 (신청 기간)"
    q = "단순 변심 반품은 며칠 이내에 신청할 수 있나요?"
    hits = [Hit(appx, 1.0, 0, matched=["route"]), Hit(body, 0.9, 1)]
    ans = answer_hits(q, hits, options=AskOptions()).answer
    assert "7일 이내" in ans.answer
    assert "본문 규정(제3조 (반품·교환 신청 기간) ①)이 우선합니다" in ans.answer
    assert "부록A에는" in ans.answer


def test_named_case_section_is_answered_from_that_section(tmp_path):
    """"2000다24061 판결요지" names a decision and a section: the answer is that section, in order."""
    from jogak.answer.ask import ask
    from jogak.index import open_store

    corpus = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "korean_precedents"
    files = sorted(corpus.rglob("*2000다24061*.md"))
    if not files:
        pytest.skip("shared corpora not found")
    st = open_store(tmp_path / "db")
    assert st.ingest([str(files[0])]).ok
    ans = ask(st, "2000다24061 판결요지")
    assert ans.supported
    assert "(참고 판례: 대법원 2000. 11. 10. 선고 2000다24061 판결)" in ans.answer
    assert all(c.article.startswith("판결요지") for c in ans.citations)


def test_units_follow_the_clause_boundaries_recorded_at_cut_time():
    # "3. Payment and Refunds" over 3.1/3.2 reads like a list item by its shape; the chunk's segments say it
    # is the title of Section 3, and that 3.1 and 3.2 are two clauses (never one unit).
    from jogak.answer.units import chunk_units
    from jogak.chunk import get_chunker
    from jogak.load import load_bytes

    src = ("1. Accounts\nYou must be at least 18 years old.\n3. Payment and Refunds\n"
           "3.1 Fees are billed monthly in advance\n3.2 Refunds are available within 14 days of purchase.\n")
    doc = load_bytes(src.encode(), "terms.txt")
    chunk = next(c for c in get_chunker("structure").chunk_document(doc) if "3.1" in c.text)
    old = [u for u in split_units(chunk.text) if u.answerable]
    assert any("3.1" in u.text and "3.2" in u.text for u in old)  # without segments: one run-on unit
    units = chunk_units(chunk)
    assert [u.kind for u in units][:1] == ["heading"] and units[0].heading == "3. Payment and Refunds"
    answerable = [u.text for u in units if u.answerable]
    assert answerable == ["3.1 Fees are billed monthly in advance",
                          "3.2 Refunds are available within 14 days of purchase."]
    assert all(u.heading == "3. Payment and Refunds" for u in units)


def test_a_title_in_doubled_brackets_stays_whole() -> None:
    # some statutes in the archive double a title's brackets (공익신탁법 "제30조 ((벌칙))"): the title is the heading
    # and the text starts after it — not a heading "제30조" and a sentence opening with ")"
    units = split_units("제30조 ((벌칙)) 수탁자가 신탁재산을 사용하면 3년 이하의 징역에 처한다.\n제31조(과태료) 과태료를 낸다.")
    assert [(u.heading, u.kind) for u in units][:2] == [("제30조 ((벌칙))", "heading"), ("제30조 ((벌칙))", "sentence")]
    assert units[1].text.startswith("수탁자가")
    # … alone on its line too (the title's last bracket is not a sentence of its own)
    own = split_units("제4조 ((인가 요건))\n장관은 요건을 갖추면 인가를 한다.")
    assert [(u.heading, u.text) for u in own] == [("제4조 ((인가 요건))", "제4조 ((인가 요건))"),
                                                 ("제4조 ((인가 요건))", "장관은 요건을 갖추면 인가를 한다.")]
