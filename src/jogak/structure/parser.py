"""Lines + layout cues → clause tree.

The builder walks the body line by line with a stack of open nodes. A heading candidate (candidates.py) is
accepted only when its numbering is consistent with what is open: the next sibling of an open node of the
same scheme (제1조 → 제2조, ① → ②, 4.1 → 4.2), or the first child of the innermost node (①, 1., 가., (a)).
Anything else stays text. Gaps and duplicates are accepted only with a layout cue (a Markdown heading, bold,
a bracketed title) and always produce a warning, so nothing is silently merged or dropped.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from jogak.grammar import Grammar, Scheme, for_language, is_first, successor
from jogak.grammar.patterns import TOC_LEADER_RE
from jogak.model import Document, Line, Node
from jogak.structure.candidates import Candidate, CandidateReader

_HANGUL = re.compile(r"[가-힣]")
_LATIN = re.compile(r"[A-Za-z]")
_FOLIO = re.compile(r"^\s*(?:[-–—]\s*\d+\s*[-–—]|\d+\s*/\s*\d+|(?i:page)\s+\d+(?:\s+of\s+\d+)?)\s*$")


def detect_language(text: str) -> str:
    sample = text[:20000]
    h = len(_HANGUL.findall(sample))
    latin = len(_LATIN.findall(sample))
    return "ko" if h >= 0.2 * max(h + latin, 1) else "en"


@dataclass
class _Open:
    node: Node
    scheme: Scheme | None = None
    key: tuple[int, ...] | None = None
    container: bool = False  # root, appendix, addenda, faq — article numbering restarts inside
    indent: tuple[bool, int] | None = None  # (list item?, level/indent) of an enumerated node's line


@dataclass
class ParseResult:
    root: Node
    warnings: list[str] = field(default_factory=list)
    language: str = "ko"


class TreeBuilder:
    def __init__(self, doc: Document, lang: str | None = None) -> None:
        self.doc = doc
        self.text = doc.text
        self.lang = lang or detect_language(doc.text)
        self.g: Grammar = for_language(self.lang)
        self.lines = doc.lines or _derive_lines(doc.text)
        self.body_end = doc.body_end if doc.body_end is not None else len(doc.text)
        strong_bold, body_font = _layout_profile(self.lines, self.body_end)
        self.reader = CandidateReader(self.g, self.lang, strong_bold, body_font)
        self.schemes = self._choose_schemes()
        self.warnings: list[str] = []
        self.root = Node(kind="document", block_type="body", label="", title=doc.doc_title, path="",
                         sibling_order=1, char_start=0, char_end=len(doc.text), body_start=0)
        self.stack: list[_Open] = [_Open(self.root, container=True)]
        self.fixed_end: dict[int, int] = {}  # id(node) → end, for tables
        self.order: list[Node] = []  # nodes in creation (= document) order
        self._parents: dict[int, Node] = {}
        self.faq_count = 0
        self.inline_split = self.g.inline_split_re
        self.in_toc = False
        self._toc_lines = self._repeated_heading_lists()
        self._await_title: Node | None = None  # a bare heading whose title may be on the next line
        self._node_line: dict[int, Line] = {}  # id(node) → the line its label is on
        self._line_index = {ln.start: i for i, ln in enumerate(self.lines)}

    # ── scheme selection ────────────────────────────────────────────────────────────────────────
    def _choose_schemes(self) -> tuple[Scheme, ...]:
        schemes = self.g.schemes
        if self.lang != "en":
            return self._choose_ko_schemes(schemes)
        # English: the top numbering level is whichever heading style the document really uses.
        counts: Counter[str] = Counter()
        for ln in self.lines:
            if ln.start >= self.body_end:
                break
            s = self.text[ln.start : ln.end].lstrip()
            name = next((name for name, rx in self.g.heading_probe_res if rx.match(s)), None)
            if name is not None:
                counts[name] += 1
        words = max(("en_section_word", "en_clause_word"), key=lambda k: counts[k])
        top = "en_article" if counts["en_article"] >= 2 else (words if counts[words] >= 2 else "en_decimal_dot")
        extra: list[Scheme] = []
        if top == "en_decimal_dot":
            # UK drafting: "1 Definitions and interpretation" (no dot) over clauses "1.1", "1.2" — the bare
            # number is a heading when the line is only a title and clause "N.1" follows it
            for sc in self.g.section_schemes:
                heads = self._bare_heads(sc)
                if len(heads) >= 2 and len(heads) >= counts["en_decimal_dot"]:
                    extra.append(sc)
                    top = sc.name
        out = []
        for sc in (*extra, *schemes):
            if sc.anchored and sc.kind == "article" and sc.name != top:
                if sc.name == "en_decimal_dot":  # demoted to a plain enumerated list
                    out.append(Scheme(sc.name, "item", sc.pattern, rank=45, path="{n}"))
                continue
            out.append(sc)
        return tuple(out)

    def _bare_heads(self, sc: Scheme) -> list[int]:
        """Numbers of lines that open with ``sc`` as a title line and have clause "N.1" somewhere after."""
        out = []
        body = [ln for ln in self.lines if ln.start < self.body_end and self.text[ln.start : ln.end].strip()]
        starts = [self.text[ln.start : ln.end].lstrip() for ln in body]
        for i, ln in enumerate(body):
            cands = self.reader.read(self.text, ln.start + _lead(self.text, ln), ln.end, ln, (sc,))
            if cands and cands[0].number is not None:
                n = cands[0].number[0]
                if any(re.match(rf"{n}\.1(?![\d])", t) for t in starts[i + 1 : i + 40]):
                    out.append(n)
        return out

    def _choose_ko_schemes(self, schemes: tuple[Scheme, ...]) -> tuple[Scheme, ...]:
        """Korean: numbered section headings ("1. 개인정보의 처리 목적") are the top level only in a document
        without 제N조 headings, and only when "1." and "2." are title lines over content (a heading's layout,
        or a next line that is no further "N." line — a list of short items has its next item there)."""
        optional = self.g.section_schemes
        if not optional:
            return schemes
        body = [ln for ln in self.lines if ln.start < self.body_end and ln.role not in ("footnote", "table_row")
                and self.text[ln.start : ln.end].strip()]
        article = next(sc for sc in schemes if sc.name == "ko_article")
        has_articles = any(
            c.scheme is article for ln in body for c in self.reader.read(
                self.text, ln.start + _lead(self.text, ln), ln.end, ln, (article,)))
        chosen: list[Scheme] = []
        for sc in optional:
            if sc.kind == "article" and has_articles:
                continue
            numbers: list[int] = []
            for i, ln in enumerate(body):
                cands = self.reader.read(self.text, ln.start + _lead(self.text, ln), ln.end, ln, (sc,))
                if not cands or cands[0].number is None:
                    continue
                nxt = self.text[body[i + 1].start : body[i + 1].end].strip() if i + 1 < len(body) else ""
                if cands[0].strong or (nxt and not sc.regex.match(nxt)):
                    numbers.append(cands[0].number[0])
            if (sc.kind == "article" and {1, 2} <= set(numbers)) or (sc.kind == "chapter" and len(numbers) >= 2):
                chosen.append(sc)
        if not chosen:
            return schemes
        # tried before the item schemes whose label looks the same ("1." as 호)
        k = max(i for i, sc in enumerate(schemes) if sc.anchored) + 1
        return (*schemes[:k], *chosen, *schemes[k:])

    # ── main loop ───────────────────────────────────────────────────────────────────────────────
    def build(self) -> ParseResult:
        table_rows: list[Line] = []
        for ln in self.lines:
            if ln.start >= self.body_end:
                break
            if ln.role == "footnote":
                continue
            raw = self.text[ln.start : ln.end]
            if not raw.strip():
                continue
            if ln.role == "table_row" or _looks_like_pipe_row(raw):
                table_rows.append(ln)
                continue
            if table_rows:
                self._close_table(table_rows)
                table_rows = []
            if _FOLIO.match(raw):
                continue
            if ln.start in self._toc_lines or self._toc(raw):
                continue
            self._line(ln, raw)
        if table_rows:
            self._close_table(table_rows)
        self._finish_ends()
        self._mark_deleted()
        self._parties_and_preamble()
        return ParseResult(self.root, self.warnings, self.lang)

    def _repeated_heading_lists(self) -> set[int]:
        """A table of contents without page numbers (web 약관/처리방침 pages, linked lists): a run of short
        heading-like lines ("제1조(목적)" / "1. 개인정보의 처리 목적" …) whose first two lines come back, in
        order, as lines further down. Those later lines are the headings; the run is only a list of them.
        Returns the start offsets of the run's lines."""
        body = [ln for ln in self.lines if ln.start < self.body_end and ln.role != "footnote"]
        texts = [re.sub(r"\s+", "", TOC_LEADER_RE.sub("", self.text[ln.start : ln.end])) for ln in body]
        first_at: dict[str, list[int]] = {}
        for i, t in enumerate(texts):
            if t:
                first_at.setdefault(t, []).append(i)
        out: set[int] = set()
        i = 0
        while i < len(body):
            run = []
            j = i
            while j < len(body) and texts[j] and self._heading_like(body[j]):
                run.append(j)
                j += 1
            for m in range(len(run) - 1):  # the list may follow a "목차" line or the title in the same run
                a, b = texts[run[m]], texts[run[m + 1]]
                # the list ends where its first entry comes back (the real heading may follow it directly)
                later_a = [k for k in first_at[a] if k > run[m + 1]]
                later_b = [k for k in first_at[b] if later_a and k > later_a[0]]
                toc_word = m > 0 and any(w in texts[run[m - 1]] for w in self.g.toc_words)
                if later_a and later_b and (toc_word or (self._opens_something(body[run[m]])
                                                         and self._opens_something(body[run[m + 1]]))):
                    out.update(body[k].start for k in run[m:] if k < later_a[0])
                    if toc_word:  # the line saying "목차" goes with its list
                        out.add(body[run[m - 1]].start)
                    break
            i = max(j, i + 1)
        return out

    def _opens_something(self, ln: Line) -> bool:
        """Is this line only a heading that opens an article, a section, a chapter or a block? (Statute
        addenda repeat whole lines like "제1조(시행일) 이 법은 … 시행한다." — those are no list entries.)"""
        cands = self.reader.read(self.text, ln.start + _lead(self.text, ln), ln.end, ln, self.schemes)
        return any(c.title_only_line and (c.kind in ("appendix", "addenda") or (
            c.scheme is not None and c.scheme.anchored)) for c in cands)

    def _heading_like(self, ln: Line) -> bool:
        s = self.text[ln.start : ln.end].strip()
        if not s or len(s) > 60 or ln.role == "table_row" or re.search(r"다\.(?:\s|$)", s):
            return False
        return (not s.endswith(self.g.sentence_end) and not s.endswith((".", ":", "。"))) \
            or bool(TOC_LEADER_RE.search(s))

    def _toc(self, raw: str) -> bool:
        """A table of contents lists headings with page numbers; its entries are not headings."""
        s = raw.strip()
        if any(w in s for w in self.g.toc_words) and (len(s) <= 20 or s.upper().startswith(("TABLE OF", "목차"))
                                                     or re.search(r"\s\d+\s*$", s)):
            self.in_toc = True
            return True
        if self.in_toc:
            if re.search(r"(?:\s|\.)(?:\d+|[ivxlc]+)\s*$", s) and len(s) < 200:
                return True
            self.in_toc = False
        return False

    def _line(self, ln: Line, raw: str) -> None:
        waiting, self._await_title = self._await_title, None
        if waiting is not None and self._title_line(waiting, raw, ln):
            return
        if self._in_signature():
            # the signature block runs to the next block heading (Schedule, 부록, 부칙…), the next accepted
            # article (a signature page bound before the terms), or the body's end
            lead = len(raw) - len(raw.lstrip())
            for c in self.reader.read(self.text, ln.start + lead, ln.end, ln, self.schemes):
                if c.kind in ("appendix", "addenda") and self._try(c, ln):
                    break
                if c.scheme is not None and c.scheme.anchored:
                    saved = list(self.stack)
                    self._pop_to(0)
                    if self._try(c, ln):
                        break
                    self.stack = saved
            return
        if self._signature_start(raw, ln):
            return
        lead = len(raw) - len(raw.lstrip())
        seg_starts = [ln.start + lead]
        # Paragraph markers written inline after a sentence end ("…한다. ② …") start a paragraph too.
        for m in self.inline_split.finditer(raw):
            if m.end() > lead:
                seg_starts.append(ln.start + m.end())
        for i, s in enumerate(seg_starts):
            e = seg_starts[i + 1] if i + 1 < len(seg_starts) else ln.end
            # English inline starts were already shape-checked by INLINE_SPLIT; Korean ones only allow ①.
            cands = self.reader.read(self.text, s, e, ln if i == 0 else None, self.schemes,
                                     at_line_start=(i == 0 or self.lang == "en"))
            if self._faq_open() and i == 0 and self._faq_pair(s, e):
                continue
            for c in cands:
                if self._try(c, ln):
                    if self.order and self.order[-1].char_start == c.start:
                        self._node_line[id(self.order[-1])] = ln
                    break

    # ── acceptance ──────────────────────────────────────────────────────────────────────────────
    def _try(self, c: Candidate, ln: Line) -> bool:
        if c.kind in ("appendix", "addenda"):
            return self._open_block(c)
        if c.kind == "faq":
            if not (c.strong or c.title_only_line):
                return False
            self._pop_to(0)
            node = self._new(c, kind="faq", block_type="body", parent=self.root)
            self.stack.append(_Open(node, container=True))
            self.faq_count = 0
            return True
        sc = c.scheme
        assert sc is not None
        if sc.anchored:
            return self._try_anchored(c, sc, ln)
        if sc.dotted:
            return self._try_dotted(c, sc)
        return self._try_enum(c, sc, ln)

    def _block_level(self) -> int:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].container:
                return i
        return 0

    def _try_anchored(self, c: Candidate, sc: Scheme, ln: Line | None = None) -> bool:
        blk = self._block_level()
        if self.stack[blk].node.kind == "faq":
            # an article after an FAQ block belongs to the body again
            blk = 0
        # Where may it attach? Under the block, or under an open chapter of a lower rank.
        attach = blk
        for i in range(blk + 1, len(self.stack)):
            o = self.stack[i]
            if o.node.kind == "chapter" and o.scheme is not None and o.scheme.rank < sc.rank:
                attach = i
            else:
                break
        # Numbering scope: articles and top chapters number through the whole block; lower chapter levels
        # restart inside their parent chapter.
        scope_node = self.stack[blk].node if (sc.kind == "article" or sc.rank <= 2) and not sc.restarts \
            else self.stack[attach].node
        prev = self._last_in_scope(scope_node, sc)
        if sc.restarts and prev is None and attach != blk and not is_first(c.number or (1,)):
            prev = self._last_in_scope(self.stack[blk].node, sc)  # numbering runs on across chapters
        warn = None
        if prev is not None:
            pnum = prev.number or (0,)
            if successor(pnum, c.number or (0,)):
                pass
            elif c.strong or c.has_bracket_title or (c.title_only_line and c.title):
                # a standalone heading line ("ARTICLE 4 DELIVERY") is a heading even after a gap
                cn = c.number or (0,)
                if cn == pnum:
                    if not (c.strong or c.has_bracket_title):
                        return False
                    warn = f"duplicate heading {c.label} (after {prev.label}) at offset {c.start}"
                elif cn < pnum:
                    if not c.strong:
                        return False
                    warn = f"numbering goes back: {prev.label} → {c.label} at offset {c.start}"
                else:
                    warn = f"numbering gap: {prev.label} → {c.label} at offset {c.start}"
            else:
                return False
        elif not (is_first(c.number or (1,)) or c.strong or c.has_bracket_title):
            return False
        if sc.kind == "chapter" and not (c.title_only_line or c.strong):
            return False
        if sc.whole_line_title and prev is not None and not self._section_over_list(c, sc, ln, prev):
            return False
        self._pop_to(attach)
        node = self._new(c, kind=sc.kind, block_type=self.stack[blk].node.block_type if blk else "body",
                         parent=self.stack[attach].node)
        self.stack.append(_Open(node, sc, c.key))
        if warn:
            self.warnings.append(warn)
        if not c.title and c.title_only_line:
            self._await_title = node
        return True

    def _section_over_list(self, c: Candidate, sc: Scheme, ln: Line | None, prev: Node) -> bool:
        """"4. 개인정보의 제3자 제공" after section 3 whose list reached "3." is the next section or the list's
        next item. Only layout decides: a heading cue; the look of earlier section headings against the list's
        items (list level, indent, font, a blank line before); or one-line items against a title with content
        under it. Without such evidence it stays an item."""
        item = None
        for o in reversed(self.stack):
            if o.node is prev:
                break
            if o.scheme is not None and not o.scheme.anchored and o.scheme.regex.match(c.label) \
                    and o.node.number is not None and successor(o.node.number, c.number or (0,)):
                item = o.node
                break
        if item is None or c.strong or ln is None:
            return True
        cur = self._shape(ln)
        item_ln = self._node_line.get(id(item))
        item_shape = self._shape(item_ln) if item_ln is not None else None
        heads = {self._shape(h) for n in self.order if n.attrs.get("_scheme") == sc.name
                 and (h := self._node_line.get(id(n))) is not None}
        if cur != item_shape and cur in heads:
            return True
        if cur == item_shape and cur not in heads:
            return False
        parent = self._parents.get(id(item))
        items = [n for n in (parent.children if parent is not None else [item])
                 if n.attrs.get("_scheme") == item.attrs.get("_scheme")]
        one_line = all((il := self._node_line.get(id(n))) is not None and self._next_is_numbered(il, sc)
                       for n in items)
        return one_line and not self._next_is_numbered(ln, sc)

    def _next_is_numbered(self, ln: Line, sc: Scheme) -> bool:
        """Does the next non-empty line start with a label of this shape ("N.")?"""
        i = self._line_index.get(ln.start)
        if i is None:
            return False
        for nxt in self.lines[i + 1 :]:
            s = self.text[nxt.start : nxt.end].strip()
            if s and nxt.role != "footnote":
                return bool(sc.regex.match(s))
        return False

    def _shape(self, ln: Line) -> tuple:
        """A line's layout, to compare heading lines with list items."""
        i = self._line_index.get(ln.start)
        blank_before = i is not None and i > 0 and not self.text[self.lines[i - 1].start : self.lines[i - 1].end].strip()
        return (ln.role, ln.indent, ln.style, ln.heading_level, bool(ln.bold),
                round(ln.x0) if ln.x0 is not None else None, ln.font_size, blank_before)

    def _last_in_scope(self, scope: Node, sc: Scheme) -> Node | None:
        # Walk the scope's subtree tail: the last node created under it with this scheme.
        for n in reversed(self.order):
            if n.attrs.get("_scheme") == sc.name and _is_under(n, scope, self._parents):
                return n
            if n is scope:
                break
        return None

    def _try_dotted(self, c: Candidate, sc: Scheme) -> bool:
        key = c.key or ()
        parent_key = key[:-1]
        blk = self._block_level()
        attach = None
        numbered_open = False
        for i in range(len(self.stack) - 1, blk, -1):
            o = self.stack[i]
            if o.key is not None:
                numbered_open = True
                if o.key == parent_key:
                    attach = i
                    break
        if attach is None:
            if numbered_open and len(key) > 2:
                return False
            if numbered_open and self._has_numbered_article(blk):
                return False
            if len(key) != 2 or (key[0] != 1 and not any(
                    ch.attrs.get("_scheme") == sc.name for ch in self.stack[blk].node.children)):
                return False  # a dotted list hanging off the block starts at 1.1
            attach = blk
        parent = self.stack[attach].node
        prev = None
        for ch in reversed(parent.children):
            if ch.attrs.get("_scheme") == sc.name:
                prev = ch
                break
        warn = None
        if prev is not None:
            if not successor(prev.number or (), key, dotted=True):
                if not c.strong:
                    return False
                warn = f"numbering gap: {prev.label} → {c.label} at offset {c.start}"
        elif not is_first(key, dotted=True) and not c.strong:
            return False
        self._pop_to(attach)
        node = self._new(c, kind=sc.kind, block_type=self._block_type(), parent=parent)
        node.number = key
        self.stack.append(_Open(node, sc, key))
        if warn:
            self.warnings.append(warn)
        return True

    def _has_numbered_article(self, blk: int) -> bool:
        return any(o.key is not None and o.scheme is not None and o.scheme.anchored
                   for o in self.stack[blk + 1 :])

    def _try_enum(self, c: Candidate, sc: Scheme, ln: Line | None = None) -> bool:
        blk = self._block_level()
        lowest = blk
        for i in range(blk + 1, len(self.stack)):
            if self.stack[i].scheme is not None and self.stack[i].scheme.anchored:
                lowest = i  # an enumerator never closes an article
        indent = _indent_of(ln) if ln is not None and c.start == ln.start + _lead(self.text, ln) else None
        top = self.stack[-1]
        if (indent is not None and top.indent is not None and top.indent[0] == indent[0]
                and top.scheme is not None and top.scheme.name == sc.name and indent[1] > top.indent[1]
                and is_first(c.number or (0,))):
            # a list nested in an item of the same style, shown by its deeper list level/indent
            node = self._new(c, kind=sc.kind, block_type=self._block_type(), parent=top.node)
            self.stack.append(_Open(node, sc, None, indent=indent))
            return True
        for i in range(len(self.stack) - 1, lowest, -1):
            o = self.stack[i]
            if (indent is not None and o.indent is not None and o.indent[0] == indent[0]
                    and o.indent[1] > indent[1] and o.scheme is not None and o.scheme.name == sc.name):
                continue  # a deeper nested list of the same style has ended
            if o.scheme is not None and o.scheme.name == sc.name:
                pnum = o.node.number or (0,)
                cnum = c.number or (0,)
                warn = None
                if not successor(pnum, cnum):
                    gap_ok = cnum[0] > pnum[0] and cnum[0] - pnum[0] <= 3 and (c.strong or sc.kind == "paragraph")
                    dup_ok = cnum == pnum and c.strong
                    if not (gap_ok or dup_ok):
                        if sc.kind == "paragraph":
                            self.warnings.append(
                                f"numbering break ignored: {o.node.label} → {c.label} at offset {c.start}")
                        return False
                    warn = f"numbering {'gap' if gap_ok else 'duplicate'}: {o.node.label} → {c.label} " \
                           f"at offset {c.start}"
                self._pop_to(i - 1)
                parent = self.stack[i - 1].node
                node = self._new(c, kind=sc.kind, block_type=self._block_type(), parent=parent)
                self.stack.append(_Open(node, sc, None, indent=indent))
                if warn:
                    self.warnings.append(warn)
                return True
        if not is_first(c.number or (0,)):
            return False
        parent = self.stack[-1].node
        if parent.kind == "faq" and self.stack[-1].container:
            return False
        node = self._new(c, kind=sc.kind, block_type=self._block_type(), parent=parent)
        self.stack.append(_Open(node, sc, None, indent=indent))
        return True

    def _open_block(self, c: Candidate) -> bool:
        if not (c.title_only_line or c.strong or c.has_bracket_title):
            return False
        if c.kind == "appendix" and not self.order and self._early(c.start):
            return False  # "Exhibit 10.1" / "EXHIBIT A" at the very top labels the filing, not an appendix
        if c.kind == "appendix" and not (c.title_only_line or c.strong):
            return False
        self._pop_to(0)
        bt = "appendix" if c.kind == "appendix" else "addenda"
        node = self._new(c, kind=c.kind, block_type=bt, parent=self.root)
        node.label = c.block_label
        self.stack.append(_Open(node, container=True))
        if c.kind == "appendix" and not c.title and c.title_only_line:
            self._await_title = node
        return True

    # ── two-line headings ───────────────────────────────────────────────────────────────────────
    def _title_line(self, node: Node, raw: str, ln: Line) -> bool:
        """A heading with no title ("제5조", "ARTICLE I", "SCHEDULE A") whose next line is only its title:
        "(손해배상)" in brackets, or (chapters/appendices, and English headings) a short line that reads as
        a title — not a sentence and not a numbered label. The title line becomes part of the heading."""
        if ln.role in ("table_row", "list_item") and ln.numbering:
            return False
        s = raw.strip()
        if not s or len(s) > 80:
            return False
        title = None
        if any(sc.regex.match(s) for sc in self.schemes):
            return False  # "(1)", "(가)", "1." … start the heading's first paragraph
        m = re.fullmatch(r"[(（【\[〔]\s*([^()（）【】\[\]〔〕]{1,40}?)\s*[)）】\]〕]", s)
        if m:
            title = m.group(1) if re.search(r"[가-힣A-Za-z]", m.group(1)) else None
        elif self.reader.read(self.text, ln.start + len(raw) - len(raw.lstrip()), ln.end, ln, self.schemes):
            return False
        elif self.lang == "ko":
            if node.kind in ("chapter", "appendix") and len(s) <= 30 and _HANGUL.search(s) \
                    and not s.endswith(self.g.sentence_end) and not re.search(r"[.:;]", s):
                title = s
        else:
            words = s.rstrip(".:").split()
            letters = [w for w in words if any(ch.isalpha() for ch in w)]
            if 0 < len(words) <= 10 and letters and "." not in s.rstrip(".") and (
                    all(w.isupper() or not w.isalpha() for w in letters) or _title_case_words(letters)):
                title = s.rstrip(".:").strip()
        if not title:
            return False
        node.title = title
        node.body_start = ln.end
        node.attrs["title_line"] = True
        return True

    # ── signature block ─────────────────────────────────────────────────────────────────────────
    def _in_signature(self) -> bool:
        return len(self.stack) > 1 and self.stack[-1].node.attrs.get("_signatures", False)

    def _signature_start(self, raw: str, ln: Line) -> bool:
        """"IN WITNESS WHEREOF …" / "이 계약의 성립을 증명하기 위하여 … 기명날인한 후 …" after the clauses opens the
        signature block: it holds the execution statement, dates, names and signature lines, not clause
        text, so the last clause ends before it."""
        if not self.g.signature_res or ln.role == "table_row":
            return False
        s = raw.strip()
        if not any(r.search(s) for r in self.g.signature_res):
            return False
        blk = self._block_level()
        if blk != 0 or not any(n.kind == "article" for n in self.root.children):
            return False
        self._pop_to(0)
        c = Candidate(kind="parties", label=self.g.labels["signatures"], number=None, title="",
                      start=ln.start + len(raw) - len(raw.lstrip()), body_start=ln.start + len(raw) - len(raw.lstrip()))
        node = self._new(c, kind="parties", block_type="parties", parent=self.root)
        node.attrs["_signatures"] = True
        self.stack.append(_Open(node, container=True))
        return True

    # ── deleted clauses ─────────────────────────────────────────────────────────────────────────
    def _mark_deleted(self) -> None:
        """"제7조 삭제 <2023. 6. 1.>", "Section 3.2 [Reserved]." — kept as nodes (numbering and references
        stay right) and marked ``attrs["deleted"]``."""
        rx = self.g.deleted_re
        for n in self.order:
            if n.children or n.kind not in ("article", "paragraph", "item", "subitem"):
                continue
            own = self.text[n.body_start if n.body_start is not None else n.char_start: n.char_end].strip()
            if rx.fullmatch(own) or (not own.strip(" .") and n.title and rx.fullmatch(n.title)):
                n.attrs["deleted"] = True

    def _early(self, offset: int) -> bool:
        nonempty = 0
        for ln in self.lines:
            if ln.start >= offset:
                break
            if self.text[ln.start : ln.end].strip():
                nonempty += 1
        return nonempty < 3

    # ── FAQ pairs ───────────────────────────────────────────────────────────────────────────────
    def _faq_open(self) -> bool:
        return any(o.node.kind == "faq" and o.container for o in self.stack)

    def _faq_pair(self, s: int, e: int) -> bool:
        seg = self.text[s:e]
        if not self.g.faq_question_re.match(seg):
            return False
        fi = max(i for i, o in enumerate(self.stack) if o.node.kind == "faq" and o.container)
        self._pop_to(fi)
        self.faq_count += 1
        c = Candidate(kind="faq", label=f"Q{self.faq_count}", number=(self.faq_count, 0), title="", start=s,
                      body_start=s)
        node = self._new(c, kind="faq", block_type="body", parent=self.stack[fi].node)
        node.attrs["question"] = seg.strip()
        self.stack.append(_Open(node, None, None))
        return True

    # ── tables ──────────────────────────────────────────────────────────────────────────────────
    def _close_table(self, rows: list[Line]) -> None:
        parent = self.stack[-1].node
        n = sum(1 for ch in parent.children if ch.kind == "table") + 1
        label = self.g.labels["table"].format(n=n)
        raw = self.text[rows[0].start : rows[0].end]
        start = rows[0].start + len(raw) - len(raw.lstrip())
        c = Candidate(kind="table", label=label, number=(n, 0), title="", start=start, body_start=start)
        node = self._new(c, kind="table", block_type=self._block_type(), parent=parent)
        self.fixed_end[id(node)] = rows[-1].end
        node.attrs["rows"] = len(rows)

    # ── helpers ─────────────────────────────────────────────────────────────────────────────────
    def _new(self, c: Candidate, kind: str, block_type: str, parent: Node) -> Node:
        node = Node(kind=kind, block_type=block_type, label=c.label, title=c.title, path="",
                    sibling_order=len(parent.children) + 1, char_start=c.start, char_end=c.start,
                    body_start=c.body_start, number=c.number)
        if c.scheme is not None:
            node.attrs["_scheme"] = c.scheme.name
            node.attrs["_raw"] = c.raw
        parent.children.append(node)
        self._parents[id(node)] = parent
        self.order.append(node)
        return node

    def _pop_to(self, level: int) -> None:
        del self.stack[level + 1 :]

    def _block_type(self) -> str:
        blk = self._block_level()
        return self.stack[blk].node.block_type if blk else "body"

    def _finish_ends(self) -> None:
        """A node ends where the next node that is not its descendant begins (tables: at their last row)."""
        text = self.text
        parents = self._parents
        depth: dict[int, int] = {}
        for n in self.order:
            p = parents.get(id(n))
            depth[id(n)] = (depth.get(id(p), 0) if p is not None and p is not self.root else 0) + 1
        end_limit = self.body_end
        for i, n in enumerate(self.order):
            if id(n) in self.fixed_end:
                e = self.fixed_end[id(n)]
            else:
                e = end_limit
                d = depth[id(n)]
                for m in self.order[i + 1 :]:
                    if depth[id(m)] <= d:
                        e = m.char_start
                        break
            while e > n.char_start and text[e - 1].isspace():
                e -= 1
            n.char_end = max(e, n.char_start)
            if n.body_start is None or n.body_start > n.char_end:
                n.body_start = n.char_end
        # parents always cover their children (a table can end after text that follows it)
        for n in reversed(self.order):
            if n.children:
                n.char_end = max(n.char_end, max(ch.char_end for ch in n.children))

    def _parties_and_preamble(self) -> None:
        """Text before the first clause: the title, then a parties block (often a table) or a preamble, then
        the recitals ("RECITALS", "WHEREAS …", "BACKGROUND" up to "NOW, THEREFORE …" or "AGREED TERMS").

        Numbered lines there ("(1) Harbour Foods Limited …", "(A) The Supplier …") are not clauses when the
        document has articles after them: they become children of the block they sit in."""
        kids = self.root.children
        has_clause = any(c.kind in ("article", "chapter") for c in kids)
        k = 0
        while k < len(kids) and (kids[k].kind == "table" or (
                has_clause and kids[k].kind in ("paragraph", "item", "subitem"))):
            k += 1  # tables (and, before articles, enumerations) belong to the parties block or preamble
        first = kids[k].char_start if k < len(kids) else self.body_end
        lead = kids[:k]
        lines = [ln for ln in self.lines if ln.start < first and self.text[ln.start : ln.end].strip()]
        if not lines:
            return
        body = lines
        t0 = self.text[lines[0].start : lines[0].end].strip()
        first_is_node = bool(lead) and lead[0].char_start <= lines[0].start
        if not first_is_node and ((len(t0) <= 80 and not t0.endswith(("다.", "."))) or lines[0].heading_level == 1):
            body = lines[1:]  # the document title stays with the root
        if not body:
            return
        rec_res = self.g.recitals_res
        split = next((i for i, ln in enumerate(body)
                      if any(r.match(self.text[ln.start : ln.end].strip()) for r in rec_res)), None)
        parts = [body] if not split else [body[:split], body[split:]]
        party_res = self.g.party_res
        cues = self.g.party_cues

        def is_party(ln: Line) -> bool:
            s = self.text[ln.start : ln.end].strip()
            if any(r.search(s) for r in party_res):
                return True
            return ln.role == "table_row" and any(c in s for c in cues if len(c) > 1)

        made: list[Node] = []
        for pi, part in enumerate(parts):
            raw0 = self.text[part[0].start : part[0].end]
            start = part[0].start + len(raw0) - len(raw0.lstrip())
            end = min(part[-1].end, first)  # a clause may start mid-line (run-together text)
            while end > start and self.text[end - 1].isspace():
                end -= 1
            if end <= start:
                continue
            if split is not None and pi == len(parts) - 1:
                kind, bt, label = "text", "body", self.g.labels["recitals"]
            elif any(is_party(ln) for ln in part):
                kind, bt, label = "parties", "parties", self.g.labels["parties"]
            else:
                kind, bt, label = "text", "body", self.g.labels["preamble"]
            if pi == 0:
                start = min([start, *(t.char_start for t in lead if t.char_end > start)])
            node = Node(kind=kind, block_type=bt, label=label, title="", path="", sibling_order=1,
                        char_start=start, char_end=end, body_start=start)
            made.append(node)
        if not made:
            return
        def holder_of(n: Node) -> Node:
            return next((h for h in reversed(made) if n.char_start >= h.char_start), made[0])

        absorbed = [d for t in lead if t.char_end > made[0].char_start for d in t.walk()]
        keep = {id(d) for d in absorbed}
        for d in absorbed:
            d.children = [c for c in d.children if holder_of(c) is holder_of(d)]
        for d in absorbed:
            h = holder_of(d)
            d.block_type = h.block_type
            d.char_end = min(d.char_end, h.char_end) if h is not made[-1] else d.char_end
            parent = self._parents.get(id(d))
            if parent is self.root or parent is None or id(parent) not in keep or holder_of(parent) is not h:
                h.children.append(d)
        for h in made:
            h.char_end = max([h.char_end, *(c.char_end for c in h.children)])
        taken = {id(d) for d in absorbed}
        self.root.children[:] = [*made, *[c for c in kids if id(c) not in taken]]
        for i, ch in enumerate(self.root.children):
            ch.sibling_order = i + 1


def _indent_of(ln: Line) -> tuple[bool, int]:
    return (ln.role == "list_item", ln.indent)


def _lead(text: str, ln: Line) -> int:
    raw = text[ln.start : ln.end]
    return len(raw) - len(raw.lstrip())


def _title_case_words(words: list[str]) -> bool:
    small = {"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with", "&"}
    return words[0][0].isupper() and all(w[0].isupper() or w.lower() in small or not w[0].isalpha() for w in words)


def _is_under(n: Node, scope: Node, parents: dict[int, Node]) -> bool:
    cur: Node | None = n
    while cur is not None:
        if cur is scope:
            return True
        cur = parents.get(id(cur))
    return False


def _looks_like_pipe_row(raw: str) -> bool:
    s = raw.strip()
    return s.startswith("|") and s.endswith("|") and s.count("|") >= 3


def _derive_lines(text: str) -> list[Line]:
    out, pos = [], 0
    for raw in text.split("\n"):
        indent = len(raw) - len(raw.lstrip(" \t"))
        out.append(Line(start=pos, end=pos + len(raw), indent=indent))
        pos += len(raw) + 1
    return out


def _layout_profile(lines: list[Line], body_end: int) -> tuple[bool, float | None]:
    """Is bold informative (some lines bold, most not)? What is the body font size?"""
    body = [ln for ln in lines if ln.start < body_end and ln.end > ln.start]
    if not body:
        return False, None
    bold = sum(1 for ln in body if ln.bold)
    strong_bold = 0 < bold <= 0.6 * len(body)
    sizes = Counter(round(ln.font_size * 2) / 2 for ln in body if ln.font_size)
    body_font = sizes.most_common(1)[0][0] if sizes else None
    return strong_bold, body_font
