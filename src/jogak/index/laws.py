"""References into other laws, resolved against the collection when a tree is read.

Resolution happens at read time against the manifest rather than at ingest: a decree ingested before its Act
links to it as soon as the Act arrives, and stops linking when the Act is removed, without rewriting the
decree's stored tree or chunk rows (index writes stay one document at a time, atomic). The parser keeps each
such reference's law and clause (``Ref.law``/``Ref.clause``); ``jogak.structure.family`` finds the document
(by name, the version in force) and the most precise clause it holds.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from jogak.grammar.laws import name_key, split_instrument


def law_index(store: Any) -> Any:
    """A ``LawIndex`` over the store's documents (stored trees are read only for the paths of a target and
    the dates of a law held in several versions)."""
    from jogak.structure.family import LawIndex, Member, tree_paths  # the structure stage: only when linking

    docs = store.documents()
    names = Counter(name_key(d.doc_title) for d in docs)
    members = []
    for d in docs:
        law: dict[str, Any] = {}
        if names[name_key(d.doc_title)] > 1:  # versions of one law: the one in force is chosen by its dates
            law = ((store.tree(d.doc_id, links=False) or {}).get("attrs") or {}).get("law") or {}
        members.append(Member(d.doc_id, d.doc_title, law.get("effective"), law.get("promulgated")))

    def paths_of(doc_id: str) -> set[str] | None:
        tree = store.tree(doc_id, links=False)
        return tree_paths(tree) if tree is not None else None

    return LawIndex(members, paths_of)


def has_law_refs(tree: dict[str, Any]) -> bool:
    """Does the tree hold a reference into another law (so linking it is worth reading the collection)?"""
    stack = [tree]
    while stack:
        n = stack.pop()
        if any(r.get("law") for r in n.get("refs") or []):
            return True
        stack.extend(n.get("children") or [])
    return False


def link_laws(tree: dict[str, Any], store: Any, doc_id: str | None, index: Any = None) -> int:
    """Resolve, in place, the tree's references into other laws against the store; how many found theirs.
    A statute's root also lists the other stored members of its family (``attrs.law.family_members``)."""
    from jogak.structure.family import link_tree

    law = (tree.get("attrs") or {}).get("law")
    if isinstance(law, dict) and law.get("family"):
        law["family_members"] = family_members(store, law["family"], doc_id)
    if not has_law_refs(tree):
        return 0
    return link_tree(tree, index if index is not None else law_index(store), doc_id)


def family_members(store: Any, family: str, doc_id: str | None) -> list[dict[str, str]]:
    """The stored documents of a law family (by name: "X", "X 시행령", "X 시행규칙"), Act first, not ``doc_id``."""
    ranks = {"act": 0, "decree": 1, "rule": 2}
    out = []
    for d in store.documents():
        act, rank = split_instrument(d.doc_title)
        if d.doc_id != doc_id and name_key(act) == family:
            out.append({"doc_id": d.doc_id, "title": d.doc_title, "rank": rank})
    return sorted(out, key=lambda m: (ranks[m["rank"]], m["title"], m["doc_id"]))
