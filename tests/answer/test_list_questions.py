"""A question that asks for an enumeration ("어떤 것들이 있나요", "전부 알려 주세요", "what are the …") is
answered with the whole list — every item, whatever each scores — while a question about one entry keeps
its short answer (grammar.patterns.LIST_QUESTION_RE, answer.generators.selection)."""

from __future__ import annotations

import pytest

from jogak.answer.ask import answer_hits
from jogak.grammar.patterns import LIST_QUESTION_RE
from jogak.model import Chunk, ChunkMetadata, Hit, Segment

TEXT = """제9조(예약 취소의 제한)
① 고객은 이용일 전날까지 예약을 취소할 수 있다.
② 고객은 다음 각 호의 어느 하나에 해당하는 경우에는 예약을 취소할 수 없다.
1. 이용일 당일 오전 10시가 지난 경우
2. 특가 상품으로 표시된 객실을 고른 경우
3. 고객의 잘못으로 객실 시설이 훼손된 경우
4. 단체 예약으로 30명 이상이 함께 예약한 경우
5. 반려동물 동반 객실로 바꾸어 달라고 요청한 경우
③ 회사는 예약 취소 수수료를 이용요금의 10퍼센트로 한다."""
ITEMS = ["오전 10시가 지난 경우", "특가 상품으로 표시된", "객실 시설이 훼손된", "30명 이상이", "반려동물 동반 객실로"]


def _hits() -> list[Hit]:
    md = ChunkMetadata(source="숙박약관.txt", doc_title="숙박약관", chunk_no=0, article="제9조 (예약 취소의 제한)",
                       page_start=None, page_end=None, char_start=0, char_end=len(TEXT), block_type="body",
                       path="본문/제9조", doc_id="숙박약관",
                       segments=[Segment("본문/제9조", "제9조 (예약 취소의 제한)", 0, len(TEXT))])
    return [Hit(Chunk(id="a", text=TEXT, metadata=md), 1.0, 0)]


@pytest.mark.parametrize("question", ["예약을 취소할 수 없는 경우를 전부 알려 주세요.",
                                      "예약을 취소할 수 없는 경우는 어떤 것들이 있나요?"])
def test_a_list_question_gets_every_item(question: str) -> None:
    a = answer_hits(question, _hits()).answer
    assert a.outcome == "answer"
    assert all(item in a.answer for item in ITEMS), a.answer
    assert "다음 각 호의 어느 하나에 해당하는 경우" in a.answer  # the lead comes with its items


def test_a_question_about_one_entry_stays_short() -> None:
    a = answer_hits("특가 객실 예약도 취소가 안 되나요?", _hits()).answer
    assert "특가 상품으로 표시된" in a.answer
    assert "반려동물 동반 객실로" not in a.answer and "30명 이상이" not in a.answer


@pytest.mark.parametrize("question", [
    "반품이 안 되는 경우를 전부 알려 주세요", "판매자가 받아 갈 수 있는 비용은 어떤 것들이에요?",
    "조정을 맡는 기관들은 어디어디예요?", "유료 서비스에는 뭐가 있어요?", "필요한 서류들은 무엇인가요?",
    "신청할 때 내야 하는 서류는 뭐뭐예요?", "등급 종류는 뭐예요?", "What are the grounds for termination?",
    "계약서에 꼭 들어가야 하는 내용은 뭐예요?", "등록하러 갈 때 챙겨 갈 서류가 뭐예요?", "보증이 안 되는 경우는 뭐예요?",
    "List all the fees the buyer pays.", "운영계획에는 어떤 내용이 들어가야 해요?", "신청서에는 뭐가 들어가요?",
    "가입하면 어떤 정보들을 가져가요?", "센터는 무슨 일들을 해요?", "받아야 하는 조건을 빠짐없이 알려 주세요",
    "기본계획에는 어떤 내용이 꼭 들어가야 해요?", "명세서에는 무엇이 반드시 포함돼요?"])
def test_list_questions(question: str) -> None:
    assert LIST_QUESTION_RE.search(question)


@pytest.mark.parametrize("question", [
    "포인트 유효기간은 얼마예요?", "교환 배송비는 누가 내요?", "환불은 며칠 안에 받아요?", "다 쓴 포인트도 돌려받나요?",
    "What is the notice period?", "제3조에 따라 해지할 수 있나요?", "이 상품 종류도 반품돼요?",
    "이런 경우는 환불돼요?", "정확히 기준이 뭐예요?", "요금에 배송비도 포함돼요?", "무슨 일을 해요?",
    "아이가 들어가려면 뭐가 필요해요?"])
def test_questions_about_one_thing(question: str) -> None:
    assert not LIST_QUESTION_RE.search(question)


def _chunk(text: str, article: str, path: str, cid: str, no: int) -> Chunk:
    md = ChunkMetadata(source="약관.txt", doc_title="약관", chunk_no=no, article=article, page_start=None,
                       page_end=None, char_start=0, char_end=len(text), block_type="body", path=path, doc_id="약관",
                       segments=[Segment(path, article, 0, len(text))])
    return Chunk(id=cid, text=text, metadata=md)


@pytest.mark.parametrize("same_clause", [True, False])
def test_a_list_of_another_clause_joins_only_when_allowed(same_clause: bool) -> None:
    """The best unit (제3조) is no list; the definitions list of 제2조 scores near it. By default a list joins
    a list question's answer only from the best unit's own clause (``list_switch_same_clause``) — and then one
    sentence naming no several things is no answer to "어떤 것들" (``fit.lists_several``): related."""
    from jogak.answer.generators.extractive import ExtractiveAnswerer
    from jogak.answer.generators.weights import ExtractiveWeights

    rule = _chunk("제3조(환불)\n① 회사는 회원이 환불을 요청한 날부터 3영업일 안에 결제한 수단으로 환불한다.",
                  "제3조 (환불)", "본문/제3조", "a", 1)
    terms = _chunk('제2조(정의)\n이 약관에서 쓰는 말의 뜻은 다음과 같다.\n1. "환불"이란 회원이 낸 돈을 돌려주는 것을 말한다.\n'
                   '2. "회원"이란 회사와 이용계약을 맺은 사람을 말한다.\n3. "결제 수단"이란 카드, 계좌이체, 포인트를 말한다.',
                   "제2조 (정의)", "본문/제2조", "b", 0)
    gen = ExtractiveAnswerer(ExtractiveWeights().with_overrides(list_switch_same_clause=same_clause))
    a = answer_hits("환불받을 수 있는 결제 수단에는 어떤 것들이 있나요?", [Hit(rule, 1.0, 0), Hit(terms, 0.9, 1)],
                    generator=gen).answer
    assert "3영업일 안에" in a.answer
    if same_clause:
        assert a.outcome == "related", a.answer
    else:
        assert a.outcome == "answer" and "계좌이체" in a.answer, a.answer
    assert ExtractiveWeights().list_switch_same_clause


TOGETHER = """제19조(사고가 났을 때의 조치)
① 사고가 나면 운전자는 다음 각 호의 조치를 한다.
1. 다친 사람을 구호하고 112와 119에 신고하는 일
2. 회사의 24시간 사고접수 전화로 바로 알리는 일
3. 사고 현장과 상대 차의 사진을 찍어 두는 일
② 사고 차는 회사가 정한 정비업체에서 고친다."""


def test_an_item_of_a_list_that_holds_together_brings_the_whole_list() -> None:
    # "다음 각 호의 조치를 한다" announces steps that all apply: quoting the one that matched under that lead
    # would misstate the list (an "어느 하나에 해당하는" list keeps its one item: the test above)
    md = ChunkMetadata(source="대여약관.txt", doc_title="대여약관", chunk_no=0, article="제19조 (사고가 났을 때의 조치)",
                       page_start=None, page_end=None, char_start=0, char_end=len(TOGETHER), block_type="body",
                       path="본문/제19조", doc_id="대여약관",
                       segments=[Segment("본문/제19조", "제19조 (사고가 났을 때의 조치)", 0, len(TOGETHER))])
    a = answer_hits("사고 나면 현장 사진도 찍어 둬야 해요?", [Hit(Chunk(id="t", text=TOGETHER, metadata=md), 1.0, 0)]).answer
    assert "사고 현장과 상대 차의 사진" in a.answer
    assert "112와 119에 신고" in a.answer and "사고접수 전화로" in a.answer, a.answer


EXPLAIN = """제5조(계약 전 설명)
① 회사는 출동경비 계약을 맺기 전에 다음 사항을 적은 설명서를 고객에게 주고 하나씩 설명한다.
1. 월 요금과 설치비
2. 출동하는 데 걸리는 시간
3. 회사가 배상하는 손해의 범위와 한도
② 고객은 설명서를 받은 날부터 3일 안에 계약을 하지 않겠다고 할 수 있다.
③ 회사는 고객에게 안내문을 보낸다. 안내문은 우편으로 보낸다.
1. 고객이 원하면 문자로 보낸다."""


def test_the_sentence_right_before_a_list_leads_it_without_saying_so() -> None:
    # "다음 사항을 적은 설명서를 … 설명한다" announces its list without "다음 각 호" or "다음과 같다": the list
    # follows it at once, so it is its lead (a dangling lead-in was the answer before); a sentence with another
    # sentence between it and a list does not bring that list
    md = ChunkMetadata(source="경비약관.txt", doc_title="경비약관", chunk_no=0, article="제5조 (계약 전 설명)",
                       page_start=None, page_end=None, char_start=0, char_end=len(EXPLAIN), block_type="body",
                       path="본문/제5조", doc_id="경비약관",
                       segments=[Segment("본문/제5조", "제5조 (계약 전 설명)", 0, len(EXPLAIN))])
    hits = [Hit(Chunk(id="e", text=EXPLAIN, metadata=md), 1.0, 0)]
    a = answer_hits("출동경비 계약할 때 받는 설명서에는 무슨 내용이 적혀 있어야 하나요?", hits).answer
    assert "다음 사항을 적은 설명서" in a.answer
    assert "손해의 범위와 한도" in a.answer and "걸리는 시간" in a.answer, a.answer
    b = answer_hits("회사가 고객에게 안내문을 보내나요?", hits).answer
    assert "고객에게 안내문을 보낸다" in b.answer and "문자로" not in b.answer.split("안내문은 우편")[0], b.answer


def test_another_documents_list_does_not_join_a_list_answer() -> None:
    # two laws each with a plan of 사항: "뭐가 들어가요? 경기장 방역 같은 것도 들어가요?" is answered by the plan
    # the question names, whole; the other law's item about 경기장 (and its whole list) stays out
    def law(doc: str, text: str) -> Chunk:
        md = ChunkMetadata(source=f"{doc}.txt", doc_title=doc, chunk_no=0, article="제6조 (기본계획)", page_start=None,
                           page_end=None, char_start=0, char_end=len(text), block_type="body", path="본문/제6조",
                           doc_id=doc, segments=[Segment("본문/제6조", "제6조 (기본계획)", 0, len(text))])
        return Chunk(id=doc, text=text, metadata=md)

    esports = law("이스포츠법", "제6조(기본계획)\n② 기본계획에는 다음 각 호의 사항이 포함되어야 한다.\n1. 이스포츠 진흥의 기본방향\n"
                  "2. 이스포츠 전문인력의 양성\n3. 이스포츠시설의 감염병에 대한 안전ㆍ방역 관리에 관한 사항")
    baduk = law("바둑법", "제6조(기본계획)\n② 기본계획에는 다음 각 호의 사항이 포함되어야 한다.\n1. 바둑 진흥의 기본방향\n"
                "2. 바둑단체 및 바둑전용경기장의 지원에 관한 사항\n3. 바둑 국제교류에 관한 사항")
    from jogak.answer.generators.extractive import ExtractiveAnswerer
    from jogak.answer.generators.weights import ExtractiveWeights

    # any unit naming a word the others leave open may join (relative_keep 0): the rule, not a score, keeps it out
    gen = ExtractiveAnswerer(ExtractiveWeights().with_overrides(relative_keep=0.0, threshold=0.3))
    a = answer_hits("이스포츠 진흥 기본계획에는 뭐가 들어가요? 경기장 방역 같은 것도 들어가요?",
                    [Hit(esports, 1.0, 0), Hit(baduk, 0.95, 1)], generator=gen).answer
    assert "전문인력의 양성" in a.answer and "방역 관리" in a.answer, a.answer
    assert "바둑" not in a.answer, a.answer
