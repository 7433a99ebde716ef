"""Where a decision's parts are: section markers ("【판시사항】", "## 판결요지"), front matter, and the header
line "(대법원 2003. 7. 24. 선고 2001다48781 전원합의체 판결)" that opens a case in a casebook."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from jogak.grammar import case as g
from jogak.model import Document
from jogak.structure.caselaw.text import line_end, line_starts, norm_ws

MAX_HEADER_LINE = 300  # longer lines are prose, never a casebook header


@dataclass(frozen=True, slots=True)
class Mark:
    start: int  # first non-blank char of the marker line
    head_end: int  # end of the marker; text after it on the same line is body
    name: str  # canonical section name


def section_marks(text: str, lo: int, hi: int) -> list[Mark]:
    out: list[Mark] = []
    for m in g.SECTION_LINE_RE.finditer(text, lo, hi):
        written = m.group("n1") or m.group("n2")
        name = g.section_name(written)
        if not name:
            continue
        if m.group("n2") is not None:
            rest = text[m.end() : line_end(text, m.end(), hi)]
            if re.sub(r"\s+", "", written) not in g.BARE_SECTION_FORMS or rest.strip():
                continue
        lead = len(m.group(0)) - len(m.group(0).lstrip(" \t"))
        out.append(Mark(m.start() + lead, m.end(), name))
    return out


# ─── front matter and headers ──────────────────────────────────────────────────────────────────


def front_matter(doc: Document) -> tuple[dict[str, Any], int]:
    """Front matter from ``doc.metadata`` (markdown loader) or, failing that, from the raw text."""
    text = doc.text or ""
    raw, end = g.parse_front_matter(text)
    meta: dict[str, Any] = {}
    md = doc.metadata or {}
    for src in (md.get("front_matter"), md):
        if isinstance(src, Mapping):
            for k, v in src.items():
                if isinstance(k, str) and k in g.FRONT_MATTER_KEYS and k not in meta:
                    meta[k] = v
    for k, v in raw.items():
        meta.setdefault(k, v)
    return meta, end


def is_case_front_matter(fm: Mapping[str, Any]) -> bool:
    return any(k in fm for k in g.CASE_FRONT_MATTER_MARKERS)


@dataclass(slots=True)
class Header:
    title: str | None
    title_start: int  # where the case starts (title line, or the header line without a title)
    line_start: int
    line_end: int
    court: str
    date: str
    nums: str
    judgment_type: str
    en_banc: bool
    full: str


def _header_at(text: str, ls: int, le: int) -> re.Match[str] | None:
    if le - ls > MAX_HEADER_LINE or ("(" not in text[ls:le] and "（" not in text[ls:le]):
        return None
    return g.HEADER_RE.search(text, ls, le)


def casebook_headers(text: str, lo: int, marks: list[Mark]) -> list[Header]:
    """Header lines that open a case; a TOC line or a stray citation is not one."""
    cands: list[Header] = []
    prev_lines: list[tuple[int, int]] = []  # recent non-blank lines (start, end)
    mark_at = {mk.start for mk in marks}
    for ls in line_starts(text, lo, len(text)):
        le = line_end(text, ls, len(text))
        m = _header_at(text, ls, le)
        if m:
            prefix = text[ls : m.start()].strip()
            title, tstart = None, ls
            if prefix:
                title = prefix
            elif prev_lines:
                ps, pe = prev_lines[-1]
                line = text[ps:pe].strip()
                is_hdr = _header_at(text, ps, pe) is not None
                if (line and len(line) <= 100 and not is_hdr and ps not in mark_at
                        and not (cands and cands[-1].line_start == ps)):
                    title, tstart = line, ps
            cands.append(Header(title, tstart, ls, le, m.group("court"), m.group("date"), m.group("nums"),
                                 m.group("type"), bool(m.group("enbanc")), norm_ws(m.group("full"))))
        prev_lines = [*prev_lines[-1:], (ls, le)]
    if not cands:
        return []
    mark_starts = [mk.start for mk in marks]
    accepted: list[Header] = []
    with_marks = []
    for i, h in enumerate(cands):
        nxt = cands[i + 1].title_start if i + 1 < len(cands) else len(text)
        with_marks.append(any(h.line_end <= s < nxt for s in mark_starts))
    any_marks = any(with_marks)
    for i, h in enumerate(cands):
        nxt = cands[i + 1].title_start if i + 1 < len(cands) else len(text)
        if with_marks[i] or (not any_marks and len(text[h.line_end : nxt].strip()) >= 200):
            accepted.append(h)
    return accepted


def header_from_preamble(text: str, lo: int, hi: int) -> tuple[Header | None, str | None]:
    """In a single decision: the casebook-style header or a bare citation line, and the title line
    (the first other line: "# 구상금", "[보증채무금]", "민법의 법원：관습법 (1)")."""
    title = None
    hdr: Header | None = None
    for ls in line_starts(text, lo, hi):
        le = line_end(text, ls, hi)
        m = _header_at(text, ls, le) if hdr is None else None
        if m:
            prefix = text[ls : m.start()].strip()
            title = title or prefix or None
            hdr = Header(prefix or None, ls, ls, le, m.group("court"), m.group("date"), m.group("nums"),
                          m.group("type"), bool(m.group("enbanc")), norm_ws(m.group("full")))
            continue
        cm = g.CITATION_RE.match(text, ls, le) if hdr is None else None
        if cm and cm.group("court") and not text[cm.end() : le].strip(" \t]"):
            hdr = Header(None, ls, ls, le, cm.group("court"), cm.group("date"), cm.group("nums"),
                          cm.group("type"), bool(cm.group("enbanc")), norm_ws(cm.group(0)))
            continue
        if title is None:
            line = text[ls:le].strip().lstrip("#").strip().strip("[]［］").strip()
            if line and len(line) <= 120:
                title = line
    return hdr, title
