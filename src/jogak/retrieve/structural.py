"""Structure-aware lookups (seed 004): clause references in a question, the rows of a named clause, of a
cross-reference target and of a hit's neighbours (layer routing is in ``routing.py``).

All lookups run over the lexical index's columns (doc_id, doc_title, block_type, path_prefixes, article,
case_numbers, chunk_no), which are a consistent snapshot of the active chunks, and respect the same
filter mask as the retrievers.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from jogak.grammar.laws import title_kind

if TYPE_CHECKING:
    import numpy as np

    from jogak.index.lexical import LexicalIndex

# ─── clause references named in a question ──────────────────────────────────────────────────────

_PART_KO = r"(?P<part>(?:부록|별표|별지|부칙|첨부)\s*(?:[A-Za-z]|\d{1,2}(?:의\d{1,2})?|[가-하](?![가-힣]))?)"
_ART_KO = r"제\s*(?P<art>\d+)\s*조(?:\s*의\s*(?P<sub>\d+))?(?:\s*(?:제\s*)?(?P<para>\d+)\s*항)?"
KO_CLAUSE = re.compile(rf"(?:{_PART_KO}\s*(?:의\s*)?)?{_ART_KO}")
KO_PART_ONLY = re.compile(r"(?P<part>(?:부록|별표|별지)\s*(?:[A-Za-z]|\d{1,2}(?:의\d{1,2})?))(?![A-Za-z0-9])")
EN_CLAUSE = re.compile(r"(?i)\b(?P<kind>section|article|clause|§)\s*(?P<num>\d+(?:\.\d+)*[a-z]?)\b")
EN_PART = re.compile(r"(?i)\b(?P<kind>schedule|exhibit|annex|appendix)\s+(?P<num>[A-Z0-9]{1,3})\b")
_CASE_UNITS = set("년월일원조항호개명회차층번살세분시초만억천백장권쪽면건점위등배주달")
CASE_NO = re.compile(r"(?<![\d.])(?P<year>\d{2,4})\s?(?P<code>[가-힣]{1,3})\s?(?P<num>\d{1,7})(?!\d)")
# Sections of a decision a question can ask for by name (spaces ignored: "판결 요지", "주 문").
CASE_SECTIONS = ("판결요지", "판시사항", "결정요지", "참조조문", "참조판례", "주문", "이유", "전문", "판례내용")


def case_section(query: str) -> str | None:
    """The decision section the question names, if any ("2000다24061 판결요지" → "판결요지")."""
    q = _norm(query)
    hits = [(q.find(s), s) for s in CASE_SECTIONS if s in q]
    return min(hits)[1] if hits else None


@dataclass(frozen=True, slots=True)
class ClauseRef:
    text: str
    part: str | None = None  # "부록A", "Schedule 2"
    article: str | None = None  # "제8조", "제17조의2", "4.2"
    paragraph: str | None = None  # "제2항"
    case_number: str | None = None
    english: bool = False
    section: str | None = None  # a decision's section named with it ("판결요지", "주문")


def _norm(s: str) -> str:
    return re.sub(r"\s+", "", s)


def find_clause_refs(query: str) -> list[ClauseRef]:
    refs: list[ClauseRef] = []
    taken: list[tuple[int, int]] = []
    for m in KO_CLAUSE.finditer(query):
        art = f"제{m.group('art')}조" + (f"의{m.group('sub')}" if m.group("sub") else "")
        part = _norm(m.group("part")) if m.group("part") else None
        para = f"제{m.group('para')}항" if m.group("para") else None
        refs.append(ClauseRef(m.group(0).strip(), part, art, para))
        taken.append(m.span())
    for m in KO_PART_ONLY.finditer(query):
        if all(m.end() <= a or m.start() >= b for a, b in taken):
            refs.append(ClauseRef(m.group(0), _norm(m.group("part"))))
    for m in EN_CLAUSE.finditer(query):
        refs.append(ClauseRef(m.group(0), None, m.group("num").rstrip("."), None, english=True))
    for m in EN_PART.finditer(query):
        refs.append(ClauseRef(m.group(0), f"{m.group('kind').capitalize()} {m.group('num').upper()}", english=True))
    for m in CASE_NO.finditer(query):
        if m.group("code")[-1] in _CASE_UNITS or m.group("code") in ("제",):
            continue
        refs.append(ClauseRef(m.group(0), case_number=_norm(m.group(0)), section=case_section(query)))
    return refs


def _seg_label(seg: str) -> str:
    """A path segment reduced to its label: "제7조 (위약금)" → "제7조"; "Section 4.2" → "4.2"."""
    s = seg.strip()
    s = re.sub(r"\s*\(.*$", "", s)
    s = re.sub(r"(?i)^(section|article|clause|§)\s*", "", s)
    return _norm(s).rstrip(".")


def _part_matches(seg: str, part: str) -> bool:
    a, b = _norm(seg).lower(), _norm(part).lower()
    return a == b or a.startswith(b + "(") or (a.startswith(b) and not a[len(b):len(b) + 1].isalnum())


def clause_rows(ref: ClauseRef, lex: LexicalIndex, allowed: np.ndarray | None, doc_ids: set[str] | None) -> list[int]:
    """Rows of the chunks that hold the referenced node (all its chunks, in document order)."""
    n = len(lex)
    doc_col = lex.column("doc_id")
    prefixes = lex.column("path_prefixes")
    blocks = lex.column("block_type")
    articles = lex.column("article")
    cases = lex.column("case_numbers")
    hits_body: list[int] = []
    hits_other: list[int] = []
    for i in range(n):
        if allowed is not None and not allowed[i]:
            continue
        if doc_ids is not None and doc_col[i] not in doc_ids:
            continue
        if ref.case_number:
            if any(_norm(str(c)) == ref.case_number for c in (cases[i] or [])):
                hits_body.append(i)
            continue
        pre = prefixes[i] or []
        if pre:
            ok = False
            for p in pre:
                segs = p.split("/")
                if ref.article is not None:
                    if _seg_label(segs[-1]) != ref.article:
                        continue
                    if ref.part and not any(_part_matches(s, ref.part) for s in segs[:-1]):
                        continue
                elif ref.part:
                    if not _part_matches(segs[-1], ref.part):
                        continue
                else:
                    continue
                ok = True
                break
            if ok:
                (hits_other if (blocks[i] == "appendix" and not ref.part) else hits_body).append(i)
        elif ref.article and not ref.part and articles[i]:
            labels = [_seg_label(a) for a in str(articles[i]).split(", ")]
            if ref.article in labels:
                hits_body.append(i)
    rows = hits_body or hits_other
    if ref.case_number and ref.section and rows:
        # "2000다24061 판결요지": the chunks of that section (all of them, from its beginning)
        narrowed = [i for i in rows if any(_section_of(p) == ref.section for p in (prefixes[i] or []))]
        rows = narrowed or rows
    if ref.paragraph and rows:
        narrowed = [i for i in rows if any(p.split("/")[-1] == ref.paragraph and ref.article in p.split("/")
                                           for p in (prefixes[i] or []))]
        rows = narrowed or rows
    chunk_no = lex.column("chunk_no")
    return sorted(rows, key=lambda i: (str(doc_col[i]), chunk_no[i] if chunk_no[i] is not None else 0))


def _section_of(path: str) -> str:
    """A path's last segment as a section name ("판례내용/주문" → "주문", "판결요지/[2]" → "판결요지")."""
    segs = [_norm(x).strip("【】<>[]") for x in path.split("/") if x]
    for seg in reversed(segs):
        if seg and not seg[:1].isdigit():
            return seg
    return ""


_TITLE_SEP = re.compile(r"[_\s·|,;]+|(?<=\D)-|-(?=\D)")
_LAW_TITLE_SEP = re.compile(r"[_|]+")


@functools.lru_cache(maxsize=16)
def _aliases(titles: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    part_of: dict[str, set[str]] = {}
    for t in titles:
        # a law's title is a name, not a file name: its words ("정보보호", "소비자보호에") name nothing alone
        # (its short names are ``grammar.laws.laws_named``'s)
        sep = _LAW_TITLE_SEP if title_kind(t) != "other" else _TITLE_SEP
        parts = [x for x in sep.split(t) if x]
        if len(parts) < 2:
            continue
        for x in parts:
            part_of.setdefault(x, set()).add(t)
    out = {t: t for t in titles if t and len(t) >= 2}
    for x, owners in part_of.items():
        letters = sum(1 for ch in x if ch.isalpha())
        if len(owners) == 1 and letters >= 2 and len(x) >= 3 and x not in out:
            out[x] = next(iter(owners))
    return tuple(sorted(out.items(), key=lambda kv: (-len(kv[0]), kv[0])))


def title_aliases(titles: Iterable[str]) -> dict[str, str]:
    """Names a question may use for a document: its title, and each part of a compound file-name title
    ("근로기준법_법률" → "근로기준법"; "대법원_2000-11-10_2000다24061" → "2000다24061") that belongs to that
    title alone and has at least three characters, two of them letters (so neither a date nor a part
    shared by several titles — "대법원", "법률" — names a document)."""
    return dict(_aliases(tuple(sorted({t for t in titles if t}))))


def titles_in(query: str, titles: Iterable[str]) -> list[str]:
    """Titles named in the question (by title or by an alias), longest name first."""
    q = _norm(query)
    spaced = " ".join(query.replace("_", " ").split()).lower()
    out: list[str] = []
    for matcher, title in _matchers(tuple(sorted({t for t in titles if t}))):
        if title in out:
            continue
        if matcher.search(spaced) if isinstance(matcher, re.Pattern) else matcher in q:
            out.append(title)
    return out


@functools.lru_cache(maxsize=16)
def _matchers(titles: tuple[str, ...]) -> tuple[tuple[re.Pattern[str] | str, str], ...]:
    """Per alias (longest first): English names as a whole-word pattern ("_" and " " alike), others as
    their space-free form — compiled once per collection, not per question."""
    out: list[tuple[re.Pattern[str] | str, str]] = []
    for alias, title in _aliases(titles):
        if alias.isascii():
            words = r"[\s_]+".join(re.escape(w) for w in alias.replace("_", " ").lower().split())
            if words:
                out.append((re.compile(rf"\b{words}\b"), title))
        else:
            out.append((_norm(alias), title))
    return tuple(out)


# ─── cross-references ───────────────────────────────────────────────────────────────────────────


def doc_rows(lex: LexicalIndex, doc_id: str) -> list[int]:
    """Rows of one document in chunk order (indexed once per lexical snapshot)."""

    def index() -> dict[str, list[int]]:
        idx: dict[str, list[int]] = {}
        chunk_no = lex.column("chunk_no")
        for i, d in enumerate(lex.column("doc_id")):
            idx.setdefault(d, []).append(i)
        for rows in idx.values():
            rows.sort(key=lambda i: chunk_no[i] or 0)
        return idx

    return lex.memo("rows_by_doc", index).get(doc_id, [])


def target_rows(lex: LexicalIndex, doc_id: str, target: str, allowed: np.ndarray | None) -> list[int]:
    """Rows of the chunks under ``target`` (a path in the same document), in document order."""
    target = target.strip("/")
    prefixes = lex.column("path_prefixes")
    return [i for i in doc_rows(lex, doc_id) if target in (prefixes[i] or []) and (allowed is None or allowed[i])]


# ─── neighbours ─────────────────────────────────────────────────────────────────────────────────


def neighbour_rows(lex: LexicalIndex, row: int, mode: str, allowed: np.ndarray | None, limit: int = 2) -> list[int]:
    """Chunks next to ``row`` in its document (mode "neighbours") or sharing its parent node ("parent")."""
    chunk_no = lex.column("chunk_no")
    no = chunk_no[row] or 0
    same = [i for i in doc_rows(lex, lex.column("doc_id")[row]) if i != row and (allowed is None or allowed[i])]
    if mode == "parent":
        path = lex.column("path")[row]
        if not path or "/" not in path:
            return []
        parent = path.rsplit("/", 1)[0]
        prefixes = lex.column("path_prefixes")
        sib = [i for i in same if parent in (prefixes[i] or [])]
        return sorted(sib, key=lambda i: abs((chunk_no[i] or 0) - no))[:limit]
    near = [i for i in same if abs((chunk_no[i] or 0) - no) == 1]
    return sorted(near, key=lambda i: chunk_no[i] or 0)[:limit]
