"""Post-passes over one node's Korean references, once each is resolved: what a phrase spanning several of them
says about the clauses it names.

- a range ("제6조부터 제8조까지", "제3조 내지 제5조") names the clauses between its ends as well — in another law
  ("법 제7조제2항부터 제4항까지") by number, that law's structure being unknown here: the clauses it does not have
  resolve to nothing when the collection links it (``jogak.structure.family``);
- in another law's 부칙 (타법개정), "제1조부터 제61조까지의 개정규정" names the amending act's own articles — they are
  not in this document, and the 부칙's own 제1조 is a wrong link.
"""

from __future__ import annotations

import re
from itertools import pairwise

from jogak.grammar.effective import other_law_of_addenda
from jogak.grammar.laws import AMENDED_PROVISIONS_AFTER_RE, RANGE_END_RE, RANGE_GAP_RE, REF_CONNECTOR_RE
from jogak.model import Node, Ref
from jogak.structure.refindex import RefIndex

# A range naming more clauses than this is a span of the text ("제1조부터 제61조까지의 개정규정"), not a list of
# clauses someone should read: only its ends stay references.
RANGE_MAX_INTERIOR = 10


def _is_range(text: str, a: Ref, b: Ref) -> bool:
    """Do ``a`` and ``b`` end a range ("a부터 b까지", "a 내지 b")?"""
    gap = RANGE_GAP_RE.fullmatch(text, a.end, b.start)
    return gap is not None and (gap.group("word") != "부터" or RANGE_END_RE.match(text, b.end) is not None)


def range_interiors(refs: list[Ref], text: str, idx: RefIndex) -> list[Ref]:
    """References to the clauses between the ends of a range in this document ("제6조부터 제8조까지" → 제7조): each
    spans the whole range phrase and shares the second end's pointer flag. Both ends must resolve here, to the same
    kind of clause (articles of one block; 항 or 호 of one parent), the first before the second."""
    out: list[Ref] = []
    ordered = sorted(refs, key=lambda r: r.start)
    for a, b in pairwise(ordered):
        if not _is_range(text, a, b) or a.law or b.law or not (a.target_path and b.target_path):
            continue
        first, last = idx.by_path.get(a.target_path), idx.by_path.get(b.target_path)
        if first is None or last is None or first.kind != last.kind or first is last:
            continue
        if first.kind == "article":
            same = idx.block_of(first) is idx.block_of(last)
            pool = [n for n in idx.root.walk() if n.kind == "article" and idx.block_of(n) is idx.block_of(first)]
        else:
            parent = idx.parent.get(id(first))
            same = parent is not None and parent is idx.parent.get(id(last))
            pool = [n for n in parent.children if n.kind == first.kind] if parent is not None else []
        ids = [id(n) for n in pool]
        if not same or id(first) not in ids or id(last) not in ids:
            continue
        i, j = ids.index(id(first)), ids.index(id(last))
        if not 0 < j - i - 1 <= RANGE_MAX_INTERIOR:
            continue
        out += [Ref(text=text[a.start:b.end], start=a.start, end=b.end, target_path=n.path, pointer=b.pointer)
                for n in pool[i + 1 : j]]
    return out


# the last step of a clause path in another law: "제7조", "제24조의2", "제2항", "제15호"
_STEP_RE = re.compile(r"제(?P<n>\d+)(?P<kind>조|항|호)(?:의(?P<sub>\d+))?")


def law_range_interiors(refs: list[Ref], text: str) -> list[Ref]:
    """References to the clauses between the ends of a range in another law ("법 제7조제2항부터 제4항까지" → the Act's
    제7조제3항; "법 제24조의2부터 제24조의5까지" → 제24조의3 and 제24조의4), numbered from the ends: both in the same law
    and the same parent clause, of one kind, the first before the second."""
    out: list[Ref] = []
    ordered = sorted(refs, key=lambda r: r.start)
    for a, b in pairwise(ordered):
        if not (a.law and a.law == b.law and a.clause and b.clause and a.target_path is None and b.target_path is None):
            continue
        if not _is_range(text, a, b):
            continue
        head_a, _, last_a = a.clause.rpartition("/")
        head_b, _, last_b = b.clause.rpartition("/")
        ma, mb = _STEP_RE.fullmatch(last_a), _STEP_RE.fullmatch(last_b)
        if head_a != head_b or ma is None or mb is None or ma.group("kind") != mb.group("kind"):
            continue
        kind = ma.group("kind")
        if ma.group("n") == mb.group("n"):  # branch numbers of one article: 제24조의2 … 제24조의5 (제24조 is 의1)
            base, lo, hi = f"제{ma.group('n')}{kind}의", int(ma.group("sub") or 1), int(mb.group("sub") or 0)
        elif ma.group("sub") is None and mb.group("sub") is None:  # 제6조 … 제8조: branch articles between are not known
            base, lo, hi = "제", int(ma.group("n")), int(mb.group("n"))
        else:
            continue
        if not 0 < hi - lo - 1 <= RANGE_MAX_INTERIOR:
            continue
        for k in range(lo + 1, hi):
            step = f"{base}{k}" if base.endswith("의") else f"제{k}{kind}"
            out.append(Ref(text=text[a.start:b.end], start=a.start, end=b.end, pointer=b.pointer, reason=a.reason,
                           law=a.law, clause=f"{head_a}/{step}" if head_a else step))
    return out


def amending_act_refs(holder: Node, text: str, idx: RefIndex) -> None:
    """In another law's 부칙, unlink the references a "…의 개정규정" closes ("제1조부터 제61조까지의 개정규정은 … 적용한다"):
    they number the amending act's articles, which this document does not hold."""
    block = idx.block_of(holder)
    if block is None or block.kind != "addenda" or other_law_of_addenda(block.label) is None:
        return
    group: list[Ref] = []
    ordered = sorted((r for r in holder.refs if r.law is None), key=lambda r: r.start)
    for prev, r in pairwise([None, *ordered]):
        if prev is not None and not REF_CONNECTOR_RE.fullmatch(text, prev.end, r.start):
            group = []
        group.append(r)
        if AMENDED_PROVISIONS_AFTER_RE.match(text, r.end):
            for g in group:
                if g.target_path:
                    g.target_path, g.reason = None, "the amending act's provision"
            group = []
