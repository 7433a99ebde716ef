"""Pass 2: the body's blocks → lines of a ``DocBuilder``.

One rule per block kind, tried in order on each line (markdown-it's block rule table, with Korean-first
rules): inside a fence → fence opening → blank line → thematic break → ATX heading → pipe table →
block quote / list item / paragraph (with soft-wrapped continuation lines and a setext underline).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jogak.load.builder import DocBuilder
from jogak.load.joining import display_width
from jogak.load.markdown.inline import render_inline
from jogak.load.markdown.syntax import (
    ARTICLE_LINE,
    ATX,
    BR,
    FENCE,
    HR,
    HTML_BLOCK_TAG,
    LIST,
    QUOTE,
    SETEXT,
    STRUCT,
    TABLE_DELIM,
    block_start,
    split_cells,
)


@dataclass
class _Para:
    raw: list[str]
    cues: dict[str, Any]


class Renderer:
    def __init__(self, refs: dict[str, str]) -> None:
        self.b = DocBuilder("markdown")
        self.refs = refs
        self.para: _Para | None = None

    def flush(self) -> None:
        p = self.para
        self.para = None
        if p is None:
            return
        raw = " ".join(r.strip() for r in p.raw)
        self.emit(raw, p.cues)

    def flush_with_prefix(self) -> None:
        p = self.para
        self.para = None
        if p is None:
            return
        prefix = p.cues.pop("_prefix", "")
        raw = " ".join(x.strip() for x in p.raw)
        self.emit(raw, p.cues, prefix=prefix)

    def emit(self, raw: str, cues: dict[str, Any], prefix: str = "") -> None:
        pieces = BR.split(raw)
        for k, piece in enumerate(pieces):
            r = render_inline(piece, self.refs)
            text = prefix + r.text if k == 0 else r.text
            shift = len(prefix) if k == 0 else 0
            lead = len(text) - len(text.lstrip())
            text = text.strip()
            if not text:
                continue
            marks = [(max(0, min(o + shift - lead, len(text))), lab) for o, lab in r.marks]
            c = dict(cues)
            if k > 0:
                c.pop("numbering", None)
            # a list number prefix is not bold; otherwise the bold run minus stripped leading space
            bp = 0 if (prefix and k == 0) else min(max(0, r.bold_prefix - lead), len(text))
            c["bold_prefix"] = bp
            c["bold"] = bp > 0
            self.b.add_line(text, marks=marks, **c)

    def table_row(self, row: str, header: bool) -> None:
        cells = split_cells(row)
        texts: list[str] = []
        marks: list[tuple[int, str]] = []
        pos = 0
        bp = 0
        for k, cell in enumerate(cells):
            rr = render_inline(cell, self.refs)
            t = rr.text.strip()
            lead = len(rr.text) - len(rr.text.lstrip())
            if k > 0:
                pos += 3
            for o, lab in rr.marks:
                marks.append((pos + max(0, min(o - lead, len(t))), lab))
            if k == 0:
                bp = min(max(rr.bold_prefix - lead, 0), len(t))
            texts.append(t)
            pos += len(t)
        line = " | ".join(texts)
        if not line.strip(" |"):
            return
        self.b.add_line(line, marks=marks, role="table_row", style="th" if header else "td",
                        bold_prefix=bp, bold=bp > 0)

    def footnotes(self, notes: dict[str, list[str]], note_order: list[str]) -> None:
        """Footnote definitions after the body: ``"<label> <text>"``, one line per paragraph."""
        if not note_order:
            return
        self.b.start_footnotes()
        for label in note_order:
            paras: list[list[str]] = [[]]
            for part in notes[label]:
                if part == "":
                    paras.append([])
                else:
                    paras[-1].append(part)
            rendered_lines = []
            for k, para in enumerate(p for p in paras if p):
                rr = render_inline(" ".join(x.strip() for x in para), self.refs)
                t = rr.text.strip()
                if k == 0:
                    t = f"{label} {t}".rstrip()
                if t:
                    rendered_lines.append((t, {"role": "footnote"}))
            if not rendered_lines:
                rendered_lines = [(label, {"role": "footnote"})]
            self.b.add_footnote(label, rendered_lines)


class BlockParser:
    def __init__(self, body: list[str], r: Renderer) -> None:
        self.body = body
        self.r = r
        self.i = 0
        self.fence: str | None = None

    def run(self) -> None:
        rules = (self._fence_open, self._blank, self._hr, self._atx, self._table)
        while self.i < len(self.body):
            ln = self.body[self.i]
            if self.fence is not None:
                self._in_fence(ln)
                continue
            if not any(rule(ln) for rule in rules):
                self._text_block(ln)
        self.r.flush()

    # ── rules: each consumes its lines and returns True, or returns False without consuming ────────
    def _in_fence(self, ln: str) -> None:
        assert self.fence is not None
        if ln.strip().startswith(self.fence) and ln.strip().strip(self.fence[0]) == "":
            self.fence = None
        else:
            self.r.b.add_line(ln.rstrip(), role="code", style="code", indent=display_width(ln))
        self.i += 1

    def _fence_open(self, ln: str) -> bool:
        m = FENCE.match(ln)
        if m and not (m.group(2)[0] == "`" and "`" in m.group(3)):
            self.r.flush()
            self.fence = m.group(2)[0] * len(m.group(2))
            self.i += 1
            return True
        return False

    def _blank(self, ln: str) -> bool:
        if not ln.strip():
            self.r.flush()
            self.i += 1
            return True
        return False

    def _hr(self, ln: str) -> bool:
        if HR.match(ln):
            self.r.flush()
            self.i += 1
            return True
        return False

    def _atx(self, ln: str) -> bool:
        m = ATX.match(ln)
        if m:
            self.r.flush()
            level = len(m.group(1))
            self.r.emit(m.group(2) or "", {"heading_level": level, "style": f"h{level}", "indent": 0})
            self.i += 1
            return True
        return False

    def _table(self, ln: str) -> bool:
        """A pipe table: a row followed by a delimiter row, then rows while lines have a pipe."""
        body, i = self.body, self.i
        if not ("|" in ln and i + 1 < len(body) and TABLE_DELIM.match(body[i + 1]) and "-" in body[i + 1]):
            return False
        self.r.flush()
        rows = [ln]
        i += 2
        while i < len(body) and body[i].strip() and "|" in body[i]:
            rows.append(body[i])
            i += 1
        self.i = i
        for k, row in enumerate(rows):
            self.r.table_row(row, header=(k == 0))
        return True

    def _text_block(self, ln: str) -> None:
        """Block quote markers stripped, then a list item or a paragraph."""
        r = self.r
        indent = display_width(ln)
        style = None
        mq = QUOTE.match(ln)
        if mq:
            while mq:
                ln = ln[mq.end():]
                mq = QUOTE.match(ln)
            style = "blockquote"
            if not ln.strip():
                r.flush()
                self.i += 1
                return
        ml = LIST.match(ln)
        if ml and ml.group(4).strip() and not HR.match(ln):
            r.flush()
            marker = ml.group(2)
            cues: dict[str, Any] = {"indent": display_width(ml.group(1)), "role": "list_item"}
            if style:
                cues["style"] = style
            content = ml.group(4)
            r.para = _Para(raw=[content], cues=cues)
            if marker[0].isdigit():
                cues["numbering"] = marker
                r.para.cues["_prefix"] = marker + " "
            self.i += 1
            self._continue_para()
            r.flush_with_prefix()
            return
        # ordinary paragraph line (also **①**, 1\. lines of the statutes)
        r.flush()
        cues = {"indent": indent}
        if style:
            cues["style"] = style
        r.para = _Para(raw=[ln], cues=cues)
        self.i += 1
        self._continue_para()
        if self.i < len(self.body) and not style and (ms := SETEXT.match(self.body[self.i])):
            level = 1 if ms.group(1).startswith("=") else 2
            r.para.cues.update(heading_level=level, style=f"h{level}")
            self.i += 1
        r.flush()

    def _continue_para(self) -> None:
        """Absorb soft-wrapped continuation lines into the open paragraph."""
        p = self.r.para
        assert p is not None
        body = self.body
        i = self.i
        while i < len(body):
            nxt = body[i]
            if not nxt.strip():
                break
            prev = p.raw[-1]
            if prev.endswith("  ") or (prev.rstrip().endswith("\\") and not prev.rstrip().endswith("\\\\")):
                break
            if SETEXT.match(nxt) or ARTICLE_LINE.match(prev.strip()):
                break  # an underline (handled by the caller) / a 제N조 (제목) heading line
            if block_start(nxt) or STRUCT.match(nxt.strip()):
                break
            if "|" in nxt and i + 1 < len(body) and TABLE_DELIM.match(body[i + 1]):
                break
            if HTML_BLOCK_TAG.match(nxt):
                break
            p.raw.append(nxt)
            i += 1
        self.i = i
