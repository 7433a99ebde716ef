"""The decision's tree: sections, holdings [1] [2] …, 판례내용 blocks (당사자, 주문, 이유 1. 가. …), judges, and the
precedent citations found in each node's own text."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from jogak.grammar import case as g
from jogak.grammar.numbering import GANADA_RANGE, ganada_ordinal
from jogak.model import Document, Node, Ref
from jogak.structure.caselaw.headers import Mark
from jogak.structure.caselaw.links import match_citation
from jogak.structure.caselaw.statutes import collect_statutes
from jogak.structure.caselaw.text import (
    UNRESOLVED,
    line_end,
    line_starts,
    norm_ws,
    own_spans,
    skip_ws,
    trim_end,
    unique,
)


class Builder:
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
    def sections(self, marks: list[Mark], hi: int, prefix: str) -> list[Node]:
        out: list[Node] = []
        used: dict[str, int] = {}
        for i, mk in enumerate(marks):
            nxt = marks[i + 1].start if i + 1 < len(marks) else hi
            end = trim_end(self.text, mk.start, nxt)
            end = max(end, min(mk.head_end, nxt))
            seg = unique(mk.name, used)
            path = f"{prefix}/{seg}" if prefix else seg
            body = skip_ws(self.text, mk.head_end, end)
            node = self.node("section", mk.name, "", path, i + 1, mk.start, end, body, cite=mk.name)
            if mk.name in g.HOLDING_SECTIONS:
                node.children = self.holdings(node, mk.name, inline=mk.name in g.INLINE_HOLDING_SECTIONS)
                if mk.name == "참조조문":
                    collect_statutes(self.text, node)
            elif mk.name == "판례내용":
                node.children = self.body_blocks(node)
            elif mk.name in ("판결이유", "이유요지", "사실관계", "해설"):
                node.children = self.reason_parts(node)
            out.append(node)
        return out

    def holdings(self, sec: Node, name: str, inline: bool) -> list[Node]:
        text, lo, hi = self.text, sec.body_start or sec.char_start, sec.char_end
        line_pos = {*line_starts(text, lo, hi), lo}
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
            end = trim_end(text, p, nxt, "/," if inline else "")
            end = max(end, mend)
            body = skip_ws(text, mend, end)
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
            end = max(trim_end(text, start, nxt), head_end)
            body = skip_ws(text, head_end, end)
            if kind == "parties":
                seg = unique("당사자", used)
                node = self.node("parties", "당사자", "", f"{sec.path}/{seg}", i + 1, start, end, start,
                                 block_type="parties", cite="당사자", parties=_parties(text, start, end))
            elif kind == "judges":
                seg = unique("관여법관", used)
                line = text[start:end]
                node = self.node("text", "관여법관", "", f"{sec.path}/{seg}", i + 1, start, end, start,
                                 cite="관여법관", judges=line.split()[1:])
            else:
                seg = unique(name, used)
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
        for p in line_starts(text, lo, hi):
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
        widest = max((line_end(text, ls, hi) - ls for ls in line_starts(text, lo, hi)), default=0)
        for i, (p, m) in enumerate(kept):
            nxt = kept[i + 1][0] if i + 1 < len(kept) else hi
            end = max(trim_end(text, p, nxt), m.end())
            label = f"{m.group('n')}."
            le = min(line_end(text, m.end(), hi), end)
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
            body = skip_ws(text, body, end)
            node = self.node("section", label, title, f"{parent.path}/{m.group('n')}", i + 1, p, end, body,
                             cite=f"{base_cite} {label}")
            if not hangul:
                node.children = self.reason_parts(node, hangul=True)
            out.append(node)
        return out

    # citations ─────────────────────────────────────────────────────────────────────────────
    def collect_citations(self, root: Node, skip: list[tuple[int, int]]) -> None:
        for node in root.walk():
            spans = own_spans(node)
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
            target = match_citation(c, table)
            if target is not None:
                ref.target_path = target
                ref.reason = None


def _parties(text: str, start: int, end: int) -> list[dict[str, str]]:
    out = []
    for m in re.finditer(r"【\s*([^】\n]+?)\s*】[ \t]*([^\n【]*)", text[start:end]):
        out.append({"role": norm_ws(m.group(1)), "text": m.group(2).strip()})
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


def check_alignment(holder: Node, case: dict[str, Any]) -> None:
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
