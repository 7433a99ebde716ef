"""Collections: which decision a 참조판례 citation names, across documents (case index, links)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from jogak.grammar import case as g
from jogak.model import Node


def match_citation(c: g.Citation | Mapping[str, Any],
                    table: Mapping[str, list[tuple[Any, ...]]]) -> Any:
    """The first entry of ``table`` whose case number matches and whose date/court do not conflict."""
    if isinstance(c, g.Citation):
        numbers, date, court = c.case_numbers, c.date, c.court
    else:
        numbers = c.get("case_numbers") or ([c["case_number"]] if c.get("case_number") else [])
        date, court = c.get("date") or c.get("decision_date"), c.get("court")
    for num in numbers:
        for entry in table.get(num, []):
            target, t_date, t_court = entry[0], entry[-2], entry[-1]
            if date and t_date and date != t_date:
                continue
            if court and t_court and court != t_court:
                continue
            return target
    return None


def _as_dict_walk(tree: Node | Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """Nodes of a tree given as ``Node`` or as ``Node.to_dict()`` output, as plain dicts."""
    if isinstance(tree, Node):
        for n in tree.walk():
            yield {"path": n.path, "attrs": n.attrs, "refs": [r.to_dict() for r in n.refs]}
        return
    stack = [tree]
    while stack:
        n = stack.pop()
        yield {"path": n.get("path", ""), "attrs": n.get("attrs") or {}, "refs": n.get("refs") or []}
        stack.extend(reversed(n.get("children") or []))


def case_index(trees: Mapping[str, Node | Mapping[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """사건번호 → where that decision is held: [{doc, path, court, decision_date, title}].

    ``trees`` maps a document id to its tree (``Node`` or ``Node.to_dict()``); joined cases are indexed
    under every number in ``case_numbers``.
    """
    index: dict[str, list[dict[str, Any]]] = {}
    for doc_id, tree in trees.items():
        for n in _as_dict_walk(tree):
            case = n["attrs"].get("case")
            if not isinstance(case, Mapping):
                continue
            numbers = case.get("case_numbers") or ([case["case_number"]] if case.get("case_number") else [])
            for num in numbers:
                index.setdefault(num, []).append({"doc": doc_id, "path": n["path"], "court": case.get("court"),
                                                  "decision_date": case.get("decision_date"),
                                                  "title": case.get("title")})
    return index


def resolve_citation(citation: Mapping[str, Any], index: Mapping[str, list[Mapping[str, Any]]]
                     ) -> dict[str, Any] | None:
    """A 참조판례 item ({court, date, case_number[, case_numbers]}) → the index entry holding it, or None.

    A number matches only if the dates and courts do not conflict (when both sides know them).
    """
    table = {num: [(e, e.get("decision_date"), e.get("court")) for e in entries] for num, entries in index.items()}
    hit = match_citation(citation, table)
    return dict(hit) if hit is not None else None


def link_cases(trees: Mapping[str, Node | Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every precedent citation in ``trees`` that names a decision held somewhere in ``trees``.

    Pure: nothing is mutated. Each link is {doc, path, ref, char_start, char_end, case_number,
    target_doc, target_path}; the ingest stage can store them or set ``Ref.target_path``.
    """
    index = case_index(trees)
    links: list[dict[str, Any]] = []
    for doc_id, tree in trees.items():
        for n in _as_dict_walk(tree):
            for ref in n["refs"]:
                for c in g.find_citations(ref.get("text") or ""):
                    hit = resolve_citation({"court": c.court, "date": c.date, "case_numbers": c.case_numbers},
                                           index)
                    if hit is None:
                        continue
                    links.append({"doc": doc_id, "path": n["path"], "ref": ref.get("text"),
                                  "char_start": ref.get("char_start"), "char_end": ref.get("char_end"),
                                  "case_number": c.case_numbers[0] if c.case_numbers else None,
                                  "target_doc": hit["doc"], "target_path": hit["path"]})
    return links


def iter_cases(tree: Node) -> Iterable[Node]:
    """The nodes that carry case metadata (the root of a decision, or each case of a casebook)."""
    return (n for n in tree.walk() if "case" in n.attrs)
