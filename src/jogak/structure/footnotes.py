"""Footnotes are their own blocks: one node per footnote, linked both ways to the nodes that cite it."""

from __future__ import annotations

from jogak.grammar import Grammar
from jogak.model import Document, Node


def deepest_at(root: Node, offset: int) -> Node:
    node = root
    while True:
        for ch in node.children:
            if ch.char_start <= offset < max(ch.char_end, ch.char_start + 1):
                node = ch
                break
        else:
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
