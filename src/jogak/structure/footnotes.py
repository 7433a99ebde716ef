"""Footnotes are their own blocks: one node per footnote, linked both ways to the nodes that cite it."""

from __future__ import annotations

import bisect
from itertools import pairwise

from jogak.grammar import Grammar
from jogak.model import Document, Node


def _holds(n: Node, offset: int) -> bool:
    return n.char_start <= offset < max(n.char_end, n.char_start + 1)


def deepest_at(root: Node, offset: int) -> Node:
    """The deepest node whose span holds ``offset`` (the first such child at each level)."""
    node = root
    while True:
        for ch in node.children:
            if _holds(ch, offset):
                node = ch
                break
        else:
            return node


class Locator:
    """``deepest_at`` for many offsets over one tree that does not change meanwhile: a statute's root has
    hundreds of articles, so children in order and disjoint (nearly always) are bisected, others scanned."""

    def __init__(self, root: Node) -> None:
        self.root = root
        self._starts: dict[int, list[int] | None] = {}

    def _sorted_starts(self, node: Node) -> list[int] | None:
        key = id(node)
        if key not in self._starts:
            ch = node.children
            disjoint = all(max(a.char_end, a.char_start + 1) <= b.char_start for a, b in pairwise(ch))
            self._starts[key] = [c.char_start for c in ch] if disjoint else None
        return self._starts[key]

    def at(self, offset: int) -> Node:
        node = self.root
        while node.children:
            starts = self._sorted_starts(node)
            if starts is None:
                nxt = next((ch for ch in node.children if _holds(ch, offset)), None)
            else:
                i = bisect.bisect_right(starts, offset) - 1
                nxt = node.children[i] if i >= 0 and _holds(node.children[i], offset) else None
            if nxt is None:
                return node
            node = nxt
        return node


def attach_footnotes(root: Node, doc: Document, g: Grammar, warnings: list[str]) -> None:
    if not doc.footnotes:
        return
    for fn in doc.footnotes:
        node = Node(kind="footnote", block_type="footnote", label=fn.label, title="", path="",
                    sibling_order=len(root.children) + 1, char_start=fn.start, char_end=fn.end,
                    body_start=fn.start)
        cited_from: list[Node] = []
        for mark in fn.marks:
            holder = deepest_at(root, mark.offset)
            if holder is root:
                warnings.append(f"footnote {fn.label}: mark at offset {mark.offset} is outside any clause")
            holder.attrs.setdefault("footnotes", [])
            if fn.label not in holder.attrs["footnotes"]:
                holder.attrs["footnotes"].append(fn.label)
            cited_from.append(holder)
        node.attrs["_cited_from"] = cited_from
        if not fn.marks:
            warnings.append(f"footnote {fn.label} has no reference mark in the body")
        root.children.append(node)


def link_footnote_paths(root: Node) -> None:
    """After paths exist: record on each footnote node the paths that cite it."""
    for n in root.children:
        if n.kind == "footnote" and "_cited_from" in n.attrs:
            n.attrs["cited_from"] = [h.path for h in n.attrs.pop("_cited_from")]
