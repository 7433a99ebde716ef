"""Paths from labels, never titles, in one spelling so they work as filters and citations.

Korean body: "본문/제5조/제2항/제2호/가목"; appendices start with their label ("부록A/제2조", "별표 1");
addenda "부칙/제1조" (or "부칙 <제6687호,2002.3.30>/제1조" when a statute has many, grouped under a bare "부칙"
heading or not); footnotes "각주/3";
parties "당사자". English: "Article 4/4.2/(a)/(i)", "Schedule 1/1.2", "Exhibit A/2", "Footnote/3", "Parties".
Chapters (장/절, PART/CHAPTER) are nodes with their own path but are not part of their articles' paths:
article numbers are unique across chapters, and "본문/제7조" must work whatever chapter holds it.

Korean documents without 제N조 whose top level is numbered title lines ("1. 개인정보의 처리 목적") get
sections spelled by their bare number: "본문/1", "본문/2/제1항", "본문/3/제2호" (a "1." item stays "제1호", so
the two never collide). Those numbers restart in each Roman chapter ("Ⅰ. 총칙" → "본문/Ⅰ"), so there the
chapter stays in the path: "본문/Ⅱ/1". A part headed by a title alone ("개인정보의 처리 목적", no number) is a
chapter named by that title, and everything under it keeps it: "본문/개인정보의 처리 목적/1", ".../제2호".
"""

from __future__ import annotations

from jogak.grammar import Grammar, Scheme, all_schemes
from jogak.model import Node


def component(node: Node, g: Grammar, in_body: bool, n_addenda: int) -> str:
    scheme = node.attrs.get("_scheme")
    raw = node.attrs.get("_raw", "")
    if node.kind == "appendix":
        return node.label
    if node.kind == "addenda":
        grouped = any(c.kind == "addenda" for c in node.children)
        return node.label if n_addenda > 1 and not grouped else g.labels["addenda"]
    if node.kind == "parties":
        return node.label or g.labels["parties"]  # the parties block, or the signature block
    if node.kind == "text" and node.label:
        return node.label
    if node.kind == "faq":
        return node.label  # "FAQ" block, "Q3" pair
    if node.kind == "table":
        return node.label
    if node.kind == "footnote":
        return node.label
    if scheme is None:
        return node.label or node.kind
    sc: Scheme | None = _SCHEMES.get(scheme)
    if sc is None:
        return node.label
    number = node.number or (0,)
    if sc.dotted:
        return raw
    n = number[0]
    sub = f"의{number[1]}" if len(number) > 1 and number[1] else ""
    if scheme in ("en_decimal_dot", "en_decimal_bare") and node.kind == "article":
        return f"Section {n}" if in_body else str(n)
    return sc.path.format(label=node.label, n=n, sub=sub, raw=raw)


_SCHEMES = all_schemes()


def assign_paths(root: Node, g: Grammar) -> None:
    """Fill ``path`` and ``sibling_order`` top-down; a duplicated path gets "#2", "#3"."""
    used: set[str] = {""}
    n_addenda = sum(1 for c in root.walk() if c.kind == "addenda")
    body_prefix = g.labels["body"]
    fn_prefix = g.labels["footnotes"]

    def visit(node: Node, base: str, chapter_base: str, in_body: bool) -> None:
        for i, ch in enumerate(node.children):
            ch.sibling_order = i + 1
            if node is root:
                if ch.block_type == "body":
                    b = body_prefix
                    cb = body_prefix
                    body = True
                elif ch.kind == "footnote":
                    b = cb = fn_prefix
                    body = False
                else:
                    b = cb = ""
                    body = False
            else:
                b, cb, body = base, chapter_base, in_body
            comp = component(ch, g, body, n_addenda)
            sc = _SCHEMES.get(ch.attrs.get("_scheme", ""))
            # numbering that restarts in each chapter ("Ⅱ. …" / "1. …") needs the chapter to stay unique
            parent_path = cb if ch.kind == "chapter" or (sc is not None and sc.restarts) else b
            path = f"{parent_path}/{comp}" if parent_path else comp
            if path in used:
                k = 2
                while f"{path}#{k}" in used:
                    k += 1
                path = f"{path}#{k}"
            used.add(path)
            ch.path = path
            if ch.kind == "chapter" and ch.label:
                visit(ch, b, path, body)  # articles skip the chapter; sub-chapters keep it
            elif ch.kind == "addenda" and any(c.kind == "addenda" for c in ch.children):
                visit(ch, b, b, body)  # "## 부칙" groups the dated blocks; their paths stay "부칙 <…>/제1조"
            else:
                visit(ch, path, path, body)

    visit(root, "", "", True)
