"""``jogak tree``: the clause tree of one document."""

from __future__ import annotations

from typing import Annotated

import typer

from jogak.cli.common import emit_json, err, error, out


def register(app: typer.Typer) -> None:
    app.command("tree")(tree_cmd)


def tree_cmd(
    path: Annotated[str, typer.Argument(help="One document file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print nested nodes as one JSON document.")] = False,
    depth: Annotated[int | None, typer.Option(help="Limit the display to N levels (the parse is always full).")]
    = None,
    text: Annotated[bool, typer.Option("--text/--no-text", help="Include node text in --json output.")] = True,
) -> None:
    """Parse a document into its clause tree: parties, 본문/articles/항/호/목, appendices, footnotes, 부칙."""
    from jogak.load import LoadError, load
    from jogak.structure import parse

    try:
        doc = load(path)
    except LoadError as e:
        error(str(e))
        raise typer.Exit(1) from None
    tree = parse(doc)
    for w in tree.warnings:
        err.print(f"warning: {w}", markup=False, highlight=False)
    if as_json:
        emit_json(tree.to_dict(depth=depth, with_text=text))
        return
    from rich.markup import escape
    from rich.tree import Tree

    def label(n) -> str:
        head = n.heading if n.kind != "document" else f"{doc.source} ({doc.doc_title})"
        pages = ""
        if n.page_start is not None:
            pages = f" p.{n.page_start}" + (f"–{n.page_end}" if n.page_end != n.page_start else "")
        extra = ""
        if n.refs:
            extra = " → " + ", ".join(r.target_path or f"?{r.text}" for r in n.refs)
        case = n.attrs.get("case")
        if case:
            extra += f"  [{case.get('full_case_name') or case.get('case_number')}]"
        return (f"[bold]{escape(head or n.kind)}[/bold]  [dim]{escape(n.path or '/')} · {n.kind} · "
                f"{n.block_type}{pages}[/dim]{escape(extra)}")

    root = Tree(label(tree.root))

    def add(t: Tree, n, level: int) -> None:
        if depth is not None and level >= depth:
            if n.children:
                t.add(f"[dim]… {sum(1 for _ in n.walk()) - 1} more nodes[/dim]")
            return
        for c in n.children:
            add(t.add(label(c)), c, level + 1)

    add(root, tree.root, 0)
    out.print(root)
