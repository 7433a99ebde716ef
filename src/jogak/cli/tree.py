"""``jogak tree``: the clause tree of one document.

The default view is for reading: each line is a clause as it is printed — an article with its title, a
paragraph or item with the beginning of its text (``① 단순 변심에 의한 반품은 …`` rather than a bare
``①``) — with its pages only where they change, and each reference once: ``→ 제5조`` for a clause of
this document, ``↗ 민법 제398조`` for another law or document, ``? 제15조`` for one that is not in the
document; a legend at the end says what the markers mean. ``--paths`` adds each node's path and kind
(the developer's view); ``--json`` prints the nested nodes.

With ``--store``, references into other laws are resolved against that collection ("법 제34조" in a decree →
the Act's 제34조 when the Act is stored: ``target_doc``, ``target_title``, ``target_path``), and the argument
may name a stored document (doc_id, file name or title) instead of a file. Without it, references resolve
inside the document only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from jogak.cli.common import OcrOpt, apply_ocr, emit_json, err, error, out

SNIPPET = 70  # characters of a nameless clause's text shown on its line
EXTERNAL = ("other law", "other document")
LEGEND = {
    "→": "→  a clause of this document",
    "↗": "↗  another law or document (not in this file)",
    "?": "?  a clause the reference names but this document does not have",
}
NO_LINK = ("amendment text", "omitted text (생략)")  # another law's wording in a 부칙, omitted provisions


def register(app: typer.Typer) -> None:
    app.command("tree")(tree_cmd)


def tree_cmd(
    path: Annotated[str, typer.Argument(help="One document file (with --store: or a stored document).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print nested nodes as one JSON document.")] = False,
    depth: Annotated[int | None, typer.Option(min=1, help="Limit the display to N levels (the parse is always full).")]
    = None,
    text: Annotated[bool, typer.Option("--text/--no-text", help="Include node text in --json output.")] = True,
    paths: Annotated[bool, typer.Option("--paths", help="Show each node's path, kind and block type.")] = False,
    ocr: OcrOpt = None,
    store: Annotated[str | None, typer.Option(
        "--store", help="Resolve references into other laws against this store's collection.")] = None,
    collection: Annotated[str, typer.Option("--collection", help="Collection name inside the store.")] = "default",
) -> None:
    """Parse a document into its clause tree: parties, 본문/articles/항/호/목, appendices, footnotes, 부칙."""
    apply_ocr(ocr)
    from jogak.load import LoadError, load
    from jogak.structure import parse

    st = _open_store(store, collection) if store else None
    if st is not None and not Path(path).is_file():
        _stored_tree(st, path, as_json, depth, text, paths)
        return
    try:
        doc = load(path)
    except LoadError as e:
        error(str(e))
        raise typer.Exit(1) from None
    tree = parse(doc)
    for w in tree.warnings:
        err.print(f"warning: {w}", markup=False, highlight=False)
    if st is not None:
        _link_file_tree(tree, st)
    if as_json:
        emit_json(tree.to_dict(depth=depth, with_text=text))
        return
    _print_tree(doc, tree.root, paths, depth)


def _print_tree(doc: Any, top: Any, paths: bool, depth: int | None) -> None:
    from rich.tree import Tree

    view = TreeView(doc, paths)
    root = Tree(view.root_label(), guide_style="dim")

    def add(t: Tree, n: Any, level: int, parent_pages: str) -> None:
        if depth is not None and level >= depth:
            if n.children:
                t.add(f"[dim]… {sum(1 for _ in n.walk()) - 1} more[/dim]")
            return
        for c in n.children:
            add(t.add(view.label(c, parent_pages)), c, level + 1, view.pages(c) or parent_pages)

    add(root, top, 0, view.pages(top))
    out.print(root)
    for marker in sorted(view.used, key="→↗?".index):
        out.print(LEGEND[marker], markup=False, highlight=False)


def _open_store(store: str, collection: str) -> Any:
    from jogak.cli.stores import open_existing

    return open_existing(store, collection, None)


def _stored_tree(st: Any, name: str, as_json: bool, depth: int | None, text: bool, paths: bool = False) -> None:
    """A stored document's tree, references linked across the collection."""
    info = st.document(name)
    if info is None:
        error(f"no such file or stored document: {name}")
        raise typer.Exit(1)
    tree = st.tree(info.doc_id, with_text=text and as_json)
    if tree is None:
        error(f"{info.doc_title} was stored without a clause tree (re-ingest with --strategy structure)")
        raise typer.Exit(1)
    if as_json:
        tree.update(source=info.source, doc_title=info.doc_title)
        emit_json(_cut(tree, depth))
        return
    from jogak.model import Document

    doc = Document(source=info.source, doc_title=info.doc_title, text=st.document_text(info.doc_id) or "",
                   format=info.format, n_pages=info.n_pages)
    _print_tree(doc, _node(tree), paths, depth)


def _node(d: dict[str, Any]) -> Any:
    """A stored tree's node (``Node.to_dict()``) as a Node again, for the reading view."""
    from jogak.model import Node, Ref

    refs = [Ref(text=r["text"], start=r["char_start"], end=r["char_end"], target_path=r.get("target_path"),
                reason=r.get("reason"), pointer=bool(r.get("pointer")), law=r.get("law"), clause=r.get("clause"),
                target_doc=r.get("target_doc"), target_title=r.get("target_title")) for r in d.get("refs") or []]
    return Node(kind=d["kind"], block_type=d["block_type"], label=d["label"], title=d["title"], path=d["path"],
                sibling_order=d["sibling_order"], char_start=d["char_start"], char_end=d["char_end"],
                page_start=d.get("page_start"), page_end=d.get("page_end"),
                children=[_node(c) for c in d.get("children") or []], refs=refs, attrs=dict(d.get("attrs") or {}))


def _cut(n: dict[str, Any], depth: int | None) -> dict[str, Any]:
    if depth is None:
        return n
    n["children"] = [_cut(c, depth - 1) for c in n.get("children") or []] if depth > 0 else []
    return n


def _link_file_tree(tree: Any, st: Any) -> None:
    """Resolve a parsed file's references into other laws against the store, onto its ``Ref``s."""
    from jogak.chunk import doc_id_for
    from jogak.index.laws import family_members, has_law_refs, law_index
    from jogak.structure.family import link_tree

    doc_id = doc_id_for(tree.doc)
    law = tree.root.attrs.get("law")
    if isinstance(law, dict) and law.get("family"):  # the other stored members of its family
        law["family_members"] = family_members(st, law["family"], doc_id)
    data = tree.root.to_dict()
    if not has_law_refs(data):
        return
    link_tree(data, law_index(st), doc_id)
    stack = [(tree.root, data)]
    while stack:  # the dict mirrors the nodes one to one, refs in the same order
        node, d = stack.pop()
        for ref, rd in zip(node.refs, d["refs"], strict=True):
            if "target_doc" in rd or rd.get("reason") != ref.reason:
                ref.target_doc, ref.target_title = rd.get("target_doc"), rd.get("target_title")
                ref.target_path, ref.reason = rd.get("target_path"), rd.get("reason")
        stack.extend(zip(node.children, d["children"], strict=True))


def reliable_pages(doc: Any) -> bool:
    """The format has pages and the loader knew them (a Word file saved without page layout has none)."""
    return bool(doc.n_pages)


class TreeView:
    def __init__(self, doc: Any, paths: bool) -> None:
        self.doc = doc
        self.show_paths = paths
        self.paged = reliable_pages(doc)
        self.used: set[str] = set()

    def root_label(self) -> str:
        from rich.markup import escape

        d = self.doc
        if self.paged:
            pages = f"{d.n_pages} page{'s' if d.n_pages != 1 else ''}"
        elif d.format == "docx":
            pages = "no page numbers (the Word file holds no page layout)"
        else:
            pages = "no pages"
        return f"[bold]{escape(d.source)}[/bold] — {escape(d.doc_title)} [dim]· {d.format} · {pages}[/dim]"

    def pages(self, n: Any) -> str:
        if not self.paged or n.page_start is None:
            return ""
        if n.page_end in (None, n.page_start):
            return f"p.{n.page_start}"
        return f"pp.{n.page_start}–{n.page_end}"

    def label(self, n: Any, parent_pages: str) -> str:
        from rich.markup import escape

        head = escape(n.heading or n.kind)
        line = f"[bold]{head}[/bold]" if n.title else head
        snip = self.snippet(n)
        if snip:
            line += f" {escape(snip)}"
        pg = self.pages(n)
        if pg and pg != parent_pages:
            line += f"  [dim]{pg}[/dim]"
        refs = self.refs(n)
        if refs:
            line += f"  [cyan]{escape(refs)}[/cyan]"
        if self.show_paths:
            line += f"  [dim]{escape(n.path or '/')} · {n.kind} · {n.block_type}[/dim]"
        case = (n.attrs or {}).get("case")
        if case:
            line += f"  [{escape(str(case.get('full_case_name') or case.get('case_number')))}]"
        return line

    def snippet(self, n: Any) -> str:
        """The beginning of a clause that has no title (its label is already on the line)."""
        if n.title or n.kind in ("document", "chapter", "section"):
            return ""
        end = n.children[0].char_start if n.children else n.char_end  # its own words, not its items
        text = " ".join(self.doc.text[n.char_start : max(n.char_start, end)].split())
        if n.label and text.startswith(n.label):
            text = text[len(n.label):].lstrip()
        if not text:
            return ""
        return text if len(text) <= SNIPPET else text[:SNIPPET].rstrip() + " …"

    def refs(self, n: Any) -> str:
        shown: list[str] = []
        seen: set[str] = set()
        for r in n.refs:
            if r.reason in NO_LINK:
                continue
            if r.target_doc:  # resolved into another document of the collection
                marker = "↗"
                name = f"{r.target_title or r.law} {readable_path(r.target_path or '')}".strip()
            elif r.target_path:
                marker, name = "→", readable_path(r.target_path)
            else:
                marker = "↗" if r.reason in EXTERNAL or r.law else "?"
                name = " ".join(r.text.split())
            key = f"{marker}{name}"
            if key in seen:
                continue
            seen.add(key)
            self.used.add(marker)
            shown.append(f"{marker} {name}")
        return "  ".join(shown)


def readable_path(path: str) -> str:
    """``본문/제2조/제2항`` → ``제2조 제2항``; ``부록A/제2조`` → ``부록A 제2조`` (as the document says it)."""
    parts = [p for p in path.split("/") if p]
    if parts and parts[0] == "본문" and len(parts) > 1:
        parts = parts[1:]
    return " ".join(parts)
