"""The tree while it is being built: nodes in document order, the stack of open nodes, the warnings, and
the little state carried from one line to the next."""

from __future__ import annotations

from dataclasses import dataclass

from jogak.grammar import Scheme
from jogak.model import Line, Node
from jogak.structure.candidates import Candidate


@dataclass
class OpenNode:
    node: Node
    scheme: Scheme | None = None
    key: tuple[int, ...] | None = None
    container: bool = False  # root, appendix, addenda, faq — article numbering restarts inside
    indent: tuple[bool, int] | None = None  # (list item?, level/indent) of an enumerated node's line


class TreeState:
    def __init__(self, root: Node, addenda_word: str = "부칙") -> None:
        self.root = root
        self.addenda_word = addenda_word  # the bare heading that may group a statute's dated 부칙 blocks
        self.stack: list[OpenNode] = [OpenNode(root, container=True)]
        self.order: list[Node] = []  # nodes in creation (= document) order
        self.parents: dict[int, Node] = {}
        self.fixed_end: dict[int, int] = {}  # id(node) → end, for tables
        self.node_line: dict[int, Line] = {}  # id(node) → the line its label is on
        self.warnings: list[str] = []
        self.await_title: Node | None = None  # a bare heading whose title may be on the next line
        self.faq_count = 0  # questions in the open FAQ block

    def new(self, c: Candidate, kind: str, block_type: str, parent: Node) -> Node:
        node = Node(kind=kind, block_type=block_type, label=c.label, title=c.title, path="",
                    sibling_order=len(parent.children) + 1, char_start=c.start, char_end=c.start,
                    body_start=c.body_start, number=c.number)
        if c.scheme is not None:
            node.attrs["_scheme"] = c.scheme.name
            node.attrs["_raw"] = c.raw
        parent.children.append(node)
        self.parents[id(node)] = parent
        self.order.append(node)
        return node

    def push(self, node: Node, scheme: Scheme | None = None, key: tuple[int, ...] | None = None,
             container: bool = False, indent: tuple[bool, int] | None = None) -> None:
        self.stack.append(OpenNode(node, scheme, key, container, indent))

    def pop_to(self, level: int) -> None:
        del self.stack[level + 1 :]

    def block_level(self) -> int:
        """Stack index of the innermost container (root, appendix, addenda, FAQ, parties)."""
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].container:
                return i
        return 0

    def block_type(self) -> str:
        blk = self.block_level()
        return self.stack[blk].node.block_type if blk else "body"

    def is_under(self, n: Node, scope: Node) -> bool:
        cur: Node | None = n
        while cur is not None:
            if cur is scope:
                return True
            cur = self.parents.get(id(cur))
        return False

    def last_in_scope(self, scope: Node, sc: Scheme) -> Node | None:
        """The last node created under ``scope`` with this scheme (walking back from the newest node)."""
        for n in reversed(self.order):
            if n.attrs.get("_scheme") == sc.name and self.is_under(n, scope):
                return n
            if n is scope:
                break
        return None

    def finish_ends(self, text: str, body_end: int) -> None:
        """A node ends where the next node that is not its descendant begins (tables: at their last row)."""
        depth: dict[int, int] = {}
        for n in self.order:
            p = self.parents.get(id(n))
            depth[id(n)] = (depth.get(id(p), 0) if p is not None and p is not self.root else 0) + 1
        for i, n in enumerate(self.order):
            if id(n) in self.fixed_end:
                e = self.fixed_end[id(n)]
            else:
                e = body_end
                d = depth[id(n)]
                for m in self.order[i + 1 :]:
                    if depth[id(m)] <= d:
                        e = m.char_start
                        break
            while e > n.char_start and text[e - 1].isspace():
                e -= 1
            n.char_end = max(e, n.char_start)
            if n.body_start is None or n.body_start > n.char_end:
                n.body_start = n.char_end
        # parents always cover their children (a table can end after text that follows it)
        for n in reversed(self.order):
            if n.children:
                n.char_end = max(n.char_end, max(ch.char_end for ch in n.children))
