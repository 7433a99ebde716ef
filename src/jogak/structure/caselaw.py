"""Court decisions as clause trees (issue 4): a decision split into chunks never loses its 사건번호,
선고일 or title.

Two shapes are recognised (grammar tables live in ``jogak.grammar.case``):

* a **single decision** — law.go.kr / precedent-kr Markdown (front matter + ``## 판시사항`` …
  ``## 판례내용``), law.go.kr text (``【판시사항】`` …), or one case in casebook form;
* a **casebook** — decisions one after another, each a title line ("민법의 법원：관습법 (1)") and a header
  "(대법원 2003. 7. 24. 선고 2001다48781 전원합의체 판결)" followed by ``<쟁점>``, ``<판결요지>`` … markers,
  usually after a table of contents.

Tree shape and path conventions::

    document (path "")                     attrs["case"] = case metadata (single decision)
      section 판시사항 (path "판시사항")
        holding [1] (path "판시사항/[1]")   attrs: holdings [1], aligned ["판결요지/[1]", "참조조문/[1]"]
      section 판결요지 … holdings
      section 참조조문 … holdings           attrs["statutes"] = [{law, article, holding}], refs per item
      section 참조판례 … holdings "[1][2]"  attrs["precedents"] = [{court, date, case_number, …}]
      section 판례내용
        parties 당사자 (판례내용/당사자)    block_type "parties"
        section 원심판결 / 주문 / 이유 (판례내용/이유)
          section 1. (판례내용/이유/1) → section 가. (판례내용/이유/1/가)
        text 관여법관 (판례내용/관여법관)

    casebook: document → text 목차 (path "목차") + case nodes (path = 사건번호, e.g. "2001다48781",
    label = 사건번호, title without the "(1)" counter, attrs["case"]) → sections "2001다48781/판결요지/[1]".

Every node carries ``attrs["cite"]``, the label a chunk cut from it is cited by ("판결요지 [2]", "이유 1.").
Case metadata: title, court, case_number, case_numbers, decision_date (ISO), judgment_type (판결/결정),
en_banc (전원합의체), full_case_name, case_type, court_level, problems. Front matter wins over text;
malformed or missing values are ``None`` and explained in ``problems`` — never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from jogak.grammar import case as g
from jogak.grammar.numbering import GANADA_RANGE, ganada_ordinal
from jogak.model import Document, Node, Ref

__all__ = [
    "CHUNK_CASE_KEYS",
    "case_for_chunk",
    "case_index",
    "citation_text",
    "detect",
    "iter_cases",
    "link_cases",
    "parse_caselaw",
    "resolve_citation",
]

# The case fields a chunk carries (``ChunkMetadata.case``); ``problems`` stays on the tree.
CHUNK_CASE_KEYS = ("title", "court", "case_number", "case_numbers", "decision_date", "judgment_type",
                   "en_banc", "full_case_name", "case_type")
UNRESOLVED = "other document"
MAX_HEADER_LINE = 300  # longer lines are prose, never a casebook header


# ─── small text helpers ────────────────────────────────────────────────────────────────────────


def _trim_end(text: str, start: int, end: int, extra: str = "") -> int:
    chars = " \t\r\n\u3000" + extra
    while end > start and text[end - 1] in chars:
        end -= 1
    return end


def _skip_ws(text: str, pos: int, end: int) -> int:
    while pos < end and text[pos] in " \t\r\n\u3000":
        pos += 1
    return pos


def _line_starts(text: str, lo: int, hi: int) -> Iterator[int]:
    """First non-blank character of each line that starts in [lo, hi) (``lo`` counts as a start)."""
    pos = lo
    while pos < hi:
        p = pos
        while p < hi and text[p] in " \t\u3000":
            p += 1
        if p < hi and text[p] != "\n":
            yield p
        nl = text.find("\n", pos, hi)
        if nl == -1:
            return
        pos = nl + 1


def _line_end(text: str, pos: int, hi: int) -> int:
    nl = text.find("\n", pos, hi)
    return hi if nl == -1 else nl


def _norm_ws(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


@dataclass(frozen=True, slots=True)
class _Mark:
    start: int  # first non-blank char of the marker line
    head_end: int  # end of the marker; text after it on the same line is body
    name: str  # canonical section name


def _section_marks(text: str, lo: int, hi: int) -> list[_Mark]:
    out: list[_Mark] = []
    for m in g.SECTION_LINE_RE.finditer(text, lo, hi):
        written = m.group("n1") or m.group("n2")
        name = g.section_name(written)
        if not name:
            continue
        if m.group("n2") is not None:
            rest = text[m.end() : _line_end(text, m.end(), hi)]
            if re.sub(r"\s+", "", written) not in g.BARE_SECTION_FORMS or rest.strip():
                continue
        lead = len(m.group(0)) - len(m.group(0).lstrip(" \t"))
        out.append(_Mark(m.start() + lead, m.end(), name))
    return out


# ─── front matter and headers ──────────────────────────────────────────────────────────────────


def _front_matter(doc: Document) -> tuple[dict[str, Any], int]:
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


def _is_case_front_matter(fm: Mapping[str, Any]) -> bool:
    return any(k in fm for k in g.CASE_FRONT_MATTER_MARKERS)


@dataclass(slots=True)
class _Header:
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


def _casebook_headers(text: str, lo: int, marks: list[_Mark]) -> list[_Header]:
    """Header lines that open a case; a TOC line or a stray citation is not one."""
    cands: list[_Header] = []
    prev_lines: list[tuple[int, int]] = []  # recent non-blank lines (start, end)
    mark_at = {mk.start for mk in marks}
    for ls in _line_starts(text, lo, len(text)):
        le = _line_end(text, ls, len(text))
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
            cands.append(_Header(title, tstart, ls, le, m.group("court"), m.group("date"), m.group("nums"),
                                 m.group("type"), bool(m.group("enbanc")), _norm_ws(m.group("full"))))
        prev_lines = [*prev_lines[-1:], (ls, le)]
    if not cands:
        return []
    mark_starts = [mk.start for mk in marks]
    accepted: list[_Header] = []
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


def _header_from_preamble(text: str, lo: int, hi: int) -> tuple[_Header | None, str | None]:
    """In a single decision: the casebook-style header or a bare citation line, and the title line
    (the first other line: "# 구상금", "[보증채무금]", "민법의 법원：관습법 (1)")."""
    title = None
    hdr: _Header | None = None
    for ls in _line_starts(text, lo, hi):
        le = _line_end(text, ls, hi)
        m = _header_at(text, ls, le) if hdr is None else None
        if m:
            prefix = text[ls : m.start()].strip()
            title = title or prefix or None
            hdr = _Header(prefix or None, ls, ls, le, m.group("court"), m.group("date"), m.group("nums"),
                          m.group("type"), bool(m.group("enbanc")), _norm_ws(m.group("full")))
            continue
        cm = g.CITATION_RE.match(text, ls, le) if hdr is None else None
        if cm and cm.group("court") and not text[cm.end() : le].strip(" \t]"):
            hdr = _Header(None, ls, ls, le, cm.group("court"), cm.group("date"), cm.group("nums"),
                          cm.group("type"), bool(cm.group("enbanc")), _norm_ws(cm.group(0)))
            continue
        if title is None:
            line = text[ls:le].strip().lstrip("#").strip().strip("[]［］").strip()
            if line and len(line) <= 120:
                title = line
    return hdr, title


# ─── case metadata ─────────────────────────────────────────────────────────────────────────────


def _normalize_judgment(v: Any) -> tuple[str | None, bool]:
    s = re.sub(r"\s+", "", str(v or ""))
    en_banc = any(w in s for w in g.EN_BANC_WORDS)
    for t in g.JUDGMENT_TYPES:
        if t in s:
            return t, en_banc
    return None, en_banc


def _case_metadata(fm: Mapping[str, Any], hdr: _Header | None, title: str | None,
                   closing: str | None = None, chief_justice: bool = False) -> dict[str, Any]:
    problems: list[str] = []

    def fm_get(field: str) -> Any:
        for k, f in g.FRONT_MATTER_KEYS.items():
            if f == field and fm.get(k) not in (None, ""):
                return fm[k]
        return None

    # title
    t_fm = fm_get("title")
    title_v = _norm_ws(str(t_fm)) if t_fm else (g.TITLE_COUNTER_RE.sub("", title).strip() if title else None)
    if not title_v:
        problems.append("title: missing")
        title_v = None

    # court
    raw_fm, raw_tx = fm_get("court"), (hdr.court if hdr else None)
    court, level = g.normalize_court(str(raw_fm)) if raw_fm else (None, None)
    if raw_fm and not court:
        problems.append(f"court: unknown court name '{raw_fm}' (front matter)")
    tx_court, tx_level = g.normalize_court(raw_tx) if raw_tx else (None, None)
    if raw_tx and not tx_court:
        problems.append(f"court: unknown court name '{raw_tx}'")
    if raw_fm and tx_court and court and tx_court != court:
        problems.append(f"court: front matter '{court}' differs from text '{tx_court}'")
    if not raw_fm:
        court, level = tx_court, tx_level
    if not raw_fm and not raw_tx:
        problems.append("court: missing")

    # case numbers
    raw_fm, raw_tx = fm_get("case_number"), (hdr.nums if hdr else None)
    nums_fm = g.parse_case_numbers(str(raw_fm)) if raw_fm else []
    nums_tx = g.parse_case_numbers(raw_tx) if raw_tx else []
    if raw_fm and not nums_fm:
        problems.append(f"case_number: malformed '{raw_fm}' (front matter)")
    if raw_tx and not nums_tx:
        problems.append(f"case_number: malformed '{_norm_ws(raw_tx)}'")
    if nums_fm and nums_tx and nums_fm[0].text != nums_tx[0].text:
        problems.append(f"case_number: front matter '{nums_fm[0].text}' differs from text '{nums_tx[0].text}'")
    nums = nums_fm if raw_fm else nums_tx
    numbers_text = _norm_ws(str(raw_fm)) if raw_fm else (_norm_ws(raw_tx) if raw_tx else None)
    if not raw_fm and not raw_tx:
        problems.append("case_number: missing")
    for cn in nums:
        yy = cn.text[: len(cn.text) - len(cn.code) - len(cn.serial)]
        if len(yy) == 2 and int(yy) < g.YEAR_PIVOT:
            problems.append(f"case_number: 2-digit year in '{cn.text}' (numbers carry 4-digit years since 2000)")
        if cn.case_type is None:
            problems.append(f"case_number: unknown 사건부호 '{cn.code}' in '{cn.text}'")

    # decision date
    raw_fm, raw_tx = fm_get("decision_date"), (hdr.date if hdr else None)
    date, prob = g.parse_date(raw_fm if raw_fm not in (None, "") else raw_tx)
    if prob:
        problems.append(f"decision_date: {prob}")
    if raw_fm not in (None, "") and raw_tx:
        tx_date, _ = g.parse_date(raw_tx)
        if date and tx_date and tx_date != date:
            problems.append(f"decision_date: front matter '{date}' differs from text '{tx_date}'")

    # judgment type and 전원합의체
    jt, en_banc = _normalize_judgment(fm_get("judgment_type"))
    if jt is None and hdr:
        jt, en_banc = hdr.judgment_type, hdr.en_banc or en_banc
    elif hdr:
        en_banc = en_banc or hdr.en_banc
    if jt is None and closing:
        jt = closing
    en_banc = en_banc or chief_justice
    if jt is None:
        problems.append("judgment_type: not stated (no 판결/결정 in front matter, header or closing)")

    # case type
    ct = fm_get("case_type")
    case_type = _norm_ws(str(ct)) if ct else (nums[0].case_type if nums else None)
    if case_type is None:
        problems.append("case_type: missing")

    full = hdr.full if hdr and hdr.full else None
    if full is None:
        full = g.full_case_name(court, date, numbers_text, jt, en_banc)

    case: dict[str, Any] = {
        "title": title_v,
        "court": court,
        "case_number": nums[0].text if nums else None,
        "case_numbers": [cn.text for cn in nums],
        "decision_date": date,
        "judgment_type": jt,
        "en_banc": en_banc,
        "full_case_name": full,
        "case_type": case_type,
        "court_level": level,
    }
    pid = fm.get("판례일련번호")
    if pid not in (None, ""):
        case["precedent_id"] = str(pid)
    case["problems"] = problems
    return case


def case_for_chunk(case: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The subset of a node's ``attrs["case"]`` that belongs in ``ChunkMetadata.case``."""
    if not case:
        return None
    return {k: case.get(k) for k in CHUNK_CASE_KEYS if k in case}


def citation_text(case: Mapping[str, Any] | None) -> str:
    """"(참고 판례: 대법원 2005. 11. 25. 선고 2005다35554 판결)"; "" when the case number is unknown."""
    if not case:
        return ""
    name = case.get("full_case_name")
    if not name:
        name = g.full_case_name(case.get("court"), case.get("decision_date"), case.get("case_number"),
                                case.get("judgment_type"), bool(case.get("en_banc")))
    if not name:
        if not case.get("case_number"):
            return ""
        parts = [case.get("court")]
        if case.get("decision_date"):
            parts += [g.format_date_ko(case["decision_date"]), "선고"]
        parts += [case["case_number"], case.get("judgment_type")]
        name = " ".join(p for p in parts if p)
    return f"(참고 판례: {name})"


# ─── tree building ─────────────────────────────────────────────────────────────────────────────


class _Builder:
    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.text = doc.text or ""
        # (node, ref, citation) for every precedent citation, resolved at the end
        self.citations: list[tuple[Node, Ref, g.Citation]] = []

    def node(self, kind: str, label: str, title: str, path: str, order: int, start: int, end: int,
             body_start: int | None = None, block_type: str = "body", **attrs: Any) -> Node:
        ps, pe = self.doc.page_range(start, end)
        return Node(kind=kind, block_type=block_type, label=label, title=title, path=path, sibling_order=order,
                    char_start=start, char_end=end, page_start=ps, page_end=pe,
                    body_start=start if body_start is None else min(max(body_start, start), end),
                    attrs=attrs)

    # sections ───────────────────────────────────────────────────────────────────────────────
    def sections(self, marks: list[_Mark], hi: int, prefix: str) -> list[Node]:
        out: list[Node] = []
        used: dict[str, int] = {}
        for i, mk in enumerate(marks):
            nxt = marks[i + 1].start if i + 1 < len(marks) else hi
            end = _trim_end(self.text, mk.start, nxt)
            end = max(end, min(mk.head_end, nxt))
            seg = _unique(mk.name, used)
            path = f"{prefix}/{seg}" if prefix else seg
            body = _skip_ws(self.text, mk.head_end, end)
            node = self.node("section", mk.name, "", path, i + 1, mk.start, end, body, cite=mk.name)
            if mk.name in g.HOLDING_SECTIONS:
                node.children = self.holdings(node, mk.name, inline=mk.name in g.INLINE_HOLDING_SECTIONS)
                if mk.name == "참조조문":
                    self.statutes(node)
            elif mk.name == "판례내용":
                node.children = self.body_blocks(node)
            elif mk.name in ("판결이유", "이유요지", "사실관계", "해설"):
                node.children = self.reason_parts(node)
            out.append(node)
        return out

    def holdings(self, sec: Node, name: str, inline: bool) -> list[Node]:
        text, lo, hi = self.text, sec.body_start or sec.char_start, sec.char_end
        line_pos = {*_line_starts(text, lo, hi), lo}
        if inline:
            line_pos |= {lo + m.end() for m in re.finditer(r"/[ \t]*", text[lo:hi])}
        # Markers after whitespace mid-line: Markdown rendering joins "[1] …\n[2] …" into one line.
        mid_pos = {lo + m.start() + 1 for m in re.finditer(rf"\s(?:\[|{GANADA_RANGE})", text[lo:hi])} - line_pos
        cands = self._holding_marks(sorted(line_pos), hi, consecutive=not inline)
        if len(cands) < 2:
            more = self._holding_marks(sorted(line_pos | mid_pos), hi, consecutive=not inline)
            if len(more) >= 2 and len(more) > len(cands):
                cands = more
        out: list[Node] = []
        for i, (p, mend, nums, label, seg) in enumerate(cands):
            nxt = cands[i + 1][0] if i + 1 < len(cands) else hi
            end = _trim_end(text, p, nxt, "/," if inline else "")
            end = max(end, mend)
            body = _skip_ws(text, mend, end)
            out.append(self.node("holding", label, "", f"{sec.path}/{seg}", i + 1, p, end, body,
                                 holdings=nums, cite=f"{name} {label}"))
            out[-1].number = (nums[0],)
        return out

    def _holding_marks(self, positions: list[int], hi: int, consecutive: bool
                       ) -> list[tuple[int, int, list[int], str, str]]:
        """[n] groups in increasing order (``consecutive``: 1, 2, 3 …), else 가., 나. … (at least two)."""
        text = self.text
        cands: list[tuple[int, int, list[int], str, str]] = []  # start, marker end, numbers, label, seg
        last = 0
        for p in positions:
            if cands and p < cands[-1][1]:
                continue  # inside the previous marker group ("[2] [3] [4]")
            m = g.HOLDING_GROUP_RE.match(text, p, hi)
            if not m:
                continue
            nums = [int(x) for x in re.findall(r"\d+", m.group(0))]
            if nums != sorted(nums) or nums[0] <= last or (consecutive and nums[0] != last + 1):
                continue
            last = nums[-1] if consecutive else nums[0]
            label = "".join(f"[{n}]" for n in nums)
            cands.append((p, m.end(), nums, label, label))
        if cands:
            return cands
        expected = 0
        for p in positions:
            m = g.HANGUL_HOLDING_RE.match(text, p, hi)
            if m and ganada_ordinal(m.group("h")) == expected + 1:
                expected += 1
                h = m.group("h")
                cands.append((p, m.end(), [expected], f"{h}.", h))
        return cands if len(cands) >= 2 else []
    def statutes(self, sec: Node) -> None:
        items: list[dict[str, Any]] = []
        for holder in sec.children or [sec]:
            lo = holder.body_start if holder.body_start is not None else holder.char_start
            nums = holder.attrs.get("holdings") or [None]
            for ref, law, article in self._statute_items(lo, holder.char_end):
                holder.refs.append(ref)
                for n in nums:
                    items.append({"law": law, "article": article, "holding": n})
        sec.attrs["statutes"] = items

    def _statute_items(self, lo: int, hi: int) -> Iterator[tuple[Ref, str | None, str | None]]:
        text = self.text
        law: str | None = None
        art: str | None = None
        for ps, pe in _split_top(text, lo, hi):
            inside = _bracketed(text, ps, pe)  # "구 민법(… 법률 제4199호로 개정되기 전의 것)" is not an article
            arts = [m for m in g.ARTICLE_RE.finditer(text, ps, pe) if not any(a <= m.start() < b for a, b in inside)]
            if not arts:
                continue
            lead = text[ps : arts[0].start()]
            law_txt = _clean_law(lead)
            if law_txt:
                new_law = _resolve_law(law_txt, law)
                if new_law != law:
                    art = None
                law = new_law
            for j, a in enumerate(arts):
                art = g.merge_article(art, a.group(0))
                start = a.start()
                if j == 0 and law_txt:
                    start = ps + (len(lead) - len(lead.lstrip(" \t\n/")))
                yield (Ref(text=text[start : a.end()], start=start, end=a.end(), reason=UNRESOLVED), law, art)

    # 판례내용 ───────────────────────────────────────────────────────────────────────────────
    def body_blocks(self, sec: Node) -> list[Node]:
        text, lo, hi = self.text, sec.body_start or sec.char_start, sec.char_end
        blocks: list[tuple[str, str, int, int]] = []  # kind, name, start, head_end
        for m in g.BRACKET_LINE_RE.finditer(text, lo, hi):
            kind, name = g.body_block(m.group("name"))
            start = m.start() + (len(m.group(0)) - len(m.group(0).lstrip(" \t")))
            if kind == "parties" and blocks and blocks[-1][0] == "parties":
                continue  # consecutive party lines form one block
            blocks.append((kind, name, start, m.end()))
        after = blocks[-1][2] if blocks else lo
        judges = None
        for m in g.JUDGES_LINE_RE.finditer(text, after, hi):
            if not text[m.end() : hi].strip():
                judges = m
        if judges and (not blocks or judges.start() > blocks[-1][3]):
            start = judges.start() + (len(judges.group(0)) - len(judges.group(0).lstrip(" \t")))
            blocks.append(("judges", "관여법관", start, start))
        out: list[Node] = []
        used: dict[str, int] = {}
        for i, (kind, name, start, head_end) in enumerate(blocks):
            nxt = blocks[i + 1][2] if i + 1 < len(blocks) else hi
            end = max(_trim_end(text, start, nxt), head_end)
            body = _skip_ws(text, head_end, end)
            if kind == "parties":
                seg = _unique("당사자", used)
                node = self.node("parties", "당사자", "", f"{sec.path}/{seg}", i + 1, start, end, start,
                                 block_type="parties", cite="당사자", parties=_parties(text, start, end))
            elif kind == "judges":
                seg = _unique("관여법관", used)
                line = text[start:end]
                node = self.node("text", "관여법관", "", f"{sec.path}/{seg}", i + 1, start, end, start,
                                 cite="관여법관", judges=line.split()[1:])
            else:
                seg = _unique(name, used)
                node = self.node("section", name, "", f"{sec.path}/{seg}", i + 1, start, end, body, cite=name)
                if name == "이유":
                    node.children = self.reason_parts(node)
            out.append(node)
        return out

    def reason_parts(self, parent: Node, hangul: bool = False) -> list[Node]:
        text, lo, hi = self.text, parent.body_start or parent.char_start, parent.char_end
        rx = g.REASON_HANGUL_RE if hangul else g.REASON_NUMBER_RE
        kept: list[tuple[int, re.Match[str]]] = []
        expected = 1
        for p in _line_starts(text, lo, hi):
            m = rx.match(text, p, hi)
            if not m:
                continue
            n = (ganada_ordinal(m.group("n")) or 0) if hangul else int(m.group("n"))
            if n == expected:
                kept.append((p, m))
                expected += 1
        if len(kept) < 2:
            return [] if hangul else self.reason_parts(parent, hangul=True)
        out: list[Node] = []
        base_cite = parent.attrs.get("cite") or parent.label
        widest = max((_line_end(text, ls, hi) - ls for ls in _line_starts(text, lo, hi)), default=0)
        for i, (p, m) in enumerate(kept):
            nxt = kept[i + 1][0] if i + 1 < len(kept) else hi
            end = max(_trim_end(text, p, nxt), m.end())
            label = f"{m.group('n')}."
            le = min(_line_end(text, m.end(), hi), end)
            rest = text[m.end() : le].strip()
            title, body = "", m.end()
            tm = g.REASON_TITLE_RE.match(text, m.end(), le)
            if tm and not text[tm.end() : le].strip():
                title, body = tm.group(0).strip(), le  # "1. 피고의 상고이유 제1점에 대하여"
            elif (rest and len(rest) <= 40 and le < end and not re.search(r"(?:다|음|함)\.$", rest)
                  and le - p < 0.6 * widest):
                title, body = rest, le  # a short heading line among full-width wrapped lines
            elif not hangul and tm:
                title, body = tm.group(0).strip(), tm.end()  # heading joined with its paragraph
            body = _skip_ws(text, body, end)
            node = self.node("section", label, title, f"{parent.path}/{m.group('n')}", i + 1, p, end, body,
                             cite=f"{base_cite} {label}")
            if not hangul:
                node.children = self.reason_parts(node, hangul=True)
            out.append(node)
        return out

    # citations ─────────────────────────────────────────────────────────────────────────────
    def collect_citations(self, root: Node, skip: list[tuple[int, int]]) -> None:
        for node in root.walk():
            spans = _own_spans(node)
            for s, e in spans:
                for c in g.find_citations(self.text, s, e):
                    if any(a <= c.start < b for a, b in skip):
                        continue
                    ref = Ref(text=c.text, start=c.start, end=c.end, reason=UNRESOLVED)
                    node.refs.append(ref)
                    self.citations.append((node, ref, c))
            node.refs.sort(key=lambda r: r.start)
        by_ref = {id(r): c for _, r, c in self.citations}
        for node in root.walk():
            if node.kind == "section" and node.label == "참조판례":
                items: list[dict[str, Any]] = []
                seen = set()
                for sub in node.walk():
                    for ref in sub.refs:
                        c = by_ref.get(id(ref))
                        if c is None:
                            continue
                        for n in sub.attrs.get("holdings") or [None]:
                            key = (c.case_numbers[0] if c.case_numbers else None, n)
                            if key not in seen:
                                seen.add(key)
                                items.append(_precedent_item(c, n))
                node.attrs["precedents"] = items
            elif node.label == "원심판결":
                cites = [c for _, r, c in self.citations if node.char_start <= r.start < node.char_end]
                if cites:
                    node.attrs["lower_court"] = _precedent_item(cites[0], None)

    def resolve(self, table: Mapping[str, list[tuple[str, str | None, str | None]]]) -> None:
        """Point refs at cases held in this document (``table``: case number → [(path, date, court)])."""
        for _node, ref, c in self.citations:
            target = _match_citation(c, table)
            if target is not None:
                ref.target_path = target
                ref.reason = None


def _unique(seg: str, used: dict[str, int]) -> str:
    used[seg] = used.get(seg, 0) + 1
    return seg if used[seg] == 1 else f"{seg}~{used[seg]}"


def _own_spans(node: Node) -> list[tuple[int, int]]:
    spans = []
    pos = node.body_start if node.body_start is not None else node.char_start
    for ch in node.children:
        if ch.char_start > pos:
            spans.append((pos, ch.char_start))
        pos = max(pos, ch.char_end)
    if node.char_end > pos:
        spans.append((pos, node.char_end))
    return spans


def _split_top(text: str, lo: int, hi: int) -> Iterator[tuple[int, int]]:
    """Pieces of ``text[lo:hi]`` split at "," "/" ";" outside brackets."""
    depth = 0
    start = lo
    for i in range(lo, hi):
        ch = text[i]
        if ch in "([［【{（":
            depth += 1
        elif ch in ")]］】}）" and depth:
            depth -= 1
        elif ch in ",/;，" and depth == 0:
            yield start, i
            start = i + 1
    yield start, hi


def _bracketed(text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """Spans of text inside (top-level) brackets in ``text[lo:hi]``."""
    spans, depth, start = [], 0, lo
    for i in range(lo, hi):
        ch = text[i]
        if ch in "([［{（":
            if depth == 0:
                start = i
            depth += 1
        elif ch in ")]］}）" and depth:
            depth -= 1
            if depth == 0:
                spans.append((start, i + 1))
    if depth:
        spans.append((start, hi))
    return spans


def _clean_law(s: str) -> str:
    # a line break right after a character is a mid-word wrap ("근로기준법 시\n행령"); after a space, a gap
    s = re.sub(r"(?<=\S)\n[ \t]*", "", s)
    s = re.sub(r"[(（][^()（）]*[)）]|\[[^\]]*\]|［[^］]*］", " ", s)
    s = re.sub(r"^[\s/,·]*(?:\[\d+\]\s*)*", "", s)
    return _norm_ws(s)


def _resolve_law(law_txt: str, prev: str | None) -> str | None:
    """"같은 법 시행령" after "사립학교법" → "사립학교법 시행령"; any other name stands as written."""
    m = re.match(r"^(?:같은\s*법|동법)(.*)$", law_txt)
    if not m or prev is None:
        return law_txt
    rest = m.group(1).strip()
    return f"{prev} {rest}" if rest else prev


def _parties(text: str, start: int, end: int) -> list[dict[str, str]]:
    out = []
    for m in re.finditer(r"【\s*([^】\n]+?)\s*】[ \t]*([^\n【]*)", text[start:end]):
        out.append({"role": _norm_ws(m.group(1)), "text": m.group(2).strip()})
    return out


def _precedent_item(c: g.Citation, holding: int | None) -> dict[str, Any]:
    item: dict[str, Any] = {"court": c.court, "date": c.date,
                            "case_number": c.case_numbers[0] if c.case_numbers else None,
                            "judgment_type": c.judgment_type}
    if len(c.case_numbers) > 1:
        item["case_numbers"] = list(c.case_numbers)
    if holding is not None:
        item["holding"] = holding
    return item


def _match_citation(c: g.Citation | Mapping[str, Any],
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


def _closing(text: str, lo: int, hi: int) -> str | None:
    last = None
    for m in g.CLOSING_RE.finditer(text, max(lo, hi - 2000), hi):
        last = m.group(1)
    return last


def _check_alignment(holder: Node, case: dict[str, Any]) -> None:
    """Link holdings [n] across sections; report 판시사항/판결요지 count mismatches."""
    by_section: dict[str, dict[int, list[str]]] = {}
    for sec in holder.children:
        if sec.kind != "section" or sec.label not in g.HOLDING_SECTIONS:
            continue
        for h in sec.children:
            for n in h.attrs.get("holdings", []):
                by_section.setdefault(sec.label, {}).setdefault(n, []).append(h.path)
    for sec in holder.children:
        for h in sec.children if sec.label in by_section else []:
            aligned = []
            for other, nums in by_section.items():
                if other == sec.label:
                    continue
                for n in h.attrs.get("holdings", []):
                    aligned += [p for p in nums.get(n, []) if p not in aligned]
            if aligned:
                h.attrs["aligned"] = aligned
    a, b = by_section.get("판시사항"), by_section.get("판결요지") or by_section.get("결정요지")
    if a and b and set(a) != set(b):
        case["problems"].append(f"holdings: 판시사항 has {sorted(a)}, 판결요지 has {sorted(b)}")


# ─── public API ────────────────────────────────────────────────────────────────────────────────


def detect(doc: Document) -> bool:
    """True for a court decision or a casebook; False for statutes, contracts, policies."""
    text = doc.text or ""
    fm, body = _front_matter(doc)
    if _is_case_front_matter(fm):
        return True
    marks = _section_marks(text, body, len(text))
    if len({m.name for m in marks if m.name in g.DETECT_SECTIONS}) >= 2:
        return True
    return bool(_casebook_headers(text, body, marks))


def parse_caselaw(doc: Document) -> Node:
    """The decision's (or casebook's) tree; see the module docstring for shapes and paths."""
    text = doc.text or ""
    fm, body = _front_matter(doc)
    marks = _section_marks(text, body, len(text))
    if not _is_case_front_matter(fm):
        headers = _casebook_headers(text, body, marks)
        if len(headers) >= 2 or (headers and text[body : headers[0].title_start].strip()):
            return _parse_casebook(doc, headers, marks, body)
    return _parse_single(doc, fm, marks, body)


def _parse_single(doc: Document, fm: Mapping[str, Any], marks: list[_Mark], body: int) -> Node:
    b = _Builder(doc)
    text = b.text
    first = marks[0].start if marks else len(text)
    hdr, title_line = _header_from_preamble(text, body, first)
    closing = _closing(text, body, len(text))
    chief = bool(re.search(r"^[ \t]*(?:재판장[ \t]*)?대법원장[ \t]", text, re.MULTILINE))
    case = _case_metadata(fm, hdr, title_line, closing, chief)
    root_body = _skip_ws(text, body, first)
    if hdr or title_line:
        # the root's own text starts after the title and header lines
        lines = list(_line_starts(text, body, first))
        keep = [ls for ls in lines if (hdr and ls <= hdr.line_start) or
                (title_line and title_line in text[ls : _line_end(text, ls, first)])]
        if keep:
            root_body = _skip_ws(text, _line_end(text, max(keep), first), first)
    root = b.node("document", "", case["title"] or doc.doc_title, "", 1, 0, len(text), root_body,
                  case=case, cite=case["title"] or "")
    root.children = b.sections(marks, len(text), "")
    _check_alignment(root, case)
    skip = [(hdr.line_start, hdr.line_end)] if hdr else []
    b.collect_citations(root, skip)
    table = {n: [("", case["decision_date"], case["court"])] for n in case["case_numbers"]}
    b.resolve(table)
    root.attrs["warnings"] = list(case["problems"])
    return root


def _parse_casebook(doc: Document, headers: list[_Header], marks: list[_Mark], body: int) -> Node:
    b = _Builder(doc)
    text = b.text
    root = b.node("document", "", doc.doc_title, "", 1, 0, len(text), _skip_ws(text, body, len(text)))
    children: list[Node] = []
    pre_end = _trim_end(text, body, headers[0].title_start)
    pre_start = _skip_ws(text, body, pre_end)
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
        end = max(_trim_end(text, h.title_start, nxt), h.line_end)
        closing = _closing(text, h.line_end, end)
        case = _case_metadata({}, h, h.title, closing)
        num = case["case_number"] or f"case{i + 1}"
        seg = _unique(num, used)
        if seg != num:
            problems.append(f"{num}: appears more than once (second copy at path '{seg}')")
        title = case["title"] or ""
        body_start = _skip_ws(text, h.line_end, end)
        node = b.node("case", case["case_number"] or "", title, seg, len(children) + 1, h.title_start, end,
                      body_start, case=case, cite=title or (case["case_number"] or ""))
        case_marks = [m for m in marks if h.line_end <= m.start < end]
        node.children = b.sections(case_marks, end, seg)
        _check_alignment(node, case)
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


# ─── collections: resolving 참조판례 across documents ──────────────────────────────────────────


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
    hit = _match_citation(citation, table)
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
