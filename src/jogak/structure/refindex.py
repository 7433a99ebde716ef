"""What reference resolution needs to know about a tree: nodes by path, parents, the block and article
around a node, and where a phrase is written (``Where``)."""

from __future__ import annotations

from dataclasses import dataclass

from jogak.model import Node
from jogak.structure.candidates import block_label


class RefIndex:
    def __init__(self, root: Node) -> None:
        self.by_path: dict[str, Node] = {}
        self.parent: dict[int, Node] = {}
        for n in root.walk():
            self.by_path.setdefault(n.path, n)
            for c in n.children:
                self.parent[id(c)] = n
        self.root = root

    def ancestors(self, n: Node):
        cur = self.parent.get(id(n))
        while cur is not None:
            yield cur
            cur = self.parent.get(id(cur))

    def block_of(self, n: Node) -> Node | None:
        """The block holding n (appendix, addenda, ...; a dated 부칙 rather than the "부칙" grouping it), None for
        the body."""
        chain = [n, *self.ancestors(n)]
        inner = next((x for x in chain if x.kind in ("appendix", "addenda")), None)
        if inner is not None:
            return inner
        top = chain[-2] if len(chain) >= 2 else n
        return top if top.block_type != "body" else None

    def article_of(self, n: Node) -> Node | None:
        for x in [n, *self.ancestors(n)]:
            if x.kind == "article":
                return x
        return None

    def paragraph_of(self, n: Node) -> Node | None:
        for x in [n, *self.ancestors(n)]:
            if x.kind == "paragraph":
                return x
        return None

    def find_under(self, base: Node | None, suffix: str) -> Node | None:
        """A node whose path is base.path + "/" + suffix, or under the body prefix when base is None."""
        if base is None:
            return None
        return self.by_path.get(f"{base.path}/{suffix}" if base.path else suffix)

    def find_label(self, block: Node | None, suffix: str, body_prefix: str) -> Node | None:
        if block is not None:
            hit = self.find_under(block, suffix)
            if hit is not None:
                return hit
        return self.by_path.get(f"{body_prefix}/{suffix}" if body_prefix else suffix)


@dataclass(frozen=True)
class Where:
    """Where a phrase is written: its node, and the block and article holding it."""

    holder: Node
    block: Node | None
    article: Node | None
    idx: RefIndex
    body_prefix: str
    # a 부칙's "제3조제3항" names the 본칙's clause (its own articles are written "부칙 제5조"): the body first
    body_first: bool = False


Resolved = tuple[Node | None, str | None]  # (target, reason it stays unresolved)


def first_under(base: Node, idx: RefIndex, suffixes: list[str]) -> Node | None:
    return next((hit for suf in suffixes if (hit := idx.find_under(base, suf)) is not None), None)


def app_label(app: str, app_id: str | None, lang: str) -> str:
    return block_label(app, app_id or "", lang)


def fuzzy_block(root: Node, label: str) -> Node | None:
    key = label.replace(" ", "").lower()
    for ch in root.children:
        if ch.kind == "appendix" and ch.label.replace(" ", "").lower() == key:
            return ch
    return None


def previous_sibling(n: Node, idx: RefIndex) -> Node | None:
    parent = idx.parent.get(id(n))
    if parent is None:
        return None
    same = [c for c in parent.children if c.kind == n.kind]
    i = next((k for k, c in enumerate(same) if c is n), -1)
    return same[i - 1] if i > 0 else None
