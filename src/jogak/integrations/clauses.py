"""Documents, clause trees and single clauses read from a store, in JSON shapes an agent can use
(the MCP tools ``get_clause``, ``tree`` and ``list_documents``). Pure jogak: no integration library here.

A clause is named by its document (doc_id, file name, title, or a decision's case number) and its path as ``jogak tree`` prints it:
``본문/제7조/제2항``, ``부록A/제2조``, ``부칙/제1조``, ``Article 4/4.2/(a)``. ``제7조/제2항`` is read as
``본문/제7조/제2항`` when the document has no other such path.
"""

from __future__ import annotations

import re
from typing import Any


class NotFound(LookupError):
    """A document or clause that is not in the collection; the message says what is there instead."""


def public_doc(info: Any) -> dict[str, Any]:
    d = info.to_dict()
    d.pop("path", None)  # the server-side file path is nobody's business over a remote transport
    return d


def find_document(store: Any, ref: str) -> Any:
    """DocInfo by doc_id, file name or title (``Store.document``), or a court decision by its case number
    ("2001다48781"); NotFound lists what there is."""
    info = store.document(ref.strip())
    if info is not None:
        return info
    docs = store.documents()
    key = re.sub(r"\s+", "", ref)
    by_case = [d for d in docs if key in _case_numbers(d)]
    if len(by_case) == 1:
        return by_case[0]
    names = ", ".join(f"{d.doc_title} ({d.doc_id})" for d in docs[:20]) or "none"
    raise NotFound(f"no document '{ref}' in collection '{store.collection}'; documents: {names}")


def _case_numbers(info: Any) -> set[str]:
    case = info.case or {}
    numbers = [case.get("case_number"), *(case.get("case_numbers") or [])]
    return {re.sub(r"\s+", "", str(n)) for n in numbers if n}


def _nodes(tree: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    stack = [tree]
    while stack:
        n = stack.pop()
        out.setdefault(n.get("path") or "", n)
        stack.extend(n.get("children", []))
    return out


def _candidates(path: str) -> list[str]:
    p = re.sub(r"\s*/\s*", "/", path.strip()).strip("/")
    return [p, f"본문/{p}"] if p and not p.startswith("본문/") else [p]


def _children_hint(nodes: dict[str, dict[str, Any]], path: str) -> str:
    """The paths under the deepest existing ancestor of ``path`` (what the caller probably meant)."""
    parts = path.strip("/").split("/")
    for i in range(len(parts) - 1, -1, -1):
        parent = nodes.get("/".join(parts[:i]))
        if parent is not None:
            kids = [c.get("path") for c in parent.get("children", [])][:30]
            return ", ".join(k for k in kids if k) or "none"
    return "none"


def _summary(n: dict[str, Any]) -> dict[str, Any]:
    return {k: n.get(k) for k in ("path", "kind", "label", "title", "block_type", "page_start", "page_end")}


def clause(store: Any, document: str, path: str, collection: str | None = None) -> dict[str, Any]:
    """One clause: its text, citation label, pages, offsets, references, children and the chunks holding it."""
    info = find_document(store, document)
    tree = store.tree(info.doc_id, with_text=True)
    if tree is None:
        raise NotFound(f"document '{info.doc_title}' was indexed without a clause tree (recursive strategy)")
    nodes = _nodes(tree)
    node = next((nodes[p] for p in _candidates(path) if p in nodes), None)
    if node is None or not path.strip("/ "):
        hint = _children_hint(nodes, _candidates(path)[-1])
        raise NotFound(f"no clause '{path}' in '{info.doc_title}'; paths there: {hint}")
    start, end = int(node["char_start"]), int(node["char_end"])
    chunks = [c for c in store.chunks(doc_id=info.doc_id)
              if c.metadata.char_start < end and c.metadata.char_end > start]
    chunks.sort(key=lambda c: c.metadata.char_start)
    return {
        "collection": collection or store.collection,
        "document": public_doc(info),
        "path": node.get("path"),
        "citation": _label(info, node, chunks),
        "kind": node.get("kind"),
        "label": node.get("label"),
        "title": node.get("title"),
        "block_type": node.get("block_type"),
        "page_start": node.get("page_start"),
        "page_end": node.get("page_end"),
        "char_start": start,
        "char_end": end,
        "text": node.get("text", ""),
        "refs": node.get("refs", []),
        "children": [_summary(c) for c in node.get("children", [])],
        "chunk_ids": [c.id for c in chunks],
    }


def _label(info: Any, node: dict[str, Any], chunks: list[Any]) -> str:
    """The citation jogak's answers print for this clause ("반품교환환불정책 · 제2조 (반품 배송비) ①", a decision
    under its case name): narrowed, as an answer's citation is, from the chunk holding the clause's start."""
    from jogak.answer.citations import case_name, case_of, locate

    start, end = int(node["char_start"]), int(node["char_end"])
    holder = next((c for c in chunks if c.metadata.char_start <= start < c.metadata.char_end), None)
    case = case_of(holder) if holder is not None else None
    head = case_name(case) if case else info.doc_title
    if holder is not None:
        md = holder.metadata
        where = locate(holder, start - md.char_start, min(end, md.char_end) - md.char_start)
        if where.article:
            return f"{head} · {where.article}"
    own = " ".join(x for x in (node.get("label"), f"({node['title']})" if node.get("title") else "") if x)
    return f"{head} · {own}" if own else head


def tree(store: Any, document: str, depth: int | None = None, collection: str | None = None) -> dict[str, Any]:
    """The document's clause tree (kind, label, title, path, pages, offsets, refs, children), cut at ``depth``
    levels below the document when given (a cut node says how many children it has)."""
    info = find_document(store, document)
    t = store.tree(info.doc_id)
    if t is None:
        raise NotFound(f"document '{info.doc_title}' was indexed without a clause tree (recursive strategy)")
    if depth is not None:
        t = _cut(t, max(0, int(depth)))
    return {"collection": collection or store.collection, "doc_id": info.doc_id, "document": public_doc(info),
            "tree": t}


def _cut(n: dict[str, Any], depth: int) -> dict[str, Any]:
    kids = n.get("children", [])
    out = {k: v for k, v in n.items() if k != "children"}
    if depth <= 0:
        if kids:
            out["n_children"] = len(kids)
        out["children"] = []
        return out
    out["children"] = [_cut(c, depth - 1) for c in kids]
    return out


def documents(store: Any, collection: str | None = None) -> dict[str, Any]:
    return {"collection": collection or store.collection, "documents": [public_doc(d) for d in store.documents()]}
