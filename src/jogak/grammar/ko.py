"""Korean structure grammar as data: numbering schemes, block words, reference phrases.

Ranks follow 법제처 drafting convention (조 > 항 ① > 호 1. > 목 가. > 1) > 가) > (1) > (가)); nesting is
still decided by the document itself (a scheme nests under whatever is open), ranks only break ties.
"""

from __future__ import annotations

from jogak.grammar.base import Grammar
from jogak.grammar.laws import LAW_QUALIFIER
from jogak.grammar.numbering import CIRCLED_CLASS, FULLWIDTH_ROMAN_CLASS, GANADA_CLASS, PAREN_DIGIT_CLASS
from jogak.grammar.patterns import INLINE_FIRST_ITEM, label
from jogak.grammar.scheme import BlockWord, Scheme

# Divisions take a branch number like articles: "제3장의2" is inserted by amendment between 제3장 and 제4장.
SCHEMES: tuple[Scheme, ...] = (
    Scheme("ko_part", "chapter", label("편", "n", "m"), rank=1, path="제{n}편{sub}", label="{compact}", titled=True,
           anchored=True),
    Scheme("ko_chapter", "chapter", label("장", "n", "m"), rank=2, path="제{n}장{sub}", label="{compact}",
           titled=True, anchored=True),
    Scheme("ko_section", "chapter", label("절", "n", "m"), rank=3, path="제{n}절{sub}", label="{compact}",
           titled=True, anchored=True),
    Scheme("ko_subsection", "chapter", label("관", "n", "m"), rank=4, path="제{n}관{sub}", label="{compact}",
           titled=True, anchored=True),
    # 속: a fifth level under 관 (산업안전보건기준에 관한 규칙 제2편 제4장 제2절 제1관 제1속)
    Scheme("ko_division5", "chapter", label("속", "n", "m"), rank=5, path="제{n}속{sub}", label="{compact}",
           titled=True, anchored=True),
    Scheme("ko_article", "article", label("조", "n", "m"), rank=10, path="제{n}조{sub}", label="제{n}조{sub}",
           titled=True, anchored=True),
    # ① … ㊿, and as older statute texts print paragraphs above ⑮: "<16>" … "<125>" (amending acts' 부칙)
    Scheme("circled", "paragraph", rf"(?P<lt><)?(?P<n>(?(lt)\d{{1,3}}|{CIRCLED_CLASS}))(?(lt)>)", ordinal="circled",
           rank=20, path="제{n}항", titled=True, inline=True),
    Scheme("ko_para_word", "paragraph", label("항", "n"), rank=20, path="제{n}항", label="{compact}",
           word_label=True),
    # "9의2." — a 호 inserted by amendment between 9. and 10. (statutes number it like 제9조의2)
    Scheme("decimal_dot", "item", r"(?P<n>\d{1,3})(?:의(?P<m>\d{1,2}))?\.(?![\d.])", rank=30, path="제{n}호{sub}"),
    Scheme("ko_item_word", "item", label("호", "n"), rank=30, path="제{n}호", label="{compact}", word_label=True),
    Scheme("ganada_dot", "subitem", rf"(?P<n>{GANADA_CLASS})\.", ordinal="ganada", rank=40, path="{raw}목"),
    Scheme("decimal_paren", "subitem", r"(?P<n>\d{1,3})\)", rank=50, path="{n})"),
    Scheme("ganada_paren", "subitem", rf"(?P<n>{GANADA_CLASS})\)", ordinal="ganada", rank=60, path="{raw})"),
    Scheme("paren_decimal", "subitem", r"\((?P<n>\d{1,3})\)", rank=70, path="({n})"),
    Scheme("paren_digit_char", "subitem", rf"(?P<n>{PAREN_DIGIT_CLASS})", ordinal="circled", rank=70, path="({n})"),
    Scheme("paren_ganada", "subitem", rf"\((?P<n>{GANADA_CLASS})\)", ordinal="ganada", rank=80, path="({raw})"),
)

# Documents without 제N조 (privacy policies, 이용안내, internal guidelines, government reports) number their top
# level on heading lines that hold only a short title: "1. 개인정보의 처리 목적", and above that "Ⅰ. 총칙".
# These schemes are added only on evidence (the parser's scheme choice): the numbered sections when the
# document has no 제N조 heading and the lines "1." and "2." read as titles over content; Roman chapters when
# at least two title lines use them. Otherwise "1." stays an item (호).
SECTION_SCHEMES: tuple[Scheme, ...] = (
    Scheme("ko_roman", "chapter", rf"(?P<n>{FULLWIDTH_ROMAN_CLASS}|[IVX]{{1,4}})\s*\.(?![\d.])", ordinal="roman_any",
           rank=5, path="{raw}", titled=True, anchored=True, whole_line_title=True),
    Scheme("ko_section_dot", "article", r"(?P<n>\d{1,3})\.(?![\d.])", rank=12, path="{n}", titled=True,
           anchored=True, whole_line_title=True, restarts=True),
)

# Documents without 제N조 or numbered sections may head their parts with a title alone on its line
# ("개인정보의 처리 목적", then its content). Such lines are chapters named by their title — path
# "본문/개인정보의 처리 목적" — and numbered sections restart under them. The parser finds the lines
# (structure/titlelines.py); the scheme only names them, so its pattern matches nothing.
TITLE_LINE = Scheme("ko_title_line", "chapter", r"(?!x)x(?P<n>)", rank=6, path="{raw}", label="", titled=True,
                    anchored=True)

APPENDIX_WORDS = ("부록", "별표", "별지", "별첨", "서식", "첨부")
BLOCK_WORDS: tuple[BlockWord, ...] = (
    BlockWord("appendix", APPENDIX_WORDS, needs_id=True, block_type="appendix"),
    BlockWord("addenda", ("부칙",), block_type="addenda"),
    BlockWord("faq", ("자주 묻는 질문", "자주 하는 질문", "자주묻는 질문", "자주묻는질문", "FAQ", "질의응답", "Q&A"),
              block_type="body"),
)

PARTY_PATTERNS: tuple[str, ...] = (
    r'\(이하\s*["“「]?\s*[갑을병정]\s*["”」]?\s*(?:이?라|라고)\s*한다\)',
    r"^(?:매도인|매수인|임대인|임차인|위탁자|수탁자|발주자|수급인|도급인|공급자|구매자|[갑을])\s*[:：|(（]",
    r"^\s*[\"“]?[갑을][\"”]?\s*[:：]",
    r"(?:매도인|매수인|임대인|임차인|위탁자|수탁자|발주자|수급인|공급자|구매자)\s*\|",
    # "주식회사 A와 주식회사 B는 … 다음과 같이 계약을 체결한다"
    r"\S(?:와|과)\s.{1,80}?\S(?:은|는)\s.{0,160}(?:계약|약정|협약)을\s*체결",
)

# Reference phrases (xref.py resolves them; a name starting with "_skip" consumes the text without making a
# reference). Named groups: app/app_id (appendix), art/sub (조, 조의), para (항), item/itemsub (호, 호의),
# mok (목), rel (relative words), law (the law named before the article). Order matters: longer forms first.
# Without an identifier the word must end there (a particle may follow): "첨부파일", "첨부하여" are no appendix.
# A bare "서식" is any form ("관리대장의 서식, 기재 내용"), never this text's appendix: it needs its number.
# A bare "첨부" / "별첨" before a bracket or a stop is the verb ("사업계획서(도면 첨부)"): only "첨부와 같다", "별첨 참조" point.
_APP = (rf"(?P<app>{'|'.join(APPENDIX_WORDS)})(?:\s*(?P<app_id>[A-Z](?![A-Za-z])|\d+(?:-\d+|의\d+)?|{label('호')})"
        r"|(?<!서식)(?<!첨부)(?<!별첨)(?![가-힣])|(?<!서식)(?=(?:[을를에의과와은는이가로도만]|으로|\s*참조)(?![가-힣]{2})))")
_ART = label("조", "art", "sub")
_PARA = rf"(?:\s*{label('항', 'para')})?"
_ITEM = rf"(?:\s*{label('호', 'item', 'itemsub')})?"
_MOK = rf"(?:\s*(?P<mok>{GANADA_CLASS})\s*목)?"
_CLAUSE_START = rf"(?:{'|'.join(APPENDIX_WORDS)}|제\s*\d+\s*[조항호])"  # what may follow a law's 「name」 in its ref
_LAW = rf"(?:{LAW_QUALIFIER})?"  # "법", "영", "이 영", "같은 법", "민법" … (grammar.laws)
REF_PATTERNS: tuple[tuple[str, str], ...] = (
    # the number of a law or notice ("법률 제20001호", "대통령령 제3456호"): not an item reference
    ("_skip_law_number", r"(?:법률|대통령령|총리령|[가-힣]{1,12}부령|조례|규칙|고시|훈령|예규|공고)\s*제\s*\d+(?:-\d+)?\s*호"),
    # … and its appendix ("「건축법 시행령」 별표 1 제3호"): that law's 별표, never this text's
    # ("「국어기본법 시행령」 별표 1의 영역": the 의 belongs to the sentence unless a clause of the 별표 follows)
    ("other_law", r"「[^」]{1,60}」(?:\s*(?=" + _CLAUSE_START + r")(?:" + _APP + r"(?:\s*(?:의\s*)?(?=제))?)?(?:" + _ART + ")?" + _PARA + _ITEM + _MOK
     + r")?"),
    # "별표 1 제3호에 따른 … 같은 표 제5호", "동표 제4호아목": an item of the table named before, never of this 항
    ("same_table", rf"(?P<rel>같은\s*별?표|동표)\s*{label('호', 'item', 'itemsub')}" + _MOK),
    # "별표 1", "부록A 제2조", "별표 1 제4호가목", "법 별표 1" (another law's appendix)
    ("appendix", r"(?<![가-힣])" + _LAW + _APP + r"(?:\s*(?:의\s*)?(?=제)(?:" + _ART + ")?" + _PARA + _ITEM + _MOK
     + ")?"),
    ("body_explicit", r"본문\s*" + _ART + _PARA + _ITEM + _MOK),
    ("article", r"(?<![가-힣])" + _LAW + _ART + _PARA + _ITEM + _MOK),
    ("same_article", r"(?P<rel>같은\s*조|동조)\s*(?=제)" + _PARA + _ITEM + _MOK),
    ("same_para", rf"(?P<rel>같은\s*항|동항)\s*{label('호', 'item', 'itemsub')}" + _MOK),
    # "전조", "전항" start a word: not the 전조 inside "안전조치" nor the 전항 inside "발전항목"
    ("prev_article", rf"(?<![가-힣])(?P<rel>전조)(?![가-힣]{{0,0}}\s*{label('항')})(?:\s*{label('항', 'para')})?"),
    ("prev_para", r"(?<![가-힣])(?P<rel>전항)"),
    ("bare_para", rf"(?<![조\d]){label('항', 'para')}" + _ITEM + _MOK),
    ("bare_item", rf"(?<![항\d]){label('호', 'item', 'itemsub')}" + _MOK),
)

KO = Grammar(
    lang="ko",
    schemes=SCHEMES,
    section_schemes=SECTION_SCHEMES,
    title_line=TITLE_LINE,
    title_lines_min=2,
    # A section title: at most this long, and no sentence ending, colon or trailing comma (those are list items).
    section_title_max=40,
    section_title_not_end=(":", "：", ",", ";", "·", ".", "…"),
    # What follows "제10조" alone on a line but is no title: an omitted provision (amending acts' 부칙)
    not_titles=("생략", "중략", "이하 생략"),
    # "[별지 제1호 서식]": words that may follow an appendix identifier inside its label (not a title)
    appendix_id_suffixes=("서식",),
    block_words=BLOCK_WORDS,
    # After a label, these show the line is running text that merely starts with a reference
    # ("제3조에 따라", "제3조 제2항에 따라", "제2조 내지 제6조 생략").
    # (Particles attached to the label — 제3조에 — are caught separately; these are whole words after a space.)
    continuations=("및", "또는", "내지", "부터", "까지", "각", "각호", "중", "등", "전단", "후단", "단서", "참조", "참고",
                   "준용"),
    # Sentence endings: a "title" that ends like this is body text.
    sentence_end=("다.", "다", "요.", "함.", "음.", "것.", "임."),
    party_cues=("매도인", "매수인", "임대인", "임차인", "위탁자", "수탁자", "발주자", "수급인", "도급인", "공급자", "구매자",
                "갑", "을", "당사자", "계약자", "사업자등록번호", "대표이사", "대표자", "주소", "상호"),
    party_patterns=PARTY_PATTERNS,
    # Where a new paragraph may start mid-line (text extracted without line breaks): after a sentence end.
    inline_split=rf"(?<=[.다요)）】])\s+(?={CIRCLED_CLASS})",
    # "제7조(회원탈퇴) 1. 회원은 …": the article's first item written on its heading line.
    inline_first=INLINE_FIRST_ITEM,
    toc_words=("목차", "차례"),
    faq_question=r"^(?:Q\s*\d*\s*[.:)．]|Q\d+\b|Q\s|질문\s*\d*\s*[.:)]|문\s*\d*\s*[.:)])",
    faq_answer=r"^(?:A\s*\d*\s*[.:)．]|A\s|답변?\s*\d*\s*[.:)])",
    # The execution statement that opens a contract's signature block (after the last article).
    signature_start=(
        r"^(?:이\s*)?(?:계약|약정|합의)?.{0,30}(?:증명|증|확인)하기\s*위하여.{0,80}(?:서명|날인|기명날인)",
        r"^(?:위|상기)\s*(?:계약|약정|합의|내용).{0,60}(?:서명|날인|기명날인)",
    ),
    # A clause kept only for its number: "삭제", "삭제 <2023. 6. 1.>", "삭제 [2020.1.1]"
    deleted=r"(?:삭\s*제|<\s*삭제\s*>)\s*(?:<[^>]*>|\[[^\]]*\]|\([^)]*\))?\s*\.?",
    # Recitals before the first article are rare in Korean documents: none
    recitals_start=(),
    labels={
        "body": "본문",
        "parties": "당사자",
        "signatures": "서명",
        "recitals": "전문",
        "footnotes": "각주",
        "preamble": "전문",
        "faq": "FAQ",
        "table": "표{n}",
        "addenda": "부칙",
    },
    ref_patterns=REF_PATTERNS,
    # A sentence that only points elsewhere (seed 004's "pointer"): the reference is followed by one of these —
    # in the plain style of statutes or the polite style of terms ("요금은 별표 1과 같습니다", "…에 따릅니다").
    pointer_after=r"^\s*(?:을|를|에|의)?\s*(?:참조|참고|에\s*따른다|에\s*따릅니다|에\s*따름|에\s*의한다|에\s*의합니다|에서\s*정한다|에서\s*정합니다|에\s*정한\s*바에\s*따른다|에\s*정한\s*바에\s*따릅니다|과\s*같다|와\s*같다|과\s*같습니다|와\s*같습니다|에\s*규정된\s*바에\s*따른다|에\s*정하는\s*바에\s*따른다|에\s*정하는\s*바에\s*따릅니다)",
    pointer_after_attached=r"^(?:에\s*따른다|에\s*따릅니다|에\s*따름|에\s*의한다|에\s*의합니다|을\s*참조|를\s*참조|참조|과\s*같다|와\s*같다|과\s*같습니다|와\s*같습니다|에서\s*정한다|에서\s*정합니다|에\s*정한\s*바에\s*따른다|에\s*정한\s*바에\s*따릅니다|의\s*(?:기준|산식|방법)에\s*(?:따른다|따릅니다))",
)
