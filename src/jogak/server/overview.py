"""What the web page's landing view shows for a collection: its documents and a few sample questions.

Sample questions come from ``server.sample_questions`` when configured (a list, or a mapping from
collection to list); otherwise they are made from the documents' own article titles, skipping the
titles every document has (목적, 정의, Definitions …): "반품 배송비는 어떻게 되나요?", "What does the Supply
Agreement say about delivery?". A title is taken from each document in turn, so every document shows up.
"""

from __future__ import annotations

import re
from typing import Any

GENERIC = {"목적", "정의", "용어의 정의", "정의 규정", "적용 범위", "적용범위", "시행일", "총칙", "부칙", "기타", "효력",
           "purpose", "definitions", "definition", "scope", "general", "interpretation", "miscellaneous",
           "entire agreement", "notices", "counterparts", "effective date", "term"}
_HANGUL = re.compile(r"[가-힣]")
MAX_DOCS = 8  # trees read per request


def sample_questions(store: Any, configured: Any, limit: int = 4) -> list[str]:
    fixed = configured.get(store.collection) if isinstance(configured, dict) else configured
    if isinstance(fixed, list) and fixed:
        return [str(q) for q in fixed][:limit]
    per_doc: list[list[str]] = []
    for info in store.documents()[:MAX_DOCS]:
        tree = store.tree(info.doc_id)
        if tree is None:
            continue
        titles = [t for t in _titles(tree) if t.lower() not in GENERIC]
        per_doc.append([question(t, info.doc_title) for t in dict.fromkeys(titles)])
    out: list[str] = []
    while len(out) < limit and any(per_doc):
        for qs in per_doc:
            if qs and len(out) < limit:
                out.append(qs.pop(0))
    return out


def _titles(tree: dict[str, Any]) -> list[str]:
    """Titles of the body's articles and sections, in document order (chapters are looked into)."""
    out: list[str] = []
    stack = list(reversed(tree.get("children", [])))
    while stack:
        n = stack.pop()
        if n.get("block_type") not in ("body", None):
            continue
        title = " ".join(str(n.get("title") or "").split())
        if n.get("kind") in ("chapter", "part"):
            stack.extend(reversed(n.get("children", [])))
        elif title and len(title) <= 30:
            out.append(title)
    return out


def question(title: str, doc_title: str) -> str:
    """A plain question about a clause title, in the title's language."""
    title = title.strip().rstrip(".:")
    if _HANGUL.search(title):
        return f"{title}{topic_particle(title[-1])} 어떻게 되나요?"
    words = " ".join(w if w.isupper() and len(w) <= 4 else w.lower() for w in title.split())  # IP stays IP
    return f"What does the {doc_title.replace('_', ' ')} say about {words}?"


def topic_particle(last: str) -> str:
    """은 after a final consonant, 는 after a vowel; 은(는) after anything that is not a Hangul syllable."""
    if not "가" <= last <= "힣":
        return "은(는)"
    return "은" if (ord(last) - 0xAC00) % 28 else "는"


def documents(store: Any) -> list[dict[str, Any]]:
    return [{"doc_id": d.doc_id, "doc_title": d.doc_title, "source": d.source, "format": d.format,
             "n_pages": d.n_pages} for d in store.documents()]
