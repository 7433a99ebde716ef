"""Statute structure as law.go.kr prints it (issue 14): divisions inserted by amendment (제3장의2), paragraphs
above ⑮ written "<16>", the bare "## 부칙" over the dated 부칙 blocks, tables quoted inside a 부칙, titles with
brackets inside, chapter numbering that restarts under each 편. Every input is a small invented excerpt in
the shape of the real files (Markdown export: "##" divisions, "#####" articles, "**①**" paragraphs)."""

from __future__ import annotations

from jogak.chunk import chunk as chunk_documents
from jogak.load import load_bytes
from jogak.model import Document, Line
from jogak.structure import parse


def tree_of(text: str, name: str = "법률.md"):
    return parse(load_bytes(text.encode("utf-8"), name))


def kinds(tree, kind: str) -> list[tuple[str, str]]:
    return [(n.path, n.title) for n in tree.root.walk() if n.kind == kind]


def test_branch_numbered_divisions_are_chapters() -> None:
    t = tree_of("# 근로기준법\n\n## 제6장 안전과 보건\n\n##### 제76조 (안전과 보건)\n\n근로자의 안전에 관하여는 따로 정한다.\n\n"
                "  1\\. 첫째 사항\n\n## 제6장의2 직장 내 괴롭힘의 금지 <신설 2019.1.15>\n\n"
                "##### 제76조의2 (직장 내 괴롭힘의 금지)\n\n사용자는 괴롭힘을 하여서는 아니 된다.\n\n"
                "## 제7장 기능 습득\n\n### 제1절 통칙\n\n##### 제77조 (기능 습득자의 보호)\n\n혹사하지 못한다.\n\n"
                "### 제1절의2 특례 <신설 2020.1.1>\n\n##### 제77조의2 (특례)\n\n특례를 둔다.\n", "근로기준법.md")
    assert kinds(t, "chapter") == [
        ("본문/제6장", "안전과 보건"), ("본문/제6장의2", "직장 내 괴롭힘의 금지"), ("본문/제7장", "기능 습득"),
        ("본문/제7장/제1절", "통칙"), ("본문/제7장/제1절의2", "특례")]
    # the heading is no longer glued onto the item before it, and the articles after it are under it
    assert t.doc.text[slice(*_span(t, "본문/제76조/제1호"))] == "1. 첫째 사항"
    assert [c.path for c in t.find("본문/제6장의2").children] == ["본문/제76조의2"]
    assert [c.path for c in t.find("본문/제7장/제1절의2").children] == ["본문/제77조의2"]
    assert not t.warnings
    chunks = chunk_documents([t.doc], strategy="structure", id_prefix=None)
    crumb = next(c.metadata.breadcrumb for c in chunks if c.metadata.path == "본문/제76조의2")
    assert crumb == "근로기준법 > 제6장의2 (직장 내 괴롭힘의 금지) > 제76조의2 (직장 내 괴롭힘의 금지)"


def _span(t, path: str) -> tuple[int, int]:
    n = t.find(path)
    assert n is not None, path
    return n.char_start, n.char_end


AMENDING_ADDENDA = """# 장애인활동 지원에 관한 법률

##### 제1조 (목적)

이 법은 목적으로 한다.

## 부칙

부칙 <제9000호,2011.1.4>

이 법은 2011년 10월 1일부터 시행한다.

부칙(공무원 재해보상법) <제15522호,2018.3.20>

제1조(시행일) 이 법은 공포 후 6개월이 경과한 날부터 시행한다. <단서 생략>

제2조 부터 제28조까지 생략

제29조(다른 법률의 개정) ①부터 ⑮까지 생략

<16> 장애인활동 지원에 관한 법률 일부를 다음과 같이 개정한다.

제7조제4항을 다음과 같이 한다.

② 공무원연금ㆍ공무원재해보상급여를 받는 경우에는 그러하지 아니하다.

<17> 생략

제30조 생략
"""


def test_paragraphs_above_circled_numbers_and_omitted_ranges() -> None:
    t = tree_of(AMENDING_ADDENDA)
    art = t.find("부칙(공무원 재해보상법) <제15522호,2018.3.20>/제29조")
    assert art is not None
    assert [(c.label, c.path.rsplit("/", 1)[1]) for c in art.children] == [
        ("①", "제1항"), ("<16>", "제16항"), ("<17>", "제17항")]
    # "② …" after "…을 다음과 같이 한다." is the amended law's new wording, inside <16>
    assert "② 공무원연금" in t.doc.text[slice(*_span(t, art.children[1].path))]
    # an amending act's 부칙 quotes only the articles that concern this law: its gaps are no defect
    assert not t.warnings


def test_bare_addenda_heading_is_the_parent_of_the_dated_blocks() -> None:
    t = tree_of(AMENDING_ADDENDA)
    (group,) = [n for n in t.root.children if n.kind == "addenda"]
    assert (group.path, group.label) == ("부칙", "부칙")
    assert [c.path for c in group.children] == ["부칙 <제9000호,2011.1.4>", "부칙(공무원 재해보상법) <제15522호,2018.3.20>"]
    assert t.find("부칙 <제9000호,2011.1.4>") is group.children[0]
    chunks = chunk_documents([t.doc], strategy="structure", id_prefix=None)
    assert not any(c.text.strip() == "부칙" for c in chunks)  # the bare heading is no chunk of its own
    assert any(c.metadata.article.startswith("부칙(공무원 재해보상법) <제15522호,2018.3.20> 제29조") for c in chunks)


def test_table_quoted_inside_an_addenda_block_stays_there() -> None:
    t = tree_of("# 검찰청 위치 규정\n\n##### 제1조 (목적)\n\n이 영은 위치를 정한다.\n\n## 부칙\n\n부칙 <제14416호,1994.11.26>\n\n"
                "①(시행일) 이 영은 1995년 1월 1일부터 시행한다.\n\n"
                "②(다른 법령의 개정) 검사정원법시행령중 다음과 같이 개정한다.\n\n별표 2를 다음과 같이 한다.\n\n[별표 2]\n\n"
                "검사정원표(제2조 관련)\n\n③(경과조치) 이 영 시행 전의 처분은 이 영에 따른 처분으로 본다.\n\n"
                "부칙 <제14536호,1995.2.28>\n\n이 영은 공포한 날부터 시행한다.\n")
    assert not [n for n in t.root.walk() if n.kind == "appendix"]
    block = t.find("부칙 <제14416호,1994.11.26>")
    assert block is not None
    assert [c.label for c in block.children] == ["①", "②", "③"]  # the 부칙 is not cut short at [별표 2]
    assert "[별표 2]" in t.doc.text[slice(*_span(t, block.children[1].path))]


def test_appendix_after_the_last_addenda_block_is_still_an_appendix() -> None:
    t = tree_of("제1조(목적) 이 규정은 목적을 정한다.\n\n부칙\n\n이 규정은 공포한 날부터 시행한다.\n\n[별표 1]\n\n수수료(제1조 관련)\n"
                "1. 신청 수수료 1만원\n", "규정.txt")
    assert [n.path for n in t.root.children] == ["본문/제1조", "부칙", "별표 1"]


def test_an_appendix_title_listing_many_articles_it_serves_is_still_its_heading() -> None:
    # "(제4조제2항, … 및 제14조 관련)" names the articles the 별표 serves; it does not make the title running text
    t = tree_of("# 대여약관\n\n### 제1조 (목적)\n이 약관은 목적을 정한다.\n\n## 부칙\n① 이 약관은 2026년 1월 1일부터 시행한다.\n"
                "② 종전 약관은 폐지한다.\n\n## [별표 1] 요금과 환불기준 및 위약금(제4조제2항, 제10조제1항, 제12조제2항 및 제14조 "
                "관련)\n\n| 구분 | 요금 |\n|---|---|\n| 기본 | 1만원 |\n", "대여약관.md")
    assert [n.path for n in t.root.children] == ["본문/제1조", "부칙", "별표 1"]
    assert [c.label for c in t.find("부칙").children] == ["①", "②"]  # the table is not read into 부칙 ②


def test_an_appendix_heading_whose_note_wraps_onto_the_next_line_is_still_its_heading() -> None:
    # a PDF line break inside the "(제8조, … 관련)" note: the bracketed label still opens the 별표
    t = tree_of("이용약관\n\n제1조(목적) 이 약관은 목적을 정한다.\n부칙\n① 이 약관은 2027년 6월 1일부터 시행한다.\n"
                "② 종전 회원권은 1년 동안 쓸 수 있다.\n[별표 1] 이용 요금, 위약금과 환불 기준 (제8조, 제12조, 제14조, 제17조부터\n"
                "제20조까지 및 제23조 관련)\n구분 | 요금\n대욕장 | 15,000원\n", "약관.txt")
    assert [n.path for n in t.root.children] == ["본문/제1조", "부칙", "별표 1"]
    assert [c.label for c in t.find("부칙").children] == ["①", "②"]  # the table is not read into 부칙 ②


def test_article_titles_with_brackets_inside() -> None:
    t = tree_of("제49조 (설립등기) 설립등기를 한다.\n제50조 (분사무소(分事務所) 설치의 등기) 법인이 분사무소를 설치한 때에는 "
                "등기하여야 한다.\n제51조 (사무소의 이전등기) 이전등기를 한다.\n", "민법.txt")
    assert kinds(t, "article") == [("본문/제49조", "설립등기"), ("본문/제50조", "분사무소(分事務所) 설치의 등기"),
                                   ("본문/제51조", "사무소의 이전등기")]
    assert t.doc.text[t.find("본문/제50조").body_start:].startswith(" 법인이")


def test_doubled_title_brackets_are_one_title() -> None:
    # some law exports write "제1조 ((목적))"; the label a citation shows must read "제1조 (목적)", while a title
    # that only holds brackets inside ("(주)의 정의" wrapped once) keeps them
    t = tree_of("# 어느 법 시행령\n\n##### 제1조 ((목적))\n\n정한다.\n\n##### 제2조 (((주)의 정의))\n\n말한다.\n\n"
                "##### 제3조 ((자격)시험의 공고)\n\n공고한다.\n", "시행령.md")
    assert kinds(t, "article") == [("본문/제1조", "목적"), ("본문/제2조", "(주)의 정의"), ("본문/제3조", "(자격)시험의 공고")]


def test_chapter_numbering_restarts_under_each_part_without_warning() -> None:
    t = tree_of("# 민법\n\n## 제1편 총칙\n\n## 제1장 통칙\n\n##### 제1조 (법원)\n\n관습법에 의한다.\n\n## 제2장 인\n\n"
                "##### 제2조 (권리능력의 존속기간)\n\n사람은 생존한 동안 권리와 의무의 주체가 된다.\n\n## 제2편 물권\n\n"
                "## 제1장 총칙\n\n##### 제3조 (물권의 종류)\n\n임의로 창설하지 못한다.\n\n## 제3장 점유권\n\n"
                "##### 제4조 (점유권의 취득과 소멸)\n\n점유권이 있다.\n")
    assert [p for p, _ in kinds(t, "chapter")] == [
        "본문/제1편", "본문/제1편/제1장", "본문/제1편/제2장", "본문/제2편", "본문/제2편/제1장", "본문/제2편/제3장"]
    # 제2편's 제1장 is no step back; its 제3장 after 제1장 is a true gap
    assert t.warnings == ["numbering gap: 제1장 → 제3장 at offset "
                          f"{t.find('본문/제2편/제3장').char_start}"]


def test_pdf_heading_with_a_column_gap_in_its_title() -> None:
    # pdf lines with a wide gap become one-row tables (cells joined with " | "); between 제11조 and 제13조
    # the line is the heading it looks like
    text = ("제11조(수신확인통지)\n① 회사는 구매신청을 받으면 수신확인통지를 합니다.\n"
            "제12조(수신확인통지 | 구매신청 변경 및 취소)\n① 이용자는 구매신청의 변경 및 취소를 요청할 수 있습니다.\n"
            "제13조(재화 등의 공급)\n① 회사는 재화 등을 공급합니다.")
    lines, pos = [], 0
    for raw in text.split("\n"):
        lines.append(Line(pos, pos + len(raw), role="table_row" if " | " in raw else None))
        pos += len(raw) + 1
    t = parse(Document(source="약관.pdf", doc_title="약관", text=text, format="pdf", lines=lines))
    assert kinds(t, "article") == [("본문/제11조", "수신확인통지"), ("본문/제12조", "수신확인통지 구매신청 변경 및 취소"),
                                   ("본문/제13조", "재화 등의 공급")]
    assert not [n for n in t.root.walk() if n.kind == "table"] and not t.warnings


def test_pdf_row_out_of_sequence_stays_a_table() -> None:
    text = "제11조(요금)\n① 요금은 다음과 같다.\n제3조 | 1만원\n제13조(환불)\n① 환불한다."
    lines, pos = [], 0
    for raw in text.split("\n"):
        lines.append(Line(pos, pos + len(raw), role="table_row" if " | " in raw else None))
        pos += len(raw) + 1
    t = parse(Document(source="약관.pdf", doc_title="약관", text=text, format="pdf", lines=lines))
    assert [p for p, _ in kinds(t, "article")] == ["본문/제11조", "본문/제13조"]
    assert [n.path for n in t.root.walk() if n.kind == "table"] == ["본문/제11조/제1항/표1"]


def test_first_line_that_is_no_title_is_kept_in_a_chunk() -> None:
    doc = load_bytes("공고: 2025년 0월 0일\n제1조(목적) 이 약관은 목적을 정한다.\n제2조(정의) 용어를 정의한다.\n".encode(),
                     "약관.txt")
    chunks = chunk_documents([doc], strategy="structure", id_prefix=None)
    assert chunks[0].text == "공고: 2025년 0월 0일"
    titled = load_bytes("하루마켓 이용약관\n제1조(목적) 이 약관은 목적을 정한다.\n".encode(), "약관.txt")
    assert [c.metadata.path for c in chunk_documents([titled], strategy="structure", id_prefix=None)] == ["본문/제1조"]


def test_articles_quoted_in_an_amending_addenda_are_its_wording() -> None:
    # 상법's 부칙 amends 비송사건절차법: "제252조의2 (…)" after "…를 다음과 같이 신설한다." is the new wording, and
    # "④ …" after "같은 조 제4항을 다음과 같이 한다." too — no articles or paragraphs of the 부칙, no gap warnings
    t = tree_of("# 상법\n\n##### 제1조 (적용범위)\n\n상사에 관하여 적용한다.\n\n## 부칙\n\n부칙 <제4372호,1991.5.31>\n\n"
                "제1조 (시행일) 이 법은 1992년 1월 1일부터 시행한다.\n"
                "제2조 (관계법률의 개정) ①비송사건절차법중 다음과 같이 개정한다.\n"
                "제252조의2 및 제253조의2를 각각 다음과 같이 신설한다.\n"
                "제252조의2 (변경등기신청) 변경등기의 신청서에는 청구서를 첨부하여야 한다.\n"
                "제253조의2 (명의개서대리인의 설치로 인한 변경등기신청) 계약을 증명하는 서면을 첨부하여야 한다.\n"
                "제356조의2제1항 중 \"지정된 기관\"을 \"기관\"으로 하고, 같은 조 제4항을 다음과 같이 한다.\n"
                "④ 전자등록에 필요한 사항은 대통령령으로 정한다.\n"
                "②다른 법률에서 종전의 규정을 인용한 경우에는 이 법의 해당 규정을 인용한 것으로 본다.\n"
                "제3조 (경과조치) 이 법 시행 전의 행위는 종전의 규정에 따른다.\n")
    block = t.find("부칙 <제4372호,1991.5.31>")
    assert block is not None
    assert [c.label for c in block.children] == ["제1조", "제2조", "제3조"]
    assert [c.label for c in t.find("부칙 <제4372호,1991.5.31>/제2조").children] == ["①", "②"]
    assert not t.warnings


def test_paragraphs_of_an_article_quoted_whole_in_an_amending_addenda_are_its_wording() -> None:
    # "①산림법중 다음과 같이 개정한다. 제90조를 다음과 같이 한다. 제90조 (…) ①… ②… ③…": the new 제90조's ② and ③ are
    # the amended law's wording, not the 부칙 article's (they had displaced its real ② and ③); a 항 that amends
    # another law itself, or carries its own heading, is the 부칙's
    t = tree_of("# 산지관리법\n\n##### 제1조 (목적)\n\n산지를 보전한다.\n\n## 부칙\n\n부칙 <제6841호,2002.12.30>\n\n"
                "제1조 (시행일) 이 법은 2003년 10월 1일부터 시행한다.\n"
                "제2조 (다른 법률의 개정) ①산림법중 다음과 같이 개정한다.\n"
                "제90조를 다음과 같이 한다.\n"
                "제90조 (입목벌채등의 허가) ①산림 안에서 입목을 벌채하려는 자는 허가를 받아야 한다.\n"
                "②제1항의 허가를 받은 자가 허가사항을 변경하려면 신고하여야 한다.\n"
                "③제1항에도 불구하고 경미한 벌채는 신고로 갈음한다.\n"
                "②사방사업법중 다음과 같이 개정한다.\n"
                "제9조 중 \"산림법 제90조\"를 \"산지관리법 제14조\"로 한다.\n"
                "③(다른 법령과의 관계) 다른 법령에서 종전의 산림법을 인용한 경우에는 이 법을 인용한 것으로 본다.\n")
    art = t.find("부칙 <제6841호,2002.12.30>/제2조")
    assert art is not None
    kids = [(c.label, t.doc.text[c.char_start:c.char_start + 6]) for c in art.children]
    assert kids == [("①", "①산림법중 "), ("②", "②사방사업법"), ("③", "③(다른 법")], kids


def test_omitted_articles_are_no_gap_and_a_title_is_no_table_of_contents() -> None:
    t = tree_of("제20조 (기제사) ① 기제사의 대상은 2대조까지로 한다.\n② 기제사는 가정에서 지낸다.\n"
                "제21조 (차례) ① 차례의 대상은 기제사를 지내는 조상으로 한다.\n② 차례는 명절의 아침에 지낸다.\n"
                "제22조 (제수) 제수는 간소하게 차린다.\n\n부칙 <제4685호,1993.12.31>\n"
                "제1조 (시행일) 이 법은 1994년 1월 1일부터 시행한다.\n제2조 내지 제16조 생략\n"
                "제17조 (다른 법률의 개정) 군인보수법중 다음과 같이 개정한다.\n", "준칙.txt")
    # "차례" (ancestral rites) in an article title is no "차례" (table of contents) line
    assert [c.path for c in t.root.children if c.kind == "article"] == ["본문/제20조", "본문/제21조", "본문/제22조"]
    assert [c.label for c in t.find("부칙").children] == ["제1조", "제17조"]
    assert not t.warnings


def test_long_division_titles_and_a_fifth_level_are_whole() -> None:
    t = tree_of("# 법인세법\n\n## 제2장의2 법인과세 신탁재산의 각 사업연도의 소득에 대한 법인세 과세특례 <신설 2020.12.22>\n\n"
                "##### 제75조의10 (적용 관계)\n\n특례를 적용한다.\n\n"
                "## 제2장의3 각 연결사업연도의 소득에 대한 법인세 <신설 2008.12.26>\n\n### 제1절 통칙\n\n"
                "#### 제1관 연결납세\n\n##### 제76조의8 (연결납세방식의 적용 등)\n\n연결납세방식을 적용할 수 있다.\n\n"
                "제1속 굴착면의 기울기 등\n\n##### 제76조의9 (연결사업연도)\n\n연결사업연도로 한다.\n", "법인세법.md")
    assert kinds(t, "chapter") == [
        ("본문/제2장의2", "법인과세 신탁재산의 각 사업연도의 소득에 대한 법인세 과세특례"),
        ("본문/제2장의3", "각 연결사업연도의 소득에 대한 법인세"), ("본문/제2장의3/제1절", "통칙"),
        ("본문/제2장의3/제1절/제1관", "연결납세"), ("본문/제2장의3/제1절/제1관/제1속", "굴착면의 기울기 등")]
    assert [c.path for c in t.find("본문/제2장의3/제1절/제1관/제1속").children] == ["본문/제76조의9"]


def test_an_unnumbered_bracketed_appendix_is_an_appendix() -> None:
    # a document with one 별표 heads it "[별표] 제목": no number, but the brackets make it a label, so the
    # table is not read into the 부칙's last article
    t = tree_of("제1조(목적) 이 약관은 목적을 정한다.\n\n부칙\n제1조 (시행일) 이 약관은 공포한 날부터 시행한다.\n"
                "제2조 (경과조치) 종전 약관에 따른다.\n[별표] 비급여 진료비 (제16조 관련)\n항목 | 금액\n임플란트 | 1,200,000\n",
                "약관.txt")
    assert [n.path for n in t.root.children] == ["본문/제1조", "부칙", "별표"]
    assert t.find("별표").block_type == "appendix"
    assert [c.path for c in t.find("부칙").children] == ["부칙/제1조", "부칙/제2조"]
    # a sentence that only mentions it stays a sentence
    t = tree_of("제1조(수수료) 수수료는 다음에 따른다.\n별표의 금액을 낸다.\n", "약관.txt")
    assert [n.path for n in t.root.children] == ["본문/제1조"]


def test_an_appendix_inserted_between_numbers_is_its_own_node() -> None:
    # "[별표 1의2]" is inserted by amendment after 별표 1: its own appendix (not more items of 별표 1), and a
    # reference "별표 1의2와 같다" points at it, while "별표 1의 개정규정" still means 별표 1
    t = tree_of("제1조(기준) ① 자격기준은 별표 1과 같다.\n② 처분의 세부기준은 별표 1의2와 같다.\n"
                "③ 별표 1의 개정규정은 따로 정한다.\n부칙\n이 영은 공포한 날부터 시행한다.\n\n"
                "[별표 1] 자격기준(제1조제1항 관련)\n1. 수석: 5년 이상 승무한 사람\n2. 선임: 3년 이상 승무한 사람\n\n"
                "[별표 1의2] 처분의 세부기준(제1조제2항 관련)\n1. 일반기준\n가. 최근 3년간의 위반행위로 센다.\n"
                "2. 개별기준\n가. 거짓으로 받은 경우: 6개월 정지\n\n[별표 2] 수수료(제1조 관련)\n1. 신청: 1만원\n",
                "시행령.txt")
    assert [n.path for n in t.root.children] == ["본문/제1조", "부칙", "별표 1", "별표 1의2", "별표 2"]
    assert [c.path for c in t.find("별표 1").children] == ["별표 1/제1호", "별표 1/제2호"]
    assert [c.path for c in t.find("별표 1의2").children] == ["별표 1의2/제1호", "별표 1의2/제2호"]
    targets = {p.path: [r.target_path for r in p.refs] for p in t.find("본문/제1조").children}
    assert targets["본문/제1조/제1항"] == ["별표 1"]
    assert targets["본문/제1조/제2항"] == ["별표 1의2"]
    assert targets["본문/제1조/제3항"] == ["별표 1"]
