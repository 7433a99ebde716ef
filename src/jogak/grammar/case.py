"""Grammar of Korean court decisions, as data: courts, 사건부호, section markers, front-matter keys,
and the few small parsers (dates, 사건번호 lists, citations, 참조조문 items) built from those tables.

Everything here is pure and table-driven; ``jogak.structure.caselaw`` uses it to build the tree.
The 사건번호 and article-label fragments come from ``jogak.grammar.patterns``.

Year rules (documented, tested):
- 사건번호 years: 4 digits as written; 2 digits (used until 1999: "97다41868", "90다카9619") mean 19yy when
  yy >= 48 and 20yy otherwise (courts were founded in 1948; since 2000-01-01 numbers carry 4 digits, so a
  2-digit year below 48 is unusual and is reported as a problem by the caller).
- Dates: "2003. 7. 24.", "2003.07.24", "2003-07-24", "20030724", "2003년 7월 24일"; a 2-digit year follows
  the same 48-pivot. Impossible dates (month 13, 2월 30일) are *reported*, never repaired.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass

from jogak.grammar.numbering import GANADA_CLASS, GANADA_RANGE
from jogak.grammar.patterns import ARTICLE, CASE_CODE, CASE_NUMBER, CASE_NUMBER_RE, CASE_SERIAL, label

# ─── Courts ─────────────────────────────────────────────────────────────────────────────────────

# Exact court names (and common abbreviations) → canonical name. Regional courts are matched by the
# suffix table below, so "서울중앙지방법원", "부산고법" or "수원지방법원 안산지원" need no entry here.
COURT_ALIASES: dict[str, str] = {
    "대법원": "대법원",
    "대법": "대법원",
    "헌법재판소": "헌법재판소",
    "헌재": "헌법재판소",
    "특허법원": "특허법원",
    "특허법": "특허법원",
}

# Suffix → (canonical suffix, court level). Longest suffix first when matching.
COURT_SUFFIXES: dict[str, tuple[str, str]] = {
    "고등법원": ("고등법원", "고등법원"),
    "고법": ("고등법원", "고등법원"),
    "지방법원": ("지방법원", "지방법원"),
    "지법": ("지방법원", "지방법원"),
    "가정법원": ("가정법원", "가정법원"),
    "가정법": ("가정법원", "가정법원"),
    "행정법원": ("행정법원", "행정법원"),
    "행법": ("행정법원", "행정법원"),
    "회생법원": ("회생법원", "회생법원"),
    "특허법원": ("특허법원", "특허법원"),
}
COURT_LEVELS: dict[str, str] = {"대법원": "대법원", "헌법재판소": "헌법재판소", "특허법원": "특허법원"}

# Branch courts: "수원지방법원 안산지원", "대구지법 경주지원"; a high court's bench sitting elsewhere (원외재판부):
# "광주고등법원(전주)", "광주고등법원 전주재판부", "대전고법(청주)".
_BRANCH = r"(?:\s*[가-힣]{1,6}지원|\s*[(（]\s*[가-힣]{1,4}(?:재판부)?\s*[)）]|\s+[가-힣]{1,4}재판부)?"
_SEAT_RE = re.compile(r"^(?P<court>\S+?)\s*(?:[(（]\s*(?P<p>[가-힣]{1,4}?)(?:재판부)?\s*[)）]|\s+(?P<s>[가-힣]{1,4}?)재판부)$")
_SUFFIX_ALT = "|".join(sorted(COURT_SUFFIXES, key=len, reverse=True))
_ALIAS_ALT = "|".join(sorted(COURT_ALIASES, key=len, reverse=True))
# A court name: an exact alias, or a 1-6 syllable place + a court suffix (+ branch).
COURT_RE = rf"(?:(?:[가-힣]{{1,6}}?(?:{_SUFFIX_ALT})){_BRANCH}|(?:{_ALIAS_ALT})(?![가-힣]))"
_COURT_FULL = re.compile(rf"^{COURT_RE}$")


def normalize_court(name: str | None) -> tuple[str | None, str | None]:
    """("서울고법") → ("서울고등법원", "고등법원"). Unknown names give (None, None)."""
    if not name:
        return None, None
    s = re.sub(r"\s+", " ", name.strip())
    if s in COURT_ALIASES:
        canon = COURT_ALIASES[s]
        return canon, COURT_LEVELS.get(canon, canon)
    seat = _SEAT_RE.match(s)
    if seat and seat.group("court").endswith(("고등법원", "고법")):
        canon, level = normalize_court(seat.group("court"))
        return (f"{canon}({seat.group('p') or seat.group('s')})", level) if canon else (None, None)
    head, _, branch = s.partition(" ")
    if branch and not re.fullmatch(r"[가-힣]{1,6}지원", branch):
        return None, None
    for suf in sorted(COURT_SUFFIXES, key=len, reverse=True):
        if head.endswith(suf) and len(head) > len(suf):
            canon_suf, level = COURT_SUFFIXES[suf]
            canon = head[: -len(suf)] + canon_suf
            return (f"{canon} {branch}" if branch else canon), level
    return None, None


# ─── 사건부호 (case codes) ───────────────────────────────────────────────────────────────────────

# 사건부호 → (case_type, what it is). After the Supreme Court's rule on case codes (사건별 부호문자의
# 부여에 관한 예규) and the Constitutional Court's codes; pre-1998 codes (다카, 누 as 상고) included.
CASE_CODES: dict[str, tuple[str, str]] = {
    # 민사
    "가합": ("민사", "민사 1심 합의"), "가단": ("민사", "민사 1심 단독"), "가소": ("민사", "민사 소액"),
    "가": ("민사", "민사 1심(구)"), "나": ("민사", "민사 항소"), "다": ("민사", "민사 상고"),
    "다카": ("민사", "민사 상고허가(구)"), "라": ("민사", "민사 항고"), "마": ("민사", "민사 재항고"),
    "그": ("민사", "특별항고"), "카": ("민사", "민사 신청"), "카합": ("민사", "민사 신청 합의"),
    "카단": ("민사", "민사 신청 단독"), "카기": ("민사", "민사 기타 신청"), "카공": ("민사", "공시최고"),
    "카담": ("민사", "담보 신청"), "카명": ("민사", "재산명시"), "카불": ("민사", "채무불이행자명부"),
    "카조": ("민사", "재산조회"), "차": ("민사", "독촉"), "차전": ("민사", "전자독촉"),
    "타경": ("민사", "부동산 경매"), "타채": ("민사", "채권 집행"), "타기": ("민사", "집행 기타"),
    "머": ("민사", "민사 조정"), "자": ("민사", "민사 재심(구)"), "재다": ("민사", "민사 상고 재심"),
    "재나": ("민사", "민사 항소 재심"), "재가합": ("민사", "민사 1심 재심"),
    # 가사
    "드": ("가사", "가사 1심"), "드합": ("가사", "가사 1심 합의"), "드단": ("가사", "가사 1심 단독"),
    "르": ("가사", "가사 항소"), "므": ("가사", "가사 상고"), "브": ("가사", "가사 항고"),
    "스": ("가사", "가사 재항고"), "느": ("가사", "가사 비송"), "느합": ("가사", "가사 비송 합의"),
    "느단": ("가사", "가사 비송 단독"), "너": ("가사", "가사 조정"), "즈": ("가사", "가사 신청"),
    "즈합": ("가사", "가사 신청 합의"), "즈단": ("가사", "가사 신청 단독"), "즈기": ("가사", "가사 기타 신청"),
    "재므": ("가사", "가사 상고 재심"),
    # 형사
    "고합": ("형사", "형사 1심 합의"), "고단": ("형사", "형사 1심 단독"), "고정": ("형사", "형사 정식재판"),
    "고약": ("형사", "약식"), "노": ("형사", "형사 항소"), "도": ("형사", "형사 상고"),
    "로": ("형사", "형사 항고"), "모": ("형사", "형사 재항고"), "오": ("형사", "비상상고"),
    "초": ("형사", "형사 신청"), "초기": ("형사", "형사 기타 신청"), "초적": ("형사", "구속적부심"),
    "초보": ("형사", "보석"), "감고": ("형사", "치료감호 1심"), "감노": ("형사", "치료감호 항소"),
    "감도": ("형사", "치료감호 상고"), "전고": ("형사", "부착명령 1심"), "전노": ("형사", "부착명령 항소"),
    "전도": ("형사", "부착명령 상고"), "재도": ("형사", "형사 상고 재심"),
    # 행정
    "구": ("행정", "행정 1심(구)"), "구합": ("행정", "행정 1심 합의"), "구단": ("행정", "행정 1심 단독"),
    "누": ("행정", "행정 항소(1998년 전: 상고)"), "두": ("행정", "행정 상고"), "루": ("행정", "행정 항고"),
    "무": ("행정", "행정 재항고"), "아": ("행정", "행정 신청"), "재두": ("행정", "행정 상고 재심"),
    "재누": ("행정", "행정 재심(구)"),
    # 특허, 선거
    "허": ("특허", "특허 1심"), "후": ("특허", "특허 상고"), "수": ("선거", "선거 소송"),
    "주": ("선거", "선거 소송(기타)"),
    # 회생·파산
    "회합": ("회생", "회생 합의"), "회단": ("회생", "회생 단독"), "간회합": ("회생", "간이회생"),
    "개회": ("회생", "개인회생"), "하합": ("파산", "파산 합의"), "하단": ("파산", "파산 단독"),
    "하면": ("파산", "면책"),
    # 헌법재판소
    "헌가": ("헌법", "위헌법률심판"), "헌나": ("헌법", "탄핵심판"), "헌다": ("헌법", "정당해산심판"),
    "헌라": ("헌법", "권한쟁의심판"), "헌마": ("헌법", "헌법소원(권리구제형)"),
    "헌바": ("헌법", "헌법소원(위헌심사형)"), "헌사": ("헌법", "헌법재판 신청"), "헌아": ("헌법", "재심"),
}

# Codes whose decisions are 결정 by procedure (항고·재항고·신청·헌법재판).
DECISION_CODES: frozenset[str] = frozenset(
    {"라", "마", "그", "브", "스", "로", "모", "루", "무", "카", "카합", "카단", "카기", "즈", "즈합", "즈단",
     "즈기", "초", "초기", "초적", "초보", "아", "헌가", "헌나", "헌다", "헌라", "헌마", "헌바", "헌사", "헌아"}
)

YEAR_PIVOT = 48  # 2-digit years: >= 48 → 19yy, < 48 → 20yy

# Annotations after a number in a joined list: "(본소)", "(반소)", "(병합)", "(참가)".
_ANNOT = r"(?:\s*[(（][가-힣\s]{1,12}[)）])?"
# A list: first full number, then more numbers or bare serials ("1264") that inherit year and code.
CASE_LIST_RE = rf"{CASE_NUMBER}{_ANNOT}(?:\s*[,·ㆍ、]\s*(?:{CASE_NUMBER}|{CASE_SERIAL}){_ANNOT})*"
_LIST_ITEM = re.compile(rf"(?P<full>{CASE_NUMBER})|(?P<bare>(?<![\d가-힣]){CASE_SERIAL}(?![\d가-힣]))")


@dataclass(frozen=True, slots=True)
class CaseNumber:
    text: str  # normalised, e.g. "2000므1257"
    year: int
    code: str
    serial: str

    @property
    def case_type(self) -> str | None:
        code = self.code[1:] if self.code.startswith("재") and self.code not in CASE_CODES else self.code
        entry = CASE_CODES.get(code)
        return entry[0] if entry else None


def expand_year(yy: str) -> int:
    y = int(yy)
    if len(yy) == 4:
        return y
    return 1900 + y if y >= YEAR_PIVOT else 2000 + y


def parse_case_number(s: str) -> CaseNumber | None:
    m = CASE_NUMBER_RE.fullmatch(re.sub(r"\s+", "", s or ""))
    if not m:
        return None
    year = m.group("year")
    return CaseNumber(f"{year}{m.group('code')}{m.group('serial')}", expand_year(year), m.group("code"),
                      m.group("serial"))


def parse_case_numbers(s: str) -> list[CaseNumber]:
    """"2000므1257(본소), 1264(반소)" → [2000므1257, 2000므1264]; "95누4902, 4919" → two numbers.

    A bare serial inherits the year and 사건부호 of the number before it. Text before the first full
    number is ignored; an empty list means no 사건번호 was found.
    """
    out: list[CaseNumber] = []
    s = re.sub(r"[(（][가-힣\s]{1,12}[)）]", " ", s or "")
    for m in _LIST_ITEM.finditer(s):
        if m.group("full"):
            cn = parse_case_number(m.group("full"))
            if cn:
                out.append(cn)
        elif out:
            prev = out[-1]
            yy = prev.text[: len(prev.text) - len(prev.code) - len(prev.serial)]
            out.append(CaseNumber(f"{yy}{prev.code}{m.group('bare')}", prev.year, prev.code, m.group("bare")))
    seen: set[str] = set()
    uniq = []
    for cn in out:
        if cn.text not in seen:
            seen.add(cn.text)
            uniq.append(cn)
    return uniq


# ─── Dates ──────────────────────────────────────────────────────────────────────────────────────

DATE_RE = r"(?:(?:19|20)?\d{2}\s*\.\s*\d{1,2}\s*\.\s*\d{1,2}\s*\.?|(?:19|20)\d{2}\s*년\s*\d{1,2}\s*월\s*\d{1,2}\s*일)"
_DATE_FORMS = (
    re.compile(r"(?P<y>(?:19|20)?\d{2})\s*[.\-/]\s*(?P<m>\d{1,2})\s*[.\-/]\s*(?P<d>\d{1,2})\s*\.?"),
    re.compile(r"(?P<y>(?:19|20)\d{2})\s*년\s*(?P<m>\d{1,2})\s*월\s*(?P<d>\d{1,2})\s*일"),
    re.compile(r"(?P<y>(?:19|20)\d{2})(?P<m>\d{2})(?P<d>\d{2})"),
)


def parse_date(value: object) -> tuple[str | None, str | None]:
    """Any written date → (ISO date, None) or (None, problem). ``datetime.date`` values pass through."""
    if value is None or value == "":
        return None, "missing"
    if isinstance(value, _dt.datetime):
        return value.date().isoformat(), None
    if isinstance(value, _dt.date):
        return value.isoformat(), None
    s = str(value).strip()
    for rx in _DATE_FORMS:
        m = rx.fullmatch(s)
        if m:
            y, mo, d = expand_year(m.group("y")), int(m.group("m")), int(m.group("d"))
            try:
                return _dt.date(y, mo, d).isoformat(), None
            except ValueError as e:
                return None, f"invalid date '{s}' ({e})"
    return None, f"unreadable date '{s}'"


def format_date_ko(iso: str) -> str:
    """"2005-11-25" → "2005. 11. 25." (the way Korean citations write it)."""
    y, m, d = iso.split("-")
    return f"{int(y)}. {int(m)}. {int(d)}."


# ─── Citations: "대법원 2003. 7. 24. 선고 2001다48781 전원합의체 판결" ────────────────────────────────

JUDGMENT_TYPES = ("판결", "결정")
EN_BANC_WORDS = ("전원합의체", "전원재판부")

CITATION_RE = re.compile(
    rf"(?:(?P<court>{COURT_RE})\s*)?(?P<date>{DATE_RE})\s*(?:(?P<verb>선고|자)\s*)?"
    rf"(?P<nums>{CASE_LIST_RE})\s*(?P<enbanc>{'|'.join(EN_BANC_WORDS)})?\s*(?P<type>판결|결정)"
)

# A casebook header line: "(대법원 2003. 7. 24. 선고 2001다48781 전원합의체 판결 )". Permissive on
# purpose (any date-like token, any 1-3 Hangul code) so malformed values are *reported* rather than
# making the case disappear.
HEADER_RE = re.compile(
    rf"[(（]\s*(?P<full>(?P<court>[가-힣]{{2,12}}(?:\s+[가-힣]{{1,6}}지원)?)\s+"
    rf"(?P<date>\d{{2,4}}\s*\.\s*\d{{1,2}}\s*\.\s*\d{{1,2}}\s*\.?)\s*(?:(?:선고|자)\s*)?"
    rf"(?P<nums>\d{{2,4}}\s?{CASE_CODE}\s?{CASE_SERIAL}[^()（）\n]*?(?:[(（][가-힣\s]{{1,12}}[)）][^()（）\n]*?)*)"
    rf"\s*(?P<enbanc>{'|'.join(EN_BANC_WORDS)})?\s*(?P<type>판결|결정))\s*[)）]\s*$"
)


@dataclass(slots=True)
class Citation:
    start: int
    end: int
    text: str
    court: str | None
    date: str | None
    case_numbers: list[str]
    judgment_type: str
    en_banc: bool
    problem: str | None = None


def find_citations(text: str, start: int = 0, end: int | None = None) -> list[Citation]:
    """Every "(법원) 날짜 선고 사건번호 판결/결정" in ``text[start:end]``, offsets absolute.

    A citation written without a court ("…98다44956 판결, 1999. 11. 26. 선고 99다34499 판결 등 참조")
    inherits the court of the citation right before it when only a separator lies between them.
    """
    end = len(text) if end is None else end
    out: list[Citation] = []
    for m in CITATION_RE.finditer(text, start, end):
        court, _ = normalize_court(m.group("court")) if m.group("court") else (None, None)
        if court is None and out:
            gap = text[out[-1].end : m.start()]
            if re.fullmatch(r"\s*[,，、]?\s*(?:및\s*)?", gap):
                court = out[-1].court
        iso, prob = parse_date(m.group("date"))
        nums = [c.text for c in parse_case_numbers(m.group("nums"))]
        out.append(Citation(m.start(), m.end(), m.group(0), court, iso, nums, m.group("type"),
                            bool(m.group("enbanc")), prob))
    return out


def full_case_name(court: str | None, iso_date: str | None, numbers_text: str | None,
                   judgment_type: str | None, en_banc: bool = False) -> str | None:
    """"대법원 2005. 11. 25. 선고 2005다35554 판결"; None unless every part is known.

    대법원 결정 takes "자" ("대법원 2004. 3. 12. 자 2003마1234 결정"); everything else "선고".
    """
    if not (court and iso_date and numbers_text and judgment_type):
        return None
    verb = "자" if (judgment_type == "결정" and court == "대법원") else "선고"
    bench = (" 전원재판부" if court == "헌법재판소" else " 전원합의체") if en_banc else ""
    return f"{court} {format_date_ko(iso_date)} {verb} {numbers_text}{bench} {judgment_type}"


# ─── Sections ───────────────────────────────────────────────────────────────────────────────────

# Canonical section name → written variants (spaces inside a marker are ignored: "판 시 사 항").
SECTION_NAMES: dict[str, tuple[str, ...]] = {
    "쟁점": ("쟁점",),
    "판시사항": ("판시사항",),
    "판결요지": ("판결요지", "요지"),
    "결정요지": ("결정요지",),  # 헌법재판소 and 결정 reports; aligned like 판결요지
    "참조조문": ("참조조문", "관련조문"),
    "참조판례": ("참조판례", "관련판례"),
    "사실관계": ("사실관계", "사안의개요", "사실의개요"),
    "판결이유": ("판결이유",),
    "이유요지": ("이유요지", "판결이유요지"),
    "판례내용": ("판례내용", "전문", "판결전문", "결정전문"),
    "해설": ("해설", "평석", "검토", "참고"),
}
# Sections whose [1], [2] … holdings are aligned with each other.
HOLDING_SECTIONS = ("쟁점", "판시사항", "판결요지", "결정요지", "참조조문", "참조판례")
# Sections whose holdings are written inline, separated by " / ".
INLINE_HOLDING_SECTIONS = ("참조조문", "참조판례")
# Strong evidence of a decision (used by detection): at least two of these at line starts.
DETECT_SECTIONS = ("판시사항", "판결요지", "결정요지", "참조조문", "참조판례", "판례내용")
# Written forms accepted *without* brackets (a bare "판시사항" line or a "## 판시사항" heading); the others
# ("해설", "참고", "요지", …) are too common as words and count only as 【…】 / <…> markers.
BARE_SECTION_FORMS = frozenset({"판시사항", "판결요지", "결정요지", "참조조문", "참조판례", "판례내용", "쟁점",
                                "사실관계", "판결이유", "이유요지"})

_SECTION_LOOKUP = {re.sub(r"\s+", "", v): k for k, vs in SECTION_NAMES.items() for v in vs}
_NAME_CHARS = r"[가-힣](?:[ \t]?[가-힣]){1,9}"
# "## 판시사항" / "【판시사항】" / "<판결요지>" / "［참조조문］" / "판시사항" (alone on its line).
SECTION_LINE_RE = re.compile(
    rf"^[ \t]*(?:#{{1,6}}[ \t]*)?(?:\*\*)?(?:(?P<open>[【<〈《\[［])[ \t]*(?P<n1>{_NAME_CHARS})[ \t]*[】>〉》\]］]"
    rf"|(?P<n2>{_NAME_CHARS}))(?:\*\*)?[ \t]*:?",
    re.MULTILINE,
)


def section_name(written: str) -> str | None:
    return _SECTION_LOOKUP.get(re.sub(r"\s+", "", written))


# 판례내용 blocks: 【원고, 상고인】, 【원심판결】, 【주 문】, 【이 유】 …
# A 【…】 marker at a line start or after whitespace (Markdown rendering joins soft-wrapped lines, so
# "【원고】 … 【피고】 … 【주 문】" may share one line).
BRACKET_LINE_RE = re.compile(r"(?:^|(?<=\s))[ \t]*【[ \t]*(?P<name>[^】\n]{1,40}?)[ \t]*】", re.MULTILINE)
PARTY_WORDS = ("원고", "피고", "상고인", "항소인", "항고인", "신청인", "청구인", "피고인", "참가인", "변호인",
               "검사", "사건본인", "채권자", "채무자", "소송수계인", "보조참가인", "제청법원", "당사자")
BODY_BLOCKS: dict[str, str] = {  # normalised 【…】 name → canonical block name
    "주문": "주문",
    "이유": "이유",
    "원심판결": "원심판결",
    "원심결정": "원심판결",
    "제1심판결": "제1심판결",
    "환송판결": "환송판결",
    "청구취지": "청구취지",
    "항소취지": "항소취지",
    "상고이유": "상고이유",
    "재항고이유": "상고이유",
    "사건": "사건",
    "전문": "전문",
}
# The signature block at the end: "대법관 송진훈(재판장) 이돈희(주심) 윤재식", "재판장 재판관 …".
# (the caller also requires that nothing but whitespace follows it).
JUDGES_LINE_RE = re.compile(
    r"(?:^|(?<=[.다]\s))[ \t]*(?:재판장[ \t]*)?(?:대법원장|대법관|대법원판사|재판관|판사)[ \t]+[가-힣○]{2,4}.*$",
    re.MULTILINE)
# (the period may be missing at the end of a line: "… 주문과 같이 판결한다")
CLOSING_RE = re.compile(r"(?:주문과\s*같이|다음과\s*같이)?\s*(판결|결정)\s*한다[ \t]*(?:\.|(?=\n|$))")


def body_block(name: str) -> tuple[str, str]:
    """Classify a 【…】 marker: ("parties", "원고, 상고인") / ("block", "주문") / ("other", name)."""
    norm = re.sub(r"\s+", "", name)
    if norm in BODY_BLOCKS:
        return "block", BODY_BLOCKS[norm]
    if any(w in norm for w in PARTY_WORDS) and len(norm) <= 30:
        return "parties", name.strip()
    return "other", norm


# Holdings: "[1]", "[1][2]" (참조판례), older "가.", "나.".
HOLDING_GROUP_RE = re.compile(r"\[(\d{1,2})\](?:[ \t]*\[(\d{1,2})\])*")
HANGUL_HOLDING_RE = re.compile(rf"(?P<h>{GANADA_CLASS})\.[ \t]")
# Numbered parts of 이유: "1.", then "가.".
REASON_NUMBER_RE = re.compile(r"(?P<n>\d{1,2})\.[ \t]+(?=[^\d\s])")
REASON_HANGUL_RE = re.compile(rf"(?P<n>{GANADA_CLASS})\.[ \t]+(?=\S)")
# A heading run at the start of a numbered part whose line was joined with its paragraph:
# "1. 피고의 상고이유 제1점에 대하여 원심판결의 이유에 의하면 …", "2. 상고 이유에 대한 판단 …".
REASON_TITLE_RE = re.compile(
    r"[^\n]{1,40}?(?:에[ \t]*대하여|에[ \t]*관하여|에[ \t]*대한[ \t]*판단|의[ \t]*요지|의[ \t]*판단)(?=[ \t]|$)")

# Table-of-contents cues for casebooks.
TOC_TITLE_RE = re.compile(r"^[ \t]*(?:목[ \t]*차|차[ \t]*례|contents|table of contents)[ \t]*$",
                          re.MULTILINE | re.IGNORECASE)
TOC_ENTRY_RE = re.compile(r"(?:[.·…‥ㆍ・]{3,}|[ \t]{2,})[ \t]*\d{1,4}[ \t]*$", re.MULTILINE)
TITLE_COUNTER_RE = re.compile(r"\s*[(（]\s*\d{1,3}\s*[)）]\s*$")

# ─── Front matter ───────────────────────────────────────────────────────────────────────────────

# Front-matter key → case field. Korean keys exactly as law.go.kr / precedent-kr write them.
FRONT_MATTER_KEYS: dict[str, str] = {
    "사건번호": "case_number",
    "사건명": "title",
    "법원명": "court",
    "선고일자": "decision_date",
    "사건종류": "case_type",
    "판결유형": "judgment_type",
    "선고": "judgment_type_text",
    "판례일련번호": "precedent_id",
    "법원등급": "court_level",
    "출처": "source_url",
    # English spellings some exports use
    "case_number": "case_number",
    "title": "title",
    "court": "court",
    "decision_date": "decision_date",
    "case_type": "case_type",
    "judgment_type": "judgment_type",
}
CASE_FRONT_MATTER_MARKERS = ("사건번호", "선고일자", "판례일련번호", "case_number")


def parse_front_matter(text: str) -> tuple[dict[str, str], int]:
    """A minimal reader for the flat ``key: value`` YAML front matter the corpus uses.

    Returns (mapping, offset where the body starts). No front matter → ({}, 0).
    """
    m = re.match(r"\ufeff?---[ \t]*\n(.*?)\n---[ \t]*(?:\n|$)", text, re.DOTALL)
    if not m:
        return {}, 0
    out: dict[str, str] = {}
    for line in m.group(1).split("\n"):
        kv = re.match(r"^([^\s:#][^:]*?)\s*:\s*(.*?)\s*$", line)
        if not kv:
            continue
        v = kv.group(2)
        if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
            v = v[1:-1]
        out[kv.group(1)] = v
    return out, m.end()


# ─── 참조조문 items ──────────────────────────────────────────────────────────────────────────────

_PARA, _ITEM, _MOK = rf"(?:\s*{label('항')})?", rf"(?:\s*{label('호')})?", rf"(?:\s*{GANADA_RANGE}\s*목)?"
ARTICLE_RE = re.compile(
    rf"{ARTICLE}{_PARA}{_ITEM}{_MOK}"
    rf"|(?<![가-힣\d]){label('항')}{_ITEM}{_MOK}"
    rf"|(?<![가-힣\d]){label('호')}{_MOK}"
)
_ART_PARTS = re.compile(label("(?P<unit>조|항|호)", "n", "m"))


def normalize_article(s: str) -> str:
    s = re.sub(r"\s+", "", s)
    s = re.sub(rf"(조(?:의\d+)?|항|호)(?=제|{GANADA_RANGE}목)", r"\1 ", s)
    return s


def article_level(art: str) -> str:
    """The highest unit an article string starts with: "조", "항" or "호"."""
    m = _ART_PARTS.match(art)
    return m.group("unit") if m else ""


def merge_article(prev: str | None, art: str) -> str:
    """", 제2항" after "제47조 제1항" → "제47조 제2항"; ", 제48조" stands alone."""
    art = normalize_article(art)
    level = article_level(art)
    if level == "조" or not prev:
        return art
    keep = {"항": ("조",), "호": ("조", "항")}[level]
    head = [p for p in prev.split(" ") if article_level(p) in keep]
    return " ".join([*head, art])
