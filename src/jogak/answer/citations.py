"""Citations are rendered by code from chunk metadata, never by the model.

``locate(chunk, start, end, unit)`` narrows a quote (chunk-relative offsets) to the clause that holds it:

1. with ``metadata.segments`` (structure strategy), the leaf segment whose document span contains the
   quote gives the path and the label — article, and paragraph/item when the sentence sits in one;
2. without segments (recursive strategy), the heading line that precedes the quote inside the chunk,
   plus the paragraph marker (①) the quote sits under;
3. failing both, the first clause of ``metadata.article`` — the clause a chunk that starts mid-clause
   inherits (seed 000 §3).

``render_sources`` writes ``(근거: 반품교환환불정책 · 제2조 (반품 배송비) ①)`` — or ``(Source: Supply
Agreement · Section 4.2)`` for English documents — and case law as ``(참고 판례: 대법원 2003. 7. 24. 선고
2001다48781 판결)`` (seed 002).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from jogak.answer.context import LABELS
from jogak.answer.text import CIRCLED
from jogak.answer.units import Unit
from jogak.chunk.articles import split_articles
from jogak.model import CITATION_CASE_KEYS, Answer, CaseInfo, Chunk, Citation, Segment

_PARA_PATH = re.compile(r"^제\s*(\d+)\s*항$")
_PARA_IN_LABEL = re.compile(r"\s제\s*(\d+)\s*항(?=\s|$)")
_ITEM_PATH = re.compile(r"^제\s*(\d+)\s*호$")
_ARTICLE_LABEL = re.compile(r"^(?:(?P<pre>(?:부록|별표|별지|Schedule|Exhibit|Annex|Appendix)\s*\S*)\s+)?"
                            r"(?P<label>제\s*\d+\s*조(?:의\s*\d+)?|Section\s+[\d.]+|Article\s+\d+)", re.I)
_APPENDIX_NAME = re.compile(r"^(부록|별표|별지|첨부)\s*([A-Za-z0-9]{0,3}(?:의\d+)?)|^(Schedule|Exhibit|Annex|Appendix)\s+([A-Z0-9]{1,3})",
                            re.I)
_BARE_PARAGRAPH = re.compile(rf"^(?:[{CIRCLED}]|제\s*\d+\s*[항호목]|\(\w{{1,3}}\)|\d+(?:\.\d+)*\.?|[가-하]\.)$")
CASE_KEYS = CITATION_CASE_KEYS


@dataclass(slots=True)
class Clause:
    article: str  # the label a citation shows: "제2조 (반품 배송비) ①", "부록A 제1조 (보상 기준) ②"
    path: str | None
    page_start: int | None
    page_end: int | None


def _segment_at(segments: list[Segment], pos: int) -> Segment | None:
    best = None
    for seg in segments:
        # Leaves should not nest; if they do, the innermost (shortest) wins.
        if seg.start <= pos < seg.end and (best is None or (seg.end - seg.start) < (best.end - best.start)):
            best = seg
    if best is None:
        before = [seg for seg in segments if seg.start <= pos]
        if before:
            best = max(before, key=lambda g: g.start)
    return best


def _label_from_path(path: str, chunk: Chunk) -> str:
    """"본문/제2조/제1항" → "제2조 (반품 배송비) ①" using the chunk's article tag for the title."""
    parts = [p for p in path.split("/") if p]
    articles = split_articles(chunk.metadata.article or "")
    head = ""
    rest: list[str] = []
    prefix = ""
    for i, p in enumerate(parts):
        if i == 0 and p in ("본문", "body", "Body"):
            continue
        if _APPENDIX_NAME.match(p) and not head:
            prefix = p
            continue
        if not head:
            head = p
            continue
        rest.append(p)
    wanted = f"{prefix} {head}".strip()
    # "제2조 (…)" starts with its path component; a numbered section "2. 개인정보의 …" with "2" + "."
    full = next((a for a in articles if a == wanted or a.startswith((wanted + " ", wanted + ". "))), None)
    if full is None and prefix:
        full = next((a for a in articles if a.startswith(head + " ") or a == head), None)
        full = f"{prefix} {full}" if full else None
    label = full or wanted
    for p in rest:
        m = _PARA_PATH.match(p)
        if m and 1 <= int(m.group(1)) <= len(CIRCLED):
            label += f" {CIRCLED[int(m.group(1)) - 1]}"
            continue
        label += f" {p}"
    return label


def paragraph_marks(label: str) -> str:
    """"제2조 (반품 배송비) 제1항" → "제2조 (반품 배송비) ①": paragraphs as the document prints them."""
    def sub(m: re.Match[str]) -> str:
        k = int(m.group(1))
        return f" {CIRCLED[k - 1]}" if 1 <= k <= len(CIRCLED) else m.group(0)

    return _PARA_IN_LABEL.sub(sub, label)


def _cite_label(seg: Segment, chunk: Chunk) -> str:
    return paragraph_marks(_raw_cite_label(seg, chunk))


def _raw_cite_label(seg: Segment, chunk: Chunk) -> str:
    cite = seg.cite.strip()
    path = seg.path
    if cite:
        # A bare paragraph label ("①", "제1항") gets its article from the path.
        if _BARE_PARAGRAPH.match(cite) and path:
            base = _label_from_path("/".join(path.split("/")[:-1]), chunk) if "/" in path else ""
            return f"{base} {cite}".strip()
        return cite
    return _label_from_path(path, chunk) if path else (split_articles(chunk.metadata.article) or [""])[0]


def locate(chunk: Chunk, start: int, end: int, unit: Unit | None = None) -> Clause:
    """The clause holding ``chunk.text[start:end]`` (chunk-relative offsets)."""
    md = chunk.metadata
    pos = md.char_start + start
    if md.segments:
        seg = _segment_at(md.segments, pos)
        if seg is not None:  # segments carry no pages of their own: the chunk's
            return Clause(_cite_label(seg, chunk), seg.path or md.path, md.page_start, md.page_end)
    articles = split_articles(md.article or "")
    heading = unit.heading if unit is not None else ""
    label = heading or (articles[0] if articles else "")
    # Heading from inside the chunk may lack the appendix prefix that the article tag carries.
    if heading and articles:
        full = next((a for a in articles if a.endswith(" " + heading) or a == heading), None)
        if full:
            label = full
    if unit is not None and unit.marker and label:
        label = f"{label} {unit.marker}"
    if unit is not None and unit.kind == "item" and unit.item and label:
        num = re.match(r"\(?(\d+)[.)]", unit.item)
        if num:
            label = f"{label} 제{num.group(1)}호" if _is_ko(label) else f"{label}({num.group(1)})"
    return Clause(label, md.path, md.page_start, md.page_end)


def _is_ko(s: str) -> bool:
    return any("\uac00" <= c <= "\ud7a3" for c in s)


def appendix_name(citation: Citation, lang: str = "ko") -> str:
    """"부록A" / "Schedule A" for an appendix citation ("부록" / "the appendix" when unnamed)."""
    for cand in (citation.article or "", (citation.path or "").split("/")[0]):
        m = _APPENDIX_NAME.match(cand.strip())
        if m:
            return "".join(x for x in (m.group(1), m.group(2)) if x) if m.group(1) else \
                f"{m.group(3)} {m.group(4)}"
    return LABELS[lang]["appendix_where"]


def case_of(chunk: Chunk) -> CaseInfo | None:
    """The decision a chunk cites as, when it names one (a case number or a full case name)."""
    case = chunk.metadata.case
    if case is None or not (case.case_number or case.full_case_name):
        return None
    return case


def case_name(case: CaseInfo) -> str:
    """"대법원 2003. 7. 24. 선고 2001다48781 전원합의체 판결" — the full name when the metadata has it,
    composed from court, date and number otherwise."""
    full = (case.full_case_name or "").strip()
    if full:
        return " ".join(full.split())
    court = case.court or "대법원"
    date = case.decision_date or ""
    m = re.match(r"(\d{4})-(\d{2})-(\d{2})", date)
    if m:
        date = f"{int(m.group(1))}. {int(m.group(2))}. {int(m.group(3))}."
    parts = [court, date, "선고" if date else "", case.case_number or "", "판결"]
    return " ".join(p for p in parts if p)


def source_label(c: Citation) -> str:
    """"반품교환환불정책 · 제2조 (반품 배송비) ①"."""
    return f"{c.doc_title} · {c.article}" if c.article else c.doc_title


def render_sources(citations: list[Citation], lang: str = "ko") -> str:
    """One parenthesised source note for a statement: documents first, then case law."""
    lab = LABELS[lang]
    docs: list[str] = []
    cases: list[str] = []
    for c in citations:
        if c.case:
            name = case_name(c.case)
            if name not in cases:
                cases.append(name)
        else:
            s = source_label(c)
            if s not in docs:
                docs.append(s)
    parts = []
    if docs:
        parts.append(f"({lab['source']}: {'; '.join(docs)})")
    if cases:
        parts.append(f"({lab['case_source']}: {'; '.join(cases)})")
    return " ".join(parts)


# "(근거: 반품교환환불정책 · 제2조 (반품 배송비) ①; 멤버십정책 · 제3조 (하루포인트 적립))" — labels may hold
# one level of parentheses.
_NOTE = re.compile(r"\((근거|Source|Sources|참고 판례|Case|Cases): ((?:[^()]|\([^()]*\))*)\)")


def answer_parts(text: str, citations: list[Citation]) -> list[dict[str, Any]]:
    """The answer text with each source note replaced by the numbers (``ref``) of the citations it names:
    ``{"text": …}`` / ``{"cite": [refs], "note": "(근거: …)"}`` — how the CLI and the web page number
    citations the same way."""
    by_label: dict[str, list[int]] = {}
    for i, c in enumerate(citations, start=1):
        label = case_name(c.case) if c.case else source_label(c)
        by_label.setdefault(label, []).append(c.ref or i)
    parts: list[dict[str, Any]] = []
    pos = 0
    for m in _NOTE.finditer(text):
        refs: list[int] = []
        for label in (s.strip() for s in m.group(2).split(";")):
            refs.extend(r for r in by_label.get(label, []) if r not in refs)
        if not refs:
            continue
        before = text[pos : m.start()].rstrip(" ")
        if before:
            parts.append({"text": before})
        parts.append({"cite": refs, "note": m.group(0)})
        pos = m.end()
    if pos < len(text):
        parts.append({"text": text[pos:]})
    return parts


def with_markers(text: str, citations: list[Citation]) -> str:
    """The answer with each source note replaced by its citations' numbers: "… 부담한다. [1]"."""
    out = []
    for p in answer_parts(text, citations):
        out.append(p["text"] if "text" in p else " " + "".join(f"[{r}]" for r in p["cite"]))
    return "".join(out)


def presented(answer: Answer) -> dict[str, Any]:
    """``Answer.to_dict()`` as ``jogak ask --json`` and ``/v1/ask`` give it: plus ``answer_parts`` and,
    per citation, ``relevance_label`` (what a reader is shown: 높음 / 보통 / 낮음)."""
    from jogak.answer.relevance import relevance_label
    from jogak.answer.text import detect_lang

    lang = detect_lang(answer.answer) if answer.answer.strip() else "ko"
    d = answer.to_dict()
    for cd, c in zip(d["citations"], answer.citations, strict=True):
        cd["relevance_label"] = relevance_label(c.relevance, lang)
    d["answer_parts"] = answer_parts(answer.answer, list(answer.citations))
    return d
