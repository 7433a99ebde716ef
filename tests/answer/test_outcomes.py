"""Issue 13: outcomes and confidence, conditions that travel with the rule, relevance next to support,
which document a question points to, one numbering of citations."""

from __future__ import annotations

import pytest

from jogak.answer.ask import answer_hits
from jogak.answer.citations import answer_parts, presented, with_markers
from jogak.answer.context import build_context
from jogak.answer.documents import doc_kind, pointed
from jogak.answer.relevance import relevance, relevance_label
from jogak.answer.units import split_units
from jogak.eval.answers import citation_is_gold, outcome_summary
from jogak.model import Chunk, ChunkMetadata, Hit, Segment

from .helpers import TinyRetriever, haru_chunks


def _doc_chunk(text: str, doc: str, article: str, cid: str, segments: list[tuple[str, str, int, int]]) -> Chunk:
    md = ChunkMetadata(source=f"{doc}.txt", doc_title=doc, chunk_no=0, article=article, page_start=None,
                       page_end=None, char_start=0,
                       char_end=len(text), block_type="body", path=segments[0][0], doc_id=doc,
                       segments=[Segment(p, c, s, e) for p, c, s, e in segments])
    return Chunk(id=cid, text=text, metadata=md)


def _article(doc: str, no: int, title: str, paras: list[str], cid: str) -> Chunk:
    """"제3조(제목) ① … ② …" on ONE line, as plain-text terms write it, with the chunker's segments."""
    head = f"제{no}조({title})"
    text, segs = head, [(f"본문/제{no}조", f"제{no}조 ({title})", 0, len(head))]
    for i, p in enumerate(paras, start=1):
        text += " "
        start = len(text)
        text += f"{'①②③④⑤'[i - 1]} {p}"
        segs.append((f"본문/제{no}조/제{i}항", f"제{no}조 ({title}) 제{i}항", start, len(text)))
    return _doc_chunk(text, doc, f"제{no}조 ({title})", cid, segs)


@pytest.fixture(scope="module")
def retriever() -> TinyRetriever:
    return TinyRetriever(haru_chunks())


def test_a_title_and_its_paragraphs_on_one_line_are_quotable():
    c = _article("이용약관", 3, "약관의 게시와 개정", ["회사는 약관을 서비스 초기 화면에 게시합니다.",
                                                  "회사가 약관을 개정하는 경우에는 적용일자 7일 전부터 공지합니다."], "a")
    units = split_units(c.text)
    assert [u.kind for u in units] == ["heading", "sentence", "sentence"]
    assert units[0].text == "제3조(약관의 게시와 개정)" and units[2].marker == "②" and "7일 전부터" in units[2].text


def test_named_clause_is_read_in_the_document_the_question_points_to():
    ours = _article("이용약관", 3, "약관의 게시와 개정", ["회사는 약관을 서비스 초기 화면에 게시합니다.",
                                                  "회사가 약관을 개정하는 경우에는 적용일자 7일 전부터 공지합니다."], "a")
    other = _article("약관_자동번호", 3, "약관의 효력", ["이 약관은 서비스 화면에 게시하여 공지함으로써 효력이 발생합니다.",
                                                  "회사는 용어의 뜻을 바꾸는 경우 30일 전에 공지합니다."], "b")
    hits = [Hit(other, 1.0, 0), Hit(ours, 0.9, 1)]
    # the title names it: 이용약관, although 약관_자동번호's 제3조 ranks first ("약관" alone names nothing)
    ans = answer_hits("이용약관 제3조에 따르면 약관을 바꿀 때 며칠 전에 알려 주나요?", hits).answer
    assert ans.outcome == "answer" and {c.doc_title for c in ans.citations} == {"이용약관"}, ans.answer
    # no title: the clause that answers the rest of the question ("7일 전에 공지") picks the document
    ans = answer_hits("약관 제3조에 7일 전에 공지한다던데, 약관은 평소에 어디에 게시하나요?", hits).answer
    assert {c.doc_title for c in ans.citations} == {"이용약관"} and "서비스 초기 화면에 게시" in ans.answer


def test_pointed_reads_titles_abbreviations_decrees_and_the_law():
    law = _doc_chunk("제17조(청약철회등) ① 소비자는 7일 이내에 청약철회를 할 수 있다.", "전자상거래 등에서의 소비자보호에 관한 법률",
                     "제17조", "l", [("본문/제17조", "제17조 (청약철회등)", 0, 10)])
    decree = _doc_chunk("제21조의3(지연배상금) 연 100분의 15", "전자상거래 등에서의 소비자보호에 관한 법률 시행령", "제21조의3", "d",
                        [("본문/제21조의3", "제21조의3 (지연배상금)", 0, 10)])
    policy = _doc_chunk("제3조(반품) 하루마켓(이하 \"회사\")은 7일 이내 반품을 받는다.", "반품교환환불정책", "제3조", "p",
                        [("본문/제3조", "제3조 (반품)", 0, 7)])
    ctx = build_context([Hit(law, 1, 0), Hit(decree, 1, 1), Hit(policy, 1, 2)])
    assert doc_kind(law.metadata.doc_title) == "statute" and doc_kind(decree.metadata.doc_title) == "decree"
    s, _ = pointed("전자상거래법 제17조에는 며칠이라고 돼 있나요?", ctx)
    assert s["전자상거래 등에서의 소비자보호에 관한 법률"] == 0.9 > s["반품교환환불정책"]
    assert s["전자상거래 등에서의 소비자보호에 관한 법률 시행령"] < 0.9  # "…법 제17조" is the Act's, not its decree's
    s, _ = pointed("전자상거래법 시행령에는 이자가 몇 퍼센트예요?", ctx)
    assert s["전자상거래 등에서의 소비자보호에 관한 법률 시행령"] > s["전자상거래 등에서의 소비자보호에 관한 법률"]
    s, names = pointed("하루마켓 반품은 며칠 안에 해야 해요?", ctx)
    assert names == ["하루마켓"] and s["반품교환환불정책"] > 0 == s["전자상거래 등에서의 소비자보호에 관한 법률"]
    s, _ = pointed("법적으로는 며칠 안에 물릴 수 있나요?", ctx)
    assert s["전자상거래 등에서의 소비자보호에 관한 법률"] > s["반품교환환불정책"] == 0
    assert s["전자상거래 등에서의 소비자보호에 관한 법률"] > s["전자상거래 등에서의 소비자보호에 관한 법률 시행령"]
    # "법령상": the Act with its decrees — the decree, which holds the rate, is pointed to as much as the Act
    s, _ = pointed("법령상 지연배상금 이자는 몇 퍼센트예요?", ctx)
    assert (s["전자상거래 등에서의 소비자보호에 관한 법률"] == s["전자상거래 등에서의 소비자보호에 관한 법률 시행령"]
            > s["반품교환환불정책"] == 0)


def test_a_law_clause_placed_beside_the_rule_is_not_a_document_to_point_away_from():
    # retrieval's companion (the law behind a company's rule) is context: with it the question naming the shop
    # does not turn the excerpts into a choice between documents
    law = _doc_chunk("제17조(청약철회등) ① 소비자는 7일 이내에 청약철회를 할 수 있다.", "전자상거래 등에서의 소비자보호에 관한 법률",
                     "제17조", "l", [("본문/제17조", "제17조 (청약철회등)", 0, 10)])
    policy = _doc_chunk("제3조(반품) 하루마켓(이하 \"회사\")은 7일 이내 반품을 받는다.", "반품교환환불정책", "제3조", "p",
                        [("본문/제3조", "제3조 (반품)", 0, 7)])
    q = "하루마켓 반품은 며칠 안에 해야 해요?"
    s, _ = pointed(q, build_context([Hit(policy, 1, 0), Hit(law, 1, 1)]))
    assert s["반품교환환불정책"] > s["전자상거래 등에서의 소비자보호에 관한 법률"]
    s, _ = pointed(q, build_context([Hit(policy, 1, 0), Hit(law, 1, 1, scores={"companion": 1.2})]))
    assert set(s) == {"반품교환환불정책"}


def test_the_condition_of_a_later_paragraph_travels_with_the_rule():
    c = _article("이용약관", 8, "포인트의 적립", ["포인트는 구매확정일의 다음 날에 적립됩니다.",
                                           "배송비로 결제한 금액에는 포인트가 적립되지 않습니다.",
                                           "제2항에도 불구하고 회사는 이벤트 기간 중 별도의 적립 기준을 정할 수 있습니다."], "a")
    ans = answer_hits("배송비로 낸 돈에도 포인트가 적립되나요?", [Hit(c, 1.0, 0)]).answer
    assert ans.outcome == "answer", ans.answer
    assert "적립되지 않습니다" in ans.answer and "이벤트 기간 중 별도의 적립 기준" in ans.answer


def test_the_basis_of_a_list_travels_and_a_lead_in_never_dangles(retriever):
    q = "VIP 등급이 되려면 얼마나 사야 해요?"
    ans = answer_hits(q, retriever.search(q)).answer
    assert ans.outcome == "answer" and "60만 원 이상" in ans.answer, ans.answer
    assert "직전 3개월" in ans.answer  # ① sets the period the grades are measured on
    first = ans.answer.split("(근거")[0]
    assert not first.rstrip().endswith("다음과 같다.")  # never opens with a lead-in alone
    if "다음과 같다." in ans.answer:  # a lead-in only with an item of its list after it
        assert ans.answer.index("다음과 같다.") < ans.answer.index("VIP:")


def test_relevance_is_not_support(retriever):
    q = "포인트 유효기간은 얼마나 돼요?"
    ans = answer_hits(q, retriever.search(q)).answer
    assert ans.outcome == "answer" and "1년" in ans.answer, ans.answer
    top = ans.citations[0]
    assert top.relevance >= 0.45 and relevance_label(top.relevance) in ("높음", "보통")
    # a verbatim quote supports itself fully, but a clause about something else is not relevant
    unrelated = "단순 변심에 의한 반품은 왕복 배송비 6,000원(편도 3,000원)을 고객이 부담한다."
    assert relevance(q, unrelated, "제2조 (반품 배송비)") < 0.45 <= relevance(
        q, "하루포인트의 유효기간은 적립일로부터 1년이며", "제5조 (하루포인트 유효기간과 소멸)")
    assert relevance_label(0.9, "en") == "high" and relevance_label(0.1) == "낮음"


def test_citations_are_numbered_once_for_the_text_the_json_and_the_page(retriever):
    q = "택배가 예정일보다 5일 늦게 왔어요. 보상은 얼마나 받을 수 있나요?"
    ans = answer_hits(q, retriever.search(q)).answer
    refs = [c.ref for c in ans.citations]
    assert refs == list(range(1, len(refs) + 1))
    d = presented(ans)
    assert d["outcome"] == "answer" and 0 <= d["confidence"] <= 1
    assert [c["ref"] for c in d["citations"]] == refs and all(c["relevance_label"] for c in d["citations"])
    cited = [r for p in answer_parts(ans.answer, ans.citations) if "cite" in p for r in p["cite"]]
    assert sorted(set(cited)) == refs
    marked = with_markers(ans.answer, ans.citations)
    assert "(근거:" not in marked and all(f"[{r}]" in marked for r in refs)


def test_outcome_summary_counts_outcomes_gold_citations_and_related_gold():
    class C:
        def __init__(self, doc: str, path: str) -> None:
            self.doc_title, self.path, self.article = doc, path, ""

    q = {"gold": [{"doc_title": "법", "path": "본문/제17조/제1항"}]}
    assert citation_is_gold(q, C("법", "본문/제17조/제3항"))  # the same article
    assert not citation_is_gold(q, C("법", "본문/제18조/제1항")) and not citation_is_gold(q, C("정책", "본문/제17조"))
    rows = [
        {"outcome": "answer", "answerable": True, "passed": True, "confidence": 0.9, "gold_citations": 1,
         "citations": [{}, {}], "checks": [{"ok": True}], "retrieval_recall": 1.0},
        {"outcome": "related", "answerable": True, "passed": False, "confidence": 0.3, "gold_citations": 1,
         "citations": [{}], "checks": [{"ok": True}, {"ok": False}], "retrieval_recall": 1.0},
        {"outcome": "answer", "answerable": False, "passed": False, "confidence": 0.7, "gold_citations": 0,
         "citations": [{}], "checks": [{"ok": False}], "retrieval_recall": None},
        {"outcome": "none", "answerable": False, "passed": True, "confidence": 0.1, "gold_citations": 0,
         "citations": [], "checks": [{"ok": True}], "retrieval_recall": None},
    ]
    s = outcome_summary(rows)
    assert s["outcomes"] == {"answer": 2, "related": 1, "none": 1}
    assert s["answer_citation_precision"] == round(1 / 3, 4) and s["unanswerable_answered"] == 1
    assert s["related_contains_gold"] == 1.0 and s["related_with_gold_in_context"] == 1
    assert s["checkpoint_pass_rate_strict"] == 0.4  # the related outcome's passed phrase does not count


_REFUND_Q = "환불은 며칠 안에 해 주나요?"
_TERMS_RULE = ("이용약관", 5, "환불", "회사는 환불 요청을 받은 날부터 3영업일 이내에 환불합니다.")
_ACT_RULE = ("전자상거래법", 18, "청약철회등의 효과", "사업자는 환불 요청을 받은 날부터 3영업일 이내에 환불하여야 한다.")


@pytest.mark.parametrize(("answering", "other", "other_text", "note"), [
    (_TERMS_RULE, _ACT_RULE[:3], "사업자는 환불 요청을 받은 날부터 3영업일 이내에 환불하여야 한다.", "같은 취지의 규정이 있습니다"),
    (_TERMS_RULE, _ACT_RULE[:3], "사업자는 환불 요청을 받은 날부터 7일 이내에 환불하여야 한다.", "다르게 정해져 있습니다"),
    # a clause number is not a figure of the rule: neither "the same" nor "otherwise" can be told
    (_TERMS_RULE, _ACT_RULE[:3], "사업자는 제3조에 따른 환불 요청을 받으면 지체 없이 환불하여야 한다.", "관련 규정이 있습니다"),
    # one law family: the decree's merely related clause is a delegated detail, not a second statement of the rule
    (_ACT_RULE, ("전자상거래법 시행령", 21, "환불의 절차"), "사업자는 환불 요청을 받은 날부터 7일 이내에 환불하여야 한다.",
     "다르게 정해져 있습니다"),
    (_ACT_RULE, ("전자상거래법 시행령", 21, "환불의 절차"), "사업자는 법 제18조에 따른 환불 요청을 받으면 지체 없이 환불하여야 한다.",
     None),    # two Acts: another law's merely related article is a parallel, not the rule restated
    (_ACT_RULE, ("할부거래법", 10, "청약의 철회"), "사업자는 제3조에 따른 환불 요청을 받으면 지체 없이 환불하여야 한다.", None),
])
def test_another_document_is_said_to_agree_or_differ_only_on_the_same_figures(answering, other, other_text, note):
    doc, no, title, rule = answering
    first = _article(doc, no, title, [rule], "a")
    second = _article(*other, [other_text], "b")
    ans = answer_hits(_REFUND_Q, [Hit(first, 1.0, 0), Hit(second, 0.9, 1)]).answer
    assert ans.outcome == "answer" and rule in ans.answer, ans.answer
    last = ans.answer.splitlines()[-1]
    assert (note in last) if note else ("관련 규정" not in last and "다르게" not in last), last


def test_a_named_article_is_not_its_의2_sibling():
    # "제21조" names 제21조, not 제21조의2 (another article) — whose ① must not crowd out 제21조's ②
    art = _article("청소년 기본법", 21, "청소년지도사", ["장관은 연수를 마친 사람에게 청소년지도사 자격을 부여한다.",
                                                "누구든지 자격증을 다른 사람에게 빌려주거나 빌려서는 아니 된다."], "a")
    text = "제21조의2(자격의 취소) ① 장관은 자격증을 다른 사람에게 빌려준 경우에는 그 자격을 취소하여야 한다."
    sib = _doc_chunk(text, "청소년 기본법", "제21조의2 (자격의 취소)", "b",
                     [("본문/제21조의2", "제21조의2 (자격의 취소)", 0, 15),
                      ("본문/제21조의2/제1항", "제21조의2 (자격의 취소) 제1항", 15, len(text))])
    ans = answer_hits("청소년 기본법 제21조를 보면, 자격증을 남한테 빌려줘도 돼요?", [Hit(sib, 1.0, 0), Hit(art, 0.9, 1)]).answer
    assert "빌려주거나 빌려서는 아니 된다" in ans.answer, ans.answer
    assert all("제21조의2" not in c.article for c in ans.citations), ans.answer


def test_a_sanction_is_answered_from_the_law_unless_the_question_names_the_company():
    law = _article("제대혈 관리 및 연구에 관한 법률", 40, "벌칙",
                   ["산모의 동의를 받지 아니하고 제대혈을 채취한 자는 3년 이하의 징역 또는 3천만원 이하의 벌금에 처한다."], "l")
    terms = _article("이용약관_한솔제대혈", 9, "채취 동의",
                     ["한솔제대혈(이하 \"회사\")은 산모의 동의를 받지 아니하고 제대혈을 채취하지 않습니다.",
                      "산모의 동의 없이 제대혈을 채취한 직원은 회사가 징계하고 그 처벌 결과를 산모에게 알립니다."], "t")
    hits = [Hit(terms, 1.0, 0), Hit(law, 0.9, 1)]
    # a state sanction: only the Act imposes one, although the terms' clause ranks first and says "처벌" — an answer
    # from the terms alone is no answer (letting the law's unit lead instead cost more than it gained on the used sets)
    ans = answer_hits("산모 동의 없이 제대혈을 채취하면 어떤 처벌을 받아요?", hits).answer
    assert ans.outcome == "answer" and "제대혈 관리 및 연구에 관한 법률" in {c.doc_title for c in ans.citations}, ans.answer
    assert "3년 이하의 징역" in ans.answer, ans.answer
    # the company named: its own rule answers
    ans = answer_hits("한솔제대혈은 동의 없이 채취한 직원을 어떻게 처벌해요?", hits).answer
    assert ans.citations and ans.citations[0].doc_title == "이용약관_한솔제대혈", ans.answer


def test_a_definitions_article_answers_what_a_word_means_not_facts_about_it():
    defs = _article("취업규칙_다온제과", 2, "정의",
                    ["이 규칙에서 쓰는 말의 뜻은 다음과 같다. 1. \"사내근로복지기금\"이란 직원의 생활 안정과 복지 증진을 위하여 "
                     "회사가 출연하여 세운 기금법인으로서 직원에게 여러 가지 지원을 하는 기금을 말한다. "
                     "2. \"복지포인트\"란 회사가 해마다 직원에게 나누어 주는 점수를 말한다."], "d")
    fund = _article("취업규칙_다온제과", 19, "기금의 사업",
                    ["기금은 직원의 주택 구입 자금 대출, 자녀 학자금 지급, 경조비 지급을 한다."], "f")
    hits = [Hit(defs, 1.0, 0), Hit(fund, 0.9, 1)]
    # what the fund does is not what the word "fund" means: the definitions item is not the answer
    ans = answer_hits("다온제과 사내근로복지기금에서는 직원들한테 어떤 지원을 해 줘요?", hits).answer
    assert ans.outcome != "answer" or all("제2조" not in c.article for c in ans.citations), ans.answer
    # what a word means: the definitions item answers
    ans = answer_hits("다온제과 취업규칙에서 말하는 복지포인트는 뭐예요?", hits).answer
    assert ans.outcome == "answer" and ans.citations[0].article.startswith("제2조"), ans.answer


def test_a_yes_no_question_about_something_the_clause_never_names_is_not_answered():
    box = _article("이용약관_다온장터", 18, "포장",
                   ["상품은 종이 상자와 종이 완충재로 포장한다.",
                    "새벽배송 회원이 다음 주문 때 문 앞에 접어 내놓은 종이 상자는 배송 기사가 가져가 다시 쓰며, "
                    "회사는 상자 하나에 적립금 100원을 준다."], "b")
    hits = [Hit(box, 1.0, 0)]
    # "아이스팩도": whether the rule extends to ice packs — the clause never speaks of them
    ans = answer_hits("다온장터 새벽배송에 들어 있던 아이스팩도 문 앞에 내놓으면 배송 기사님이 가져가 줘요?", hits).answer
    assert ans.outcome != "answer", ans.answer
    # the thing the clause names: answered
    ans = answer_hits("다온장터 새벽배송 종이 상자도 문 앞에 내놓으면 배송 기사님이 가져가 줘요?", hits).answer
    assert ans.outcome == "answer" and "종이 상자는 배송 기사가 가져가" in ans.answer, ans.answer


def test_a_question_asking_who_pays_needs_a_clause_on_paying():
    box = _article("관리규약_다온타워", 25, "무인택배함",
                   ["무인택배함에 들어온 물건은 72시간 안에 찾아가야 하며, 그 뒤에는 관리사무소로 옮겨 보관한다.",
                    "관리사무소는 보관하던 물건이 없어지거나 망가지면 그 손해를 배상한다."], "b")
    q = "다온타워 무인택배함에 넣어 둔 제 택배가 없어졌어요. 관리사무소가 물어 줘요?"
    # the storage rule alone is on topic but says nothing of paying for the loss
    only_storage = _article("관리규약_다온타워", 25, "무인택배함", [box.text.split("① ")[1].split(" ②")[0]], "c")
    assert answer_hits(q, [Hit(only_storage, 1.0, 0)]).answer.outcome != "answer"
    ans = answer_hits(q, [Hit(box, 1.0, 0)]).answer
    assert ans.outcome == "answer" and "손해를 배상한다" in ans.answer, ans.answer


def test_a_question_asking_where_to_file_needs_a_clause_naming_the_body():
    q = "다온 셔틀이 어린이 통학버스로 신고돼 있다던데, 그 신고는 어디에 하는 거예요?"
    runs = _article("이용약관_다온", 9, "차량 운행", ["회사는 어린이 통학버스로 신고한 차량을 운행하며, 선생님 1명이 함께 탄다."], "d")
    assert answer_hits(q, [Hit(runs, 1.0, 0)]).answer.outcome != "answer"
    files = _article("이용약관_다온", 9, "차량 운행", ["회사는 어린이 통학버스를 관할 경찰서장에게 신고하고 운행한다."], "e")
    ans = answer_hits(q, [Hit(files, 1.0, 0)]).answer
    assert ans.outcome == "answer" and "경찰서장에게 신고" in ans.answer, ans.answer


@pytest.mark.parametrize(("question", "also"), [
    ("바른길운전학원은 주말에도 수업해요?", ["주말"]),
    ("새벽배송에 들어 있던 아이스팩도 가져가 줘요?", ["아이스팩"]),
    ("상담은 전화나 화상으로도 받을 수 있어요?", ["화상"]),
    ("환불은 언제 돼요?", []),
    # a word the analyser does not know keeps its 도 in one token: the noun is still what the rule must speak of
    ("판매 가능한 곤충 목록에 왕사슴벌레도 들어가 있어요?", ["왕사슴벌레"]),
    ("결제한도 넘으면 어떻게 돼요?", []),  # a known compound ending in 한도 is no noun with 도
    ("제주특별자치도 매장도 있어요?", ["매장"]),
])
def test_the_noun_a_yes_no_question_extends_the_rule_to(question: str, also: list[str]) -> None:
    from jogak.answer.generators.fit import also_asked

    assert also_asked(question) == also


def test_only_the_asking_sentence_extends_the_rule() -> None:
    from jogak.answer.generators.fit import also_asked

    assert also_asked("회사가 설명도 안 해 주고 서류도 안 줬어요. 원래 설명해 줘야 하는 거예요?") == []


def test_a_question_asking_for_several_things_is_not_answered_by_one_case():
    # "어떤 경우들": one sentence stating one case is no enumeration of the cases (a15-50, a17-50 on the
    # used sets: the one sentence was another clause's, and the answer asserted it)
    one = _article("관람약관_소리뜰", 22, "사고의 처리",
                   ["관람객이 공연장 안에서 다치면 공연장은 응급처치를 하고 보호자에게 알린다.",
                    "사람이 죽거나 크게 다친 사고가 나면 공연장은 공연을 멈추고 24시간 이내에 관할 구청장에게 보고한다."],
                   "c")
    hits = [Hit(one, 1.0, 0)]
    ans = answer_hits("공연장이 구청에 보고해야 하는 사고는 어떤 경우들이에요?", hits).answer
    assert ans.outcome != "answer", ans.answer
    # the same clause answers the question asking for the one thing it states
    ans = answer_hits("사람이 크게 다친 사고가 나면 공연장은 언제까지 구청장에게 보고해요?", hits).answer
    assert ans.outcome == "answer" and "24시간 이내" in ans.answer, ans.answer
    # a sentence naming things one after another is an enumeration
    listed = _article("관람약관_소리뜰", 9, "요금",
                      ["회사가 받는 돈은 관람료, 사물함 이용료, 주차 요금과 강좌 수강료뿐이다."], "d")
    ans = answer_hits("소리뜰이 받는 돈은 어떤 것들이 있어요?", [Hit(listed, 1.0, 0)]).answer
    assert ans.outcome == "answer" and "사물함 이용료" in ans.answer, ans.answer


def test_among_several_laws_the_one_the_question_speaks_of_is_pointed_to():
    # a collection of two Acts and a company's rules: "건강보험료 … 법으로는" speaks of 국민건강보험법 (and its decree),
    # not of 긴급복지지원법; a question whose words name no Act's subject keeps the plain law prior
    health = _doc_chunk("제74조(보험료의 면제) ① 국외에 체류하는 경우 보험료를 면제한다.", "국민건강보험법", "제74조", "h",
                        [("본문/제74조", "제74조 (보험료의 면제)", 0, 10)])
    decree = _doc_chunk("제44조의2(보험료 면제 기간) 3개월 이상 체류", "국민건강보험법 시행령", "제44조의2", "hd",
                        [("본문/제44조의2", "제44조의2 (보험료 면제 기간)", 0, 10)])
    welfare = _doc_chunk("제9조(지원 요청) 긴급지원대상자는 지원을 요청할 수 있다.", "긴급복지지원법", "제9조", "w",
                         [("본문/제9조", "제9조 (지원 요청)", 0, 10)])
    rules = _doc_chunk("제9조(의료비 지원) 회사는 본인부담금을 지원한다.", "복리후생규정_한올가람", "제9조", "r",
                       [("본문/제9조", "제9조 (의료비 지원)", 0, 10)])
    ctx = build_context([Hit(welfare, 1, 0), Hit(health, 1, 1), Hit(decree, 1, 2), Hit(rules, 1, 3)])
    s, _ = pointed("해외에 1년 나가 있으면 법으로는 건강보험료를 안 내도 돼요?", ctx)
    assert s["국민건강보험법"] > s["긴급복지지원법"] > s["복리후생규정_한올가람"] == 0
    assert s["국민건강보험법 시행령"] > 0.4
    s, _ = pointed("법으로는 며칠 안에 신청해야 해요?", ctx)
    assert s["국민건강보험법"] == s["긴급복지지원법"] == 0.5 and s["국민건강보험법 시행령"] == 0.4
    s, _ = pointed("건강보험료 감면은 회사에서 얼마나 해 줘요?", ctx)  # not asking the law: no law prior at all
    assert s["국민건강보험법"] == 0 == s["긴급복지지원법"]


def test_the_first_related_clause_is_shown_whole():
    # a reader who is told "관련 조항을 직접 확인해 주세요" checks the clause: its 항 is shown whole (the rule, what
    # follows from it and its proviso), not the one sentence that scored best
    from jogak.answer.generators.extractive import ExtractiveAnswerer

    c1 = _article("이용약관", 7, "봉사 활동의 취소", [
        "회원은 활동 시작 48시간 전까지 신청을 취소할 수 있습니다. 이 경우 불이익은 없습니다. 다만, 단체 활동은 72시간 "
        "전까지 취소하여야 합니다.", "회사는 기상 악화로 활동이 어려우면 활동을 취소하고 회원에게 알립니다."], "a")
    c2 = _article("이용약관", 9, "봉사 시간의 인정", ["봉사 시간은 활동 기관이 확인한 시간만 인정합니다."], "b")
    hits = [Hit(c1, 1.0, 0), Hit(c2, 0.9, 1)]
    question = "활동 나가기 전에 마음이 바뀌면 어쩌죠?"
    # (related_floor 0.25: the other 항, scoring between 0.20 and 0.25 here, is then no related clause of its own)
    ans = answer_hits(question, hits, generator=ExtractiveAnswerer(related_whole_articles=0, related_floor=0.25)).answer
    assert ans.outcome == "related", ans.answer
    assert "이 경우 불이익은 없습니다" in ans.answer and "72시간 전까지" in ans.answer
    assert "기상 악화" not in ans.answer  # the whole 항, not the whole article
    # (by default the first related clauses' short articles are shown whole: the next test)
    one = answer_hits(question, hits, generator=ExtractiveAnswerer(related_whole_articles=0, related_whole_first=0,
                                                                   proviso_reach=1)).answer
    # its best unit alone: with its "이 경우 …" sentence (the rule's 후단, session 32), not the proviso out of reach
    assert one.outcome == "related" and "이 경우 불이익은 없습니다" in one.answer and "72시간 전까지" not in one.answer
    # its best unit alone still brings the proviso two sentences on (with the sentence between: proviso_reach)
    one = answer_hits(question, hits, generator=ExtractiveAnswerer(related_whole_articles=0,
                                                                   related_whole_first=0)).answer
    assert "이 경우 불이익은 없습니다" in one.answer and "72시간 전까지" in one.answer



def test_the_first_related_clauses_show_their_short_article_whole():
    # the 항 that scored best is often not the one that answers: a reader shown "관련 조항" sees the whole (short)
    # article of the first related clauses, the neighbouring 항 with it; a long article stays at its 항
    from jogak.answer.generators.extractive import ExtractiveAnswerer

    c1 = _article("이용약관", 12, "수상 활동", [
        "수상 활동은 안전요원이 함께하는 구역에서만 합니다.", "참가자는 구명조끼를 입어야 합니다.",
        "비가 많이 와 수상 활동을 할 수 없으면 실내 프로그램으로 바꾸고 참가비는 돌려주지 않습니다."], "a")
    c2 = _article("이용약관", 20, "참가자의 취소", ["참가자는 캠프 7일 전까지 취소하면 참가비 전액을 돌려받습니다."], "b")
    hits = [Hit(c1, 1.0, 0), Hit(c2, 0.9, 1)]
    question = "수상 캠프 날 날씨 때문에 래프팅을 못 하면 어떻게 돼요?"
    # one related clause (related_max=1), an answer never asserted (answer_confidence=1.0)
    whole = answer_hits(question, hits, generator=ExtractiveAnswerer(answer_confidence=1.0, related_max=1)).answer
    assert whole.outcome == "related", whole.answer
    assert "안전요원" in whole.answer and "구명조끼" in whole.answer and "실내 프로그램" in whole.answer
    one = answer_hits(question, hits, generator=ExtractiveAnswerer(answer_confidence=1.0, related_max=1,
                                                                   related_whole_articles=0)).answer
    assert one.outcome == "related" and not ("안전요원" in one.answer and "구명조끼" in one.answer), one.answer
    short = answer_hits(question, hits, generator=ExtractiveAnswerer(answer_confidence=1.0, related_max=1,
                                                                     related_article_units=2)).answer
    assert not ("안전요원" in short.answer and "구명조끼" in short.answer and "실내 프로그램" in short.answer)


def test_a_related_clause_already_shown_in_an_earlier_whole_article_gives_its_slot_on():
    # the first related clause shows its short article whole: another 항 of that article coming next adds nothing a
    # reader has not seen, so the next clause takes the slot (related_refill)
    from jogak.answer.generators.extractive import ExtractiveAnswerer

    c1 = _article("이용약관", 12, "수상 활동", [
        "비가 많이 와 수상 활동을 할 수 없으면 실내 프로그램으로 바꾸고 참가비는 돌려주지 않습니다.",
        "비로 수상 활동이 취소되어 래프팅을 못 한 참가자에게는 다음 캠프 참가비를 할인해 드립니다."], "a")
    c2 = _article("이용약관", 20, "캠프 사진", ["캠프 사진은 7일 전까지 누리집에 올립니다."], "b")
    hits = [Hit(c1, 1.0, 0), Hit(c2, 0.9, 1)]
    question = "수상 캠프 날 비 때문에 래프팅을 못 하면 참가비는 어떻게 돼요?"
    kw = dict(answer_confidence=1.0, related_max=2, related_floor=0.0)
    refilled = answer_hits(question, hits, generator=ExtractiveAnswerer(**kw)).answer
    assert refilled.outcome == "related", refilled.answer
    assert "실내 프로그램" in refilled.answer and "할인해 드립니다" in refilled.answer and "7일 전까지" in refilled.answer
    kept = answer_hits(question, hits, generator=ExtractiveAnswerer(**kw, related_refill=False)).answer
    assert "실내 프로그램" in kept.answer and "7일 전까지" not in kept.answer, kept.answer


def test_a_list_item_comes_with_its_long_lead():
    # a statute's lead sentence is often long: an item quoted without it ("2. 피해가 심각하여 … 필요한 경우") answers
    # nothing a reader can use
    lead = ("장관은 승인을 받은 제품 중 결함이 있는 제품에 노출되어 발생한 사람의 생명 또는 건강상의 피해(후유증을 포함한다. "
            "이하 \"제품피해\"라 한다)로서 다음 각 호의 어느 하나에 해당하여 피해자가 배상받지 못하거나 피해를 신속히 구제할 필요가 "
            "있는 경우에는 「환경분쟁 조정 및 환경피해 구제 등에 관한 법률」 제4조에 따른 위원회의 심의ㆍ결정에 따라 피해자 또는 그 "
            "유족에게 제품피해의 구제를 위한 급여(이하 \"구제급여\"라 한다)를 지급할 수 있다.")
    assert len(lead) > 220
    head = "제48조(구제급여의 지급 대상)"
    items = ["1. 피해의 원인을 제공한 자가 재산이 없어 배상할 수 없는 경우", "2. 피해가 심각하여 긴급한 치료나 요양이 필요한 경우"]
    text = f"{head}\n① {lead}\n{items[0]}\n{items[1]}"
    title = "제48조 (구제급여의 지급 대상)"
    segs = [("본문/제48조", title, 0, len(head)), ("본문/제48조/제1항", f"{title} 제1항", len(head) + 1, len(text))]
    start = len(head) + 1 + len(f"① {lead}") + 1
    for i, item in enumerate(items, start=1):
        segs.append((f"본문/제48조/제1항/제{i}호", f"{title} 제1항 제{i}호", start, start + len(item)))
        start += len(item) + 1
    chunk = _doc_chunk(text, "제품안전법", title, "a", segs)
    ans = answer_hits("긴급한 치료나 요양이 필요하면 해당돼요?", [Hit(chunk, 1.0, 0)]).answer
    assert ans.outcome == "answer" and "2. 피해가 심각하여" in ans.answer, ans.answer
    assert ans.answer.index("지급할 수 있다") < ans.answer.index("2. 피해가 심각하여"), ans.answer
