"""Lines + layout cues → clause tree.

The builder walks the body line by line with a stack of open nodes (state.py). Each line is read for heading
candidates (candidates.py); a candidate becomes a node only when its numbering is consistent with what is
open (accept.py). Anything else stays text. Before the walk, the document's numbering schemes are chosen
(schemes.py) and its tables of contents found (toc.py); after it, node ends are fixed, deleted clauses
marked and the front matter put into parties / preamble / recitals blocks (preamble.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from jogak.grammar import Grammar, for_language, successor
from jogak.grammar.patterns import AMENDMENT_TAG_RE as _AMEND_TAG
from jogak.model import Document, Line, Node
from jogak.structure.accept import Acceptor
from jogak.structure.candidates import Candidate, CandidateReader
from jogak.structure.layout import (
    FOLIO,
    Body,
    detect_language,
    has_hangul,
    looks_like_pipe_row,
    title_case_words,
)
from jogak.structure.preamble import front_blocks
from jogak.structure.schemes import choose_schemes
from jogak.structure.state import TreeState
from jogak.structure.titlelines import find_title_lines
from jogak.structure.toc import TocFilter

__all__ = ["ParseResult", "TreeBuilder", "detect_language"]


@dataclass
class ParseResult:
    root: Node
    warnings: list[str] = field(default_factory=list)
    language: str = "ko"


class TreeBuilder:
    def __init__(self, doc: Document, lang: str | None = None) -> None:
        self.text = doc.text
        self.lang = lang or detect_language(doc.text)
        self.g: Grammar = for_language(self.lang)
        self.body = Body.of(doc)
        strong_bold, body_font = self.body.layout_profile()
        self.reader = CandidateReader(self.g, self.lang, strong_bold, body_font)
        self.schemes = choose_schemes(self.body, self.reader, self.g, self.lang)
        root = Node(kind="document", block_type="body", label="", title=doc.doc_title, path="",
                    sibling_order=1, char_start=0, char_end=len(doc.text), body_start=0)
        self.state = TreeState(root, self.g.labels["addenda"])
        self.acceptor = Acceptor(self.state, self.body)
        self.toc = TocFilter(self.body, self.reader, self.schemes, self.g)
        self.title_lines = find_title_lines(self.body, self.reader, self.schemes, self.g) if self.lang == "ko" \
            else frozenset()

    def build(self) -> ParseResult:
        table_rows: list[Line] = []
        for ln in self.body.lines:
            if ln.start >= self.body.body_end:
                break
            if ln.role == "footnote":
                continue
            raw = self.body.raw(ln)
            if not raw.strip():
                continue
            if ln.role == "table_row" or looks_like_pipe_row(raw):
                if table_rows or not self._heading_row(ln):
                    table_rows.append(ln)
                continue
            if table_rows:
                self._close_table(table_rows)
                table_rows = []
            if FOLIO.match(raw) or self.toc.skip(ln, raw):
                continue
            self._line(ln, raw)
        if table_rows:
            self._close_table(table_rows)
        self.state.finish_ends(self.text, self.body.body_end)
        self._mark_deleted()
        front_blocks(self.state, self.body, self.g)
        return ParseResult(self.state.root, self.state.warnings, self.lang)

    def _line(self, ln: Line, raw: str) -> None:
        st = self.state
        waiting, st.await_title = st.await_title, None
        if waiting is not None and self._title_line(waiting, raw, ln):
            return
        if self._in_signature():
            self._signature_line(ln)
            return
        if self._signature_start(raw, ln):
            return
        if ln.start in self.title_lines and self._title_heading(ln, raw):
            return
        lead = self.body.lead(ln)
        seg_starts = [ln.start + lead]
        # Paragraph markers written inline after a sentence end ("…한다. ② …") start a paragraph too.
        for m in self.g.inline_split_re.finditer(raw):
            if m.end() > lead:
                seg_starts.append(ln.start + m.end())
        # An article's first item on the heading's own line ("제7조(회원탈퇴) 1. …") is read as at a line start.
        first = self.g.inline_first_re.match(raw)
        item_start = ln.start + first.end() if first is not None and first.end() > lead else None
        if item_start is not None:
            seg_starts = sorted({*seg_starts, item_start})
        for i, s in enumerate(seg_starts):
            e = seg_starts[i + 1] if i + 1 < len(seg_starts) else ln.end
            # English inline starts were already shape-checked by inline_split; Korean ones only allow ①.
            cands = self.reader.read(self.text, s, e, ln if i == 0 else None, self.schemes,
                                     at_line_start=(i == 0 or self.lang == "en" or s == item_start))
            if self._faq_open() and i == 0 and self._faq_pair(s, e):
                continue
            for c in cands:
                if self.acceptor.accept(c, ln):
                    if st.order and st.order[-1].char_start == c.start:
                        st.node_line[id(st.order[-1])] = ln
                    break

    def _title_heading(self, ln: Line, raw: str) -> bool:
        """An unnumbered heading line (titlelines.py): a chapter named by its title, numbered in order."""
        sc = self.g.title_line
        assert sc is not None
        title = _AMEND_TAG.sub("", raw).strip()
        start = ln.start + self.body.lead(ln)
        n = sum(1 for x in self.state.order if x.attrs.get("_scheme") == sc.name) + 1
        c = Candidate(kind="chapter", label="", number=(n, 0), title=title, start=start, body_start=ln.end,
                      scheme=sc, raw=title, strong=True, word_label=True, title_only_line=True)
        if not self.acceptor.accept(c, ln):
            return False
        self.state.node_line[id(self.state.order[-1])] = ln
        return True

    # ── a heading laid out with a column gap ──────────────────────────────────────────────────────
    def _heading_row(self, ln: Line) -> bool:
        """A PDF line with a wide gap inside its title ("제12조(수신확인통지 | 구매신청 변경 및 취소)") reads as a
        one-row table. Alone (no table row before or after it) and in sequence on both sides — the next of
        its scheme after the last one (제11조 → 제12조) and followed by the next (제13조) or by no other — it
        is the heading it looks like; its title loses the gap."""
        nxt = self._next_line(ln)
        if nxt is not None and (nxt.role == "table_row" or looks_like_pipe_row(self.body.raw(nxt))):
            return False
        start = ln.start + self.body.lead(ln)
        c = next((c for c in self.reader.read(self.text, start, ln.end, ln, self.schemes)
                  if c.scheme is not None and c.scheme.anchored and c.scheme.kind == "article"), None)
        if c is None or not self.acceptor.in_sequence(c) or not self._followed_in_sequence(ln, c):
            return False
        c.title = " ".join(c.title.replace(" | ", " ").split())
        if not self.acceptor.accept(c, ln):
            return False
        self.state.node_line[id(self.state.order[-1])] = ln
        return True

    def _next_line(self, ln: Line) -> Line | None:
        i = self.body.line_index.get(ln.start)
        return next((x for x in self.body.lines[i + 1 :] if self.body.raw(x).strip()), None) if i is not None \
            else None

    def _followed_in_sequence(self, ln: Line, c: Candidate) -> bool:
        """Is the next heading of ``c``'s scheme further on the next number after ``c`` (or is there none)?"""
        assert c.scheme is not None
        i = self.body.line_index.get(ln.start, len(self.body.lines))
        for x in self.body.lines[i + 1 :]:
            if x.start >= self.body.body_end:
                break
            for d in self.reader.read(self.text, x.start + self.body.lead(x), x.end, x, (c.scheme,)):
                return d.number is not None and successor(c.number or (0,), d.number)
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
        elif self.reader.read(self.text, ln.start + self.body.lead(ln), ln.end, ln, self.schemes):
            return False
        elif self.lang == "ko":
            if node.kind in ("chapter", "appendix") and len(s) <= 30 and has_hangul(s) \
                    and not s.endswith(self.g.sentence_end) and not re.search(r"[.:;]", s):
                title = s
        else:
            words = s.rstrip(".:").split()
            letters = [w for w in words if any(ch.isalpha() for ch in w)]
            if 0 < len(words) <= 10 and letters and "." not in s.rstrip(".") and (
                    all(w.isupper() or not w.isalpha() for w in letters) or title_case_words(letters)):
                title = s.rstrip(".:").strip()
        if not title:
            return False
        node.title = title
        node.body_start = ln.end
        node.attrs["title_line"] = True
        return True

    # ── signature block ─────────────────────────────────────────────────────────────────────────
    def _in_signature(self) -> bool:
        stack = self.state.stack
        return len(stack) > 1 and stack[-1].node.attrs.get("_signatures", False)

    def _signature_line(self, ln: Line) -> None:
        """Inside the signature block, which runs to the next block heading (Schedule, 부록, 부칙…), the next
        accepted article (a signature page bound before the terms), or the body's end."""
        st = self.state
        for c in self.reader.read(self.text, ln.start + self.body.lead(ln), ln.end, ln, self.schemes):
            if c.kind in ("appendix", "addenda") and self.acceptor.accept(c, ln):
                break
            if c.scheme is not None and c.scheme.anchored:
                saved = list(st.stack)
                st.pop_to(0)
                if self.acceptor.accept(c, ln):
                    break
                st.stack = saved

    def _signature_start(self, raw: str, ln: Line) -> bool:
        """"IN WITNESS WHEREOF …" / "이 계약의 성립을 증명하기 위하여 … 기명날인한 후 …" after the clauses opens the
        signature block: it holds the execution statement, dates, names and signature lines, not clause
        text, so the last clause ends before it."""
        if not self.g.signature_res or ln.role == "table_row":
            return False
        s = raw.strip()
        if not any(r.search(s) for r in self.g.signature_res):
            return False
        st = self.state
        if st.block_level() != 0 or not any(n.kind == "article" for n in st.root.children):
            return False
        st.pop_to(0)
        start = ln.start + self.body.lead(ln)
        c = Candidate(kind="parties", label=self.g.labels["signatures"], number=None, title="", start=start,
                      body_start=start)
        node = st.new(c, kind="parties", block_type="parties", parent=st.root)
        node.attrs["_signatures"] = True
        st.push(node, container=True)
        return True

    # ── deleted clauses ─────────────────────────────────────────────────────────────────────────
    def _mark_deleted(self) -> None:
        """"제7조 삭제 <2023. 6. 1.>", "Section 3.2 [Reserved]." — kept as nodes (numbering and references
        stay right) and marked ``attrs["deleted"]``."""
        rx = self.g.deleted_re
        for n in self.state.order:
            if n.children or n.kind not in ("article", "paragraph", "item", "subitem"):
                continue
            own = self.text[n.body_start if n.body_start is not None else n.char_start: n.char_end].strip()
            if rx.fullmatch(own) or (not own.strip(" .") and n.title and rx.fullmatch(n.title)):
                n.attrs["deleted"] = True

    # ── FAQ pairs ───────────────────────────────────────────────────────────────────────────────
    def _faq_open(self) -> bool:
        return any(o.node.kind == "faq" and o.container for o in self.state.stack)

    def _faq_pair(self, s: int, e: int) -> bool:
        seg = self.text[s:e]
        if not self.g.faq_question_re.match(seg):
            return False
        st = self.state
        fi = max(i for i, o in enumerate(st.stack) if o.node.kind == "faq" and o.container)
        st.pop_to(fi)
        st.faq_count += 1
        c = Candidate(kind="faq", label=f"Q{st.faq_count}", number=(st.faq_count, 0), title="", start=s,
                      body_start=s)
        node = st.new(c, kind="faq", block_type="body", parent=st.stack[fi].node)
        node.attrs["question"] = seg.strip()
        st.push(node)
        return True

    # ── tables ──────────────────────────────────────────────────────────────────────────────────
    def _close_table(self, rows: list[Line]) -> None:
        st = self.state
        parent = st.stack[-1].node
        n = sum(1 for ch in parent.children if ch.kind == "table") + 1
        label = self.g.labels["table"].format(n=n)
        start = rows[0].start + self.body.lead(rows[0])
        c = Candidate(kind="table", label=label, number=(n, 0), title="", start=start, body_start=start)
        node = st.new(c, kind="table", block_type=st.block_type(), parent=parent)
        st.fixed_end[id(node)] = rows[-1].end
        node.attrs["rows"] = len(rows)
