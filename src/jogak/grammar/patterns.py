"""Named patterns of Korean/English legal text, spelled once: article labels (제N조의M), 사건번호, amendment
tags ("<개정 …>"), table-of-contents leaders, the 제N prefix of any numbered unit.

Two forms: ``label()`` builds regex *fragments* with the group names a caller needs (a reference pattern
holds several labels, so group names must differ); the ``*_RE`` names are compiled patterns to use as is.
Case-law section markers and citations live with the rest of the case grammar (``jogak.grammar.case``).
"""

from __future__ import annotations

import re

from jogak.grammar.numbering import GANADA_RANGE

# ─── 제N조 and friends ──────────────────────────────────────────────────────────────────────────


def label(unit: str, n: str | None = None, branch: str | bool = False) -> str:
    """"제 N <unit>" as a regex fragment, e.g. ``label("조", "art", "sub")`` →
    ``제\\s*(?P<art>\\d+)\\s*조(?:\\s*의\\s*(?P<sub>\\d+))?``.

    ``unit`` is a regex (``"조"``, ``"(?:조|항|호|목)"``, ``"[조장절관편]"``); ``n`` names the number's group
    (None: no group); ``branch`` adds the optional 가지번호 "의M" (a group name, or True for no group).
    """
    num = rf"(?P<{n}>\d+)" if n else r"\d+"
    out = rf"제\s*{num}\s*{unit}"
    if branch:
        sub = rf"(?P<{branch}>\d+)" if isinstance(branch, str) else r"\d+"
        out += rf"(?:\s*의\s*{sub})?"
    return out


# "제3조", "제3조의2" (no groups) — to embed in larger patterns
ARTICLE = label("조", branch=True)
# "제 3 조의 2" with groups n=3, m=2
ARTICLE_LABEL_RE = re.compile(label("조", "n", "m"))
# A bracketed title, one level of brackets inside allowed: "(목적)", "(분사무소(分事務所) 설치의 등기)"
_BRACKETED = r"[(（](?:[^()（）\n]|[(（][^()（）\n]*[)）])*[)）]"
# An article heading whose first numbered item follows on the same line ("제7조(회원탈퇴) 1. 회원은 …"): the
# match ends where that item starts.
INLINE_FIRST_ITEM = rf"^\s*(?:\*\*)?{ARTICLE}\s*{_BRACKETED}(?:\*\*)?\s+(?=1[.)]\s*\S)"
# An article heading as citations show it: label and an optional bracketed title "(목적)"
ARTICLE_HEADING_RE = re.compile(
    rf"(?P<label>{label('조', 'n', 'm')})\s*(?:[(（](?P<title>(?:[^()（）\n]|[(（][^()（）\n]*[)）])*)[)）])?")
# A line that opens an article: the label followed by a bracketed title or the line's end (so running text
# such as "제3조에 따라" is no heading)
ARTICLE_HEADING_LINE = rf"{ARTICLE}(?:\s*{_BRACKETED}|\s*$)"
# A reference to a clause unit: "제3조", "제2항", "제1호", "제4목"
UNIT_REFERENCE_RE = re.compile(label("(?:조|항|호|목)"))
# "제" and a number: the start of any numbered unit (제3조, 제2장, 제1호 …)
NUMBERED_PREFIX_RE = re.compile(r"제\s*\d")

# A 가나다 list label opening a line: "가. ", "나) "
GANADA_LABEL_RE = re.compile(rf"^({GANADA_RANGE})[.)]\s")

# ─── statute annotations ───────────────────────────────────────────────────────────────────────

# The words that open a revision note: "<개정 2012.2.1>", "<신설 2018.3.20>", "[본조신설 2019.1.15]"
AMENDMENT_WORDS = ("개정", "신설", "전문개정", "본조신설", "본조개정", "제목개정", "타법개정", "일부개정", "시행일", "종전")
# A revision note at the end of a heading line or title ("제3조(정의) <개정 2020.1.1>")
AMENDMENT_TAG_RE = re.compile(rf"\s*<(?:{'|'.join(AMENDMENT_WORDS)})[^>]*>\s*$")
# The note after an appendix title naming the articles it serves: "[별표 1] 과태료의 부과기준(제10조 관련)",
# "(제4조제2항, 제10조제1항 및 제14조 관련)" — part of the heading, however many articles it lists.
APPENDIX_RELATED_RE = re.compile(r"\s*[(（][^()（）\n]*관련\s*[)）]\s*$")

# ─── 부칙 of amending acts ───────────────────────────────────────────────────────────────────────

# The 부칙 of another (amending) act quoted in a law's history: "부칙(정부조직법) <제8852호,2008.2.29>". It keeps only
# the provisions that concern this law, so its numbering skips by design.
EXCERPT_ADDENDA_RE = re.compile(r"^부\s*칙\s*[(（][^)）]+[)）]")
# The rest of a paragraph's line that stands for the paragraphs it skips: "①부터 ⑮까지 생략", "① 내지 <16> 생략",
# "① 및 ② 생략" (``end``: the last one left out, so the next written paragraph follows it without a gap).
OMITTED_RANGE_RE = re.compile(r"\s*(?:부터|내지|및|,)\s*(?P<end><\d{1,3}>|[①-⑳㉑-㉟㊱-㊿])\s*(?:까지)?\s*생\s*략")
# Articles left out the same way: "제2조 내지 제16조 생략", "제2조부터 제8조까지 생략", "제2조 및 제3조 생략" (``end``: the last)
OMITTED_ARTICLES_RE = re.compile(
    rf"{ARTICLE}\s*(?:부터|내지|및|,)\s*제\s*(?P<end>\d+)\s*조(?:\s*의\s*\d+)?\s*(?:까지)?\s*생\s*략")
# A line that introduces new wording of the amended regulation ("별표 2를 다음과 같이 하고, …", "다음과 같이
# 신설한다."): the "[별표 2]" after it is that wording, not an appendix of this document.
# ("다음가 같이": a misprint an official text carries)
AMENDING_LINE_RE = re.compile(r"다음[과가]\s*같이\s*(?:하고|하며|한다|신설하|신설한다|개정한다)")
# A 부칙 paragraph that amends another law itself ("②수목원조성및진흥에관한법률중 다음과 같이 개정한다.", "⑦대외무역법
# 제11조제6호를 다음과 같이 신설한다."), is left out ("③ 생략") or carries its own heading ("③(소멸시효에 관한
# 경과조치) …"): one that may follow a sibling paragraph whose amendment quoted new wording with circled numbers.
AMENDING_PARAGRAPH_RE = re.compile(rf"{AMENDING_LINE_RE.pattern}|생\s*략|^\s*[①-⑳]?\s*[(（][^)）\n]{{1,40}}[)）]",
                                   re.MULTILINE)
# A 부칙 heading line ("부칙 <제861호,2005.7.29>", "## 부칙", "부      칙"): statutes put their appendices after
# every 부칙, so an appendix heading with a 부칙 heading still to come belongs to the 부칙 it stands in.
ADDENDA_LINE_RE = re.compile(r"^[ \t#*]*부\s*칙[ \t*]*(?:[<(（\[]|$)", re.MULTILINE)

# ─── tables of contents ────────────────────────────────────────────────────────────────────────

# A page number after a leader: "제1조(목적) ........ 3", "총칙 …… 5", "Definitions      7"
TOC_LEADER_RE = re.compile(r"(?:\.{3,}|…{2,}|·{3,}|\s{3,})\s*\d+\s*$")

# ─── 사건번호 ───────────────────────────────────────────────────────────────────────────────────

CASE_YEAR = r"(?:19|20)?\d{2}"  # 2 digits until 1999 ("97다41868"), 4 since
CASE_CODE = r"[가-힣]{1,3}"  # 사건부호: 다, 누, 다카, 헌마 …
CASE_SERIAL = r"\d{1,7}"
# One 사건번호: year + 사건부호 + serial ("2001다48781", "2001 다 48781")
CASE_NUMBER = rf"{CASE_YEAR}\s?{CASE_CODE}\s?{CASE_SERIAL}"
CASE_NUMBER_RE = re.compile(
    rf"(?P<year>(?:19|20)\d{{2}}|\d{{2}})\s?(?P<code>{CASE_CODE})\s?(?P<serial>{CASE_SERIAL})")


# A purpose article ("제1조 (목적)", "Article 1 (Purpose)") states what the whole document is for: it shares
# the document's vocabulary with every question about it but answers only a question about that purpose.
# Matched on a clause heading or an article label ("목적", "제1조 (목적)", "Article 1 (Purpose)").
# ("Purpose of Processing" in a privacy policy is a substantive clause, not this.)
PURPOSE_HEADING_RE = re.compile(r"[(（]\s*(?:목적|purpose)\s*[)）]|^\S*\s*목적$|^\s*purpose\s*[.:]?\s*$", re.IGNORECASE)
PURPOSE_QUESTION_RE = re.compile(r"목적|purpose", re.IGNORECASE)
# A definitions article ("제2조 (정의)", "제2조(용어의 뜻)", "Definitions") names every term the document uses, so
# its wording meets many questions — everyday ones above all, when the document defines its trade words
# ("대여기구"란 수상오토바이(제트스키)와 패들보드를 말한다) — but it answers only a question about what a
# word means or what counts as what.
DEFINITION_HEADING_RE = re.compile(r"[(（]\s*(?:용어의\s*)?(?:정의|뜻)\s*[)）]|^\S*\s*(?:용어의\s*)?(?:정의|뜻)$|"
                                   r"[(（]\s*definitions?\s*[)）]|^\s*(?:[\d.]+\s*)?definitions?\s*[.:]?\s*$",
                                   re.IGNORECASE)
# ("'기보'라고 하면 뭘 가리키는 거예요", "수삼은 어떤 인삼을 가리키는 말이에요", "…이라고 하면 어떤 곳들이 들어가요":
# what a word refers to — not "환불해 달라고 하면 돼요", a request)
DEFINITION_QUESTION_RE = re.compile(r"뜻|의미|정의|무슨\s*말|(?:이)?란\s*(?:뭐|무엇|무슨)|(?:이)?라는\s*(?:게|것|건)|"
                                    r"가리키|(?:뭘|무엇을|뭐를)\s*(?:말하|뜻하)|"
                                    r"(?<![달해주하오내쓰두말])라고\s*하면\s*(?:정확히\s*)?(?:뭐|무엇|어떤|무슨|뭘)|"
                                    r"해당(?:하|되|돼|이|돼요|될)|포함(?:되|돼|하|이)|속(?:하|해|한)|"
                                    r"\bmeans?\b|\bmeaning|defin|count(?:s)?\s+as|\binclude", re.IGNORECASE)

# An addenda article that amends other laws ("제6조 (다른 법률의 개정) ⑤ 김치산업 진흥법 일부를 다음과 같이 개정한다.
# …"을 "…"으로 한다"): instructions that rewrite words elsewhere, sharing a law's vocabulary (its own name, its
# ministries) while answering nothing but a question about that amendment.
AMENDING_HEADING_RE = re.compile(r"[(（]\s*다른\s*(?:법률|법령|법)(?:\s*등)?의\s*개정\s*[)）]")
AMENDING_QUESTION_RE = re.compile(r"개정|amend", re.IGNORECASE)

# A sentence that announces a list ("다음 각 호의 …", "… 다음과 같다", "as follows")
LIST_LEAD_RE = re.compile(r"다음\s*각\s*(?:호|목)|다음과\s*같|아래와\s*같|as\s+follows|the\s+following", re.I)
# A list lead that offers alternatives ("다음 각 호의 어느 하나에 해당하는 경우", "…중 하나", "any of the
# following"): one matching item answers. Other leads ("다음 각 호의 조치를 한다", "다음 각 호의 사항을
# 포함하여야 한다") announce a list that holds together: one item quoted under its lead misstates it.
ANY_OF_LEAD_RE = re.compile(r"어느\s*하나|중\s*하나|하나\s*이상|어느\s*것|\b(?:any|one|either)\s+of\b", re.IGNORECASE)

# A question that asks for a whole enumeration ("어떤 것들이 있나요", "뭐뭐예요", "어디어디", "경우를 전부",
# "종류는", "What are the …s", "list all"): the answer is every item of the list, not the best-matching one.
LIST_QUESTION_RE = re.compile(
    r"(?:어떤|무슨|어느)\s*(?:것|게|거|경우|사람|곳|기관|항목|서류|내용|비용|조건|사유|방법)?\s*들"
    r"|(?:것|거|경우|사람|곳|기관|항목|서류|사유|조건)들(?:은|이|을|에는|로는)?\s*(?:뭐|무엇|어떤|어디|누구)"
    r"|뭐뭐|무엇무엇|어디어디|누구누구"
    # what a list is made of, asked by its kind: "꼭 들어가야 하는 내용은 뭐예요", "챙겨 갈 서류가 뭐예요", "거절할 수
    # 있는 경우가 뭐예요" (the rule is a list of 사항 / 서류 / 경우; one entry misstates it)
    r"|(?:내용|사항|항목|서류|조건|요건|경우)(?:은|는|이|가)?\s*(?:뭐|무엇)"
    r"|(?:뭐|무엇|어떤\s*것|어떤\s*게|어떤\s*거)(?:가|이)?\s*(?:있|있나|있어|있습)"
    r"|(?:전부|모두|다)\s*(?:알려|말해|적어|나열)|종류(?:는|가|에는|로는)?\s*(?:뭐|무엇|어떤|어떻게)"
    # what goes into a plan, a form or a notice: "계획에는 어떤 내용이 들어가야 해요", "뭐가 들어가요", "무슨 사항이
    # 포함돼요" — the rule is the whole list of 사항; "빠짐없이" asks every entry outright
    r"|(?:뭐|무엇|어떤\s*(?:것|게|거|내용|사항|항목|일|업무)|무슨\s*(?:내용|사항|항목|일|업무))(?:이|가|을|를)?\s*"
    r"(?:(?:꼭|반드시|다|모두|전부|함께|같이)\s*)?(?:들어\s*가|포함|담기|담겨|담아)|빠짐\s*없이"
    # a plural noun after "어떤 / 무슨": "어떤 정보들을 가져가요", "무슨 일들을 해요", "어떤 업체들을 조사해요"
    r"|(?:어떤|무슨|어느)\s*[가-힣]{1,4}들(?=[을를이가은는에로도과와]|\s|$)"
    r"|\bwhat\s+are\s+(?:the|all)\b|\blist\s+(?:all|the|every)\b|\bwhich\s+\w+s\s+(?:are|must|may|can)\b",
    re.IGNORECASE,
)

# Verb stems whose relative clause refers to a rule, a clause or a topic ("제1항에 따른 신고", "환불에 관한 사항",
# "해당하는 경우", "건물과 관련된 분쟁") rather than narrowing its noun to one kind of it ("보상으로 지급된 포인트"):
# Kiwi's forms (a noun heads "관련되다").
REFERENCE_VERB_STEMS = frozenset({"따르", "관하", "대하", "의하", "정하", "해당하", "규정하", "포함하", "위하",
                                  "이러하", "그러하", "같", "하", "이", "관련", "관계", "연관"})


# A question about the world as it stands ("지금 어느 기관이 맡아서 운영하고 있어요?", "현재 특구로 지정돼 있는 지역은
# 어디예요?"): a law says who may designate or run something, never who is designated today — such a question is
# not answered by a statute's clause. Three parts: a present-time word, an entity asked for, a present state.
_NOW_RE = re.compile(r"(?:^|\s)(?:지금|현재|요즘|오늘날|올해)(?:은|는|도)?\s")
_ENTITY_ASKED_RE = re.compile(r"어디|누가|누구|어느\s*(?:기관|곳|지역|단체|회사|업체|학교|병원|센터|법인)"
                              r"|몇\s*(?:곳|군데)|어떤\s*(?:기관|곳|지역|단체|회사|업체|센터|법인)")
_PRESENT_STATE_RE = re.compile(r"(?:돼|되어|된|되고|하고|맡고)\s*있|운영\s*중|지정\s*중")
# … and the question is about that state: it ends on it ("…하고 있어요?") or on the entity ("…지역은 어디예요?"),
# not on a procedure of the asker's ("지금 운영하고 있는 가게는 어디에 신고해요?")
_ENDS_ON_STATE_RE = re.compile(r"(?:있(?:어요|나요|습니까|죠|니|어|을까요)|(?:어디|누구|곳|군데|기관|단체|회사|업체|지역)"
                               r"\s*(?:예요|이에요|인가요|입니까|이야|야|죠|이죠|일까요))\s*[?？.!]*\s*$")


def asks_present_fact(question: str) -> bool:
    """Does the question ask which entity holds a role or a designation now (see above)?"""
    q = question.strip()
    return bool(_NOW_RE.search(f" {q}") and _ENTITY_ASKED_RE.search(q) and _PRESENT_STATE_RE.search(q)
                and _ENDS_ON_STATE_RE.search(q))

# Words that name a kind of document or its parts ("법적으로", "약관에는", "시행령 조항"): they say where to look, not what
# the answer is about — a unit sharing only them with the question adds nothing to an answer.
DOCUMENT_KIND_WORDS = frozenset({"법", "법률", "법령", "시행령", "시행규칙", "약관", "조항"})

# Who pays for a loss: "관리사무소가 물어 줘요?", "배상받을 수 있어요?", "누가 책임져요?". A unit that speaks of no paying,
# compensating or bearing a cost ("물건은 72시간 안에 찾아가야 한다") does not answer it, however close its topic.
ASKS_LIABILITY_RE = re.compile(r"물어\s*(?:줘|주|줄|내|낸|야)|배상|보상|변상|책임\s*(?:져|지|을|은|이)")
LIABILITY_ANSWER_RE = re.compile(r"배상|보상|변상|책임|물어|손해|손실|부담|지급|환불|돌려|갚|지불|비용|면책|보험")

# Where to file or report: "그 신고는 어디에 하는 거예요?", "어디에 신청해야 해요?". A unit naming no body or place that
# takes it ("시장ㆍ군수ㆍ구청장에게", "관리사무소에", "누리집으로") does not answer it ("신고한 차량을 운행한다" names none).
ASKS_WHERE_TO_FILE_RE = re.compile(r"어디(?:에|에다|로|에서)?\s*(?:다가\s*)?(?:신고|신청|제출|접수|등록|보고|청구|문의|연락|"
                                   r"내|알려|해야|하는|하면|가서|가야|가면)")
FILING_PLACE_RE = re.compile(r"(?:장관|장|군수|지사|교육감|기관|센터|위원회|사무소|관리소|청|서|공단|"
                             r"공사|협회|조합|법원|회사|누리집|홈페이지|앱|창구|본부|원|처|부|단체|법인|관|실|소)"
                             r"(?:에게|에|으로|로|에서|께)(?![가-힣]*\s*따라)")

# An interrogative word: what makes a clause of a question ask something ("며칠 전에 알려 주고, 한 번에 몇 시간까지
#끊어요?" asks two things, joined by "-고,").
INTERROGATIVE_RE = re.compile(r"언제|며칠|얼마|몇|어디|누구|무엇|뭐|뭘|어떻게|어떤|무슨|왜")
# Where one sentence of a question joins two questions: a connective ending and a comma ("…하고, …", "…이며, …").
QUESTION_JOINT_RE = re.compile(r"(?<=[가-힣])(?:고|며)\s*,\s*")
# A question whether something is among what a clause lists ("종합계획에 … 내용도 들어가요?", "공익사업에 … 일도
# 포함돼요?", "…것도 해당돼요?"): its answer is the list, read whole.
INCLUSION_QUESTION_RE = re.compile(
    r"(?:도|에|에는|엔)\s*(?:다\s*|같이\s*|함께\s*)?(?:들어가(?:요|나요|는지|는\s*거)|들어\s*있(?:어요|나요|는지)|들어가\s*있(?:어요|나요)"
    r"|포함(?:돼요|되나요|되어요|돼\s*있|되어\s*있|되는지)|해당(?:돼요|되나요|해요|하나요|되는지)|속(?:해요|하나요|하는지))")
# Between a clause and the 호 an aside picks out of its list: "제10조제1항 각 호(제1호, 제5호 및 제6호는 제외한다)" — those
# 호 are that clause's.
EACH_ITEM_ASIDE_GAP_RE = re.compile(r"\s*각\s*호\s*[(（]\s*")
# … and right after a 항, an aside that leaves out or keeps some of its 호: "제1항 및 제3항(제8호는 제외한다)에 따른",
# "제2항(제1호만 해당한다)" — 제3항's 제8호, 제2항's 제1호 (the gap, then what follows the 호 up to the aside's end).
PARA_ITEM_ASIDE_GAP_RE = re.compile(r"\s*[(（]\s*")
PARA_ITEM_ASIDE_REST_RE = re.compile(r"[^()（）\n]{0,60}?(?:제외한다|해당한다|한정한다)\s*[)）]")
