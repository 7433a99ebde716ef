"""Effective dates, later starts, amendment notes and transitional links read from the texts (issue 15)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

import jogak
from jogak.grammar.effective import (
    LaterStart,
    amendment_notes,
    is_transitional,
    later_starts,
    main_start,
    other_law_of_addenda,
    resolve_start,
)
from jogak.load import load, load_bytes
from jogak.structure import parse

VERSIONS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora" / "korean_law_sets" / "주택임대차보호법" / "versions"
HARU = Path(__file__).resolve().parents[2] / "examples" / "haru-market" / "하루마켓_멤버십정책.pdf"

needs_versions = pytest.mark.skipif(not VERSIONS.is_dir(), reason="shared corpus korean_law_sets absent")


def test_start_expressions_resolve_against_the_promulgation_date() -> None:
    p = date(2020, 6, 9)
    assert resolve_start("공포 후 6개월이 경과한 날", p) == date(2020, 12, 10)  # law.go.kr's 시행일자
    assert resolve_start("공포한 날", p) == p
    assert resolve_start("공포 후 1년이 경과한 날", date(2023, 3, 14)) == date(2024, 3, 15)
    assert resolve_start("2025년 1월 1일", None) == date(2025, 1, 1)
    assert resolve_start("공포 후 3개월이 경과한 날", None) is None  # no promulgation date: not guessed
    assert main_start("① 이 정책은 2025년 1월 1일부터 시행한다.", None) == date(2025, 1, 1)
    assert main_start("이 법은 공포한 날부터 시행한다.", date(2020, 7, 31)) == date(2020, 7, 31)
    assert main_start("이 법은 시행령으로 정한다.", None) is None
    # the sentence may go on after the start (a terms document's "시행하며", an old 시행규칙's "시행하되")
    assert main_start("이 약관은 2026년 9월 1일부터 시행하며, 제19조제2항은 그 뒤에 맺은 계약부터 적용한다.", None) == \
        date(2026, 9, 1)
    assert main_start("이 규칙은 공포한 날부터 시행하되, 2006년 1월 1일부터 적용한다.", date(2005, 12, 30)) == \
        date(2005, 12, 30)


def test_later_starts_name_their_articles() -> None:
    text = ("이 법은 공포한 날부터 시행한다. 다만, 제8조의2제2항ㆍ제4항, 제14조제1항 및 제30조의 개정규정은 "
            "공포 후 3개월이 경과한 날부터 시행한다.")
    [later] = later_starts(text, date(2020, 7, 31))
    assert later.articles == ("8의2", "14", "30") and later.start == date(2020, 11, 1)
    assert later.paragraphs_of("8의2") == (2, 4) and later.paragraphs_of("14") == (1,)
    assert later.paragraphs_of("30") == ()  # the whole article
    # ranges: "제4항부터 제6항까지" holds ⑤; "제12조부터 제14조까지" the articles between (the text's, 제12조의2 too)
    [r] = later_starts("다만, 제12조부터 제14조까지, 제29조의2제4항부터 제6항까지의 개정규정은 2027년 1월 1일부터 "
                       "시행한다.", None)
    assert r.paragraphs_of("29의2") == (4, 5, 6) and r.ranges == (("12", "14"),)
    # a policy's "… 적용한다" with a date starts the clause later; a date that says to whom it applies does not
    [ap] = later_starts("다만, 제4조제1항의 분기별 공시는 2027년 4월 1일부터 적용한다.", None)
    assert ap.articles == ("4",) and ap.paragraphs_of("4") == (1,) and ap.start == date(2027, 4, 1)
    assert later_starts("다만, 제18조제1항의 연회비는 2027년 1월 1일 이후에 가입하는 회원부터 적용한다.", None) == []
    # an article named whole and by a 항 is named whole
    [both] = later_starts("다만, 제5조제2항 및 제5조의 개정규정은 2027년 1월 1일부터 시행한다.", None)
    assert both.articles == ("5",) and both.paragraphs_of("5") == ()
    [one] = later_starts("다만, 제24조제2항은 공포 후 1년이 경과한 날부터 시행한다.", date(2023, 3, 14))
    assert one.articles == ("24",) and one.start == date(2024, 3, 15)


def test_later_starts_read_each_segment_the_cases_and_only_whole_clauses() -> None:
    # seen in 산업안전보건법 부칙 <제21374호>: a chained 다만 sentence ("…부터 시행하고, …부터 시행한다") gives each segment
    # its own date, never the last one to all; 호 named by a target are dated alone, not their 항
    text = ("이 법은 2026년 6월 1일부터 시행한다. 다만, 제10조의2, 제23조 및 제175조제4항제1호의2의 개정규정은 "
            "2026년 8월 1일부터 시행하고, 제30조의 개정규정은 2027년 3월 1일부터 시행한다.")
    first, second = later_starts(text, date(2026, 2, 19))
    assert first.articles == ("10의2", "23", "175") and first.start == date(2026, 8, 1)
    assert first.items == (("175", 4, ((1, 2),)),) and first.paragraphs_of("175") == (4,)
    assert second.articles == ("30",) and second.start == date(2027, 3, 1)
    # "…의 개정규정은 다음 각 호의 구분에 따른 날부터 시행한다" with cases (not clauses) as items: not in force for anyone
    # before the earliest date
    cases = ("이 법은 2026년 6월 1일부터 시행한다. 다만, 제175조제4항제2호의2, 같은 조 제5항제1호의 개정규정은 다음 각 "
             "호의 구분에 따른 날부터 시행한다.\n\n1. 상시 50명 이상의 근로자를 사용하는 사업장: 2027년 1월 1일\n\n"
             "2. 상시 50명 미만의 근로자를 사용하는 사업장: 2028년 1월 1일\n")
    [case] = later_starts(cases, date(2026, 2, 19))
    assert case.start == date(2027, 1, 1) and case.articles == ("175",)
    assert case.items == (("175", 4, ((2, 2),)), ("175", 5, ((1, 0),)))
    # a part of an article ("…의 개정규정 중 … 에 관한 부분", "제31조(… 부분으로 한정한다)") is not dated whole
    part = ("다만, 제2조제9호, 제43조제2항의 개정규정 중 통합특별시장에 관한 부분은 2026년 7월 1일부터 시행한다.")
    assert later_starts(part, None) == []
    limited = ("다만, 제25조의8, 제31조(제29조의2제4항부터 제6항까지의 개정규정과 관련된 부분으로 한정한다) 및 제34조의 개정규정은 "
               "2027년 1월 1일부터 시행한다.")
    [lim] = later_starts(limited, None)
    assert lim.articles == ("25의8", "34")



STARTS_BY_ITEM = """---
제목: 작업안전법
법령구분: 법률
공포일자: 2026-02-19
시행일자: 2026-06-01
---

# 작업안전법

##### 제175조 (과태료)

**①** 다음 각 호의 어느 하나에 해당하는 자에게는 1천만원 이하의 과태료를 부과한다.

1. 제10조를 위반한 자

2. 제11조를 위반한 자

2의2. 제12조를 위반한 자

3. 제13조를 위반한 자

**②** 다음 각 호의 어느 하나에 해당하는 자에게는 500만원 이하의 과태료를 부과한다.

1. 제14조를 위반한 자

## 부칙

부칙 <제21374호,2026.2.19>

제1조(시행일) 이 법은 2026년 6월 1일부터 시행한다. 다만, 제175조제1항제2호의2의 개정규정은 다음 각 호의 구분에 따른 날부터 시행한다.

1. 상시 50명 이상의 근로자를 사용하는 사업장: 2027년 1월 1일

2. 상시 50명 미만의 근로자를 사용하는 사업장: 2028년 1월 1일
"""


def test_a_later_start_of_one_item_dates_that_item_alone() -> None:
    tree = parse(load_bytes(STARTS_BY_ITEM.encode(), "작업안전법.md"))
    assert tree.find("본문/제175조/제1항/제2호의2").attrs["effective_from"] == "2027-01-01"
    for path in ("본문/제175조", "본문/제175조/제1항", "본문/제175조/제1항/제2호", "본문/제175조/제2항/제1호"):
        assert "effective_from" not in tree.find(path).attrs, path


def test_later_starts_listed_one_per_item() -> None:
    # 학교급식법 부칙 <제21354호,2026.2.19>: the exceptions are a list, each item with its own start
    text = ("제1조(시행일) 이 법은 공포 후 1년이 경과한 날부터 시행한다. 다만, 다음 각 호의 개정규정은 해당 각 호의 "
            "구분에 따른 날부터 시행한다.\n\n1. 제15조의2의 개정규정: 공포 후 6개월이 경과한 날\n\n"
            "2. 제7조의 개정규정: 2027년 7월 1일\n\n제2조(적용례) 제15조의2의 개정규정은 …부터 적용한다.")
    assert main_start(text, date(2026, 2, 19)) == date(2027, 2, 20)
    assert later_starts(text, date(2026, 2, 19)) == [LaterStart(("15의2",), date(2026, 8, 20)),
                                                     LaterStart(("7",), date(2027, 7, 1))]
    # numbered items without the lead are no starts (a 부칙's own list of transitional cases)
    assert later_starts("1. 제3조의 개정규정: 2027년 7월 1일", date(2026, 2, 19)) == []


def test_amendment_notes_and_transitional_wording() -> None:
    assert amendment_notes("… 준용한다. <개정 2013.8.13, 2020.6.9> [본조신설 2020.7.31]") == [
        "개정 2013-08-13", "개정 2020-06-09", "본조신설 2020-07-31"]
    assert amendment_notes("제3조에 따른다.") == []
    # "<신설 2020.12.29, 2022.6.10>": made in 2020, amended in 2022 (장애인활동지원법 제12조 ②)
    assert amendment_notes("② 신청한다. <신설 2020.12.29, 2022.6.10>") == ["신설 2020-12-29", "개정 2022-06-10"]
    assert is_transitional("계약갱신 요구 등에 관한 적용례", "")
    assert is_transitional("", "이 정책 시행 전에 적립된 포인트의 유효기간은 종전 정책에 따라 2년으로 한다.")
    assert not is_transitional("시행일", "이 법은 공포한 날부터 시행한다.")


@needs_versions
def test_a_statute_version_knows_its_start_later_starts_notes_and_transitional_links() -> None:
    tree = parse(load(str(VERSIONS / "법률@2020-07-31.md")))
    assert tree.root.attrs["version"] == {"effective_from": "2020-07-31", "effective_source": "시행일자",
                                          "promulgated": "2020-07-31"}
    # "제8조의2제2항ㆍ제4항 … 의 개정규정은 공포 후 3개월이 경과한 날부터": those 항 start later, not the article's ①
    assert "effective_from" not in tree.find("본문/제8조의2").attrs
    assert "effective_from" not in tree.find("본문/제8조의2/제1항").attrs
    assert tree.find("본문/제8조의2/제2항").attrs["effective_from"] == "2020-11-01"
    assert tree.find("본문/제8조의2/제4항").attrs["effective_from"] == "2020-11-01"
    assert tree.find("본문/제30조").attrs["effective_from"] == "2020-11-01"  # named whole: the article
    assert "effective_from" not in tree.find("본문/제6조의3").attrs
    addenda = "부칙 <제17470호,2020.7.31>/제2조"
    assert tree.find("본문/제6조의3").attrs["transitional"] == [addenda]
    assert tree.find("본문/제7조").attrs["transitional"][0] == addenda  # most recent first
    assert tree.find(addenda).attrs["transitional_for"] == ["본문/제6조의3", "본문/제7조"]
    assert tree.find("본문/제3조/제2항").attrs["amendments"] == ["개정 2015-01-06"]
    # the 2020-06-09 text takes effect after the 2020-07-31 one: effective order is not promulgation order
    early = parse(load(str(VERSIONS / "법률@2020-06-09.md"))).root.attrs["version"]
    assert early["effective_from"] == "2020-12-10" and early["promulgated"] == "2020-06-09"


def test_a_policy_without_front_matter_takes_its_start_from_its_addenda() -> None:
    tree = parse(load(str(HARU)))
    assert tree.root.attrs["version"] == {"effective_from": "2025-01-01", "effective_source": "부칙"}
    assert tree.find("부칙/제2항").attrs["transitional_for"] == ["본문/제5조"]  # by wording: 유효기간
    chunks = jogak.chunk([load(str(HARU))], strategy="structure")
    art5 = [c for c in chunks if (c.metadata.path or "").startswith("본문/제5조")]
    assert art5 and all(c.metadata.transitional == ["부칙/제2항"] for c in art5)
    assert all(c.metadata.work == "멤버십정책" and c.metadata.effective_from == "2025-01-01" for c in chunks)


def test_a_file_name_version_marker_is_no_part_of_the_title() -> None:
    doc = load_bytes("# 규정\n\n제1조 (목적)\n이 규정은 보관을 정한다.\n".encode(), "보관규정@2023-01-01.md")
    assert doc.doc_title == "보관규정"
    # no date in the text: not a version (its chunks carry no work)
    assert all(c.metadata.work is None for c in jogak.chunk([doc], strategy="structure"))


PENDING = """---
제목: 급식법
법령구분: 법률
공포일자: 2026-05-19
시행일자: 2026-05-19
---

# 급식법

##### 제7조 (영양교사)

**①** 학교에는 영양교사를 둔다. <개정 2026.2.19>

**②** 영양교사는 식단을 짠다.

##### 제8조 (식재료)

**①** 식재료는 우수한 것을 쓴다. <개정 2026.2.19>

##### 제9조 (입찰 제한)

**①** 부정한 업체는 입찰에 참가할 수 없다. <신설 2026.2.19>

## 부칙

부칙 <제21354호,2026.2.19>

제1조(시행일) 이 법은 공포 후 1년이 경과한 날부터 시행한다. 다만, 다음 각 호의 개정규정은 해당 각 호의 구분에 따른 날부터 시행한다.

1. 제9조의 개정규정: 공포 후 6개월이 경과한 날

2. 제7조의 개정규정: 2027년 7월 1일
"""


def test_listed_later_starts_date_the_clauses_their_amendment_changed() -> None:
    # a consolidated text already holds a pending amendment whose 부칙 lists a start per article: 제7조 starts on
    # 2027-07-01 (its changed ①, not its unchanged ②), 제8조 with the 부칙's own start, 제9조 six months in
    tree = parse(load_bytes(PENDING.encode(), "급식법.md"))
    assert tree.find("본문/제7조").attrs["effective_from"] == "2027-07-01"
    assert tree.find("본문/제7조/제1항").attrs["effective_from"] == "2027-07-01"
    assert "effective_from" not in tree.find("본문/제7조/제2항").attrs
    assert tree.find("본문/제8조/제1항").attrs["effective_from"] == "2027-02-20"
    assert tree.find("본문/제9조").attrs["effective_from"] == "2026-08-20"
    # its noted ① too: a listed start earlier than the 부칙's main start is not overridden by it
    assert tree.find("본문/제9조/제1항").attrs["effective_from"] == "2026-08-20"


OTHER_LAW_ADDENDA = """---
제목: 조합법
법령구분: 법률
공포일자: 2025-12-23
시행일자: 2025-12-23
---

# 조합법

##### 제19조 (배당)

**①** 조합은 잉여금을 배당할 수 있다.

##### 제22조 (출자)

**①** 조합원은 1좌 이상을 출자하여야 한다. <개정 2025.10.1>

##### 제23조 (의결권)

**①** 조합원은 1개의 의결권을 가진다.

## 부칙

부칙(정부조직법) <제21065호,2025.10.1>

제1조(시행일) 이 법은 공포한 날부터 시행한다. 다만, 이 법 시행 전에 공포되었으나 시행일이 도래하지 아니한 법률을 개정한 부분은 각각 해당 법률의 시행일부터 시행하고, 다음 각 호의 개정규정은 해당 각 호의 구분에 따른 날부터 시행한다.

1. 제19조제4항, 제23조 및 제22조의 개정규정: 2026년 1월 2일

제2조(종전 부처에 관한 경과조치) 이 법 시행 당시 제23조에 따른 종전의 장관이 한 처분은 새 장관이 한 것으로 본다.

부칙 <제21226호,2025.12.23>

제1조(시행일) 이 법은 공포한 날부터 시행한다.

제2조(배당에 관한 경과조치) 이 법 시행 전에 결의된 배당은 제19조의 개정규정에도 불구하고 종전의 규정에 따른다.
"""


def test_another_laws_addenda_link_nothing_of_this_law() -> None:
    # a consolidated law keeps the 부칙 of 정부조직법's amendment (타법개정): its "제23조", "제19조제4항" are
    # 정부조직법's articles — linked to this law's they were wrong links and wrong start dates
    assert other_law_of_addenda("부칙(정부조직법) <제21065호,2025.10.1>") == "정부조직법"
    assert other_law_of_addenda("부칙(법률용어 정비를 위한 기획재정위원회 소관 33개 법률 일부개정을 위한 법률) <제17339호,"
                                "2020.6.9>") is not None
    assert other_law_of_addenda("부칙 <제21226호,2025.12.23>") is None
    assert other_law_of_addenda("부칙 (2024. 1. 1.)") is None
    assert not is_transitional("시행일", "다만, 이 법 시행 전에 공포되었으나 시행일이 도래하지 아니한 법률을 …")
    tree = parse(load_bytes(OTHER_LAW_ADDENDA.encode(), "조합법.md"))
    assert tree.find("본문/제19조").attrs["transitional"] == ["부칙 <제21226호,2025.12.23>/제2조"]
    for art in ("본문/제22조", "본문/제23조"):
        node = tree.find(art)
        assert "transitional" not in node.attrs and "effective_from" not in node.attrs, art
    assert "effective_from" not in tree.find("본문/제22조/제1항").attrs


LINK_NOTHING_BY_GUESS = """---
제목: 예술진흥법
법령구분: 법률
공포일자: 2024-01-10
시행일자: 2024-01-10
---

# 예술진흥법

##### 제9조 (변경 등록)

**①** 시설을 변경하려는 자는 변경 등록을 하여야 한다.

##### 제10조 (등록의 효력)

**①** 등록은 3년간 효력을 가진다.

##### 제13조 (학교 등의 문화예술 진흥)

**①** 국가는 학교의 문화예술 교육을 지원한다.

##### 제20조 (예술위원회)

**①** 예술위원회를 둔다.

## 부칙

부칙 <제8345호,2007.4.11>

제1조(시행일) 이 법은 공포한 날부터 시행한다.

제3조(적용례) 이 법은 이 법 시행 후 등록하는 경우부터 적용한다.

제4조(예술단의 재산 승계에 관한 경과조치) ① 법률 제6132호 예술진흥법중개정법률 시행 당시 재단법인 예술단은 법률 제6132호 예술진흥법중개정법률 부칙 제3조에 따라 예술단이 설립등기를 완료한 때에는 해산된 것으로 본다.

제5조(다른 법령과의 관계) 이 법 시행 당시 다른 법령에서 종전의 「예술진흥법」의 규정을 인용한 경우 이 법 가운데 그에 해당하는 규정이 있으면 이 법의 해당 규정을 인용한 것으로 본다.

제6조(변경 등록에 관한 경과조치) 이 법 시행 전에 종전의 제9조에 따라 변경 등록을 신청한 경우에는 제10조의 개정규정에도 불구하고 종전의 제9조에 따른다.

제7조(위원에 관한 경과조치) 이 법 시행 당시 위촉된 예술위원회의 위원은 임기가 끝날 때까지 그 직을 유지한다.
"""


def test_a_transitional_link_is_what_the_clause_names_never_a_guess() -> None:
    # seen in 문화예술진흥법 and 박물관법 시행령: "…개정법률 부칙 제3조" is the amending act's 부칙, not this one's
    # 제3조; "종전의 제9조" is the former text's article; a statute's 부칙 naming no article of this law (another
    # law's, the whole law's) is linked to none by its words ("예술진흥법중개정법률" is no word about 제13조)
    tree = parse(load_bytes(LINK_NOTHING_BY_GUESS.encode(), "예술진흥법.md"))
    addenda = "부칙 <제8345호,2007.4.11>"
    ref = next(r for n in tree.find(f"{addenda}/제4조").walk() for r in n.refs if r.text.startswith("제3조"))
    assert ref.target_path is None and ref.reason == "a 부칙 of another law"
    for n in (f"{addenda}/제4조", f"{addenda}/제5조"):
        assert "transitional_for" not in tree.find(n).attrs, n
    assert tree.find(f"{addenda}/제6조").attrs["transitional_for"] == ["본문/제10조"]
    for art in ("본문/제9조", "본문/제13조", "본문/제20조"):
        assert "transitional" not in tree.find(art).attrs, art
    assert "transitional_for" not in tree.find(f"{addenda}/제7조").attrs  # names no article: no guess
    # the same statute from a file without front matter (a law's own PDF or HWP): a law by its title
    body = LINK_NOTHING_BY_GUESS.split("---\n", 2)[2]
    bare = parse(load_bytes(body.encode(), "예술진흥법.md"))
    for n in (f"{addenda}/제4조", f"{addenda}/제5조", f"{addenda}/제7조"):
        assert "transitional_for" not in bare.find(n).attrs, n
    # a text that is no law (a policy, terms) often names no article in its 부칙: its wording links it
    policy = parse(load_bytes(body.replace("# 예술진흥법", "# 예술단 운영규정").encode(), "예술단_운영규정.md"))
    assert policy.find(f"{addenda}/제7조").attrs["transitional_for"] == ["본문/제20조"]



def test_the_former_texts_articles_and_the_start_date_article_are_no_topic() -> None:
    # seen in 산업안전보건법 부칙 <제16272호>: "종전의 제41조제1항 또는 제6항", "종전의 제41조제2항에 따라 … 같은 조
    # 제1항" are the former text's articles however they are listed, and "부칙 제1조 단서에 따른 시행일" is a date,
    # not what the clause is about (following it linked every article whose start 제1조 defers)
    text = LINK_NOTHING_BY_GUESS.replace(
        "제1조(시행일) 이 법은 공포한 날부터 시행한다.",
        "제1조(시행일) 이 법은 공포한 날부터 시행한다. 다만, 제13조 및 제20조의 개정규정은 2008년 1월 1일부터 시행한다.",
    ).replace(
        "제7조(위원에 관한 경과조치)",
        "제8조(변경 등록의 특례) 부칙 제1조 단서에 따른 시행일 당시 종전의 제9조제1항 또는 제2항에 따라 등록한 자와 "
        "같은 조 제3항에 따라 신고한 자는 제10조의 개정규정에도 불구하고 종전의 규정에 따른다.\n\n"
        "제9조(위원 위촉의 특례) 이 법 시행 당시 위촉된 위원은 부칙 제1조 단서에 따른 시행일부터 6개월 이내에 다시 위촉하여야 "
        "한다.\n\n제7조(위원에 관한 경과조치)",
    )
    tree = parse(load_bytes(text.encode(), "예술진흥법.md"))
    addenda = "부칙 <제8345호,2007.4.11>"
    assert tree.find(f"{addenda}/제8조").attrs["transitional_for"] == ["본문/제10조"]
    assert "transitional_for" not in tree.find(f"{addenda}/제9조").attrs
    for art in ("본문/제9조", "본문/제13조", "본문/제20조"):
        assert "transitional" not in tree.find(art).attrs, art



ADDENDA_REFS = """---
제목: 노후연금법
법령구분: 법률
공포일자: 2014-05-20
시행일자: 2014-07-01
---

# 노후연금법

##### 제3조 (수급권자의 범위)

**①** 65세 이상인 사람에게 연금을 지급한다.

**②** 소득인정액이 선정기준액 이하인 사람에게 지급한다.

**③** 공무원연금 수급권자는 제외한다.

##### 제5조 (연금액)

**①** 연금액은 기준연금액으로 한다.

##### 제10조 (지급의 신청)

**①** 연금을 받으려는 사람은 신청하여야 한다.

## 부칙

부칙 <제12617호,2014.5.20>

제1조(시행일) 이 법은 2014년 7월 1일부터 시행한다. 다만, 부칙 제4조제3항은 2014년 8월 7일부터 시행한다.

제2조(신청에 관한 특례) 이 법 시행 전에도 제10조제1항에 따라 신청을 받을 수 있다.

제3조(연금 지급에 관한 특례) ① 이 법 시행 당시 제3조제3항에 해당하여 제외된 사람에게는 같은 항에도 불구하고 연금을 지급할 수 있다.

② 부칙 제2조 및 제4조에 따른 신청은 이 법에 따른 신청으로 본다.

③ 제1항에 따른 연금액은 제5조에도 불구하고 기준연금액의 100분의 50으로 한다.

제4조(다른 법률의 개정) ① 장애인연금법 일부를 다음과 같이 개정한다.

② 생략

③ 생략

제5조(경과조치) [시행일 : 2014.7.1] 제5조 종전의 규정에 따른 신청은 이 법에 따른 신청으로 본다.

제6조(신청의 효력에 관한 경과조치) 부칙 제2조에 따른 신청은 이 법 시행 후에도 그 효력이 있다.
"""


def test_a_bare_article_in_a_부칙_is_the_본칙s_and_부칙_제N조_its_own() -> None:
    # seen in 기초연금법 부칙 <제12617호>: "제3조제3항에 해당하여" named the 부칙's own 제3조 ③ (it has one), so
    # the clause was linked to articles it never names; a 부칙 writes its own articles "부칙 제4조"
    tree = parse(load_bytes(ADDENDA_REFS.encode(), "노후연금법.md"))
    addenda = "부칙 <제12617호,2014.5.20>"
    refs = {(n.path, r.text): r.target_path for n in tree.root.walk() for r in n.refs}
    assert refs[(f"{addenda}/제3조/제1항", "제3조제3항")] == "본문/제3조/제3항"
    assert refs[(f"{addenda}/제3조/제3항", "제5조")] == "본문/제5조"
    assert refs[(f"{addenda}/제3조/제3항", "제1항")] == f"{addenda}/제3조/제1항"  # a paragraph of its own article
    assert refs[(f"{addenda}/제1조", "제4조제3항")] == f"{addenda}/제4조/제3항"  # "부칙 제4조제3항"
    assert refs[(f"{addenda}/제3조/제2항", "제2조")] == f"{addenda}/제2조"  # "부칙 제2조 및 제4조"
    assert refs[(f"{addenda}/제3조/제2항", "제4조")] == f"{addenda}/제4조"
    assert refs[(f"{addenda}/제5조", "제5조")] == f"{addenda}/제5조"  # "[시행일 : 2014.7.1] 제5조": itself
    # ② "부칙 제2조 … 에 따른 신청" says how a case arose: 제3조 names its own articles (① 제3조, ③ 제5조) and does not
    # inherit 부칙 제2조's 제10조 (아동수당법 부칙 ‹제16249호› 제3조 had taken every link of its 제2조); a clause naming none
    # follows 부칙 제2조 one step, to 제10조
    assert tree.find(f"{addenda}/제3조").attrs["transitional_for"] == ["본문/제3조", "본문/제5조"]
    assert tree.find(f"{addenda}/제6조").attrs["transitional_for"] == ["본문/제10조"]
    assert tree.find(f"{addenda}/제2조").attrs["transitional_for"] == ["본문/제10조"]
    assert "transitional_for" not in tree.find(f"{addenda}/제5조").attrs


TERMS_WORDING = """# 흥얼 서비스 이용약관

제7조(연간권의 환불)
① 연간권을 산 회원이 해지하면 남은 달의 요금을 돌려준다.

제25조(결제 제한 조치)
회사는 도용이 의심되는 카드의 결제를 막을 수 있다.

부칙
① 이 약관은 2026년 1월 1일부터 시행한다.
② 이 약관 시행 전에 결제한 연간권은 종전의 약관에 따른다.
"""


def test_a_policy_addenda_clause_is_linked_by_whole_words_only() -> None:
    # seen in a streaming service's terms: "결제한" holds "제한" of 제25조's title, which is no word of the clause;
    # a title word counts where a word of the clause begins with it ("연간권" in "연간권은")
    tree = parse(load_bytes(TERMS_WORDING.encode(), "이용약관_흥얼.md"))
    clause = next(n for n in tree.root.walk() if n.block_type == "addenda" and n.path.endswith("제2항"))
    assert clause.attrs.get("transitional_for") == ["본문/제7조"]


def test_a_special_rule_in_the_addenda_is_linked_to_the_article_it_overrides() -> None:
    # seen in 스포츠클럽법 시행령: "제2조(지정기간에 관한 특례) … 제5조제4항에도 불구하고 …" changes how today's 제5조 ④
    # applies to earlier designations; a 특례 clause is transitional like an 경과조치
    text = (LINK_NOTHING_BY_GUESS + "\n제8조(등록기간에 관한 특례) 2025년 12월 31일까지 한 등록은 제10조에도 불구하고 "
            "2030년 12월 31일까지 효력을 가진다.\n")
    tree = parse(load_bytes(text.encode(), "예술진흥법.md"))
    assert tree.find("부칙 <제8345호,2007.4.11>/제8조").attrs["transitional_for"] == ["본문/제10조"]
    assert "부칙 <제8345호,2007.4.11>/제8조" in tree.find("본문/제10조").attrs["transitional"]


def test_a_policy_clause_named_by_its_paragraph_starts_later_alone() -> None:
    # "다만, 제2조제2항은 …부터 시행한다": only ② waits; ① and the rest of the terms apply from the main start
    text = ("해님 이용약관\n\n제2조 (환불)\n① 회원은 7일 이내에 환불을 요청할 수 있다.\n"
            "② 회사는 환불 요청을 받은 날부터 3일 이내에 환불한다.\n1. 카드 결제\n2. 계좌 이체\n\n"
            "제3조 (포인트)\n포인트의 유효기간은 1년으로 한다.\n\n부칙\n"
            "이 약관은 2026년 1월 1일부터 시행한다. 다만, 제2조제2항 및 제3조는 2027년 4월 1일부터 시행한다.\n")
    tree = parse(load_bytes(text.encode(), "이용약관_해님.txt"))
    assert tree.root.attrs["version"]["effective_from"] == "2026-01-01"
    assert "effective_from" not in tree.find("본문/제2조").attrs
    assert "effective_from" not in tree.find("본문/제2조/제1항").attrs
    assert tree.find("본문/제2조/제2항").attrs["effective_from"] == "2027-04-01"
    assert tree.find("본문/제3조").attrs["effective_from"] == "2027-04-01"


def test_an_article_range_dates_every_article_between_its_ends() -> None:
    text = ("해님 규정\n\n제1조 (목적)\n목적을 정한다.\n\n제2조 (신청)\n신청한다.\n\n제2조의2 (접수)\n접수한다.\n\n"
            "제3조 (처리)\n처리한다.\n\n제4조 (통지)\n통지한다.\n\n부칙\n"
            "이 규정은 2026년 1월 1일부터 시행한다. 다만, 제2조부터 제3조까지의 개정규정은 2027년 1월 1일부터 시행한다.\n")
    tree = parse(load_bytes(text.encode(), "규정_해님.txt"))
    dated = {n.path for n in tree.root.walk() if n.attrs.get("effective_from")}
    assert dated == {"본문/제2조", "본문/제2조의2", "본문/제3조"}


LINK_THE_TOPIC = """---
제목: 마을장터법
법령구분: 법률
공포일자: 2025-03-01
시행일자: 2025-03-01
---

# 마을장터법

##### 제4조 (장터의 등록)

**①** 장터를 열려는 자는 등록하여야 한다.

##### 제9조 (준수사항)

**①** 상인은 가격을 표시하여야 한다.

##### 제11조 (청문)

**①** 등록을 취소하려면 청문을 하여야 한다.

##### 제12조 (과징금)

**①** 제9조를 위반한 상인에게 과징금을 부과할 수 있다.

##### 제15조 (수수료)

**①** 장터는 수수료를 받을 수 있다.

## 부칙

부칙 <제21000호,2025.3.1>

제1조(시행일) 이 법은 공포한 날부터 시행한다.

제2조(과징금에 관한 적용례) 제12조의 개정규정은 이 법 시행 이후 제9조의 개정규정에 따른 준수사항을 위반한 경우부터 적용한다.

제3조(등록에 관한 경과조치) ① 법률 제7000호 마을시장규제법 일부개정법률 시행 당시 종전의 규정에 따라 등록한 자에 관하여 법률 제7000호 마을시장규제법 일부개정법률에 따른 제4조제3항제5호 및 제11조제1항제4호의 개정규정을 적용할 때에는 같은 법 시행 후 발생하는 사유부터 적용한다.

제4조(수수료에 관한 적용례) 법률 제20900호 마을장터법 일부개정법률 제15조제1항의 개정규정은 이 법 시행 이후 받는 수수료부터 적용한다.

제5조(준용에 관한 적용례) 제12조제1항의 개정규정에 따라 준용되는 「질서위반행위규제법」 제20조는 이 법 시행 이후의 위반행위부터 적용한다.

제6조(수수료 산정에 관한 경과조치) 이 법 시행 당시 제4조제1항에 따라 등록한 자의 수수료 산정은 별표 2의 개정규정에도 불구하고 종전의 규정에 따른다.

제7조(과징금 기준에 관한 경과조치) 이 법 시행 전의 위반행위에 대한 과징금은 제12조, 별표 1의3 및 별표 3의 개정규정에도 불구하고 종전의 규정에 따른다.
"""


def test_a_transitional_link_is_the_clause_topic_not_what_it_mentions() -> None:
    # 전통시장법 부칙 ‹제21204호› 제4조: "제26조의9의 개정규정은 … 제26조의5의 개정규정에 따른 준수사항을 위반하여 …" is about
    # 제26조의9; 기부금품법 부칙 ‹제8419호› 제2조: articles after "법률 제7908호 기부금품모집규제법 일부개정법률에 따른" are
    # that Act's (the law's former name) — not today's 제4조 and 제11조 (a 청문 article with no 항 now)
    tree = parse(load_bytes(LINK_THE_TOPIC.encode(), "마을장터법.md"))
    addenda = "부칙 <제21000호,2025.3.1>"
    assert tree.find(f"{addenda}/제2조").attrs["transitional_for"] == ["본문/제12조"]
    assert "transitional" not in tree.find("본문/제9조").attrs
    assert "transitional_for" not in tree.find(f"{addenda}/제3조").attrs
    assert "transitional" not in tree.find("본문/제4조").attrs and "transitional" not in tree.find("본문/제11조").attrs
    # an Act amending this law by its present name names this law's articles
    assert tree.find(f"{addenda}/제4조").attrs["transitional_for"] == ["본문/제15조"]
    # another law's article read through this law's clause: the clause is the topic
    assert tree.find(f"{addenda}/제5조").attrs["transitional_for"] == ["본문/제12조"]
    # 장애인활동지원법 시행규칙 부칙 ‹제648호› 제2조: about an appendix's amendment ("별표 6의 개정규정에도 불구하고"), an
    # article named before it only says whom it concerns; one listed with the appendix is its topic
    assert "transitional_for" not in tree.find(f"{addenda}/제6조").attrs
    assert tree.find(f"{addenda}/제7조").attrs["transitional_for"] == ["본문/제12조"]


def test_a_policys_one_paragraph_addenda_links_the_rule_it_names_and_only_that() -> None:
    # "다만, 제2조제2항은 … 시행 전에 적립한 포인트는 …": the 부칙 without clauses is its own transitional clause; one
    # naming no article is about the whole text and links nothing by wording (a guess is worse than no link)
    named = """포인트 약관

제1조(목적) 이 약관은 포인트의 적립과 사용을 정한다.
제2조(적립) ① 구매 금액의 1퍼센트를 적립한다.
② 적립한 포인트는 1년 동안 쓸 수 있다.
제3조(휴회) 회원은 한 해에 두 번까지 휴회할 수 있다.

부칙
이 약관은 2026년 4월 1일부터 시행한다. 다만, 제2조제2항은 시행 후 적립한 포인트부터 적용하며, 시행 전에 적립한 포인트는 2년 동안 쓸 수 있다.
"""
    tree = parse(load_bytes(named.encode(), "포인트약관.txt"))
    assert tree.find("부칙").attrs["transitional_for"] == ["본문/제2조"]
    assert tree.find("본문/제2조").attrs["transitional"] == ["부칙"]
    unnamed = named.replace("다만, 제2조제2항은 시행 후 적립한 포인트부터 적용하며, 시행 전에 적립한 포인트는 2년 동안 쓸 수 있다.",
                            "이 약관 시행 전에 가입한 회원의 휴회 한도는 종전 약관에 따른다.")
    tree = parse(load_bytes(unnamed.encode(), "포인트약관.txt"))
    assert "transitional_for" not in tree.find("부칙").attrs
    assert not any("transitional" in n.attrs for n in tree.root.walk())


def test_a_clause_speaking_of_another_articles_topic_links_nothing_by_wording() -> None:
    # "…등록한 이용자의 월 이용료는 … 종전의 금액에 따른다" counts "이용" and "등록" of 제5조's title, but it speaks of
    # the 월 이용료 (제6조's title): the title words are incidental, and a guessed link would be wrong
    text = """센터 이용약관

제5조(이용 대상과 등록) ① 중학생과 고등학생이 등록할 수 있다.
제6조(월 이용료와 납부) ① 월 이용료는 매달 5일까지 낸다.
제7조(상담 횟수) ① 상담은 매주 한 번 한다.

부칙
① 이 약관은 2026년 9월 1일부터 시행한다.
② 이 약관 시행 전에 등록한 이용자의 월 이용료는 2027년 8월 31일까지 종전의 금액에 따른다.
③ 이 약관 시행 전에 신청한 상담 횟수는 종전의 약관에 따른다.
"""
    tree = parse(load_bytes(text.encode(), "센터약관.md"))
    assert "transitional_for" not in tree.find("부칙/제2항").attrs
    assert "transitional" not in tree.find("본문/제5조").attrs
    # a clause whose topic is its article's own title word still links by wording
    assert tree.find("부칙/제3항").attrs["transitional_for"] == ["본문/제7조"]
