"""Collection-level resolution: references into other laws find their document and clause.

A reference the parser kept for another law (``Ref.law`` = "상호저축은행법", ``Ref.clause`` = "본문/제34조/제1항") is
resolved against the documents of a collection by name (compared without spacing, so "개인정보보호법" finds
"개인정보 보호법"): the law's document is ``target_doc``, the most precise clause it holds is
``target_path`` ("본문/제34조/제1항", else "본문/제34조"; an appendix: "별표 1/제3호", else "별표 1"). A law not in the collection stays unresolved with its
name and the reason "not in the collection". Several versions of one law (same title): the one in force
today, else the latest.

Pure: the caller (the store, a benchmark) says which documents exist and which paths each holds, so a link
appears as soon as the other law is ingested and goes away when it is removed.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from jogak.grammar.laws import EXTERNAL_REASONS, name_key

NOT_IN_COLLECTION = "not in the collection"
EXTERNAL = EXTERNAL_REASONS  # the parser's reasons for a reference into another document
BODY = "본문"


@dataclass(frozen=True, slots=True)
class Member:
    """A document of the collection as the resolver sees it."""

    doc_id: str
    title: str
    effective: str | None = None  # 시행일자 (ISO), to choose among versions of one law
    promulgated: str | None = None


class LawIndex:
    """Documents by law name; resolves a reference's (law, clause) to (doc, path)."""

    def __init__(self, members: Iterable[Member], paths_of: Callable[[str], set[str] | None],
                 today: str | None = None) -> None:
        self._by_name: dict[str, list[Member]] = {}
        self.titles: dict[str, str] = {}  # doc_id → title
        for m in members:
            self._by_name.setdefault(name_key(m.title), []).append(m)
            self.titles[m.doc_id] = m.title
        self._paths_of = paths_of
        self._paths: dict[str, set[str] | None] = {}
        self._today = today or _dt.date.today().isoformat()

    def find(self, law: str) -> Member | None:
        """The document of a law, by name; among versions the one in force today, else the latest."""
        found = self._by_name.get(name_key(law))
        if not found:
            return None
        if len(found) == 1:
            return found[0]
        in_force = [m for m in found if (m.effective or "") <= self._today]
        pool = in_force or found
        return max(pool, key=lambda m: (m.effective or "", m.promulgated or ""))

    def paths(self, doc_id: str) -> set[str] | None:
        if doc_id not in self._paths:
            self._paths[doc_id] = self._paths_of(doc_id)
        return self._paths[doc_id]

    def resolve(self, law: str, clause: str | None, exclude: str | None = None
                ) -> tuple[str | None, str | None, str | None]:
        """(target_doc, target_path, reason) of a reference to ``law``'s ``clause``; a document never
        resolves into itself (``exclude``)."""
        member = self.find(law)
        if member is None or member.doc_id == exclude:
            return None, None, NOT_IN_COLLECTION
        if not clause:
            return member.doc_id, None, None
        paths = self.paths(member.doc_id) or set()
        parts = clause.split("/")
        lowest = 2 if parts[0] == BODY else 1  # "본문" alone is no clause
        for k in range(len(parts), lowest - 1, -1):
            path = "/".join(parts[:k])
            if path in paths:
                return member.doc_id, path, None
        return member.doc_id, None, f"no {parts[lowest - 1]} in {member.title}"


# "제750조", "제47조 제2항", "제2조제1항제3호 가목" as 참조조문 write them: the units of a clause path
_UNIT_RE = re.compile(r"제\s*(\d+)\s*(조|항|호)(?:\s*의\s*(\d+))?|([가-하])\s*목")


def article_clause(article: str | None) -> str | None:
    """The path of a statute's clause written as an article string: "제750조 제1항" → "본문/제750조/제1항";
    None when it does not start with an article (a bare "제2항" names no clause of a known article)."""
    if not article:
        return None
    parts = []
    for m in _UNIT_RE.finditer(article):
        if m.group(4):
            parts.append(f"{m.group(4)}목")
        else:
            parts.append(f"제{int(m.group(1))}{m.group(2)}" + (f"의{int(m.group(3))}" if m.group(3) else ""))
    if not parts or not parts[0].split("의")[0].endswith("조"):
        return None
    return "/".join([BODY, *parts])


def tree_paths(tree: Mapping[str, Any]) -> set[str]:
    """Every path of a tree given as ``Node.to_dict()``."""
    out: set[str] = set()
    stack = [tree]
    while stack:
        n = stack.pop()
        if n.get("path"):
            out.add(n["path"])
        stack.extend(n.get("children") or [])
    return out


def member_of(doc_id: str, title: str, tree: Mapping[str, Any] | None) -> Member:
    """A collection member from its stored tree (the root carries the law's identity when it has one)."""
    law = ((tree or {}).get("attrs") or {}).get("law") or {}
    return Member(doc_id, title, law.get("effective"), law.get("promulgated"))


def link_tree(tree: dict[str, Any], index: LawIndex, doc_id: str | None = None) -> int:
    """Resolve, in place, every reference of a stored tree that names another law; returns how many found
    their document. References already resolved by the parser (this document's) are left alone."""
    n = 0
    stack = [tree]
    while stack:
        node = stack.pop()
        for r in node.get("refs") or []:
            law = r.get("law")
            if not law or r.get("reason") not in EXTERNAL:  # amendment wording, omitted text: no links
                continue
            target_doc, target_path, reason = index.resolve(law, r.get("clause"), exclude=doc_id)
            r["target_path"], r["reason"] = target_path, reason
            if target_doc is not None:
                r["target_doc"], r["target_title"] = target_doc, index.titles[target_doc]
            else:  # as Ref.to_dict writes it: the keys only when set
                r.pop("target_doc", None)
                r.pop("target_title", None)
            n += target_doc is not None
        stack.extend(node.get("children") or [])
    return n
