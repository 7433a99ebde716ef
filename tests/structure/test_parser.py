"""The clause tree: headings accepted only when numbering is consistent, paths from labels, blocks."""

from __future__ import annotations

import collections

import pytest

from jogak.load import load_bytes
from jogak.structure import parse
from sample_texts import EN, KO_CONTRACT, KO_TERMS


def doc_of(text: str, name: str = "계약.txt"):
    return load_bytes(text.encode("utf-8"), name)


@pytest.fixture(scope="module")
def ko_tree():
    return parse(doc_of(KO_CONTRACT))


def paths(tree) -> list[str]:
    return [n.path for n in tree.root.walk()]


def test_blocks_and_paths(ko_tree) -> None:
    p = paths(ko_tree)
    for expected in ["", "당사자", "본문/제1조", "본문/제2조/제1항/제2호/가목", "본문/제7조/제3항", "본문/FAQ/Q2",
                     "부칙", "부칙/제1조", "부록A", "부록A/제2조/제2항", "부록B/제1조"]:
        assert expected in p, expected
    assert len(p) == len(set(p)), "paths are unique"
    kinds = {n.path: (n.kind, n.block_type) for n in ko_tree.root.walk()}
    assert kinds["당사자"] == ("parties", "parties")
    assert kinds["부록A/제2조"] == ("article", "appendix")
    assert kinds["부칙/제1조"] == ("article", "addenda")
    assert kinds["본문/제2조/제1항/제1호"] == ("item", "body")
    assert kinds["본문/제2조/제1항/제2호/나목"] == ("subitem", "body")


def test_labels_titles_and_sibling_order(ko_tree) -> None:
    a7 = ko_tree.find("본문/제7조")
    assert (a7.label, a7.title) == ("제7조", "위약금")
    assert [c.label for c in a7.children] == ["①", "②", "③"]
    assert [c.sibling_order for c in a7.children] == [1, 2, 3]
    a1 = ko_tree.find("본문/제1조")  # heading and body on one line, no space before "("
    assert a1.title == "목적"
    assert ko_tree.doc.text[a1.body_start : a1.char_end].strip().startswith("이 계약은")
    a4 = ko_tree.find("본문/제4조")  # a heading with no title, then "삭제 <…>"
    assert a4.title == "" and "삭제" in ko_tree.doc.text[a4.char_start : a4.char_end]


def test_running_text_references_are_never_headings(ko_tree) -> None:
    # "제3조제2항에 따라" wraps to a line start inside 제3조 ①; it must stay text of ①.
    arts = [n for n in ko_tree.root.walk() if n.kind == "article" and n.block_type == "body"]
    assert [a.label for a in arts] == [f"제{i}조" for i in range(1, 8)]
    para = ko_tree.find("본문/제3조/제1항")
    assert "제3조제2항에 따라 서면으로" in ko_tree.doc.text[para.char_start : para.char_end]


def test_folio_does_not_break_numbering(ko_tree) -> None:
    assert ko_tree.find("본문/제3조/제3항") is not None


def test_cross_references_resolve_in_scope(ko_tree) -> None:
    def refs(path):
        return {r.text: r.target_path for r in ko_tree.find(path).refs}

    assert refs("본문/제7조/제2항")["부록A 제2조"] == "부록A/제2조"
    r3 = ko_tree.find("본문/제7조/제3항").refs[0]
    assert r3.target_path == "부록A" and r3.pointer
    assert refs("본문/제3조/제3항")["같은 조 제2항"] == "본문/제3조/제2항"
    assert refs("본문/제5조")["전조"] == "본문/제4조"
    assert refs("본문/제2조/제2항")["제1항"] == "본문/제2조/제1항"  # bare 항 → current article
    assert refs("부록A/제2조/제2항")["제1항"] == "부록A/제2조/제1항"  # ... also inside an appendix
    assert refs("부록A/제1조")["본문 제7조"] == "본문/제7조"
    assert refs("부록A/제1조")["부록"] == "부록A"  # "이 부록" = the appendix it is written in
    assert refs("본문/제6조/제2항")["제7조제1항"] == "본문/제7조/제1항"
    assert refs("본문/제2조/제1항/제1호")["부록B"] == "부록B"


def test_other_law_references_are_kept_unresolved() -> None:
    t = parse(doc_of("제1조 (준용)\n이 계약에 없는 사항은 「민법」 제390조와 상법 제69조에 따른다.\n"))
    refs = t.find("본문/제1조").refs
    assert [r.reason for r in refs] == ["other law", "other law"]
    assert all(r.target_path is None for r in refs)


def test_branch_numbered_items_and_their_references() -> None:
    t = parse(doc_of(
        "제1조(정의) 이 법에서 쓰는 용어의 뜻은 다음과 같다.\n"
        "1. 첫째 용어\n2. 둘째 용어\n2의2. 개정으로 끼워 넣은 용어\n3. 셋째 용어\n"
        "제2조(적용) 제1조제2호의2에 따른 용어는 같은 조에서 정한 바에 따른다.\n"))
    items = [n.path for n in t.find("본문/제1조").children]
    assert items == ["본문/제1조/제1호", "본문/제1조/제2호", "본문/제1조/제2호의2", "본문/제1조/제3호"]
    n2 = t.find("본문/제1조/제2호")
    assert t.doc.text[n2.char_start : n2.char_end].strip() == "2. 둘째 용어"
    assert not t.warnings
    assert [r.target_path for r in t.find("본문/제2조").refs] == ["본문/제1조/제2호의2"]


def test_same_article_skips_a_reference_inside_a_closed_parenthesis() -> None:
    # 아동수당법 부칙 ‹제15539호› 제2조 ③: "제7조제1항에 따라 신청자(부칙 제2조제2항에 따라 … 포함한다. 이하 같다)에게 … 같은 조
    # 제2항에 따라" — 제7조's 제2항; the aside's article was taken, and read as the 본칙's 제2조
    t = parse(doc_of(
        "제2조(신청) ① 신청은 서면으로 한다.\n② 신청서를 낸다.\n"
        "제7조(조사) ① 시장은 조사할 수 있다.\n② 시장은 질문할 수 있다.\n"
        "제8조(협조) 시장은 제7조제1항에 따라 신청자(제2조제2항에 따라 신청서를 낸 사람을 포함한다. 이하 같다)에게 "
        "조사를 하거나 같은 조 제2항에 따라 질문을 할 수 있다.\n"
        "제9조(보고) 시장은 제2조에 따른 신청(같은 조 제1항의 서면을 말한다)을 보고한다.\n"))
    refs = [(r.text, r.target_path) for r in t.find("본문/제8조").refs]
    assert refs[2] == ("같은 조 제2항", "본문/제7조/제2항")
    assert refs[1] == ("제2조제2항", "본문/제2조/제2항")
    # a parenthesis still open reads back to the reference before it
    assert [r.target_path for r in t.find("본문/제9조").refs] == ["본문/제2조", "본문/제2조/제1항"]


def test_a_bracketed_title_ending_in_da_alone_on_its_line_is_a_title() -> None:
    # 무인도서법 시행령 "제3조 (주변해역에서 제외되는 바다)" was read as no heading (a title ending in 다 reads like a
    # sentence), so its 호 went to the deleted 제2조; a sentence after a label still is no heading
    text = ("# 시행령\n\n##### 제1조 (목적)\n\n목적.\n\n##### 제2조\n\n삭제 <2024.2.6>\n\n##### 제3조 (주변해역에서 제외되는 바다)"
            "\n\n다음 각 호의 바다를 말한다.\n\n1. 항만구역의 바다\n2. 중간수역\n\n##### 제4조 (위와 같다)\n\n같다.\n")
    t = parse(load_bytes(text.encode(), "시행령.md"))
    arts = [(n.label, n.title, bool(n.attrs.get("deleted")), len(n.children)) for n in t.root.walk() if n.kind == "article"]
    assert arts == [("제1조", "목적", False, 0), ("제2조", "", True, 0), ("제3조", "주변해역에서 제외되는 바다", False, 2),
                    ("제4조", "위와 같다", False, 0)]
    assert not t.warnings
    t = parse(doc_of("제1조(목적) 이 규정은 목적을 정한다.\n제2조 이 규정은 공포한 날부터 시행한다.\n"))
    assert [n.title for n in t.root.walk() if n.kind == "article"] == ["목적", ""]


def test_numbering_breaks_warn_and_keep_duplicates() -> None:
    text = "# 법\n\n##### 제1조 (목적)\n\n목적.\n\n##### 제2조 (정의)\n\n정의.\n\n##### 제2조 (시정)\n\n시정.\n\n##### 제5조 (벌칙)\n\n벌.\n"
    t = parse(load_bytes(text.encode(), "법.md"))
    p = [n.path for n in t.root.walk() if n.kind == "article"]
    assert p == ["본문/제1조", "본문/제2조", "본문/제2조#2", "본문/제5조"]
    assert any("duplicate" in w for w in t.warnings)
    assert any("gap" in w for w in t.warnings)


def test_inline_paragraph_markers_split() -> None:
    t = parse(doc_of("제1조 (적립)\n① 포인트는 적립된다. ② 쿠폰 결제분은 제외한다. ③ 리뷰는 100포인트.\n"))
    assert [c.label for c in t.find("본문/제1조").children] == ["①", "②", "③"]


def test_many_addenda_blocks_get_their_own_labels() -> None:
    text = "제1조 (목적)\n목적.\n부칙 <제100호,2001.1.1>\n제1조 (시행일) 시행한다.\n부칙 <제200호,2002.2.2>\n제1조 (시행일) 시행한다.\n"
    t = parse(doc_of(text))
    assert t.find("부칙 <제100호,2001.1.1>/제1조") is not None
    assert t.find("부칙 <제200호,2002.2.2>/제1조") is not None




def test_english_tree_and_references() -> None:
    t = parse(doc_of(EN, "supply.txt"))
    assert t.language == "en"
    p = paths(t)
    for expected in ["Parties", "Article 1", "Article 1/1.2", "Article 4/4.2/(a)", "Article 4/4.2/(b)/(i)",
                     "Schedule 1", "Schedule 1/1.2", "Exhibit A", "Exhibit A/2"]:
        assert expected in p, expected
    # "Section 4.2 and ..." wrapped to a line start is running text of 4.1, not a heading
    assert len([n for n in t.root.walk() if n.path.endswith("4.2")]) == 1

    def refs(path):
        return {r.text: r.target_path for r in t.find(path).refs}

    assert refs("Article 1/1.1")["Exhibit A, Section 2"] == "Exhibit A/2"
    assert refs("Article 1/1.2")["Section 4.2 of the Agreement"] == "Article 4/4.2"
    assert refs("Article 4/4.2")["Schedule 1"] == "Schedule 1"
    assert refs("Article 4/4.2/(a)")["paragraph 1.2 of Schedule 1"] == "Schedule 1/1.2"
    assert refs("Schedule 1/1.2")["paragraph 1.1"] == "Schedule 1/1.1"  # bare → current appendix first


def test_statutes_corpus(corpora_dir) -> None:
    from jogak.load import load

    t = parse(load(corpora_dir / "korean_statutes" / "근로기준법_법률.md"))
    body = collections.Counter(n.kind for n in t.root.walk() if n.block_type == "body")
    assert body["article"] == 133
    assert body["paragraph"] == 222
    assert body["item"] == 128  # incl. "9의2." (제93조제9호의2), as the corpus README counts
    assert t.find("본문/제43조의2") is not None
    assert t.find("본문/제93조/제9호의2") is not None
    # "## 부칙" is the parent of the dated 부칙 blocks, whose paths keep their own labels
    (group,) = [n for n in t.root.children if n.kind == "addenda"]
    assert group.path == "부칙" and sum(1 for n in group.children if n.kind == "addenda") >= 32
    assert all(n.path == n.label for n in group.children)
    t2 = parse(load(corpora_dir / "korean_statutes" / "약관의규제에관한법률_법률.md"))
    body2 = collections.Counter(n.kind for n in t2.root.walk() if n.block_type == "body")
    assert (body2["article"], body2["paragraph"], body2["item"]) == (43, 82, 68)
    # the converter's duplicated headings stay distinct nodes, with warnings
    assert t2.find("본문/제17조#2") is not None and t2.find("본문/제19조#3") is not None
    assert sum("duplicate" in w for w in t2.warnings) == 9
    # "제17조의2제2항에 따른 명령을 …" at a line start is text, not a heading
    assert all(not n.path.startswith("본문/제17조의2") for n in t2.root.walk())


def test_cuad_contracts(corpora_dir) -> None:
    from jogak.load import load

    folder = corpora_dir / "cuad_contracts" / "contracts"
    names = {
        "ENERGYXXILTD_05_08_2015-EX-10.13-Transportation AGREEMENT.txt": ("Article 4", "Article 4/4.1"),
        "VAPOTHERM, INC. - Manufacturing and Supply Agreement.txt": ("Article 1", "Exhibit A-1"),
        "CARDAX,INC_08_19_2014-EX-10.1-COLLABORATION AGREEMENT.txt": ("Section 3", "Section 3/3.1"),
    }
    for name, expected in names.items():
        t = parse(load(folder / name))
        p = set(paths(t))
        for e in expected:
            assert e in p, (name, e)


def test_terms_of_service_variants() -> None:
    """제1장 총칙 (unbracketed chapter title), 제 1 조 【목적】, a heading followed by ① on the same line,
    1)/가) items, a dated single 부칙 and a [별표 1] appendix."""
    t = parse(doc_of(KO_TERMS, "이용약관.txt"))
    p = paths(t)
    for expected in ["본문/제1장", "본문/제1조", "본문/제2조/제1항/2)/가)", "본문/제4조/제3항", "부칙", "별표 1/제2호"]:
        assert expected in p, expected
    assert t.find("본문/제1장").title == "총칙"
    assert t.find("본문/제1조").title == "목적"
    assert [r.target_path for r in t.find("본문/제4조/제3항").refs] == ["별표 1"]
    assert t.find("부칙").label == "부칙 <2023. 1. 1.>"
