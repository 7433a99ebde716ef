"""BodyText sections → lines: paragraph text with its control characters, tables, notes, text boxes.

``PARA_TEXT`` is UTF-16LE code units (spec §4.3.2). Codes below 32 are controls: *char* controls take one
unit (10 line break, 13 paragraph end, 24 hyphen, 30/31 fixed spaces); *inline* controls (4–9, 19, 20 —
tab, field end, …) and *extended* controls (1–3, 11–18, 21–23) take eight units, and each extended control
is described, in order, by one ``CTRL_HEADER`` child of the paragraph: a table ('tbl '), a footnote or
endnote ('fn  '/'en  ', whose paragraph list follows), a drawing object ('gso ', a text box holds a
paragraph list), headers/footers and hidden comments (page furniture, not text), section/column
definitions, fields, bookmarks, auto numbers. Character positions index ``PARA_CHAR_SHAPE``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from jogak.load.hangul import Counters, HangulDoc, OutLine, ParaBuf, finish_paragraph, table_rows
from jogak.load.hwp import records as R
from jogak.load.hwp.docinfo import HEAD_BULLET, HEAD_NUMBER, HEAD_OUTLINE, DocInfo

_CHAR_CTRLS = frozenset({0, 10, 13, 24, 25, 26, 27, 28, 29, 30, 31})
_INLINE_CTRLS = frozenset({4, 5, 6, 7, 8, 9, 19, 20})
_SKIPPED = ("head", "foot", "tcmt")  # page furniture and hidden comments
BREAK_PAGE = 0x04
BREAK_SECTION = 0x01


class Walker:
    def __init__(self, info: DocInfo, doc: HangulDoc) -> None:
        self.info = info
        self.doc = doc
        self.counters = Counters(info.numberings)
        self.outline_id = "1"  # the section definition names its outline numbering
        self.pua_dropped = 0

    # ── sections and paragraph lists ────────────────────────────────────────────────────────────
    def section(self, data: bytes, first: bool) -> None:
        roots = R.build_tree(R.read_records(data))
        if not first and self.doc.body:
            self.doc.new_page()  # a new section starts on a new page
        for k, rec in enumerate(roots):
            if rec.tag == R.PARA_HEADER:
                self.doc.add(self.paragraph(rec, body=True, first=(k == 0)))

    def list_paragraphs(self, siblings: list[R.Record], start: int) -> Iterator[R.Record]:
        """Paragraphs after the LIST_HEADER at ``start``, up to the next list or table record."""
        for r in siblings[start + 1:]:
            if r.tag != R.PARA_HEADER:
                break
            yield r

    def sublist_lines(self, siblings: list[R.Record], start: int) -> list[OutLine]:
        out: list[OutLine] = []
        for p in self.list_paragraphs(siblings, start):
            out.extend(self.paragraph(p, body=False))
        return out

    # ── one paragraph ──────────────────────────────────────────────────────────────────────────
    def paragraph(self, rec: R.Record, *, body: bool, first: bool = False) -> list[OutLine]:
        h = rec.data
        style_id = h[10] if len(h) > 10 else 0
        brk = h[11] if len(h) > 11 else 0
        if body and not first and brk & BREAK_PAGE:
            self.doc.new_page()
        text_rec = next((c for c in rec.children if c.tag == R.PARA_TEXT), None)
        shapes_rec = next((c for c in rec.children if c.tag == R.PARA_CHAR_SHAPE), None)
        ctrls = [c for c in rec.children if c.tag == R.CTRL_HEADER]
        shape = self.info.para(R.u16(h, 8))
        cues, label, label_bold = self._cues(shape, style_id, shapes_rec)
        out: list[OutLine] = []
        buf = ParaBuf()
        started = False  # the label goes before the paragraph's first line only

        def flush() -> None:
            nonlocal buf, started
            if not buf.empty():
                lines = finish_paragraph(buf, label=None if started else label, cues=cues, label_bold=label_bold)
                out.extend(lines)
                started = started or bool(lines)
            buf = ParaBuf()

        for kind, value in self._units(text_rec.data if text_rec else b"", _char_runs(shapes_rec)):
            if kind == "text":
                s, shape_id = value
                cs = self.info.char(shape_id)
                buf.text(s, cs.bold, cs.size)
            elif kind == "newline":
                buf.newline()
            elif kind == "ctrl":
                ctrl = ctrls.pop(0) if ctrls else None
                if ctrl is not None:
                    self._control(ctrl, buf, out, flush)
        flush()
        return out

    def _cues(self, shape: Any, style_id: int, shapes_rec: R.Record | None) -> tuple[dict[str, Any], str | None, bool]:
        cues: dict[str, Any] = {"style": self.info.style(style_id), "heading_level": None, "role": None,
                                "x0": shape.left or None, "indent": 0}
        label = None
        if shape.head == HEAD_OUTLINE:
            label = self.counters.next_label(self.outline_id, shape.level + 1)
            cues["heading_level"] = shape.level + 1
        elif shape.head == HEAD_NUMBER:
            label = self.counters.next_label(str(shape.num_id), shape.level + 1)
            cues.update(role="list_item", indent=shape.level, numbering=label)
        elif shape.head == HEAD_BULLET:
            cues.update(role="list_item", indent=shape.level, numbering=None)
        first_shape = _char_runs(shapes_rec)[0][1] if shapes_rec else 0
        return cues, label, self.info.char(first_shape).bold

    def _units(self, data: bytes, runs: list[tuple[int, int]]) -> Iterator[tuple[str, Any]]:
        """('text', (str, char shape id)) / ('newline', None) / ('ctrl', code) from PARA_TEXT."""
        n = len(data) // 2
        units = memoryview(data[: 2 * n]).cast("H")
        i = 0
        run_k = 0
        while i < n:
            c = units[i]
            if c >= 32:
                j = i + 1
                while j < n and units[j] >= 32:
                    j += 1
                # split at character shape boundaries
                while i < j:
                    while run_k + 1 < len(runs) and runs[run_k + 1][0] <= i:
                        run_k += 1
                    stop = j
                    if run_k + 1 < len(runs) and runs[run_k + 1][0] < j:
                        stop = runs[run_k + 1][0]
                    s = data[2 * i: 2 * stop].decode("utf-16-le", errors="replace")
                    kept = "".join(ch for ch in s if not 0xE000 <= ord(ch) <= 0xF8FF)
                    self.pua_dropped += len(s) - len(kept)
                    if kept:
                        yield "text", (kept, runs[run_k][1] if runs else 0)
                    i = stop
                continue
            if c in _CHAR_CTRLS:
                if c == 13:
                    return
                if c == 10:
                    yield "newline", None
                elif c == 24:
                    yield "text", ("-", runs[run_k][1] if runs else 0)
                elif c in (30, 31):
                    yield "text", (" ", runs[run_k][1] if runs else 0)
                i += 1
            elif c in _INLINE_CTRLS:
                if c == 9:
                    yield "text", (" ", runs[run_k][1] if runs else 0)
                i += 8
            else:
                yield "ctrl", c
                i += 8

    # ── controls ───────────────────────────────────────────────────────────────────────────────
    def _control(self, ctrl: R.Record, buf: ParaBuf, out: list[OutLine], flush: Any) -> None:
        cid = ctrl.ctrl_id()
        if cid == "secd":
            self.outline_id = str(R.u16(ctrl.data, 18) or 1)
        elif cid in ("fn  ", "en  "):
            kind = "f" if cid == "fn  " else "e"
            key = self.doc.note_key(kind)
            buf.mark(key)
            k = next((i for i, c in enumerate(ctrl.children) if c.tag == R.LIST_HEADER), None)
            lines = self.sublist_lines(ctrl.children, k) if k is not None else []
            self.doc.add_note(kind, key, lines)
        elif cid == "tbl ":
            flush()
            out.extend(self.table(ctrl))
        elif cid == "atno":
            # a caption's figure/table/equation number (footnote numbers are the notes' labels)
            if R.u32(ctrl.data, 4) & 0xF in (3, 4, 5):
                buf.text(str(R.u16(ctrl.data, 8)), False, None)
        elif cid == "gso ":
            boxes = list(self._text_boxes(ctrl))
            if boxes:
                flush()
                for lines in boxes:
                    out.extend(lines)
        # other controls (fields, bookmarks, auto numbers, page controls, equations, 덧말) add no text;
        # a field's shown text is ordinary paragraph text between its start and end controls

    def _text_boxes(self, node: R.Record) -> Iterator[list[OutLine]]:
        for k, c in enumerate(node.children):
            if c.tag == R.LIST_HEADER:
                yield self.sublist_lines(node.children, k)
            elif c.tag != R.PARA_HEADER:
                yield from self._text_boxes(c)

    def table(self, ctrl: R.Record) -> list[OutLine]:
        kids = ctrl.children
        t = next((i for i, c in enumerate(kids) if c.tag == R.TABLE), None)
        if t is None:
            return []
        caption: list[OutLine] = []
        caption_below = True
        for k in range(t):
            if kids[k].tag == R.LIST_HEADER:
                caption = self.sublist_lines(kids, k)
                caption_below = (R.u32(kids[k].data, 4) & 0x3) != 2  # 2: above the table
        cells = []
        for k in range(t + 1, len(kids)):
            c = kids[k]
            if c.tag != R.LIST_HEADER:
                continue
            d = c.data
            col, row, colspan, rowspan = R.u16(d, 8), R.u16(d, 10), R.u16(d, 12, 1), R.u16(d, 14, 1)
            text, marks, bp, bold = "", [], 0, False
            for p in self.list_paragraphs(kids, k):
                for ln in self.paragraph(p, body=False):
                    off = len(text) + (1 if text else 0)
                    if not text:
                        bp, bold = ln.cues.get("bold_prefix", 0), bool(ln.cues.get("bold"))
                    text = f"{text} {ln.text}" if text else ln.text
                    marks.extend((off + o, key) for o, key in ln.marks)
            cells.append((row, col, max(rowspan, 1), max(colspan, 1), text, marks, bp, bold))
        rows = table_rows(cells)
        for ln in caption:
            ln.cues["role"] = "caption"
        return (rows + caption) if caption_below else (caption + rows)


def _char_runs(rec: R.Record | None) -> list[tuple[int, int]]:
    """(start position, char shape id) pairs of PARA_CHAR_SHAPE."""
    if rec is None or len(rec.data) < 8:
        return [(0, 0)]
    d = rec.data
    return [(R.u32(d, k), R.u32(d, k + 4)) for k in range(0, len(d) - 7, 8)]
