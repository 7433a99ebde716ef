"""Structure: a loaded Document becomes a clause tree (Nodes with kind, block type, label, path, spans).

    tree = jogak.parse(doc)          # DocTree
    tree.root.find("본문/제7조")      # Node
    tree.warnings                     # numbering breaks, duplicates, unresolved references
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jogak.grammar import for_language
from jogak.load.identity import law_identity
from jogak.model import Document, Node
from jogak.structure import caselaw
from jogak.structure.footnotes import attach_footnotes, link_footnote_paths
from jogak.structure.pages import assign_pages
from jogak.structure.parser import TreeBuilder, detect_language
from jogak.structure.paths import assign_paths
from jogak.structure.versions import annotate_versions
from jogak.structure.xref import resolve_references

__all__ = ["DocTree", "parse"]


@dataclass
class DocTree:
    doc: Document
    root: Node
    language: str = "ko"
    kind: str = "general"  # general | caselaw
    warnings: list[str] = field(default_factory=list)

    def find(self, path: str) -> Node | None:
        return self.root.find(path)

    def nodes(self):
        return self.root.walk()

    def parent_map(self) -> dict[int, Node]:
        out: dict[int, Node] = {}
        for n in self.root.walk():
            for c in n.children:
                out[id(c)] = n
        return out

    def to_dict(self, depth: int | None = None, with_text: bool = True) -> dict[str, Any]:
        d = self.root.to_dict(self.doc.text if with_text else None, depth)
        d["source"] = self.doc.source
        d["doc_title"] = self.doc.doc_title
        d["language"] = self.language
        d["warnings"] = list(self.warnings)
        case = self.root.attrs.get("case")
        if case:
            d["case"] = case
        return d


def parse(doc: Document, lang: str | None = None) -> DocTree:
    """Parse a Document into its clause tree (case-law documents get their own grammar)."""
    if caselaw.detect(doc):
        root = caselaw.parse_caselaw(doc)
        assign_pages(root, doc)
        return DocTree(doc, root, language="ko", kind="caselaw",
                       warnings=list(root.attrs.get("warnings", [])))
    language = lang or detect_language(doc.text)
    result = TreeBuilder(doc, language).build()
    g = for_language(language)
    warnings = list(result.warnings)
    attach_footnotes(result.root, doc, g, warnings)
    assign_paths(result.root, g)
    link_footnote_paths(result.root)
    assign_pages(result.root, doc)
    resolve_references(result.root, doc, language, warnings)
    ident = law_identity(doc.metadata)
    if ident is not None:  # the law's identity travels with its stored tree (collection-level resolution)
        result.root.attrs["law"] = ident.to_dict()
    annotate_versions(result.root, doc, warnings)
    return DocTree(doc, result.root, language=language, warnings=warnings)
