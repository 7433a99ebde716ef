"""References between laws (issue 14): a qualified reference is another document's and never resolved inside
this one; amendment wording and "생략" lines are no links; elliptical lists keep their article; terms of
service numbered "1. 2." resolve "제1항"/"전항"; a word such as "첨부파일" is no reference."""

from __future__ import annotations

from jogak.load import load_bytes
from jogak.model import Ref
from jogak.structure import DocTree, parse

DECREE = """---
제목: 상호저축은행법 시행령
법령구분: 대통령령
공포일자: 2025-12-23
시행일자: 2025-12-23
---

# 상호저축은행법 시행령

제1조(목적) 이 영은 「상호저축은행법」에서 위임된 사항을 규정함을 목적으로 한다.
제3조(업무) ① 법 제11조제1항제15호에서 "대통령령으로 정하는 업무"란 다음 각 호의 업무를 말한다.
1. 보호예수
2. 수납 및 지급대행
② 법 제11조제1항제15호 및 같은 조 제2항에 따른 업무는 제1항 각 호 및 제2항 각 호로 한다.
제11조(준용) 이 영 제3조제1항 각 호 및 제2항 각 호의 업무에는 「형법」 제258조의2제1항을 적용하지 않는다.
제39조(설명의무) 상호저축은행은 법 제34조제1항 각 호의 사항을 거래자에게 설명하여야 한다.

부칙 <제20000호,2007.1.1>
제1조(시행일) 이 영은 공포한 날부터 시행한다.
제2조(다른 법령의 개정) ② 경비업법 시행령 일부를 다음과 같이 개정한다.
제3조제1항 중 "상호신용금고"를 "상호저축은행"으로 한다.
제3조 생략
"""

RULE = """---
제목: 상호저축은행법 시행규칙
법령구분: 총리령
공포일자: 2025-01-01
시행일자: 2025-01-01
---

# 상호저축은행법 시행규칙

제1조(목적) 이 규칙은 「상호저축은행법」 및 같은 법 시행령에서 위임된 사항을 규정한다.
제2조(신청서) 영 제5조제1항에 따른 신청서는 별지 제1호서식에 따른다. 법 제6조에 따른 인가도 같다.
제5조(보고) 시행령 제3조에 따른 보고는 이 규칙 제2조에 따른다.
"""

ADDENDA = """---
제목: 경비업법
법령구분: 법률
공포일자: 2024-01-01
시행일자: 2024-01-01
---

# 경비업법

제1조(목적) 이 법은 경비업의 육성을 목적으로 한다.
제2조(정의) 이 법에서 사용하는 용어의 뜻은 다음과 같다.
제3조(허가) 제2조에 따른 경비업은 허가를 받아야 한다.

부칙 <제19999호,2024.1.1>
제1조(시행일) 이 법은 공포한 날부터 시행한다.
제2조(다른 법률의 개정) ① 생략
② 형법 일부를 다음과 같이 개정한다.
제3조 중 "경비"를 "보안"으로 하고, 「형법」 제258조의2제1항을 삭제한다.
제3조(다른 법률과의 관계) 제2조부터 제4조까지 생략
"""

TERMS = """서비스 이용약관

제1조(목적) 이 약관은 서비스 이용 조건을 정한다.
제7조(회원탈퇴)
1. 회원은 언제든지 탈퇴를 요청할 수 있다.
2. 회사는 제1항에 따른 요청을 받으면 즉시 처리한다.
3. 전항의 처리 결과는 첨부파일로 알린다.
"""


def _parse(text: str, name: str) -> DocTree:
    return parse(load_bytes(text.encode("utf-8"), name))


def _refs(tree: DocTree, path: str) -> list[Ref]:
    node = tree.find(path)
    assert node is not None, path
    return list(node.refs)


def _by_text(tree: DocTree, path: str) -> dict[str, Ref]:
    return {r.text.strip(): r for r in _refs(tree, path)}


def test_decree_law_references_are_the_acts_never_this_decrees() -> None:
    t = _parse(DECREE, "시행령.md")
    assert t.find("본문/제11조") is not None  # the decree has its own 제11조: 법 제11조 must not land there
    r = _by_text(t, "본문/제3조/제1항")["법 제11조제1항제15호"]
    assert (r.target_path, r.law, r.clause, r.reason) == (
        None, "상호저축은행법", "본문/제11조/제1항/제15호", "other law")
    # "같은 조 제2항" right after "법 제11조제1항제15호" is the Act's 제11조제2항
    same = _by_text(t, "본문/제3조/제2항")["같은 조 제2항"]
    assert (same.target_path, same.law, same.clause) == (None, "상호저축은행법", "본문/제11조/제2항")


def test_elliptical_list_keeps_its_article() -> None:
    t = _parse(DECREE, "시행령.md")
    refs = _refs(t, "본문/제11조")
    para = next(r for r in refs if r.text.strip() == "제2항")
    assert para.target_path == "본문/제3조/제2항"  # 제3조제1항 각 호 및 제2항 각 호: 제3조's 제2항
    assert next(r for r in refs if r.text.startswith("이 영")).target_path == "본문/제3조/제1항"


def test_bracketed_law_is_another_document() -> None:
    t = _parse(DECREE, "시행령.md")
    r = next(r for r in _refs(t, "본문/제11조") if r.text.startswith("「형법」"))
    assert (r.target_path, r.law, r.clause) == (None, "형법", "본문/제258조의2/제1항")


def test_other_laws_clause_whose_content_is_said_is_followed() -> None:
    t = _parse(DECREE, "시행령.md")
    (r,) = _refs(t, "본문/제39조")
    assert r.law == "상호저축은행법" and r.clause == "본문/제34조/제1항" and r.pointer  # "각 호의 사항"


def test_rule_names_its_decree_and_act() -> None:
    t = _parse(RULE, "시행규칙.md")
    refs = _by_text(t, "본문/제2조")
    assert (refs["영 제5조제1항"].law, refs["영 제5조제1항"].clause) == ("상호저축은행법 시행령", "본문/제5조/제1항")
    assert refs["법 제6조"].law == "상호저축은행법"
    r5 = _by_text(t, "본문/제5조")
    assert r5["시행령 제3조"].law == "상호저축은행법 시행령" and r5["시행령 제3조"].target_path is None
    assert r5["이 규칙 제2조"].target_path == "본문/제2조" and r5["이 규칙 제2조"].law is None


def test_amendment_wording_and_omitted_lines_are_no_links() -> None:
    t = _parse(ADDENDA, "법률.md")
    inside = [r for n in t.root.walk() if n.block_type == "addenda" for r in n.refs]
    assert inside and all(r.target_path is None for r in inside), [(r.text, r.target_path) for r in inside]
    reasons = {r.text.strip(): r.reason for r in inside}
    assert reasons["제3조"] == "amendment text"  # 형법's 제3조 as it was, not 경비업법 제3조
    assert reasons["제2조"] == "omitted text (생략)"  # "제2조부터 제4조까지 생략"
    # the body still links inside itself
    assert _by_text(t, "본문/제3조")["제2조"].target_path == "본문/제2조"


def test_decree_amendment_in_addenda_is_no_link() -> None:
    t = _parse(DECREE, "시행령.md")
    inside = [r for n in t.root.walk() if n.block_type == "addenda" for r in n.refs]
    assert inside and all(r.target_path is None for r in inside)


def test_terms_numbered_paragraphs_resolve_and_a_word_is_no_reference() -> None:
    t = _parse(TERMS, "약관.txt")
    art = t.find("본문/제7조")
    assert art is not None
    refs = [r for n in art.walk() for r in n.refs]
    by = {r.text.strip(): r for r in refs}
    assert by["제1항"].target_path == "본문/제7조/제1호"  # the article's first paragraph, numbered "1."
    assert by["전항"].target_path == "본문/제7조/제2호"
    assert not any("첨부" in r.text for r in refs)


def test_same_law_names_the_law_before() -> None:
    text = DECREE.replace("제39조(설명의무) 상호저축은행은 법 제34조제1항 각 호의 사항을 거래자에게 설명하여야 한다.",
                          "제39조(손해배상) 손해배상은 「민법」 제750조 및 같은 법 제751조에 따른다.")
    refs = {r.text.strip(): r for r in _refs(_parse(text, "시행령.md"), "본문/제39조")}
    same = refs["같은 법 제751조"]
    assert (same.target_path, same.law, same.clause) == (None, "민법", "본문/제751조")


def test_a_qualifier_before_a_relative_reference_names_the_law() -> None:
    text = DECREE.replace(
        "제39조(설명의무) 상호저축은행은 법 제34조제1항 각 호의 사항을 거래자에게 설명하여야 한다.",
        "제39조(조회) 법 제34조제1항에 따른 조회는 「형법」 제10조제1항에 따른 기관에 하되, 법 같은 조 제2항에 따른"
        " 조회와 함께 할 수 있다.\n제40조(준용) 표창의 전수는 법 시행령 제3조를 준용한다. 법 제2호에 따른다.")
    # a decree not named "… 시행령" (정부 표창 규정): "법" is what its text defines
    text = text.replace("상호저축은행법 시행령", "상호저축은행 표창 규정").replace(
        "「상호저축은행법」에서", "「상호저축은행법」(이하 \"법\"이라 한다)에서")
    t = _parse(text, "규정.md")
    refs = {r.text.strip(): r for r in _refs(t, "본문/제39조")}
    same = refs["같은 조 제2항"]  # "법 같은 조": the Act's 제34조, not 형법 제10조 nor this document's
    assert (same.target_path, same.law, same.clause) == (None, "상호저축은행법", "본문/제34조/제2항")
    refs40 = {r.text.strip(): r for r in _refs(t, "본문/제40조")}
    assert refs40["법 시행령 제3조"].target_path is None
    assert refs40["법 시행령 제3조"].law == "상호저축은행법 시행령"
    assert refs40["제2호"].target_path is None and refs40["제2호"].law == "상호저축은행법"


def test_a_list_joined_by_na_keeps_its_paragraph() -> None:
    # "제1항 제1호나 제2호": the second 호 is 제1항's, as with "및" or "이나" (a47's writer found it unresolved)
    text = ("이용약관\n\n제21조(상환) ① 회사는 다음 각 호의 경우 상환을 요구할 수 있다.\n1. 연체가 3회 이상인 경우\n"
            "2. 담보가 없어진 경우\n② 제1항 제1호나 제2호에 해당하면 회사는 즉시 알린다.\n")
    t = _parse(text, "약관.txt")
    got = [(r.text.strip(), r.target_path) for r in _refs(t, "본문/제21조/제2항")]
    assert got == [("제1항 제1호", "본문/제21조/제1항/제1호"), ("제2호", "본문/제21조/제1항/제2호")]


def test_amending_a_law_not_yet_in_force_is_amendment_wording() -> None:
    # "법률 제8221호 선박안전법 전부개정법률 일부를 다음과 같이 한다." amends a law passed but not yet in force
    # (so "한다", not "개정한다"): its "제3조제2항제2호" is 선박안전법's, not this Act's 제3조
    t = _parse("# 해운법\n\n##### 제3조 (사업의 종류)\n\n**①** 해상여객운송사업의 종류는 다음과 같다.\n\n"
               "**②** 해상화물운송사업의 종류는 다음과 같다.\n\n  1\\. 내항 화물운송사업\n\n  2\\. 외항 화물운송사업\n\n"
               "## 부칙 <제8381호,2007.4.11>\n\n제1조 (시행일) 이 법은 공포한 날부터 시행한다.\n\n"
               "제2조 (다른 법률의 개정) ①법률 제8221호 선박안전법 전부개정법률 일부를 다음과 같이 한다.\n\n"
               "제3조제2항제2호 중 \"「해운법」 제25조제1호\"를 \"「해운법」 제23조제1호\"로 한다.\n\n"
               "②선원법 일부를 다음과 같이 개정한다.\n\n제103조제1항 중 \"「해운법」 제34조\"를 \"「해운법」 제33조\"로 한다.\n",
               "법률.md")
    inside = [r for n in t.root.walk() if n.block_type == "addenda" for r in n.refs]
    assert inside and all(r.target_path is None for r in inside), [(r.text, r.target_path) for r in inside]
    assert {r.text.strip(): r.reason for r in inside}["제3조제2항제2호"] == "amendment text"
    (art,) = [n for n in t.root.walk() if n.block_type == "addenda" and n.path.endswith("/제2조")]
    assert "transitional_for" not in (art.attrs or {})


def test_a_list_of_references_goes_on_past_an_aside_in_parentheses() -> None:
    # "「고등교육법 시행령」 제28조제1항(「평생교육법 시행령」 제34조에 따라 …) 및 제30조": 제30조 is still the
    # 고등교육법 시행령's; "제55조제1항(…)ㆍ제2항" is 제55조's 제2항, not this article's
    t = _parse("# 산업교육법 시행령\n\n##### 제8조 (계약정원)\n\n**①** 계약정원은 「고등교육법 시행령」 제28조제1항(「평생교육법 "
               "시행령」 제34조에 따라 준용되는 경우를 포함한다) 및 제30조에도 불구하고 따로 있는 것으로 본다.\n\n"
               "**②** 제9조제1항(제3호는 제외한다)ㆍ제2항(같은 항 제4호는 제외한다) 및 제3항을 준용한다.\n\n"
               "##### 제9조 (신청)\n\n**①** 신청은 서면으로 한다.\n\n**②** 신청서에는 계획을 적는다.\n\n"
               "**③** 결과는 30일 안에 알린다.\n\n##### 제30조 (보고)\n\n총장은 매년 보고한다.\n", "시행령.md")
    r1 = _by_text(t, "본문/제8조/제1항")
    assert r1["제30조"].target_path is None and r1["제30조"].law == "고등교육법 시행령"
    r2 = [(r.text.strip(), r.target_path) for r in t.find("본문/제8조/제2항").refs]
    assert ("제2항", "본문/제9조/제2항") in r2 and ("제3항", "본문/제9조/제3항") in r2, r2


def test_same_table_names_an_item_of_the_table_before() -> None:
    # "별표 1 제3호 … 같은 표 제5호" / "동표 제4호": the table's 호, never this 항's own 제5호 (the archive writes it
    # about 2,200 times; before, a 항 with five items linked its own 제5호); "「…」 별표 1의 영역" keeps its 의 out
    text = ("이용약관\n\n제1조(목적) 이 약관은 과목을 정한다.\n"
            "제2조(과목) ① 과목은 다음 각 호와 같다.\n1. 국어\n2. 수학\n3. 영어\n4. 과학\n5. 사회\n"
            "② 「국어기본법 시행령」 별표 1의 영역에 속한 과목과 같은 표 제5호에 따른 과목은 「건축법 시행령」 별표 1 제3호의"
            " 시설 및 동표 제4호아목의 시설에서 가르친다.\n"
            "③ 같은 표 제5호의 과목은 별표 2 제1호 및 같은 별표 제2호에 따른다.\n\n"
            "별표 2 과목표\n1. 국어 강좌\n2. 수학 강좌\n")
    t = _parse(text, "약관.txt")
    got = [(r.text.strip(), r.target_path, r.law, r.clause, r.reason) for r in _refs(t, "본문/제2조/제2항")]
    assert got == [
        ("「국어기본법 시행령」 별표 1", None, "국어기본법 시행령", "별표 1", "other law"),
        ("같은 표 제5호", None, "국어기본법 시행령", "별표 1/제5호", "other law"),
        ("「건축법 시행령」 별표 1 제3호", None, "건축법 시행령", "별표 1/제3호", "other law"),
        ("동표 제4호아목", None, "건축법 시행령", "별표 1/제4호/아목", "other law"),
    ]
    got3 = [(r.text.strip(), r.target_path, r.reason) for r in _refs(t, "본문/제2조/제3항")]
    assert got3[0] == ("같은 표 제5호", None, "no table named before")  # not 제1항's 제5호
    assert [g[:2] for g in got3[1:]] == [("별표 2 제1호", "별표 2/제1호"), ("같은 별표 제2호", "별표 2/제2호")]


def test_a_paragraph_after_an_articles_title_or_genitive_is_that_articles() -> None:
    # "제44조(등록의 취소)제1항", "「형사소송법」 제56조의2(공판정에서의 …)제2항", "법 제284조의2의 제1항",
    # "제61조(제4항은 제외한다)", "제134조제1항제1호(경고만 해당한다) 및 제3호": before, each 항/호 linked this article's own
    text = DECREE.replace(
        "제39조(설명의무) 상호저축은행은 법 제34조제1항 각 호의 사항을 거래자에게 설명하여야 한다.",
        "제39조(준용) ① 제3조(업무)제2항의 업무와 「형사소송법」 제56조의2(공판정에서의 속기ㆍ녹음 및 영상녹화)제2항 및 제3항,"
        " 법 제11조의 제1항을 준용한다. 제3조(제2항은 제외한다)와 제3조제1항제1호(보호예수만 해당한다) 및 제2호도 같다.\n"
        "② 제1항에 따른다.\n③ 제2항에 따른다.")
    got = [(r.text.strip(), r.target_path, r.law, r.clause) for r in _refs(_parse(text, "시행령.md"), "본문/제39조/제1항")]
    assert got == [
        ("제3조", "본문/제3조", None, None), ("제2항", "본문/제3조/제2항", None, None),
        ("「형사소송법」 제56조의2", None, "형사소송법", "본문/제56조의2"),
        ("제2항", None, "형사소송법", "본문/제56조의2/제2항"), ("제3항", None, "형사소송법", "본문/제56조의2/제3항"),
        ("법 제11조", None, "상호저축은행법", "본문/제11조"), ("제1항", None, "상호저축은행법", "본문/제11조/제1항"),
        ("제3조", "본문/제3조", None, None), ("제2항", "본문/제3조/제2항", None, None),
        ("제3조제1항제1호", "본문/제3조/제1항/제1호", None, None), ("제2호", "본문/제3조/제1항/제2호", None, None),
    ]


def test_a_relative_reference_in_quoted_wording_of_another_provision_is_no_link() -> None:
    text = DECREE.replace(
        "제39조(설명의무) 상호저축은행은 법 제34조제1항 각 호의 사항을 거래자에게 설명하여야 한다.",
        "제39조(준용) ① 법 제34조제1항에서 \"제2항에 따른 설명\"이란 서면 설명을 말한다.\n"
        "② 보고에 관하여는 제3조를 준용한다. 이 경우 \"제1항 각 호\"는 \"이 조 제1항에 따른 사항\"으로 본다.\n"
        "③ 제1항에서 \"제2항의 보고\"란 제2항에 따른 보고를 말한다.")
    t = _parse(text, "시행령.md")
    assert [(r.text.strip(), r.target_path, r.reason) for r in _refs(t, "본문/제39조/제1항")][1] == \
        ("제2항", None, "quoted wording")  # the Act's 제34조's ②, not this article's
    # 제3조's wording is replaced: its "제1항" is 제3조's ①, not 제39조's; the replacing wording is this law's own
    assert [(r.text.strip(), r.target_path, r.reason) for r in _refs(t, "본문/제39조/제2항")] == [
        ("제3조", "본문/제3조", None), ("제1항", None, "quoted wording"), ("제1항", "본문/제39조/제1항", None)]
    # quoting a 항 of this very article: its references are this article's
    assert [r.target_path for r in _refs(t, "본문/제39조/제3항")] == ["본문/제39조/제1항", "본문/제39조/제2항",
                                                                  "본문/제39조/제2항"]


def test_references_quoted_from_another_laws_provision_are_that_laws() -> None:
    # '「특허법」 제8조제1항 중 "제3조 … 제4조제2항"은 "제20조"로 본다': the quoted wording is 특허법's, the replacing
    # wording this law's own; "같은 조" written after the quotes looks back to 특허법's 제8조, not to 제20조
    text = DECREE.replace(
        "제39조(설명의무) 상호저축은행은 법 제34조제1항 각 호의 사항을 거래자에게 설명하여야 한다.",
        "제39조(준용) ① 심판에 관하여는 「특허법」 제8조를 준용한다.\n"
        "② 제1항의 경우 「특허법」 제8조제1항 중 \"제3조제1항 또는 제4조제2항의 심판\"은 \"제20조의 심판\"으로, "
        "같은 조 제3항 중 \"제6조\"는 \"제21조\"로 본다.\n"
        "③ 제1항의 경우 「특허법」 제9조제1항제1호 중 \"제5조제1항\"은 \"제3조제1항\"으로, 같은 항 제2호의 "
        "\"제7조\"는 \"제4조\"로 본다.")
    t = _parse(text, "시행령.md")
    got = [(r.text.strip(), r.target_path, r.law, r.clause) for r in _refs(t, "본문/제39조/제2항")]
    assert got == [
        ("제1항", "본문/제39조/제1항", None, None),
        ("「특허법」 제8조제1항", None, "특허법", "본문/제8조/제1항"),
        ("제3조제1항", None, "특허법", "본문/제3조/제1항"), ("제4조제2항", None, "특허법", "본문/제4조/제2항"),
        ("제20조", None, None, None),
        ("같은 조 제3항", None, "특허법", "본문/제8조/제3항"),
        ("제6조", None, "특허법", "본문/제6조"),
        ("제21조", None, None, None)]
    # a 호 of another article's 항 quoted ("…제1항제1호 중"), and "같은 항" past the replacing wording
    got = [(r.text.strip(), r.target_path, r.law, r.clause) for r in _refs(t, "본문/제39조/제3항")]
    assert got[2:] == [
        ("제5조제1항", None, "특허법", "본문/제5조/제1항"), ("제3조제1항", "본문/제3조/제1항", None, None),
        ("같은 항 제2호", None, "특허법", "본문/제9조/제1항/제2호"), ("제7조", None, "특허법", "본문/제7조"),
        ("제4조", None, None, None)]  # this decree has no 제4조: no link here, and not 특허법's


def test_a_misprinted_amending_sentence_still_makes_amendment_text() -> None:
    # "다음가 같이 개정한다" (a misprint the official text of a 2016 decree carries): what follows is the other law's
    text = DECREE + ("\n부칙 <제1호,2016.8.31>\n제1조(시행일) 이 영은 공포한 날부터 시행한다.\n"
                     "제2조(다른 법령의 개정) ① 국유재산법 시행령 일부를 다음가 같이 개정한다.\n"
                     "제29조제2항제1호 중 \"같은 법 제9조\"를 \"같은 법 제8조\"로 한다.\n")
    t = _parse(text, "시행령.md")
    refs = [r for n in t.nodes() if n.path.startswith("부칙") for r in n.refs if r.text.strip() == "제29조제2항제1호"]
    assert refs and all(r.target_path is None and r.reason == "amendment text" for r in refs)


def test_an_article_picked_out_of_a_part_of_another_law_is_that_laws() -> None:
    # "「형법」 제2편제25장 상해와 폭행의 죄 중 제257조 …": 형법's articles, though no list joins them to the name
    text = ("이용약관\n\n제1조(목적) 이 약관은 무엇을 정한다.\n제2조(정의) 이 약관에서 쓰는 말의 뜻은 다음과 같다.\n"
            "1. \"폭력\"이란 「형법」 제2편제25장 상해와 폭행의 죄 중 제257조(상해), 제260조(폭행)제1항ㆍ제2항의 죄를 말한다.\n"
            "2. \"행위\"란 제1조에 따른 행위를 말한다.\n")
    t = _parse(text, "약관.txt")
    got = [(r.text, r.target_path, r.law, r.clause) for r in _refs(t, "본문/제2조/제1호")]
    assert got == [("「형법」", None, "형법", None), ("제257조", None, "형법", "본문/제257조"),
                   ("제260조", None, "형법", "본문/제260조"), ("제1항", None, "형법", "본문/제260조/제1항"),
                   ("제2항", None, "형법", "본문/제260조/제2항")]
    assert [r.target_path for r in _refs(t, "본문/제2조/제2호")] == ["본문/제1조"]


def test_a_renumbering_note_links_nothing() -> None:
    text = ("이용약관\n\n제1조(목적) 이 약관은 무엇을 정한다.\n제2조(신청) 신청은 서면으로 한다. [종전 제2조는 제3조로 이동 <2015.12.1>]\n"
            "제3조(처리) 제2조에 따라 처리한다. [제2조에서 이동 <2015.12.1>]\n")
    t = _parse(text, "약관.txt")
    assert [(r.text, r.target_path, r.reason) for r in _refs(t, "본문/제2조")] == [
        ("제2조", None, "renumbering note"), ("제3조", None, "renumbering note")]
    assert [(r.text, r.target_path, r.reason) for r in _refs(t, "본문/제3조")] == [
        ("제2조", "본문/제2조", None), ("제2조", None, "renumbering note")]


def test_parts_of_a_law_listed_among_its_articles_keep_the_list() -> None:
    # "「상법」 제1편제3장(제16조는 제외한다), 제22조 …", "「공무원임용령」(제2장제1절 및 제2절, 제3장부터 제5장까지, 제43조": the
    # articles after a part of the law are still that law's
    text = ("이용약관\n\n제1조(목적) 이 약관은 무엇을 정한다.\n"
            "제2조(준용) 지점에 관하여는 「상법」 제1편제3장(제16조는 제외한다), 제22조 및 제2편제5장, 제90조를 준용한다.\n")
    got = [(r.text, r.target_path, r.law, r.clause) for r in _refs(_parse(text, "약관.txt"), "본문/제2조")]
    assert got == [("「상법」", None, "상법", None), ("제16조", None, "상법", "본문/제16조"),
                   ("제22조", None, "상법", "본문/제22조"), ("제90조", None, "상법", "본문/제90조")]


def test_a_law_named_without_brackets_and_given_a_short_name_owns_the_article_after() -> None:
    # "낙농진흥법(이하 "법"이라 한다) 제4조제1항" (old rules write the name bare): the Act's 제4조, not the rule's own
    text = ("---\n제목: 낙농진흥법 시행규칙\n법령구분: 농림축산식품부령\n---\n\n# 낙농진흥법 시행규칙\n\n"
            "제1조(목적) 이 규칙은 위임된 사항을 정한다.\n"
            "제2조(계획) 장관은 낙농진흥법(이하 \"법\"이라 한다) 제4조제1항의 규정에 의하여 계획을 세운다.\n"
            "제3조(보고) 제2조에 따른 계획은 법 제5조에 따라 보고한다.\n제4조(서식) 서식은 따로 정한다.\n")
    t = _parse(text, "시행규칙.md")
    assert [(r.text, r.target_path, r.law, r.clause) for r in _refs(t, "본문/제2조")] == [
        ("제4조제1항", None, "낙농진흥법", "본문/제4조/제1항")]
    assert [(r.text, r.target_path, r.law) for r in _refs(t, "본문/제3조")] == [
        ("제2조", "본문/제2조", None), ("법 제5조", None, "낙농진흥법")]


def test_items_picked_out_of_a_clauses_list_in_an_aside_are_that_clauses() -> None:
    # "제3조제1항 각 호(제1호 및 제3호는 제외한다)": 제3조 ①'s items (~190 in the archive linked the citing 항's own)
    text = ("이용약관\n\n제1조(목적) 이 규칙은 목적을 정한다.\n제2조(서류) ① 다음 각 호의 서류를 낸다.\n1. 신청서\n2. 사본\n3. 계획서\n"
            "② 제3조제1항 각 호(제1호 및 제3호는 제외한다)의 서류와 제1항 각 호(제2호는 제외한다)의 서류는 보관한다.\n"
            "제3조(보고) ① 다음 각 호를 보고한다.\n1. 실적\n2. 계획\n3. 예산\n")
    got = [(r.text, r.target_path) for r in _refs(_parse(text, "약관.txt"), "본문/제2조/제2항")]
    assert got == [("제3조제1항", "본문/제3조/제1항"), ("제1호", "본문/제3조/제1항/제1호"), ("제3호", "본문/제3조/제1항/제3호"),
                   ("제1항", "본문/제2조/제1항"), ("제2호", "본문/제2조/제1항/제2호")]


def test_items_an_aside_leaves_out_of_a_paragraph_are_that_paragraphs() -> None:
    # "제1항(제2호는 제외한다) 및 제2항": ①'s 제2호, not the citing 항's (~20 of 420 archive Acts and decrees); an aside that
    # does not leave out or keep 호 ("제1항(제3호에 따른 …를 포함한다)") is not read so
    text = ("이용약관\n\n제1조(목적) 이 규칙은 목적을 정한다.\n제2조(서류) ① 다음 각 호의 서류를 낸다.\n1. 신청서\n2. 사본\n"
            "3. 계획서\n② 다음 각 호를 보관한다.\n1. 영수증\n"
            "③ 제1항(제2호는 제외한다) 및 제2항(제1호만 해당한다)의 서류는 5년간 보관한다.\n"
            "④ 다음 각 호의 서류는 돌려준다.\n1. 원본\n2. 사진\n3. 도면\n"
            "⑤ 제1항(제3호에 따른 서류를 포함한다)은 제4항에도 적용한다.\n")
    got = [(r.text, r.target_path) for r in _refs(_parse(text, "약관.txt"), "본문/제2조/제3항")]
    assert got == [("제1항", "본문/제2조/제1항"), ("제2호", "본문/제2조/제1항/제2호"),
                   ("제2항", "본문/제2조/제2항"), ("제1호", "본문/제2조/제2항/제1호")]
    got = [(r.text, r.target_path) for r in _refs(_parse(text, "약관.txt"), "본문/제2조/제5항")]
    assert got[:2] == [("제1항", "본문/제2조/제1항"), ("제3호", None)]


def test_a_range_in_another_law_names_the_clauses_between_its_ends() -> None:
    text = DECREE.replace("\n\n부칙", "\n제40조(신청) ① 법 제7조제2항부터 제4항까지의 규정에 따른 신청은 서면으로 한다.\n"
                          "② 법 제24조의2부터 제24조의4까지 및 「형법」 제129조부터 제131조까지를 적용한다.\n\n부칙", 1)
    t = _parse(text, "시행령.md")
    assert [(r.law, r.clause) for r in _refs(t, "본문/제40조/제1항")] == [
        ("상호저축은행법", "본문/제7조/제2항"), ("상호저축은행법", "본문/제7조/제3항"), ("상호저축은행법", "본문/제7조/제4항")]
    assert [r.clause for r in _refs(t, "본문/제40조/제2항")] == [
        "본문/제24조의2", "본문/제24조의3", "본문/제24조의4", "본문/제129조", "본문/제130조", "본문/제131조"]

