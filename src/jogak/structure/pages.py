"""Page spans for every node, from the document's page map."""

from __future__ import annotations

from jogak.model import Document, Node


def assign_pages(root: Node, doc: Document) -> None:
    for n in root.walk():
        n.page_start, n.page_end = doc.page_range(n.char_start, n.char_end)
