"""The line and sentence grammar answers are cut with (``jogak.answer.units`` does the cutting).

What a line of a chunk is — a heading a citation can name (제N조 (…), 자주 묻는 질문, 부칙, 부록A, Section 4.2,
Schedule A, <판결요지>), a table row or rule, an FAQ question or answer, a list item, a court's holding
marker [1], a revision note or a deleted provision — and where a sentence ends: at ``다.``/``요.``/``.``/
``?``/``!`` followed by white space, never after a number alone (``2003. 7. 24.``, ``1.``) or an
abbreviation. Also: pointer sentences ("부록A 참조"), question sections (판시사항, 목차), language detection.
"""

from __future__ import annotations

import re

from jogak.chunk.articles import normalise_heading

CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"

# Headings a citation can name. Korean statute/policy headings, appendix/schedule headings, FAQ, 부칙,
# case-law section headings, English section/article headings, markdown '#'.
_HEADING = re.compile(
    r"""^[ \t]*(?:
        \#{1,6}\s+\S.*
      | 제\s*\d+\s*(?:조|장|절|관)(?:\s*의\s*\d+)?(?:\s*[(（][^)）\n]*[)）])?\s*$
      | 제\s*\d+\s*조(?:\s*의\s*\d+)?\s*[(（][^)）\n]*[)）].*
      | 자주\s*묻는\s*질문.*
      | 부\s*칙(?:\s*[(<（].*)?\s*$
      | (?:부록|별표|별지|첨부)\s*[A-Za-z0-9가-힣]{0,3}\s*(?:[(（][^)）\n]*[)）])?\s*$
      | [<【\[]\s*(?:판시사항|판결요지|참조조문|참조판례|전문|이유|주문|쟁점|사실관계|판단)\s*[>】\]]\s*$
      | (?:판시사항|판결요지|참조조문|참조판례|주\s*문|이\s*유)\s*$
      | (?:Section|SECTION|Article|ARTICLE|Clause|CLAUSE)\s+\d+(?:\.\d+)*\b.{0,80}$
      | (?:Schedule|SCHEDULE|Exhibit|EXHIBIT|Annex|ANNEX|Appendix|APPENDIX)\s+[A-Z0-9]{1,3}\b.{0,80}$
      | (?:Frequently\s+Asked\s+Questions|FAQ)\s*$
    )""",
    re.VERBOSE,
)
APPENDIX_HEAD = re.compile(r"^(?:부록|별표|별지|첨부)\s*[A-Za-z0-9]{0,3}|^(?:Schedule|Exhibit|Annex|Appendix)\s+[A-Z0-9]{1,3}",
                            re.IGNORECASE)
TABLE_RULE = re.compile(r"^[\s|:+\-=]+$")
FAQ_Q = re.compile(r"^[ \t]*(?:Q\s*\d*\s*[.:)．]|질문\s*[:：]|문\s*[:：])\s*")
FAQ_A = re.compile(r"^[ \t]*(?:A\s*\d*\s*[.:)．]|답변\s*[:：]|답\s*[:：])\s*")
# "4의2." is a statute's inserted item (제4호의2), an item like "4." (it was read as a one-word sentence)
ITEM = re.compile(r"^[ \t]*(?:\d{1,2}(?:의\d{1,2})?\.(?!\d)|[가-하]\.|\(\d{1,2}\)|\d{1,2}\)|[a-z]\)|\([a-z]\)|[-•·▪]\s)\s*")
HOLDING = re.compile(r"^[ \t]*\[\d{1,2}\]\s*")
CIRCLED_IN = re.compile(rf"(?:(?<=\s)|^)([{CIRCLED}])\s*")
# A sentence ends at . ? ! 。 followed by white space or the end — checked further in _ends_sentence.
_SENT_END = re.compile(r"[.?!。](?:[\"'”’)\]]*)(?=\s|$)")
_ABBREV = {
    "q", "a", "no", "nos", "e.g", "i.e", "etc", "inc", "ltd", "co", "corp", "sec", "secs", "cf", "vs",
    "st", "mr", "mrs", "ms", "dr", "art", "para", "p", "pp", "u.s", "n.a", "s.a", "jan", "feb", "mar",
    "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
}
# Pointer sentences: they only say where the answer is ("부록A 참조", "see Schedule B").
_POINTER = re.compile(
    r"""(?:
        (?:부록|별표|별지|첨부|각주)\s*[A-Za-z0-9가-힣]{0,3}(?:\s*제\s*\d+\s*조)?\s*(?:의\s*)?
            (?:을|를|에)?\s*(?:참조|참고|에\s*따른다|를\s*따른다|과\s*같다|와\s*같다|에서\s*정한다|에\s*정한다|로\s*정한다)
      | (?:제\s*\d+\s*조(?:\s*제\s*\d+\s*항)?)\s*(?:을|를)?\s*(?:참조|참고)
      | \b(?:see|refer\s+to|as\s+set\s+(?:out|forth)\s+in|set\s+out\s+in|specified\s+in)\s+
            (?:Schedule|Exhibit|Annex|Appendix|Section|Clause|Article|footnote)\b
    )""",
    re.VERBOSE | re.IGNORECASE,
)


# Sections that state questions or list contents, not answers: a case's 쟁점/판시사항 restate the issue
# (and so match a question best), a table of contents matches everything.
QUESTION_SECTIONS = frozenset({"쟁점", "판시사항", "목차", "차례", "contents", "table of contents"})
_TOC_LEADERS = re.compile(r"(?:·{3,}|\.{5,}|…{2,}).*(?:·{3,}|\.{5,}|…{2,})")


def is_question_section(heading: str) -> bool:
    h = heading.strip().strip("<>【】[]()#").strip().lower()
    return h in QUESTION_SECTIONS


def is_toc_line(text: str) -> bool:
    """A table-of-contents line: dot or middle-dot leaders on both sides ("제1조 ······ 3 ······")."""
    return bool(_TOC_LEADERS.search(text))


# Revision notes of Korean statutes ("<개정 2012.2.1>", "<신설 2018.3.20>", "[본조신설 2019.1.15]") and
# deleted provisions ("삭제 <2017.11.28>"): annotations of the text's history, never an answer. A line that
# ends with one still ends where its sentence ends (the list after it is a list, not a continuation).
_REVISION = re.compile(
    r"[<\[]\s*(?:개정|신설|전문개정|본조신설|본조개정|제목개정|타법개정|일부개정|시행일|종전)[^>\]\n]{0,120}[>\]]")
_REVISION_TAIL = re.compile(rf"(?:\s*{_REVISION.pattern})+\s*$")
_DELETED = re.compile(r"^\s*(?:[{CIRCLED}]\s*)?삭제\s*(?:[<\[][^>\]\n]{0,40}[>\]])?\s*[.。]?\s*$")


def is_annotation(text: str) -> bool:
    """Only revision notes, or a deleted provision ("삭제 <2017.11.28>")."""
    t = text.strip()
    return bool(t) and (not _REVISION.sub("", t).strip(" ,.") or bool(_DELETED.match(t)))


POINTER_MAX_LEAD = 60  # characters before the reference in a pointer sentence
# "7.1 Governing Law." — a section caption run into its first sentence; it is merged with that sentence.
_CAPTION = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[A-Z]\.)\s+[A-Z][\w'’ ,&/-]{0,60}\.$")


def normalise_ws(s: str) -> str:
    """Collapse white space; a line break inside Hangul text (a PDF wrap mid-word) joins without a
    space only when the loader marked nothing — we cannot know, so a single space is used."""
    return " ".join(s.split())


def is_pointer(sentence: str) -> bool:
    """A sentence whose content is only a reference to another place ("지연 일수별 보상 금액은 부록A
    참조.", "See Schedule B."). Short sentences that end with the reference qualify; a sentence that
    states a rule and also mentions the appendix does not."""
    s = normalise_ws(sentence)
    matches = list(_POINTER.finditer(s))
    if not matches:
        return False
    m = matches[-1]
    tail = s[m.end():].strip(" .。)")
    # The reference must close the sentence (nothing substantive after it), and what comes before it
    # must be short: "지연 일수별 보상 금액은 부록A 참조." points; a full rule that ends "…, calculated as
    # set forth in Schedule 1." states something itself.
    return len(tail) <= 4 and len(s[: m.start()]) <= POINTER_MAX_LEAD


# A rule that takes its figure from an appendix ("두 번째 자동차는 별표 1의 주차료를 내고", "별표 2에 따른 위약금을
# 뺀다", "요금은 별표 1과 같으며"): the amount asked is in the appendix's row, not in the rule
_VALUE_IN_APPENDIX = re.compile(
    r"(?:부록|별표|별지)\s*[A-Za-z0-9]{0,3}\s*(?:의|에\s*(?:따른|정한|적힌|나온))\s*(?:[가-힣]+\s+)?"
    r"[가-힣]*(?:료|비|금|액|요금|기준|율)(?:을|를|이|가|은|는|에|으로|로|과|와|만큼)?(?![가-힣])|(?:부록|별표|별지)\s*[A-Za-z0-9]{0,3}\s*(?:과|와)\s*같(?:으며|고|이|은)")


def refers(sentence: str) -> bool:
    """The sentence mentions another place as where details are ("… as set forth in Schedule 1", "별표 1의
    주차료를 내고")."""
    s = normalise_ws(sentence)
    return _POINTER.search(s) is not None or _VALUE_IN_APPENDIX.search(s) is not None


def is_heading_line(line: str) -> bool:
    return bool(_HEADING.match(line))


def heading_name(line: str) -> str:
    line = line.strip().lstrip("#").strip()
    return normalise_heading(line)


def table_cells(line: str) -> list[str]:
    if "|" in line:
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
    else:
        parts = [p.strip() for p in line.split("\t")]
    return parts


def is_table_row(line: str) -> bool:
    return line.count("|") >= 2 or " | " in line or ("\t" in line.strip() and len([p for p in line.split("\t") if p.strip()]) >= 2)


def _ends_sentence(text: str, dot: int) -> bool:
    """Whether the terminator at ``dot`` closes a sentence (not a number, date part or abbreviation)."""
    ch = text[dot]
    if ch in "?!。":
        return True
    j = dot
    while j > 0 and not text[j - 1].isspace() and text[j - 1] not in "(（[":
        j -= 1
    token = text[j:dot]
    if not token:
        return False
    if token.isdigit():  # "1." item numbers, "2003. 7. 24." dates — but "… in Schedule 1. The Parties"
        before = text[:j].rstrip()
        nxt = text[dot + 1 :].lstrip()[:1]
        return bool(before) and before[-1].isalpha() and nxt.isascii() and nxt.isupper()
    if token.lower().rstrip(".") in _ABBREV:
        return False
    return not (len(token) == 1 and token.isalpha() and token.isupper())


_PAIRS = {")": "(", "）": "（", "]": "[", "」": "「", "』": "『"}
_MAX_ASIDE = 400  # a "closing" bracket further away than this is not the same aside


def _asides(text: str) -> list[tuple[int, int]]:
    """Spans inside matched brackets. A statute's aside often holds a full stop of its own ("행위(이하
    "음주측정방해행위"라 한다. 이하 같다)를 하여서는 아니 된다"): it does not end the sentence around it.
    Unmatched brackets ("1)" item numbers, a cut-off aside) protect nothing."""
    stack: list[tuple[str, int]] = []
    out: list[tuple[int, int]] = []
    for i, ch in enumerate(text):
        if ch in "(（[「『":
            stack.append((ch, i))
        elif ch in _PAIRS:
            while stack and i - stack[-1][1] > _MAX_ASIDE:
                stack.pop()
            if stack and stack[-1][0] == _PAIRS[ch]:
                out.append((stack.pop()[1], i))
    return out


def split_sentences(text: str, base: int = 0) -> list[tuple[int, int]]:
    """Sentence spans (``base``-relative offsets) of a prose run; leading/trailing space trimmed. A full stop
    inside a bracketed aside does not end a sentence."""
    spans: list[tuple[int, int]] = []
    start = 0
    asides = _asides(text) if any(c in text for c in ".?!。") else []
    for m in _SENT_END.finditer(text):
        if not _ends_sentence(text, m.start()):
            continue
        if any(a < m.start() and b >= m.end() for a, b in asides):
            continue
        end = m.end()
        spans.append((start, end))
        start = end
    if start < len(text):
        spans.append((start, len(text)))
    out = []
    for s, e in spans:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            out.append((base + s, base + e))
    return out


def merge_captions(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    carry: int | None = None
    for s, e in spans:
        if carry is not None:
            s, carry = carry, None
        if _CAPTION.match(text[s:e]) and (s, e) != spans[-1]:
            carry = s
            continue
        out.append((s, e))
    return out


def line_ended(text: str, end: int) -> bool:
    """Whether the text before ``end`` closes a sentence (revision notes after the full stop ignored): the
    next line starts something new rather than continuing it."""
    t = text[:end].rstrip()
    tail = _REVISION_TAIL.search(t)
    if tail and tail.start() > 0:
        t = t[: tail.start()].rstrip()
    return bool(t) and t[-1] in ".?!。:"


def hangul_ratio(text: str) -> float:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 0.0
    return sum(1 for c in letters if "\uac00" <= c <= "\ud7a3" or "\u3131" <= c <= "\u318e") / len(letters)


def detect_lang(*texts: str) -> str:
    """"ko" when Hangul makes up at least a fifth of the letters, else "en"."""
    joined = " ".join(texts)
    return "ko" if hangul_ratio(joined) >= 0.2 else "en"
