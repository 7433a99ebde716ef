"""Heading candidates: what a line *could* open, read off the grammar tables.

A candidate is only a proposal. The tree builder (parser.py) accepts it when its numbering is consistent
with what is open — this module never decides structure, it only reads a line's shape: the label, the
number, a title, and whether the text after the label reads like running text ("제3조에 따라").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jogak.grammar import BlockWord, Grammar, Scheme
from jogak.grammar.patterns import AMENDMENT_TAG_RE as _AMEND_TAG
from jogak.grammar.patterns import APPENDIX_RELATED_RE, NUMBERED_PREFIX_RE, TOC_LEADER_RE, UNIT_REFERENCE_RE
from jogak.grammar.patterns import label as unit_label
from jogak.model import Line

_HANGUL = re.compile(r"[가-힣]")
_CLOSE = {"(": ")", "（": "）", "【": "】", "[": "]", "〔": "〕", "<": ">", "「": "」"}
# the start of an "(제4조 … 관련)" note a line break cut off ("… (제8조, 제12조부터")
_OPEN_RELATED_RE = re.compile(r"\s*[(（]\s*제\s*\d+\s*조[^()（）\n]*$")


@dataclass(slots=True)
class Candidate:
    kind: str
    label: str  # normalised label as written: "제7조", "②", "1.", "가.", "ARTICLE 4", "4.2", "(a)"
    number: tuple[int, ...] | None
    title: str
    start: int  # document offset of the label
    body_start: int  # document offset after label (+ title)
    scheme: Scheme | None = None
    block: BlockWord | None = None
    block_label: str = ""  # "부록A", "별표 1", "Schedule 1", "부칙 <제6687호,2002.3.30>"
    raw: str = ""  # the raw number text ("가", "iv", "A")
    strong: bool = False  # a layout cue says "heading"
    word_label: bool = False  # label is a word (제N조, Section) rather than a symbol (①, 1., (a))
    has_bracket_title: bool = False
    title_only_line: bool = False  # the line holds nothing but the heading

    @property
    def key(self) -> tuple[int, ...] | None:
        """Numeric key used by dotted numbering: ARTICLE 4 → (4,), 4.2 → (4, 2)."""
        if self.number is None:
            return None
        if self.scheme is not None and self.scheme.dotted:
            return self.number
        return (self.number[0],) if len(self.number) < 2 or self.number[1] == 0 else self.number


def is_hangul(ch: str) -> bool:
    return bool(_HANGUL.match(ch))


def _split_title(after: str, lang: str) -> tuple[str, int, bool]:
    """Title right after a label: ``(목적)``, ``【목적】``, or (English) a short capitalised phrase.

    Returns (title, consumed characters of ``after``, bracketed?)."""
    s = after
    lead = len(s) - len(s.lstrip(" \t"))
    rest = s[lead:]
    if rest and rest[0] in "(（【[〔":
        j = _closing(rest)
        if 0 < j <= 60 and "\n" not in rest[:j]:
            return _unwrap(rest[1:j].strip()), lead + j + 1, True
        return "", 0, False
    if lang == "en":
        # "ARTICLE 4 - PAYMENT", "4.2 Payment Terms. The Supplier shall ...", "1. DEFINITIONS."
        m = re.match(r"[\s\-–—:.]*", rest)
        k = m.end() if m else 0
        body = rest[k:]
        if not body:
            return "", lead, False
        stop = re.search(r"\.(?:\s|$)|:\s|$", body)
        cand = body[: stop.start()] if stop else body
        words = cand.split()
        whole = cand == body.rstrip(" .:")  # the rest of the line is nothing but this phrase
        if 0 < len(words) <= 10 and len(cand) <= 90 and (_title_case(words) or (
                whole and len(words) <= 8 and words[0][:1].isupper() and not body.rstrip().endswith((".", ","))
                and not re.search(r"[;,]", cand))):  # "Clause 4 Price and payment" (a sentence would end in ".")
            consumed = lead + k + len(cand) + (1 if stop and body[stop.start() : stop.start() + 1] in ".:" else 0)
            return cand.strip(), consumed, False
        return "", lead, False
    return "", lead, False


def _unwrap(title: str) -> str:
    """"(목적)" → "목적": some law exports double the title's brackets ("제1조 ((목적))"); a title wholly inside one
    more pair is the same title, and the doubled form would reach every citation label."""
    while len(title) > 2 and title[0] in "(（" and _closing(title) == len(title) - 1:
        title = title[1:-1].strip()
    return title


def _closing(s: str) -> int:
    """Where the bracket opening ``s`` closes on its line, counting nested pairs ("(분사무소(分事務所) 설치의
    등기)" is one title); -1 when it does not close there."""
    opening, close, depth = s[0], _CLOSE.get(s[0], ")"), 0
    for i, ch in enumerate(s):
        if ch == "\n":
            return -1
        if ch == opening:
            depth += 1
        elif ch == close:
            depth -= 1
            if depth == 0:
                return i
    return -1


_SMALL = {"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with", "&"}


def _title_case(words: list[str]) -> bool:
    letters = [w for w in words if any(c.isalpha() for c in w)]
    if not letters:
        return False
    if all(w.isupper() or not w.isalpha() for w in letters):
        return True
    return all(w[0].isupper() or w.lower() in _SMALL or not w[0].isalpha() for w in letters) and letters[0][
        0
    ].isupper()


def _continues_as_text(after: str, grammar: Grammar, lang: str, word_label: bool,
                       after_title: bool = False) -> bool:
    """Does the text after a label read like a running-text reference ("제3조에 따라", "Section 4.2 of")?

    ``after_title``: ``after`` follows a bracketed title ("제2조(적용) 제1조에 따른 …"): a body that opens
    with a reference is still a body; only a continuation word ("제3조(정의) 및 제4조") makes it text."""
    if not after:
        return False
    if lang == "ko":
        if word_label and is_hangul(after[0]):
            return True  # particle attached: 제3조에, 제3조의, 부록A에
        stripped = after.lstrip()
        if not stripped or stripped == after:
            return False
        if UNIT_REFERENCE_RE.match(stripped) and not after_title:
            return word_label
        token = stripped.split()[0].rstrip(".,;:)")
        if token == "각" and not re.match(r"각\s*(?:호|목|항|조|장|절|편)", stripped):
            return False  # "제2장의3 각 연결사업연도의 소득에 대한 법인세": a title, not "제3조 각 호"
        return word_label and token in grammar.continuations
    # English
    stripped = after.lstrip()
    if not stripped:
        return False
    if stripped[0] in ",;)":
        return True
    token = re.split(r"[\s,;]", stripped, maxsplit=1)[0]
    if token[:1].isupper() and not token.isupper():
        return False  # "1.1 In this Agreement …": a capital starts the clause's own sentence
    return word_label and token.lower() in grammar.continuations


class CandidateReader:
    """Reads heading candidates off lines for one document language."""

    def __init__(self, grammar: Grammar, lang: str, strong_bold: bool, body_font: float | None) -> None:
        self.g = grammar
        self.lang = lang
        self.strong_bold = strong_bold
        self.body_font = body_font
        self._faq = [w for b in grammar.block_words if b.kind == "faq" for w in b.words]
        blocks = [b for b in grammar.block_words if b.kind in ("appendix", "addenda")]
        # "부      칙", "별  표": Korean block words are often letter-spaced on their own line
        alts = "|".join(_spaced(w) for b in blocks for w in sorted(b.words, key=len, reverse=True))
        # "[별지 제1호 서식]": a word that may follow the identifier inside the label (not a title)
        suffixes = "|".join(re.escape(w) for w in grammar.appendix_id_suffixes)
        suffix = rf"(?:\s*(?:{suffixes}))?" if suffixes else ""
        self._block_re = re.compile(
            rf"[\[【<〈(]?\s*(?P<word>(?i:{alts}))(?![a-z])(?:\s*(?P<id>(?:{unit_label('호')})|[A-Z](?:-\d+)?(?![a-z.\d])|\d+(?:-\d+|의\d+)?(?![.\d])|[IVX]+\b(?!\.\d)){suffix})?"
            rf"(?:\s*(?P<close>[\]】>〉)]))?"
        )
        self._blockword = {w.casefold(): b for b in blocks for w in b.words}
        self._canonical = {w.casefold(): w for b in blocks for w in b.words}

    def strong(self, line: Line | None) -> bool:
        if line is None:
            return False
        if line.heading_level is not None:
            return True
        if self.strong_bold and line.bold:
            return True
        return bool(self.body_font and line.font_size and line.font_size > self.body_font + 0.6)

    def read(self, text: str, start: int, end: int, line: Line | None, schemes: tuple[Scheme, ...],
             at_line_start: bool = True) -> list[Candidate]:
        """Candidates for the segment ``text[start:end]`` (leading whitespace already skipped)."""
        seg = text[start:end]
        out: list[Candidate] = []
        if not seg or TOC_LEADER_RE.search(seg):
            return out
        strong = self.strong(line)
        block = self._read_block(text, start, end, strong)
        if block is not None:
            out.append(block)
        for scheme in schemes:
            if not at_line_start and not scheme.inline:
                continue
            c = self._read_scheme(scheme, seg, start, line, strong)
            if c is not None:
                out.append(c)
        faq = self._read_faq(seg, start, strong)
        if faq is not None:
            out.append(faq)
        return out

    def _read_scheme(self, scheme: Scheme, seg: str, start: int, line: Line | None, strong: bool
                     ) -> Candidate | None:
        """The candidate ``scheme`` proposes for ``seg``, or None (no match, or running text)."""
        m = scheme.regex.match(seg)
        if not m:
            return None
        raw = m.group("n")
        number = scheme.number(raw, m.groupdict().get("m"))
        if number is None:
            return None
        after = seg[m.end() :]
        word_label = scheme.anchored or scheme.dotted or scheme.word_label
        titled = self._title_after(scheme, after)
        if titled is None:
            return None
        title, consumed, bracketed = titled
        if scheme.whole_line_title:
            word_label = False
        rest = after[consumed:]
        if _continues_as_text(after if not bracketed else rest, self.g, self.lang, word_label,
                              after_title=bracketed):
            return None
        if bracketed and rest and is_hangul(rest[0]):
            return None  # "제3조(정의)에 따라"
        title_only = not rest.strip() or bool(_AMEND_TAG.fullmatch(rest))
        # "제1조 이 법은 … 시행한다.": a sentence, no title — but a bracketed title alone on its line is one even
        # when it ends in 다 ("제3조 (주변해역에서 제외되는 바다)", "제46조 (위와 같다)")
        if (self.lang == "ko" and scheme.anchored and title and title.endswith(("다", "다."))
                and not (bracketed and title_only)):
            return None
        return Candidate(
            kind=scheme.kind, label=scheme.format_label(m.group(0), raw, number), number=number,
            title=_AMEND_TAG.sub("", title).strip(), start=start, body_start=start + m.end() + consumed,
            scheme=scheme, raw=raw, strong=strong or (line is not None and line.bold_prefix > 0
                                                      and line.start + line.bold_prefix >= start),
            word_label=word_label, has_bracket_title=bracketed,
            title_only_line=title_only,
        )

    def _title_after(self, scheme: Scheme, after: str) -> tuple[str, int, bool] | None:
        """(title, characters of ``after`` it takes, bracketed?) for a label's rest of line; None when a
        whole-line-title scheme finds no title (then the line is no heading of that scheme)."""
        if scheme.whole_line_title:
            # "1. 개인정보의 처리 목적": the whole rest of the line is the title, or this is no heading
            title = self.section_title(after) or ""
            return (title, len(after), False) if title else None
        if not scheme.titled:
            return "", 0, False
        title, consumed, bracketed = _split_title(after, self.lang)
        if self.lang != "ko" or bracketed:
            return title, consumed, bracketed
        if scheme.kind == "chapter":  # "제1장 총칙": chapter titles are rarely bracketed
            t = _AMEND_TAG.sub("", after).strip()  # "제2장의2 주택 임대차 계약의 신고 <신설 2020.8.18>"
            if t and len(t) <= 80 and not t.endswith(("다.", "다")) and not is_hangul(after[:1] or " "):
                return t, len(after), False
        elif scheme.anchored and after[:1].isspace():
            # "제1조 목적" alone on its line (contracts written by hand): an unbracketed title — but not
            # "제5조 삭제 <2024. 6. 1.>" and never a sentence ("제1조 이 법은 … 시행한다.")
            t = self.section_title(after)
            if t and not self.g.deleted_re.fullmatch(t) and t not in self.g.not_titles:
                return t, len(after), False
        return "", 0, False

    def section_title(self, after: str) -> str | None:
        """The rest of a numbered line as a section title ("개인정보의 처리 목적"), or None when it reads as a
        list item or a sentence ("성명: 홍길동", "회원은 …합니다.")."""
        t = _AMEND_TAG.sub("", after).strip()
        if not t or len(t) > self.g.section_title_max or not re.search(r"[가-힣A-Za-z]", t):
            return None
        if t.endswith(self.g.sentence_end) or t.endswith(self.g.section_title_not_end):
            return None
        if re.search(r"[:：]|[다요]\.\s", t):
            return None
        return t

    def _read_block(self, text: str, start: int, end: int, strong: bool) -> Candidate | None:
        seg = text[start:end]
        m = self._block_re.match(seg)
        if not m:
            return None
        word = self._canonical["".join(m.group("word").split()).casefold()]
        b = self._blockword[word.casefold()]
        ident = (m.group("id") or "").strip()
        rest = seg[m.end() :]
        if b.kind == "addenda":
            r = rest.strip()
            if r and r[0] not in "<(（[":
                return None
            # as written, with the block word's own letter-spacing removed ("부      칙 <…>" → "부칙 <…>")
            after = seg.lstrip()[len(m.group(0).lstrip()):] if not m.group("id") else ""
            label = word + (" " if after[:1].isspace() else "") + " ".join(after.split()) if r else word
            return Candidate(kind="addenda", label=label, number=None, title="", start=start, body_start=end,
                             block=b, block_label=label, strong=strong, word_label=True, title_only_line=True)
        # appendix
        # "[별표] 과태료의 부과기준": a bracketed block word is a label without a number (a law's only 별표)
        bracketed_word = bool(m.group("close")) and seg.lstrip()[:1] in "[【<〈"
        if b.needs_id and not ident and not bracketed_word and not (
                rest.strip() == "" or rest.lstrip()[:1] in "(（【"):
            return None
        if ident and self.lang == "ko" and rest[:1] and is_hangul(rest[0]) and not m.group("close"):
            return None  # 부록A에 따른다
        title, consumed, bracketed = _split_title(rest, self.lang)
        if bracketed:
            tail = rest[consumed:]
            if tail[:1] and is_hangul(tail[0]):
                return None  # 부록A(…)에 따른다
        else:
            consumed, tail, title = 0, "", ""
            t = rest.strip(" \t-–—:.")
            if t:
                if _continues_as_text(rest, self.g, self.lang, True):
                    return None
                if self.lang == "ko":
                    # the "(제4조 … 관련)" note does not make a title long
                    core = APPENDIX_RELATED_RE.sub("", t)
                    if m.group("close"):  # "[별표 1] 요금 기준 (제8조, …, 제17조부터" wrapped: the note goes on below
                        core = _OPEN_RELATED_RE.sub("", core)
                    if len(core) > 40 or t.endswith(("다.", "다", "요.")) or NUMBERED_PREFIX_RE.match(t):
                        return None
                    if rest[:1] not in " \t-–—:.":
                        return None
                elif len(t) > 80 or (t.endswith(".") and len(t.split()) > 8) or not (
                        t[0].isupper() or t[0].isdigit() or t[0] in "(\"“"):
                    return None
                title = t
        label = block_label(word, ident, self.lang)
        has_body = bool(tail.strip())
        return Candidate(kind="appendix", label=label, number=None, title=_AMEND_TAG.sub("", title).strip(),
                         start=start, body_start=start + m.end() + consumed if has_body else end,
                         block=b, block_label=label, raw=ident, strong=strong, word_label=True,
                         has_bracket_title=bracketed, title_only_line=not has_body)

    def _read_faq(self, seg: str, start: int, strong: bool) -> Candidate | None:
        s = seg.strip()
        for w in self._faq:
            if s.startswith(w):
                rest = s[len(w) :].strip()
                if rest and not re.fullmatch(r"[(（\[]?\s*(?:FAQ|Q&A|FAQs)?\s*[)）\]]?\s*:?", rest):
                    return None
                if len(s) > 40:
                    return None
                return Candidate(kind="faq", label="FAQ", number=None, title=s, start=start,
                                 body_start=start + len(seg.rstrip()), strong=strong, word_label=True,
                                 title_only_line=True)
        return None


def _spaced(word: str) -> str:
    """A Hangul block word may carry spaces between its letters ("부 칙"); other words are literal."""
    if len(word) > 1 and all(is_hangul(ch) for ch in word):
        return r"\s*".join(re.escape(ch) for ch in word)
    return re.escape(word)


def block_label(word: str, ident: str, lang: str) -> str:
    ident = " ".join(ident.split())
    if not ident:
        return word
    if lang == "ko" and re.fullmatch(r"[A-Z]", ident):
        return f"{word}{ident}"
    if lang == "ko" and ident.startswith("제"):
        return f"{word} {ident.replace(' ', '')}"
    return f"{word} {ident}"
