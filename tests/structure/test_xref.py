"""Cross-references resolved in scope: relative phrases (같은 조, 전항, 전조), appendix scope, other laws, and
the English forms (Section 4.2, paragraph 2 of Schedule 1, … of the Internal Revenue Code)."""

from __future__ import annotations

import pytest

from jogak.load import load_bytes
from jogak.model import Ref
from jogak.structure import DocTree, parse

KO = """이용약관

제1조(목적) 이 약관은 회사와 회원의 권리를 정한다.
제2조(정의) ① 이 약관에서 쓰는 용어의 뜻은 다음과 같다.
1. "회원"이란 가입한 자를 말한다.
2. "상품"이란 판매하는 물건을 말한다.
② 제1항 외의 용어는 관계 법령에 따른다.
제2조의2(적용 범위) 이 약관 제2조는 모든 회원에게 적용한다.
제3조(환불) ① 회원은 제2조제1항제2호의 상품을 반품할 수 있다.
② 같은 조 제1항에 따른 반품은 7일 이내에 한다.
③ 전항의 기간은 「전자상거래 등에서의 소비자보호에 관한 법률」 제17조에 따른다.
④ 보상 기준은 부록A 참조.
제4조(위약금) 전조의 반품에 드는 비용은 부록A 제2조에 따른다. 손해배상은 민법 제750조에 따른다.
제5조(기타) 이 약관에 없는 사항은 법률 제20001호 및 제9조에 따른다. 제3항을 본다.

부록A 보상 기준
제1조(적용) 이 부록은 제3조의 반품에 적용한다.
제2조(금액) 보상 금액은 제1조에 따른다. 본문 제1조를 본다.
"""

EN = """MASTER SERVICES AGREEMENT

ARTICLE 1 DEFINITIONS
1.1 Terms. Capitalised terms have the meanings in Schedule 1.
1.2 Interpretation. Section 1.1 applies to this Agreement; see Section 2.1.
ARTICLE 2 PAYMENT
2.1 Fees. The Customer shall pay the fees set out in paragraph 2 of Schedule 1, as set forth in Section 2.2.
2.2 Taxes. Taxes are governed by Section 3 of the Internal Revenue Code and by Article 1.
2.3 Late payment. Interest accrues as provided in Section 9.9.

SCHEDULE 1 FEES
1. Base fee. The base fee is 100.
2. Extra fee. The extra fee follows paragraph 1.
"""


@pytest.fixture(scope="module")
def ko() -> DocTree:
    return parse(load_bytes(KO.encode("utf-8"), "약관.txt"))


@pytest.fixture(scope="module")
def en() -> DocTree:
    return parse(load_bytes(EN.encode("utf-8"), "msa.txt"))


def refs(tree: DocTree, path: str) -> dict[str, Ref]:
    node = tree.find(path)
    assert node is not None, path
    return {r.text: r for r in node.refs}


def test_offsets_are_the_phrase_as_written(ko: DocTree) -> None:
    for n in ko.root.walk():
        for r in n.refs:
            assert ko.doc.text[r.start : r.end] == r.text
            assert n.char_start <= r.start < n.char_end  # held by the node whose text contains it


def test_headings_are_not_references_to_themselves(ko: DocTree) -> None:
    assert ko.find("본문/제1조").refs == []
    assert all(r.start >= (n.body_start or n.char_start) for n in ko.root.walk() for r in n.refs)


def test_full_and_bare_labels(ko: DocTree) -> None:
    assert refs(ko, "본문/제3조/제1항")["제2조제1항제2호"].target_path == "본문/제2조/제1항/제2호"
    # a bare 제1항 means a paragraph of the article it is written in
    assert refs(ko, "본문/제2조/제2항")["제1항"].target_path == "본문/제2조/제1항"
    # "이 약관 제2조" names this document
    assert refs(ko, "본문/제2조의2")["이 약관 제2조"].target_path == "본문/제2조"


def test_relative_phrases(ko: DocTree) -> None:
    same = refs(ko, "본문/제3조/제2항")["같은 조 제1항"]
    assert (same.target_path, same.pointer) == ("본문/제3조/제1항", False)
    assert refs(ko, "본문/제3조/제3항")["전항"].target_path == "본문/제3조/제2항"
    assert refs(ko, "본문/제4조")["전조"].target_path == "본문/제3조"


def test_relative_words_inside_other_words_are_no_references() -> None:
    # "안전조치" holds 전조 and "발전항목" 전항: neither is a reference to the article or paragraph before
    tree = parse(load_bytes("운영규정\n\n제1조(목적) 이 규정은 시설을 정한다.\n제2조(안전) ① 회사는 안전조치를 한다.\n"
                            "② 발전항목은 따로 정한다.\n".encode(), "규정.txt"))
    assert [r.text for n in tree.root.walk() for r in n.refs] == []


def test_appendix_references_and_pointers(ko: DocTree) -> None:
    pointer = refs(ko, "본문/제3조/제4항")["부록A"]
    assert (pointer.target_path, pointer.pointer) == ("부록A", True)  # "부록A 참조": only points elsewhere
    inner = refs(ko, "본문/제4조")["부록A 제2조"]
    assert (inner.target_path, inner.pointer) == ("부록A/제2조", True)  # "…에 따른다"


def test_scope_inside_an_appendix(ko: DocTree) -> None:
    # "제1조" written in 부록A means 부록A's own 제1조; "제3조" (absent there) falls back to the body
    assert refs(ko, "부록A/제2조")["제1조"].target_path == "부록A/제1조"
    assert refs(ko, "부록A/제1조")["제3조"].target_path == "본문/제3조"
    assert refs(ko, "부록A/제2조")["본문 제1조"].target_path == "본문/제1조"
    assert refs(ko, "부록A/제1조")["부록"].target_path == "부록A"  # "이 부록"


def test_other_laws_and_law_numbers_are_never_resolved(ko: DocTree) -> None:
    law = refs(ko, "본문/제3조/제3항")["「전자상거래 등에서의 소비자보호에 관한 법률」 제17조"]
    assert (law.target_path, law.reason) == (None, "other law")
    civil = refs(ko, "본문/제4조")["민법 제750조"]
    assert (civil.target_path, civil.reason) == (None, "other law")
    texts = refs(ko, "본문/제5조")
    assert not any("20001" in t for t in texts)  # "법률 제20001호" is a law's number, not an item


def test_another_laws_appendix_and_a_bare_form_are_not_this_texts_appendix() -> None:
    # "「건축법 시행령」 별표 1 제3호" names the other law's 별표: never this decree's own 별표 1
    tree = parse(load_bytes("""시행령

제1조(대상 시설) ① 허가할 수 있는 시설은 다음 각 호와 같다.
1. 「건축법 시행령」 별표 1 제3호에 따른 제1종 근린생활시설
2. 별표 1 제2호에 따른 시설
3. 관리대장의 서식, 기재 내용과 절차는 장관이 정하는 시설

[별표 1] 시설의 종류(제1조 관련)
1. 농업용 창고
2. 버섯 재배사
3. 축사
""".encode(), "시행령.txt"))
    texts = refs(tree, "본문/제1조/제1항/제1호")
    other = texts["「건축법 시행령」 별표 1 제3호"]
    assert (other.target_path, other.reason, other.law, other.clause) == (None, "other law", "건축법 시행령",
                                                                          "별표 1/제3호")
    own = refs(tree, "본문/제1조/제1항/제2호")["별표 1 제2호"]
    assert own.target_path is not None and own.target_path.startswith("별표 1")
    # a bare "서식" is any form, not a reference to this text's appendix (that needs its number: 별지 제1호서식)
    assert not refs(tree, "본문/제1조/제1항/제3호")


def test_unresolved_targets_say_why(ko: DocTree) -> None:
    texts = refs(ko, "본문/제5조")
    assert (texts["제9조"].target_path, texts["제9조"].reason) == (None, "no such clause in this document")
    assert (texts["제3항"].target_path, texts["제3항"].reason) == (None, "no such paragraph in 제5조")


def test_english_sections_schedules_and_other_laws(en: DocTree) -> None:
    assert refs(en, "Article 1/1.2")["Section 1.1"].target_path == "Article 1/1.1"
    assert refs(en, "Article 1/1.1")["Schedule 1"].target_path == "Schedule 1"
    inner = refs(en, "Article 2/2.1")["paragraph 2 of Schedule 1"]
    assert inner.target_path == "Schedule 1/2"
    assert refs(en, "Article 2/2.1")["Section 2.2"].pointer  # "as set forth in Section 2.2"
    irc = refs(en, "Article 2/2.2")["Section 3 of the Internal Revenue Code"]
    assert (irc.target_path, irc.reason) == (None, "other law")
    assert refs(en, "Article 2/2.2")["Article 1"].target_path == "Article 1"
    missing = refs(en, "Article 2/2.3")["Section 9.9"]
    assert (missing.target_path, missing.reason) == (None, "no such section")
    # "paragraph 1" inside a schedule means the schedule's paragraph, not Article 1
    assert refs(en, "Schedule 1/2")["paragraph 1"].target_path == "Schedule 1/1"


def test_refs_are_sorted_by_offset(ko: DocTree) -> None:
    for n in ko.root.walk():
        assert [r.start for r in n.refs] == sorted(r.start for r in n.refs)


def test_a_reference_to_the_former_text_links_nothing_of_todays() -> None:
    # "종전의 제4조제1항 및 제5조": the clauses of the text before the amendment — today's 제4조 may say something else
    tree = parse(load_bytes("온천법 시행령\n\n제4조(신고) ① 온천을 발견한 자는 신고한다.\n제5조(보고) 시장은 보고한다.\n부칙\n"
                            "제2조(경과조치) 이 영 시행 전에 종전의 제4조제1항 및 제5조에 따라 한 신고는 제4조제1항에 따른 "
                            "신고로 본다.\n".encode(), "시행령.txt"))
    refs = [r for n in tree.root.walk() for r in n.refs]
    former = [r for r in refs if r.reason == "former text"]
    assert [r.text for r in former] == ["제4조제1항", "제5조"]
    assert all(r.target_path is None for r in former)
    today = [r for r in refs if r.reason is None]
    assert [(r.text, r.target_path) for r in today] == [("제4조제1항", "본문/제4조/제1항")]


def test_a_range_refers_to_the_clauses_between_its_ends() -> None:
    text = ("운영규정\n\n제1조(목적) 이 규정은 시설을 정한다.\n제2조(신청) 신청한다.\n제2조의2(접수) 접수한다.\n"
            "제3조(심사) 심사한다.\n제4조(결과) ① 통지한다.\n② 공고한다.\n③ 게시한다.\n④ 보관한다.\n"
            "⑤ 제1항부터 제4항까지의 절차는 제2조부터 제4조까지에 따른다. 제1조 내지 제3조를 본다.\n"
            "제5조(예외) 제2조 및 제4조는 적용하지 아니한다. 제1조부터 제2조까지는 제외한다.\n")
    tree = parse(load_bytes(text.encode("utf-8"), "규정.txt"))
    got = [(r.text, r.target_path) for r in tree.find("본문/제4조/제5항").refs]
    assert got == [("제1항", "본문/제4조/제1항"), ("제1항부터 제4항", "본문/제4조/제2항"),
                   ("제1항부터 제4항", "본문/제4조/제3항"), ("제4항", "본문/제4조/제4항"),
                   ("제2조", "본문/제2조"), ("제2조부터 제4조", "본문/제2조의2"), ("제2조부터 제4조", "본문/제3조"),
                   ("제4조", "본문/제4조"), ("제1조", "본문/제1조"), ("제1조 내지 제3조", "본문/제2조"),
                   ("제1조 내지 제3조", "본문/제2조의2"), ("제3조", "본문/제3조")]
    # a list ("및") is no range, and adjacent ends leave nothing between
    assert [r.target_path for r in tree.find("본문/제5조").refs] == ["본문/제2조", "본문/제4조", "본문/제1조", "본문/제2조"]


def test_a_bare_attached_is_the_verb_unless_it_points() -> None:
    text = ("신청규정\n\n제1조(서류) 사업계획서(도면 첨부)와 사진(별첨)을 낸다. 수수료는 첨부와 같다. 양식은 별첨 참조.\n")
    tree = parse(load_bytes(text.encode("utf-8"), "규정.txt"))
    assert [(r.text, r.pointer) for r in tree.find("본문/제1조").refs] == [("첨부", True), ("별첨", True)]
def test_another_laws_addenda_number_the_amending_acts_provisions() -> None:
    # an omnibus decree's 부칙 copied into each decree it amended: its "제1조부터 제61조까지의 개정규정" are the
    # omnibus decree's articles — not this decree's, nor the 부칙's own 제1조; "제1조에 따른" there is the 부칙's own
    text = ("어느 법 시행령\n\n제1조(목적) 정한다.\n제2조(신청) 신청한다.\n\n"
            "부칙(소상공인 지원을 위한 61개 법령의 일부개정에 관한 대통령령) <제33434호,2023.4.25>\n"
            "제1조(시행일) 이 영은 공포한 날부터 시행한다.\n"
            "제2조(적용례) 제1조부터 제61조까지의 개정규정은 이 영 시행 전의 위반행위에도 적용한다. "
            "제1조에 따른 시행일 전의 신청에도 같다.\n제3조(다른 법령의 개정) 제2조 단서의 개정규정은 따로 시행한다.\n")
    tree = parse(load_bytes(text.encode("utf-8"), "시행령.txt"))
    block = next(n for n in tree.root.walk() if n.kind == "addenda")
    got = [(r.text, r.target_path, r.reason) for r in tree.find(f"{block.path}/제2조").refs]
    assert got == [("제1조", None, "the amending act's provision"), ("제61조", None, "no such clause in this document"),
                   ("제1조", f"{block.path}/제1조", None)]
    assert [(r.text, r.target_path) for r in tree.find(f"{block.path}/제3조").refs] == [("제2조", None)]


def test_a_pointer_in_the_polite_style_of_terms() -> None:
    text = ("이용약관\n\n제1조(요금) ① 요금은 별표 1과 같습니다.\n② 환불은 제2조에 따릅니다.\n"
            "③ 할인은 별표 1과 같으며, 회원은 언제든지 신청할 수 있습니다.\n제2조(환불) 돌려드립니다.\n\n[별표 1] 요금표\n기본 1만원\n")
    tree = parse(load_bytes(text.encode("utf-8"), "약관.txt"))
    got = [(r.text, r.pointer) for p in ("본문/제1조/제1항", "본문/제1조/제2항", "본문/제1조/제3항")
           for r in tree.find(p).refs]
    # "같으며": the sentence goes on to say something of its own — a plain reference
    assert got == [("별표 1", True), ("제2조", True), ("별표 1", False)]

