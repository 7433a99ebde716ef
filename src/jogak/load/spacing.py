"""Was there a space at a line break? The language tie-breaker for character-wrapped Korean text.

Layout decides first (``jogak.load.pdf``): a document that wraps by word (어절) had a space at every
break, and a line that stopped short enough that the next character would have fitted had one too. What
layout cannot tell — a character-wrapped line that is full, "유효기간이" + "지난" vs "유효기" + "간이" — is
decided here from the words on both sides of the break, with the shared Kiwi analyser
(:func:`jogak.korean.kiwi`):

* the two sides are joined without a space and analysed; a morpheme that runs across the break
  ("기|간") means the break is inside a word → no space;
* a break right after an ending that closes a word — a particle (은/는/이/가/을/를/에/의 …), a connective or
  adnominal ending (-고, -며, -지, -ㄴ/-ㄹ/-는), a closing bracket before a content word — is a word
  boundary → space ("유효기간이" + "지난", "할" + "수");
* a particle, ending, suffix or copula right after the break → no space (it attaches to the word before);
* a conjunction (및, 또는, 혹은, 내지) is a word on either side, and a number after a noun, a unit or a
  particle starts one ("공포 후" + "6개월", "12월" + "31일"; not after 제: "제" + "5호");
* two nouns (or a prefix and a noun) are never split: compounds are written
  both ways ("개인정보보호", "손해배상청구권") and a space inside a word hurts more than a missing one;
* otherwise Kiwi's own spacing model (``Kiwi.space``) has the last word, under the same vetoes.

On sentences from Korean statutes, policies and contracts with a break put at every position (what
character wrapping does), a space is inserted inside a word at under 1 % of in-word positions and
recovered at 85–89 % of word boundaries (300 sentences of 40 laws not looked at while writing the rules:
83.1 → 89.4 % with the conjunction and number rules, in-word spaces 90 → 91 of 11,721; 300 sentences of
terms: 81.6 → 84.8 %, 31 = 31 of 10,001; ``tests/load/test_wrap_spacing.py`` measures the fixtures).
"""

from __future__ import annotations

import re
from functools import lru_cache

from jogak.grammar.patterns import NUMBERED_PREFIX_RE, label

_HANGUL = re.compile(r"[가-힣]")
# a word-final punctuation mark followed by a word: "합니다." + "회원", "경우," + "회사는"
_PUNCT_END = re.compile(r"[.,;:!?](?:[\"'”’)\]」』]*)$")
# legal references are written together: "제50조" + "제2항", "제43조의" + "2", an item "4의" + "13.", "제" + "5호"
# (not "100분의" + "60", which is two words)
_LEGAL_JOIN_LEFT = re.compile(rf"(?:{label('(?:조|항|호|장|절|편|관)', branch=True)}|\d)(?:\s*의)?$|(?<![가-힣])제$")
_LEGAL_JOIN_RIGHT = re.compile(rf"(?:{NUMBERED_PREFIX_RE.pattern}|\d)")

_NO_SPACE_BEFORE = frozenset(",.;:!?)]}」』）］｝〉》】〕”’\"'·ㆍ・%％~∼-–/")
_NO_SPACE_AFTER = frozenset("([{「『（［｛〈《【〔“‘·ㆍ・~∼-–/")
_NOUNISH = frozenset({"NNG", "NNP", "NR", "NP", "XPN", "SN", "XR", "SL", "SH", "NNB", "SW"})
_RIGHT_CONTENT = frozenset({"NNG", "NNP", "NR", "XSN", "SN", "XR", "NNB", "SL", "SH", "VV", "VA", "VX", "MAG"})
_BOUND_PREFIX = ("J", "E", "XS")
# nouns of place and time relative to the noun before them, written as words of their own when a particle follows
# ("영업일 안에", "사용 전에", "반품 후에", "30일 이내에", "회원 사이의")
_PLACE_NOUNS = frozenset({"안", "밖", "전", "후", "뒤", "동안", "이내", "이후", "이전", "사이"})
# a determiner and a noun written as one word ("그날", "그동안", "이번"): Kiwi reads "그날" as 그 + 날, and its spacing
# model parts them; "그 밖의", "그 기간" stay two words
_DETERMINER_NOUNS = ("그날", "이날", "그때", "이때", "그동안", "그간", "그중", "이번", "저번", "그곳", "이곳", "저곳", "그쪽",
                     "이쪽", "그해", "그달", "이달", "그다음", "이다음")
_LOOSE_EC = frozenset({"아", "어", "여", "아서", "어서", "여서", "게"})  # "-아 주다" may be written either way
# conjunctive adverbs standing between two nouns are words of their own ("평가 및 관리", "허가 또는 신고"): the
# compound rule below must not glue them to the noun before or after
_CONJUNCTIONS = frozenset({"및", "또는", "혹은", "내지"})


def _context(left: str, right: str, words: int = 2) -> tuple[str, str]:
    lw = left.split()
    rw = right.split()
    return " ".join(lw[-words:]), " ".join(rw[:words])


def space_at_break(left: str, right: str) -> bool:
    """Should a space go between ``left`` (text up to the break) and ``right`` (text after it)?

    Only the last two words of ``left`` and the first two of ``right`` are looked at."""
    if not left or not right:
        return False
    a, b = left.rstrip()[-1:], right.lstrip()[:1]
    if not a or not b:
        return False
    if b in _NO_SPACE_BEFORE or a in _NO_SPACE_AFTER:
        return False
    if _PUNCT_END.search(left.rstrip()) and (_HANGUL.match(b) or b.isalpha()):
        # sentence or clause punctuation before a word — but not inside a number ("3." + "5%")
        core = left.rstrip().rstrip("\"'”’)]」』")
        if not (len(core) >= 2 and core[-2].isdigit() and b.isdigit()):
            return True
    if _LEGAL_JOIN_LEFT.search(left.rstrip()) and _LEGAL_JOIN_RIGHT.match(right.lstrip()):
        return False
    lctx, rctx = _context(left, right)
    if not lctx or not rctx:
        return False
    last = lctx.split()[-1]
    if last in ("그", "이", "저") and (last + rctx).startswith(_DETERMINER_NOUNS):
        return False
    return _decide(lctx, rctx)


@lru_cache(maxsize=4096)
def _decide(lctx: str, rctx: str) -> bool:
    from jogak.korean import kiwi

    k = kiwi()
    s = lctx + rctx
    j = len(lctx)
    try:
        tokens = k.tokenize(s)
    except Exception:  # the analyser must never break loading
        return False
    lt = rt = after = None
    for t in tokens:
        ts, te = t.start, t.start + t.len
        if ts < j < te:
            return False  # one morpheme runs across the break: inside a word
        if te == j:
            lt = t
        if rt is not None and after is None:
            after = t
        if ts == j and rt is None:
            rt = t
    if lt is None or rt is None:
        return False
    ltag, rtag = lt.tag.split("-")[0], rt.tag.split("-")[0]
    if (rt.form in _CONJUNCTIONS and rtag == "MAG") or (lt.form in _CONJUNCTIONS and ltag == "MAG"):
        return True
    if rtag.startswith(_BOUND_PREFIX) or rtag in ("VCP", "VCN"):
        return False  # a particle, ending, suffix or copula attaches to the word before
    if rt.form in _PLACE_NOUNS and rtag in ("NNG", "NNB") and after is not None and after.tag.startswith("J") \
            and ltag in _NOUNISH and (len(lt.form) >= 2 or ltag in ("NNB", "SN")) \
            and (rt.form != "안" or after.tag == "JKB"):
        # "3영업일" + "안에", "사용" + "전에": where or when relative to the noun, a word of its own — not a
        # one-syllable compound ("산후") or a draft ("조정안을")
        return True
    if rtag == "SN":
        # a number starts a word after a particle or an ending, and after a noun or a counted unit ("공포 후 6개월",
        # "12월 31일", "만 19세"); inside a word only after a prefix ("제3조"), so before the compound rule
        return ltag.startswith("J") or ltag in ("EC", "EF", "ETM", "NNG", "NNP", "NNB", "MM")
    # compounds and number+unit stay together; a bound noun (수, 것, 등) before a verb or noun is a word;
    # a Latin word next to a Korean noun is no compound ("Apple Pay" + "결제를"): the spacing model decides
    latin_noun = (ltag == "SL" and rtag in ("NNG", "NNP")) or (rtag == "SL" and ltag in ("NNG", "NNP"))
    if ltag in _NOUNISH and rtag in _RIGHT_CONTENT and not latin_noun and not (
            ltag == "NNB" and rtag in ("VV", "VA", "VX", "NNG", "NNP", "MAG")):
        return False
    if ltag == "ETM" or ltag.startswith("J") or (ltag == "EC" and lt.form not in _LOOSE_EC):
        return True
    if ltag == "SSC" and rtag in ("NNG", "NNP", "MM", "MAG", "XPN"):  # not a verb: "해고(…)하려면"
        return True
    try:
        spaced = k.space(s, reset_whitespace=False)
    except Exception:
        return False
    # find the break in the re-spaced text: after the j-th character of s (spaces in s are kept)
    n_before = len(lctx.replace(" ", ""))
    seen = 0
    for i, ch in enumerate(spaced):
        if ch != " ":
            seen += 1
            if seen == n_before:
                return i + 1 < len(spaced) and spaced[i + 1] == " "
    return False
