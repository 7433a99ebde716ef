"""Acceptance: does a heading candidate open a node, and where does it attach?

A candidate is accepted only when its numbering is consistent with what is open: the next sibling of an
open node of the same scheme (제1조 → 제2조, ① → ②, 4.1 → 4.2), or the first child of the innermost node
(①, 1., 가., (a)). Gaps and duplicates pass only with a layout cue (a Markdown heading, bold, a bracketed
title) and always leave a warning. Three families, three rules: anchored labels (chapters, articles,
sections) attach to the block or an outer chapter; dotted numbers ("4.2") nest by their numeric prefix;
enumerators (①, 1., 가., (a)) nest under whatever is open.
"""

from __future__ import annotations

import re

from jogak.grammar import Scheme, is_first, successor
from jogak.grammar.patterns import (
    ADDENDA_LINE_RE,
    AMENDING_LINE_RE,
    AMENDING_PARAGRAPH_RE,
    EXCERPT_ADDENDA_RE,
    OMITTED_ARTICLES_RE,
    OMITTED_RANGE_RE,
)
from jogak.model import Line, Node
from jogak.structure.candidates import Candidate
from jogak.structure.layout import Body, indent_of
from jogak.structure.state import TreeState


class Acceptor:
    def __init__(self, state: TreeState, body: Body) -> None:
        self.s = state
        self.body = body

    def accept(self, c: Candidate, ln: Line) -> bool:
        if c.kind in ("appendix", "addenda"):
            return self._open_block(c)
        if c.kind == "faq":
            if not (c.strong or c.title_only_line):
                return False
            self.s.pop_to(0)
            node = self.s.new(c, kind="faq", block_type="body", parent=self.s.root)
            self.s.push(node, container=True)
            self.s.faq_count = 0
            return True
        sc = c.scheme
        assert sc is not None
        if sc.anchored:
            return self._anchored(c, sc, ln)
        if sc.dotted:
            return self._dotted(c, sc)
        return self._enumerated(c, sc, ln)

    # ── anchored: chapters, articles, numbered sections ─────────────────────────────────────────
    def _anchored(self, c: Candidate, sc: Scheme, ln: Line | None = None) -> bool:
        blk = self.s.block_level()
        if self.s.stack[blk].node.kind == "faq":
            blk = 0  # an article after an FAQ block belongs to the body again
        attach = self._attach_level(blk, sc)
        prev = self._previous(c, sc, blk, attach)
        ok, warn = _order_with_cues(c, prev)
        if not ok or (warn and self._amended_wording(blk, prev, c)):
            return False
        if sc.kind == "chapter" and not (c.title_only_line or c.strong):
            return False
        if sc.whole_line_title and prev is not None and not self._section_over_list(c, sc, ln, prev):
            return False
        self.s.pop_to(attach)
        node = self.s.new(c, kind=sc.kind, block_type=self.s.stack[blk].node.block_type if blk else "body",
                          parent=self.s.stack[attach].node)
        self.s.push(node, sc, c.key)
        if warn and not (warn.startswith("numbering gap") and (self._excerpt(blk) or self._omitted(prev, c))):
            self.s.warnings.append(warn)
        if not c.title and c.title_only_line:
            self.s.await_title = node
        return True

    def in_sequence(self, c: Candidate) -> bool:
        """Is the anchored candidate the next number after the last one of its scheme (제11조 → 제12조)?"""
        sc = c.scheme
        if sc is None or not sc.anchored:
            return False
        blk = self.s.block_level()
        prev = self._previous(c, sc, blk, self._attach_level(blk, sc))
        return prev is not None and successor(prev.number or (0,), c.number or (0,))

    def _amended_wording(self, blk: int, prev: Node | None, c: Candidate) -> bool:
        """Out of sequence inside a 부칙 after "…중 다음과 같이 개정한다" / "…를 다음과 같이 신설한다": the article
        is the amended law's new wording ("제252조의2 (…)" quoted in 상법's 부칙), not a provision of the 부칙."""
        return prev is not None and self._amending_since(prev, c, blk)

    def _amending_since(self, node: Node, c: Candidate, blk: int | None = None) -> bool:
        """Inside a 부칙, is there an amending phrase ("다음과 같이 개정한다") between ``node`` and ``c``?"""
        if self.s.stack[self.s.block_level() if blk is None else blk].node.kind != "addenda":
            return False
        return AMENDING_LINE_RE.search(self.body.text, node.char_start, c.start) is not None

    def _quoted_sibling(self, prev: Node, c: Candidate) -> bool:
        """In a 부칙, is ``c`` (the next number after ``prev``) a paragraph of the wording ``prev`` quotes? After a line
        of ``prev`` that introduces new wording, either that wording numbers its own paragraphs up to ``c``'s
        ("제90조를 다음과 같이 한다. 제90조 (…) ①… ②…": c's predecessor mark appears in it) or the line right before
        ``c`` names ``c``'s 항 ("제9조제3항을 다음과 같이 한다." then "③ …") — unless ``c`` amends a law itself, is
        left out or carries its own heading (AMENDING_PARAGRAPH_RE)."""
        if self.s.stack[self.s.block_level()].node.kind != "addenda" or not c.number or not 2 <= c.number[0] <= 20:
            return False
        text = self.body.text
        first_end = text.find("\n", prev.char_start, c.start)
        m = AMENDING_LINE_RE.search(text, first_end, c.start) if first_end >= 0 else None
        if m is None:
            return False
        line_end = text.find("\n", c.start)
        if AMENDING_PARAGRAPH_RE.search(text, c.start, line_end if line_end >= 0 else len(text)) is not None:
            return False
        n = c.number[0]
        if chr(0x2460 + n - 2) in text[m.end() : c.start]:
            return True
        before = text[text.rfind("\n", 0, max(0, c.start - 1)) + 1 : c.start]
        return AMENDING_LINE_RE.search(before) is not None and re.search(rf"제\s*{n}\s*항", before) is not None

    def _omitted(self, prev: Node | None, c: Candidate) -> bool:
        """"제2조 내지 제16조 생략" between the last article and ``c`` (제17조): the gap is written out."""
        if prev is None or not c.number:
            return False
        return any(int(m.group("end")) + 1 == c.number[0]
                   for m in OMITTED_ARTICLES_RE.finditer(self.body.text, prev.char_start, c.start))

    def _excerpt(self, blk: int) -> bool:
        """Is the block an amending act's 부칙 quoted in this law's history? It skips articles by design."""
        node = self.s.stack[blk].node
        return node.kind == "addenda" and bool(EXCERPT_ADDENDA_RE.match(node.label))

    def _attach_level(self, blk: int, sc: Scheme) -> int:
        """Under the block, or under an open chapter of a lower rank."""
        attach = blk
        for i in range(blk + 1, len(self.s.stack)):
            o = self.s.stack[i]
            if o.node.kind == "chapter" and o.scheme is not None and o.scheme.rank < sc.rank:
                attach = i
            else:
                break
        return attach

    def _previous(self, c: Candidate, sc: Scheme, blk: int, attach: int) -> Node | None:
        """The previous node of this scheme in its numbering scope: articles number through the whole block;
        divisions and restarting sections number inside their parent division (민법's 제2편 starts again at
        제1장) — unless the number shows that it runs on from the last one in the block (제5장 under 제2편)."""
        whole_block = sc.kind == "article" and not sc.restarts
        scope_node = self.s.stack[blk].node if whole_block else self.s.stack[attach].node
        prev = self.s.last_in_scope(scope_node, sc)
        if prev is None and attach != blk and not is_first(c.number or (1,)):
            prev = self.s.last_in_scope(self.s.stack[blk].node, sc)  # numbering runs on across divisions
        return prev

    def _section_over_list(self, c: Candidate, sc: Scheme, ln: Line | None, prev: Node) -> bool:
        """"4. 개인정보의 제3자 제공" after section 3 whose list reached "3." is the next section or the list's
        next item. Only layout decides: a heading cue; the look of earlier section headings against the list's
        items (list level, indent, font, a blank line before); or one-line items against a title with content
        under it. Without such evidence it stays an item."""
        item = None
        for o in reversed(self.s.stack):
            if o.node is prev:
                break
            if o.scheme is not None and not o.scheme.anchored and o.scheme.regex.match(c.label) \
                    and o.node.number is not None and successor(o.node.number, c.number or (0,)):
                item = o.node
                break
        if item is None or c.strong or ln is None:
            return True
        shape = self.body.shape
        cur = shape(ln)
        item_ln = self.s.node_line.get(id(item))
        item_shape = shape(item_ln) if item_ln is not None else None
        heads = {shape(h) for n in self.s.order if n.attrs.get("_scheme") == sc.name
                 and (h := self.s.node_line.get(id(n))) is not None}
        if cur != item_shape and cur in heads:
            return True
        if cur == item_shape and cur not in heads:
            return False
        parent = self.s.parents.get(id(item))
        items = [n for n in (parent.children if parent is not None else [item])
                 if n.attrs.get("_scheme") == item.attrs.get("_scheme")]
        one_line = all((il := self.s.node_line.get(id(n))) is not None and self._next_is_numbered(il, sc)
                       for n in items)
        return one_line and not self._next_is_numbered(ln, sc)

    def _next_is_numbered(self, ln: Line, sc: Scheme) -> bool:
        """Does the next non-empty line start with a label of this shape ("N.")?"""
        nxt = self.body.next_nonempty(ln)
        return nxt is not None and bool(sc.regex.match(nxt))

    # ── dotted: 4.2, 4.2.1 ──────────────────────────────────────────────────────────────────────
    def _dotted(self, c: Candidate, sc: Scheme) -> bool:
        key = c.key or ()
        blk = self.s.block_level()
        attach = self._dotted_parent(key, sc, blk)
        if attach is None:
            return False
        parent = self.s.stack[attach].node
        prev = next((ch for ch in reversed(parent.children) if ch.attrs.get("_scheme") == sc.name), None)
        warn = None
        if prev is not None:
            if not successor(prev.number or (), key, dotted=True):
                if not c.strong:
                    return False
                warn = f"numbering gap: {prev.label} → {c.label} at offset {c.start}"
        elif not is_first(key, dotted=True) and not c.strong:
            return False
        self.s.pop_to(attach)
        node = self.s.new(c, kind=sc.kind, block_type=self.s.block_type(), parent=parent)
        node.number = key
        self.s.push(node, sc, key)
        if warn:
            self.s.warnings.append(warn)
        return True

    def _dotted_parent(self, key: tuple[int, ...], sc: Scheme, blk: int) -> int | None:
        """Stack level of the open node whose number is the key's prefix (4 for 4.2); the block for a dotted
        list that starts at 1.1 without one; None when it fits nowhere."""
        numbered_open = False
        for i in range(len(self.s.stack) - 1, blk, -1):
            o = self.s.stack[i]
            if o.key is not None:
                numbered_open = True
                if o.key == key[:-1]:
                    return i
        if numbered_open and len(key) > 2:
            return None
        if numbered_open and self._has_numbered_article(blk):
            return None
        if len(key) != 2 or (key[0] != 1 and not any(
                ch.attrs.get("_scheme") == sc.name for ch in self.s.stack[blk].node.children)):
            return None  # a dotted list hanging off the block starts at 1.1
        return blk

    def _has_numbered_article(self, blk: int) -> bool:
        return any(o.key is not None and o.scheme is not None and o.scheme.anchored
                   for o in self.s.stack[blk + 1 :])

    # ── enumerators: ①, 1., 가., (a) ───────────────────────────────────────────────────────────
    def _enumerated(self, c: Candidate, sc: Scheme, ln: Line | None = None) -> bool:
        blk = self.s.block_level()
        lowest = blk
        for i in range(blk + 1, len(self.s.stack)):
            o = self.s.stack[i]
            if o.scheme is not None and o.scheme.anchored:
                lowest = i  # an enumerator never closes an article
        indent = indent_of(ln) if ln is not None and c.start == ln.start + self.body.lead(ln) else None
        top = self.s.stack[-1]
        if (indent is not None and top.indent is not None and top.indent[0] == indent[0]
                and top.scheme is not None and top.scheme.name == sc.name and indent[1] > top.indent[1]
                and is_first(c.number or (0,))):
            # a list nested in an item of the same style, shown by its deeper list level/indent
            node = self.s.new(c, kind=sc.kind, block_type=self.s.block_type(), parent=top.node)
            self.s.push(node, sc, None, indent=indent)
            return True
        for i in range(len(self.s.stack) - 1, lowest, -1):
            o = self.s.stack[i]
            if (indent is not None and o.indent is not None and o.indent[0] == indent[0]
                    and o.indent[1] > indent[1] and o.scheme is not None and o.scheme.name == sc.name):
                continue  # a deeper nested list of the same style has ended
            if o.scheme is not None and o.scheme.name == sc.name:
                return self._next_sibling(c, sc, i, indent)
        if not is_first(c.number or (0,)):
            return False
        parent = self.s.stack[-1].node
        if parent.kind == "faq" and self.s.stack[-1].container:
            return False
        node = self.s.new(c, kind=sc.kind, block_type=self.s.block_type(), parent=parent)
        self.s.push(node, sc, None, indent=indent)
        return True

    def _next_sibling(self, c: Candidate, sc: Scheme, i: int, indent: tuple[bool, int] | None) -> bool:
        """``c`` continues the list of the open node at stack level ``i`` (② after ①), or is refused."""
        o = self.s.stack[i]
        pnum = self._omitted_through(o.node, c) or o.node.number or (0,)
        cnum = c.number or (0,)
        warn = None
        if successor(pnum, cnum) and sc.kind == "paragraph" and self._quoted_sibling(o.node, c):
            return False  # "②…" of the new wording "제90조를 다음과 같이 한다." quoted after "①산림법중 …개정한다."
        if not successor(pnum, cnum):
            article = next((x.node for x in reversed(self.s.stack[:i]) if x.scheme is not None and x.scheme.anchored),
                           o.node)
            if self._amending_since(article, c):
                return False  # the amended law's wording ("④ …" after "같은 조 제4항을 다음과 같이 한다.")
            gap_ok = cnum[0] > pnum[0] and cnum[0] - pnum[0] <= 3 and (c.strong or sc.kind == "paragraph")
            dup_ok = cnum == pnum and c.strong
            if not (gap_ok or dup_ok):
                if sc.kind == "paragraph":
                    self.s.warnings.append(f"numbering break ignored: {o.node.label} → {c.label} at offset {c.start}")
                return False
            warn = f"numbering {'gap' if gap_ok else 'duplicate'}: {o.node.label} → {c.label} at offset {c.start}"
        self.s.pop_to(i - 1)
        parent = self.s.stack[i - 1].node
        node = self.s.new(c, kind=sc.kind, block_type=self.s.block_type(), parent=parent)
        self.s.push(node, sc, None, indent=indent)
        if warn:
            self.s.warnings.append(warn)
        return True

    def _omitted_through(self, node: Node, c: Candidate) -> tuple[int, ...] | None:
        """"①부터 ⑮까지 생략" (an amending act's 부칙 quotes only the paragraph it needs): the paragraphs up to ⑮
        are there by reference, so <16> follows without a gap. The number the omitted range ends at, or None."""
        start = node.body_start if node.body_start is not None else node.char_start
        m = OMITTED_RANGE_RE.match(self.body.text, start, c.start)
        sc = c.scheme
        end = sc.regex.match(m.group("end")) if m is not None and sc is not None else None
        return sc.number(end.group("n")) if sc is not None and end is not None else None

    # ── blocks: appendices, addenda ─────────────────────────────────────────────────────────────
    def _open_block(self, c: Candidate) -> bool:
        if not (c.title_only_line or c.strong or c.has_bracket_title):
            return False
        if c.kind == "appendix" and not self.s.order and self._early(c.start):
            return False  # "Exhibit 10.1" / "EXHIBIT A" at the very top labels the filing, not an appendix
        if c.kind == "appendix" and not (c.title_only_line or c.strong):
            return False
        if c.kind == "appendix" and self._inside_addenda(c):
            return False
        group = self._addenda_group(c)
        self.s.pop_to(1 if group is not None else 0)
        bt = "appendix" if c.kind == "appendix" else "addenda"
        node = self.s.new(c, kind=c.kind, block_type=bt, parent=group if group is not None else self.s.root)
        node.label = c.block_label
        self.s.push(node, container=True)
        if c.kind == "appendix" and not c.title and c.title_only_line:
            self.s.await_title = node
        return True

    def _inside_addenda(self, c: Candidate) -> bool:
        """"[별표 2]" inside a 부칙: the new wording of a table that an amendment replaces ("별표 2를 다음과 같이
        하고 …"), or any appendix heading with a 부칙 heading still to come (statutes put their appendices after
        every 부칙) — it belongs to that 부칙, not to the document's appendices."""
        if self.s.stack[self.s.block_level()].node.kind != "addenda":
            return False
        return self._quoted(c.start) or bool(ADDENDA_LINE_RE.search(self.body.text, c.start + 1))

    def _quoted(self, offset: int) -> bool:
        """Does the line before ``offset`` introduce new wording ("제36조제2항을 다음과 같이 한다.")? What
        follows is the amended law's text: its "②" or "[별표 2]" are not this document's."""
        before = self.body.text[:offset].rstrip()
        return bool(AMENDING_LINE_RE.search(before[before.rfind("\n") + 1 :]))

    def _addenda_group(self, c: Candidate) -> Node | None:
        """"## 부칙" over the dated blocks of a statute's history ("부칙 <제6467호,2001.4.7>", …): the bare heading
        with nothing of its own is their parent, not an empty sibling. The open group, or None."""
        if c.kind != "addenda" or len(self.s.stack) < 2:
            return None
        top = self.s.stack[1].node
        if top.kind != "addenda" or top.label != self.s.addenda_word or c.block_label == top.label:
            return None
        if any(ch.kind != "addenda" for ch in top.children):
            return None
        own_start = top.body_start if top.body_start is not None else top.char_start
        own_end = top.children[0].char_start if top.children else c.start
        return top if not self.body.text[own_start:own_end].strip() else None

    def _early(self, offset: int) -> bool:
        """Fewer than three non-empty lines before ``offset``."""
        nonempty = 0
        for ln in self.body.lines:
            if ln.start >= offset:
                break
            if self.body.raw(ln).strip():
                nonempty += 1
        return nonempty < 3


def _order_with_cues(c: Candidate, prev: Node | None) -> tuple[bool, str | None]:
    """Is an anchored label in order after ``prev``? Out of order it needs a heading cue, and warns."""
    if prev is None:
        return bool(is_first(c.number or (1,)) or c.strong or c.has_bracket_title), None
    pnum = prev.number or (0,)
    cn = c.number or (0,)
    if successor(pnum, cn):
        return True, None
    if not (c.strong or c.has_bracket_title or (c.title_only_line and c.title)):
        return False, None
    # a standalone heading line ("ARTICLE 4 DELIVERY") is a heading even after a gap
    if cn == pnum:
        if not (c.strong or c.has_bracket_title):
            return False, None
        return True, f"duplicate heading {c.label} (after {prev.label}) at offset {c.start}"
    if cn < pnum:
        if not c.strong:
            return False, None
        return True, f"numbering goes back: {prev.label} → {c.label} at offset {c.start}"
    return True, f"numbering gap: {prev.label} → {c.label} at offset {c.start}"
