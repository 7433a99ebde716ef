"""What the structure parser makes: a tree of ``Node``s over ``Document.text``, with the ``Ref``s found in
them. ``NodeKind`` and ``BlockType`` name every kind of node and block there is."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

BlockType = Literal["body", "appendix", "footnote", "parties", "addenda"]
BLOCK_TYPES: tuple[str, ...] = get_args(BlockType)

NodeKind = Literal[
    "document",
    "parties",
    "chapter",
    "article",
    "paragraph",
    "item",
    "subitem",
    "appendix",
    "footnote",
    "faq",
    "addenda",
    "table",
    "section",  # case-law sections (판시사항, 판결요지, ...) and other titled sections
    "holding",  # case-law holdings [1], [2]
    "case",  # one decision inside a casebook
    "text",  # unnumbered prose that belongs to its parent (preamble, intro lines)
]


@dataclass(slots=True)
class Ref:
    """A reference phrase found in a node's text and what it resolves to."""

    text: str  # the phrase as written: "부록A 참조", "제5조제2항", "Section 4.2"
    start: int
    end: int
    target_path: str | None = None
    reason: str | None = None  # why it is unresolved ("no such node", "other law", ...)
    pointer: bool = False  # the sentence only points elsewhere ("부록A 참조") — not an answer itself
    # A reference into another document: the law it names ("상호저축은행법" for "법 제34조" in its decree,
    # "민법" for "「민법」 제750조") and the clause there as a path of that document ("본문/제34조/제1항"). The
    # parser never resolves it; a collection does (jogak.structure.family), setting ``target_doc`` (that
    # document's id), ``target_title`` and ``target_path``.
    law: str | None = None
    clause: str | None = None
    target_doc: str | None = None
    target_title: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "text": self.text,
            "target_path": self.target_path,
            "reason": self.reason,
            "pointer": self.pointer,
            "char_start": self.start,
            "char_end": self.end,
        }
        for k in _EXTERNAL_KEYS:  # only references into another document carry these
            v = getattr(self, k)
            if v is not None:
                d[k] = v
        return d


_EXTERNAL_KEYS = ("law", "clause", "target_doc", "target_title")


@dataclass(slots=True)
class Node:
    """One node of the clause tree. ``char_start..char_end`` spans the node and all its children.

    ``body_start`` is where the node's own text begins after its heading label/title (equal to
    ``char_start`` for unlabeled nodes); the node's *own* text is ``body_start`` up to its first
    child (or ``char_end``).
    """

    kind: NodeKind
    block_type: BlockType
    label: str
    title: str
    path: str
    sibling_order: int
    char_start: int
    char_end: int
    page_start: int | None = None
    page_end: int | None = None
    body_start: int | None = None
    children: list[Node] = field(default_factory=list)
    refs: list[Ref] = field(default_factory=list)
    number: tuple[int, ...] | None = None  # parsed ordinal, e.g. (17, 2) for 제17조의2
    attrs: dict[str, Any] = field(default_factory=dict)  # footnote ids cited, case metadata, ...

    def walk(self):
        """Every node, pre-order. A stack, not nested generators: those cost O(depth) per node, and every
        document's tree is walked about ten times between parsing and chunking."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def leaves(self):
        if not self.children:
            yield self
        else:
            for c in self.children:
                yield from c.leaves()

    def find(self, path: str) -> Node | None:
        for n in self.walk():
            if n.path == path:
                return n
        return None

    @property
    def heading(self) -> str:
        """Label and title as a citation shows them: "제5조 (환불 처리 기간)"; a numbered section or chapter
        reads as printed: "1. 개인정보의 처리 목적", "Ⅱ. 추진 계획", "4 Delivery". (A title with a comma keeps its
        brackets: a comma-joined ``article`` tag must still split into clauses.)"""
        if self.label and self.title:
            if self.label in self.title:  # "자주 묻는 질문 (FAQ)" already names its label
                return self.title
            if (self.label[-1] in ".)" or self.label.isdigit()) and "," not in self.title:
                return f"{self.label} {self.title}"
            return f"{self.label} ({self.title})"
        return self.label or self.title

    def to_dict(self, text: str | None = None, depth: int | None = None) -> dict[str, Any]:
        d: dict[str, Any] = {
            "kind": self.kind,
            "block_type": self.block_type,
            "label": self.label,
            "title": self.title,
            "path": self.path,
            "sibling_order": self.sibling_order,
            "page_start": self.page_start,
            "page_end": self.page_end,
            "char_start": self.char_start,
            "char_end": self.char_end,
        }
        if text is not None:
            d["text"] = text[self.char_start : self.char_end]
        d["refs"] = [r.to_dict() for r in self.refs]
        public = {k: v for k, v in self.attrs.items() if not k.startswith("_")}
        if public:
            d["attrs"] = public
        if depth is None or depth > 0:
            nd = None if depth is None else depth - 1
            d["children"] = [c.to_dict(text, nd) for c in self.children]
        else:
            d["children"] = []
        return d
