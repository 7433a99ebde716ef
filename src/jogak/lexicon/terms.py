"""Content terms: the lemmas of a text that say what it is about, shared by retrieval and answering.

``content_terms(text)`` keeps the tags that carry meaning — nouns (NNG, NNP, NR), verb and adjective
lemmas (VV, VA → "늦다"), roots (XR), foreign words, hanja and numbers (SL, SH, SN) — and drops
function words, endings and a short list of question/filler lemmas ("하다", "얼마", "어떻게") that match
everything. English text is lower-cased, stop-worded and suffix-stripped. Results are cached per text.
The lexicon tables are written in these lemmas, so the lexicon and its readers must use this function.
"""

from __future__ import annotations

import re
from functools import lru_cache

from jogak.korean import analysis_form, kiwi

CONTENT_TAGS = frozenset({"NNG", "NNP", "NR", "VV", "VA", "XR", "SL", "SH", "SN", "VV-R", "VV-I", "VA-R",
                          "VA-I"})
# Lemmas that appear in almost every question or clause and say nothing about which clause answers.
STOP_LEMMAS = frozenset({
    "하다", "되다", "있다", "없다", "이다", "아니다", "않다", "받다", "주다", "보다", "알다", "싶다", "같다",
    "얼마", "어떻다", "어떠하다", "어떤", "무엇", "뭐", "언제", "어디", "왜", "누구", "몇",
    "경우", "때", "수", "것", "등", "거", "건", "점", "데", "중", "정도", "이상", "이하", "이내",
    "정책", "회사", "고객", "말", "요", "내", "제",
    # conversational nouns that carry no topic
    "이번", "지금", "문제", "처리", "얘기", "며칠", "처음", "그럼", "아예", "혹시", "제가", "저", "나",
    # nouns that frame a span of time ("배달 도중에") rather than name a topic
    "도중",
})
_EN_STOP = frozenset(["a", "an", "the", "of", "to", "in", "on", "for", "and", "or", "is", "are", "be", "been", "being", "was", "were", "do", "does", "did", "can", "could", "may", "might", "must", "shall", "should", "will", "would", "what", "which", "who", "whom", "when", "where", "why", "how", "this", "that", "these", "those", "it", "its", "i", "you", "we", "us", "them", "they", "he", "she", "me", "my", "your", "our", "their", "if", "then", "than", "as", "at", "by", "from", "with", "without", "about", "into", "under", "over", "any", "all", "each", "every", "no", "not", "only", "such", "there", "here", "so", "also", "per", "many", "much", "have", "has", "had", "get", "got", "need", "want", "please", "tell", "know", "long"])
_EN_WORD = re.compile(r"[A-Za-z][A-Za-z\-']+|\d+(?:[.,]\d+)*%?")


@lru_cache(maxsize=50_000)
def content_terms(text: str) -> tuple[str, ...]:
    """Content lemmas in order (duplicates kept), e.g. "늦어지면 보상해 주나요" → ("늦다", "보상")."""
    if not text.strip():
        return ()
    text = analysis_form(text)
    out: list[str] = []
    has_hangul = any("\uac00" <= c <= "\ud7a3" for c in text)
    if has_hangul:
        toks = kiwi().tokenize(text)
        for i, tok in enumerate(toks):
            if tok.tag not in CONTENT_TAGS:
                continue
            lemma = getattr(tok, "lemma", None) or tok.form
            if tok.tag.startswith(("VV", "VA")) and not lemma.endswith("다"):
                lemma = lemma + "다"
            # "없어지다": stem + 어/아 + 지다 is one verb when the stem alone is a stop lemma (없다).
            if (lemma in STOP_LEMMAS and tok.tag.startswith(("VV", "VA")) and i + 2 < len(toks) and toks[i + 1].tag == "EC"
                    and toks[i + 1].form in ("어", "아", "여") and toks[i + 2].tag.startswith("VX")
                    and toks[i + 2].form == "지"):
                lemma = f"{tok.form}{toks[i + 1].form}지다"
            lemma = lemma.lower()
            if lemma in STOP_LEMMAS or lemma in _EN_STOP:
                continue
            if tok.tag == "SN":
                lemma = lemma.replace(",", "")
            out.append(lemma)
        return tuple(out)
    for w in _EN_WORD.findall(text):
        w = w.lower().replace(",", "")
        if w in _EN_STOP or (len(w) < 2 and not w.isdigit()):
            continue
        out.append(_en_stem(w))
    return tuple(out)


def _en_stem(w: str) -> str:
    """A tiny suffix stripper so "returns"/"returned"/"returning" meet, and "price"/"prices",
    "sample"/"sampling", "include"/"included" too (a final silent e is dropped after stripping)."""
    if w[0].isdigit():
        return w
    base = w
    for suf in ("ations", "ation", "ates", "ated", "ate", "ings", "ing", "edly", "ions", "ion", "ies", "ied", "ed",
                "es", "s"):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            base = w[: -len(suf)]
            if suf in ("ies", "ied"):
                return base + "y"
            if suf in ("ions", "ion") and not base.endswith(("t", "s")):
                base = w  # "inspection" → "inspect", "decision" → "decis"; "union" stays
                continue
            if suf == "es" and not base.endswith(("s", "x", "z", "ch", "sh")):
                base = w[:-1]  # "prices" → "price" (then → "pric"); "taxes" → "tax"
            if suf == "s" and base.endswith("s"):  # "business", "process"
                base = w
            if suf in ("ed", "ing", "ings") and len(base) > 3 and base[-1] == base[-2] and base[-1] not in "lsz":
                base = base[:-1]  # "shipped" → "ship"
            break
    if base.endswith("e") and len(base) > 4:
        base = base[:-1]
    return base
