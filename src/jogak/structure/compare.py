"""Two versions of a text compared article by article — the 신구조문대비표 (현행 | 개정) Korean legal users know.

Input: the clause trees of the two versions as ``Node.to_dict(text)`` dicts. Articles are matched by label
("제6조의3"); their text is compared without amendment notes ("<개정 2020.7.31>" changes with every
amendment and says nothing about the rule) and without spacing differences. A changed article lists its
changed sentences as (old, new) pairs, each with word-level marks for display.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from jogak.grammar.effective import AMENDMENT_NOTE_RE

_SENTENCE_END = re.compile(r"(?<=[다음함임됨요])\.(?=\s|$)|(?<=\.)\s+(?=[①-⑳]|\d+\.\s)|\n+|\s+(?=[①-⑳])")


@dataclass
class ArticleChange:
    label: str  # "제6조의3"
    title: str
    status: str  # added | removed | changed
    old_path: str | None = None
    new_path: str | None = None
    sentences: list[dict[str, Any]] = field(default_factory=list)  # {"old", "new", "old_marks", "new_marks"}

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "title": self.title, "status": self.status, "old_path": self.old_path,
                "new_path": self.new_path, "sentences": self.sentences}


def articles(tree: dict[str, Any]) -> dict[str, tuple[str, str, str]]:
    """label → (title, path, text) of every body article of a tree dict (with text)."""
    out: dict[str, tuple[str, str, str]] = {}

    def walk(n: dict[str, Any]) -> None:
        if n.get("kind") == "article" and n.get("block_type") == "body":
            out.setdefault(n["label"].replace(" ", ""), (n.get("title") or "", n["path"], n.get("text") or ""))
            return
        for c in n.get("children") or []:
            walk(c)

    walk(tree)
    return out


def normalise(text: str) -> str:
    return " ".join(AMENDMENT_NOTE_RE.sub(" ", text).split())


def sentences(text: str) -> list[str]:
    parts = _SENTENCE_END.split(AMENDMENT_NOTE_RE.sub(" ", text))
    return [s for s in (" ".join(p.split()) for p in parts) if s]


def word_marks(old: str, new: str) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """Each side as runs {"text", "op"}: op "same", or "del" (old side) / "ins" (new side)."""
    a, b = old.split(), new.split()
    left: list[dict[str, str]] = []
    right: list[dict[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            left.append({"text": " ".join(a[i1:i2]), "op": "same"})
            right.append({"text": " ".join(b[j1:j2]), "op": "same"})
            continue
        if i2 > i1:
            left.append({"text": " ".join(a[i1:i2]), "op": "del"})
        if j2 > j1:
            right.append({"text": " ".join(b[j1:j2]), "op": "ins"})
    return left, right


def _key(sentence: str) -> str:
    """A sentence compared without its 항 number: "당사자는 …" and "① 당사자는 …" are the same rule."""
    return re.sub(r"^[①-⑳]\s*", "", sentence)


def changed_sentences(old: str, new: str) -> list[dict[str, Any]]:
    a, b = sentences(old), sentences(new)
    out: list[dict[str, Any]] = []
    matcher = difflib.SequenceMatcher(a=[_key(x) for x in a], b=[_key(x) for x in b], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        olds, news = a[i1:i2], b[j1:j2]
        for k in range(max(len(olds), len(news))):
            o = olds[k] if k < len(olds) else ""
            n = news[k] if k < len(news) else ""
            om, nm = word_marks(o, n)
            out.append({"old": o, "new": n, "old_marks": om, "new_marks": nm})
    return out


def compare(old_tree: dict[str, Any], new_tree: dict[str, Any]) -> list[ArticleChange]:
    """Articles added, removed and changed from ``old_tree`` to ``new_tree``, in the new text's order
    (removed ones where they stood in the old)."""
    old, new = articles(old_tree), articles(new_tree)
    out: list[ArticleChange] = []
    for label, (title, path, text) in new.items():
        if label not in old:
            out.append(ArticleChange(label, title, "added", None, path,
                                     [{"old": "", "new": s, "old_marks": [], "new_marks": [{"text": s, "op": "ins"}]}
                                      for s in sentences(text)]))
            continue
        otitle, opath, otext = old[label]
        if normalise(otext) != normalise(text):
            out.append(ArticleChange(label, title or otitle, "changed", opath, path, changed_sentences(otext, text)))
    for label, (title, path, text) in old.items():
        if label not in new:
            out.append(ArticleChange(label, title, "removed", path, None,
                                     [{"old": s, "new": "", "old_marks": [{"text": s, "op": "del"}], "new_marks": []}
                                      for s in sentences(text)]))
    return out
