"""Detecting a court decision or casebook and building its tree (single decision or casebook)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from jogak.grammar import case as g
from jogak.model import Document, Node
from jogak.structure.caselaw.builder import Builder, check_alignment
from jogak.structure.caselaw.headers import (
    Header,
    Mark,
    casebook_headers,
    front_matter,
    header_from_preamble,
    is_case_front_matter,
    section_marks,
)
from jogak.structure.caselaw.metadata import case_metadata, closing_judgment
from jogak.structure.caselaw.text import line_end, line_starts, skip_ws, trim_end, unique


def detect(doc: Document) -> bool:
    """True for a court decision or a casebook; False for statutes, contracts, policies."""
    text = doc.text or ""
    fm, body = front_matter(doc)
    if is_case_front_matter(fm):
        return True
    marks = section_marks(text, body, len(text))
    if len({m.name for m in marks if m.name in g.DETECT_SECTIONS}) >= 2:
        return True
    return bool(casebook_headers(text, body, marks))


def parse_caselaw(doc: Document) -> Node:
    """The decision's (or casebook's) tree; see the module docstring for shapes and paths."""
    text = doc.text or ""
    fm, body = front_matter(doc)
    marks = section_marks(text, body, len(text))
    if not is_case_front_matter(fm):
        headers = casebook_headers(text, body, marks)
        if len(headers) >= 2 or (headers and text[body : headers[0].title_start].strip()):
            return _parse_casebook(doc, headers, marks, body)
    return _parse_single(doc, fm, marks, body)


def _parse_single(doc: Document, fm: Mapping[str, Any], marks: list[Mark], body: int) -> Node:
    b = Builder(doc)
    text = b.text
    first = marks[0].start if marks else len(text)
    hdr, title_line = header_from_preamble(text, body, first)
    closing = closing_judgment(text, body, len(text))
    chief = bool(re.search(r"^[ \t]*(?:재판장[ \t]*)?대법원장[ \t]", text, re.MULTILINE))
    case = case_metadata(fm, hdr, title_line, closing, chief)
    root_body = skip_ws(text, body, first)
    if hdr or title_line:
        # the root's own text starts after the title and header lines
        lines = list(line_starts(text, body, first))
        keep = [ls for ls in lines if (hdr and ls <= hdr.line_start) or
                (title_line and title_line in text[ls : line_end(text, ls, first)])]
        if keep:
            root_body = skip_ws(text, line_end(text, max(keep), first), first)
    root = b.node("document", "", case["title"] or doc.doc_title, "", 1, 0, len(text), root_body,
                  case=case, cite=case["title"] or "")
    root.children = b.sections(marks, len(text), "")
    check_alignment(root, case)
    skip = [(hdr.line_start, hdr.line_end)] if hdr else []
    b.collect_citations(root, skip)
    table = {n: [("", case["decision_date"], case["court"])] for n in case["case_numbers"]}
    b.resolve(table)
    root.attrs["warnings"] = list(case["problems"])
    return root


def _parse_casebook(doc: Document, headers: list[Header], marks: list[Mark], body: int) -> Node:
    b = Builder(doc)
    text = b.text
    root = b.node("document", "", doc.doc_title, "", 1, 0, len(text), skip_ws(text, body, len(text)))
    children: list[Node] = []
    pre_end = trim_end(text, body, headers[0].title_start)
    pre_start = skip_ws(text, body, pre_end)
    if pre_start < pre_end:
        pre = text[pre_start:pre_end]
        is_toc = bool(g.TOC_TITLE_RE.search(pre) or len(g.TOC_ENTRY_RE.findall(pre)) >= 2)
        label = "목차" if is_toc else "머리말"
        children.append(b.node("text", label, "", label, 1, pre_start, pre_end, pre_start, cite=label))
        root.body_start = pre_start
    used: dict[str, int] = {"목차": 1, "머리말": 1}
    table: dict[str, list[tuple[str, str | None, str | None]]] = {}
    skip: list[tuple[int, int]] = []
    problems: list[str] = []
    for i, h in enumerate(headers):
        nxt = headers[i + 1].title_start if i + 1 < len(headers) else len(text)
        end = max(trim_end(text, h.title_start, nxt), h.line_end)
        closing = closing_judgment(text, h.line_end, end)
        case = case_metadata({}, h, h.title, closing)
        num = case["case_number"] or f"case{i + 1}"
        seg = unique(num, used)
        if seg != num:
            problems.append(f"{num}: appears more than once (second copy at path '{seg}')")
        title = case["title"] or ""
        body_start = skip_ws(text, h.line_end, end)
        node = b.node("case", case["case_number"] or "", title, seg, len(children) + 1, h.title_start, end,
                      body_start, case=case, cite=title or (case["case_number"] or ""))
        case_marks = [m for m in marks if h.line_end <= m.start < end]
        node.children = b.sections(case_marks, end, seg)
        check_alignment(node, case)
        children.append(node)
        skip.append((h.line_start, h.line_end))
        for n in case["case_numbers"]:
            table.setdefault(n, []).append((seg, case["decision_date"], case["court"]))
    root.children = children
    warnings = list(problems)
    for c in children:
        warnings += [f"{c.path}: {p}" for p in c.attrs.get("case", {}).get("problems", [])]
    root.attrs = {"casebook": {"cases": [c.path for c in children if c.kind == "case"], "problems": problems},
                  "cite": doc.doc_title or "", "warnings": warnings}
    b.collect_citations(root, skip)
    b.resolve(table)
    return root
