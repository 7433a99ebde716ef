"""Markdown loader: a careful line-based renderer to plain text with layout cues.

What the rendered ``Document`` looks like:

* YAML front matter (``---`` … ``---``/``...`` at the very top) → ``metadata`` (``yaml.safe_load``; dates
  become ISO strings so metadata stays JSON-safe) and is excluded from the text.
* ATX (``#``) and setext headings → the text without the ``#`` marks, ``heading_level`` set,
  ``style="h<N>"``.
* Inline markup is removed: ``**bold**``/``__bold__`` and ``*em*``/``_em_`` markers, backslash escapes
  (``1\\.`` → ``1.``), code spans (content kept), links/images → their text/alt text, autolinks → the URL,
  HTML entities decoded, known inline HTML tags (``<br>``, ``<sup>``, ``<span …>``…) dropped, HTML
  comments dropped. ``<개정 2010.5.17>`` and other non-HTML angle-bracket text (the amendment tags of the
  Korean statutes) is TEXT and kept. ``bold_prefix`` = length of the bold run at the line start
  (``**①** …`` → 1), ``bold`` = ``bold_prefix > 0``.
* Leading indentation is stripped from the text and carried by ``Line.indent`` (spaces; tab = 4):
  ``  1\\. …`` → text ``1. …`` with ``indent=2``. Indented code blocks are not recognised (Korean
  documents indent their items by 4 spaces); fenced code blocks are kept verbatim (``role="code"``).
* Lists: ``- item`` → bullet removed, ``role="list_item"``; ``1. item`` → the number is kept in the text
  and in ``numbering`` ("1."). Soft-wrapped continuation lines of a paragraph or item are joined with one
  space (a Markdown soft break is a space), except before a line that starts a block or a Korean
  structural label (①, 1., 가., 제N조, (1), **①**…), which always starts a new line.
* Blank lines separate blocks and are not emitted: every line of ``text`` has content.
* Pipe tables → one line per row (header row included, delimiter row dropped), cells joined with
  ``" | "``, ``role="table_row"``.
* Footnotes: ``[^n]`` marks are removed from the text and recorded as ``FootnoteMark(offset, label)``
  (``end=None``), the same convention as the DOCX, HTML and PDF loaders. ``[^n]: …`` definitions are
  removed from the body and appended after it (``body_end``) as lines ``"n <text>"`` with
  ``role="footnote"``.
"""

from __future__ import annotations

import datetime as _dt
import html as _html
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from jogak.load.builder import DocBuilder
from jogak.load.encoding import decode, normalize_newlines
from jogak.load.joining import display_width
from jogak.model import Document

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_HR = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_LIST = re.compile(r"^([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+|$)(.*)$")
_QUOTE = re.compile(r"^ {0,3}>[ ]?")
_FN_DEF = re.compile(r"^ {0,3}\[\^([^\]\s]+)\]:[ \t]?(.*)$")
_REF_DEF = re.compile(r"^ {0,3}\[([^\]^][^\]]*)\]:\s*\S+(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*$")
_TABLE_DELIM = re.compile(r"^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$")
_HTML_BLOCK_TAG = re.compile(r"^\s*</?([A-Za-z][A-Za-z0-9-]*)(\s[^>]*)?/?>\s*$")
# Korean/legal structural labels that always start a new line (never joined as a soft wrap)
_STRUCT = re.compile(
    r"^(?:\*\*|__)?\s*(?:[①-⑳㉑-㉟]|제\s*\d+\s*[조장절관편항호]|\d{1,3}(?:의\d{1,2})?\\?[.)]\s|[가-하]\\?[.)]\s|"
    r"\(\d{1,3}\)|\([가-하]\)|[ⅰ-ⅿⅠ-Ⅿ]|[※▶■□○●◎◇◆▷-]\s|부\s*칙|별\s*표|<[^>]*>|"
    # English clause numbering: "2.1 You must …", "(a) …", "(iv) …", "Section 3", "ARTICLE 4"
    r"\d{1,3}(?:\\?\.\d{1,3})+\\?\.?\s|\((?:[a-z]|[ivx]{1,4}|[A-Z])\)\s|(?i:section|article|clause)\s+\d)"
)

_ARTICLE_LINE = re.compile(r"^(?:\*\*)?제\s*\d+\s*[조장절관편](?:의\s*\d+)?(?:\s*[(（][^)）]*[)）])?(?:\*\*)?$")

_HTML_TAGS = frozenset(
    ["a", "abbr", "acronym", "address", "b", "bdi", "bdo", "big", "blink", "blockquote", "br", "button", "center", "cite", "code", "col", "colgroup", "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "font", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "i", "img", "input", "ins", "kbd", "label", "li", "mark", "nav", "ol", "p", "pre", "q", "s", "samp", "section", "small", "span", "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "tt", "u", "ul", "var", "wbr", "figure", "figcaption", "picture", "source", "video", "audio", "iframe", "main", "article", "aside", "time", "meta", "link", "script", "style"]
)
_INLINE_TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)(?:\s+[^<>]*?)?\s*/?>")
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^\s<>]+)>")
_ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#\d{1,7}|#[xX][0-9A-Fa-f]{1,6});")
_LINK = re.compile(
    r"!?\[((?:[^\[\]\\]|\\.|\[[^\[\]]*\])*)\]"
    r"(?:\(\s*<?([^()\s>]*(?:\([^()]*\)[^()\s]*)*)>?(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)"
    r"|\[([^\]]*)\])?"
)
_BR = re.compile(r"<br\s*/?>", re.I)
_ASCII_PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


@dataclass
class Rendered:
    text: str
    bold_prefix: int = 0
    marks: list[tuple[int, str]] = field(default_factory=list)


# ─── inline rendering ─────────────────────────────────────────────────────────────────────────────


def render_inline(s: str, refs: dict[str, str] | None = None) -> Rendered:
    out: list[str] = []
    bold_flags: list[bool] = []
    marks: list[tuple[int, str]] = []
    state = {"bold": False}
    _render_into(s, out, bold_flags, marks, state, refs or {})
    text = "".join(out)
    # bold prefix: leading run of bold characters
    bp = 0
    for f in bold_flags:
        if not f:
            break
        bp += 1
    # do not count trailing spaces of the bold run
    while bp > 0 and text[bp - 1].isspace():
        bp -= 1
    return Rendered(text=text, bold_prefix=bp, marks=marks)


def _emit(out: list[str], flags: list[bool], state: dict[str, bool], chunk: str) -> None:
    for ch in chunk:
        out.append(ch)
        flags.append(state["bold"])


def _find_closing(s: str, i: int, delim: str) -> int:
    """Index of a closing ``delim`` after position ``i`` that is preceded by a non-space, or -1."""
    j = i
    while True:
        j = s.find(delim, j)
        if j < 0:
            return -1
        if j > i and not s[j - 1].isspace() and s[j - 1] != "\\":
            if delim[0] == "_" and j + len(delim) < len(s) and s[j + len(delim)].isalnum():
                j += 1
                continue
            return j
        j += 1


def _render_into(s: str, out: list[str], flags: list[bool], marks: list[tuple[int, str]],
                 state: dict[str, bool], refs: dict[str, str]) -> None:
    i = 0
    n = len(s)
    closers: list[tuple[str, int]] = []  # pending emphasis closers (delim, index in s)
    while i < n:
        c = s[i]
        if closers and s.startswith(closers[-1][0], i) and i == closers[-1][1]:
            delim, _ = closers.pop()
            if len(delim) == 2:
                state["bold"] = not state["bold"]
            i += len(delim)
            continue
        if c == "\\" and i + 1 < n and s[i + 1] in _ASCII_PUNCT:
            _emit(out, flags, state, s[i + 1])
            i += 2
            continue
        if c == "`":
            m = re.match(r"`+", s[i:])
            assert m
            tick = m.group(0)
            j = s.find(tick, i + len(tick))
            while j >= 0 and (j + len(tick) < n and s[j + len(tick)] == "`"):
                j = s.find(tick, j + len(tick) + 1)
            if j >= 0:
                code = s[i + len(tick): j]
                if len(code) >= 2 and code[0] == " " and code[-1] == " " and code.strip():
                    code = code[1:-1]
                _emit(out, flags, state, code)
                i = j + len(tick)
                continue
            _emit(out, flags, state, tick)
            i += len(tick)
            continue
        if c == "[" and s.startswith("[^", i):
            j = s.find("]", i + 2)
            if j > i + 2 and not re.search(r"\s", s[i + 2: j]):
                marks.append((len(out), s[i + 2: j]))
                i = j + 1
                continue
        if c in "![":
            m = _LINK.match(s, i)
            if m and (c == "[" or s.startswith("![", i)):
                label = m.group(1)
                # CommonMark: [text][ref] is a link only when "ref" is defined ("[1][2]" in a court
                # decision is literal text); [text] alone only when "text" is a defined label.
                ref = m.group(3)
                is_link = m.group(2) is not None or (
                    (ref or label).lower() in refs if ref is not None else label.lower() in refs)
                if is_link:
                    _render_into(label, out, flags, marks, state, refs)
                    i = m.end()
                    continue
        if c == "<":
            m = _AUTOLINK.match(s, i)
            if m:
                _emit(out, flags, state, m.group(1))
                i = m.end()
                continue
            if s.startswith("<!--", i):
                j = s.find("-->", i + 4)
                i = (j + 3) if j >= 0 else n
                continue
            m = _INLINE_TAG.match(s, i)
            if m and m.group(1).lower() in _HTML_TAGS:
                i = m.end()
                continue
        if c == "&":
            m = _ENTITY.match(s, i)
            if m:
                dec = _html.unescape(m.group(0))
                if dec != m.group(0):
                    _emit(out, flags, state, dec)
                    i = m.end()
                    continue
        if c in "*_":
            run = 2 if s.startswith(c * 2, i) else 1
            delim = c * run
            nxt = s[i + run] if i + run < n else ""
            prev = s[i - 1] if i > 0 else ""
            opens = nxt and not nxt.isspace() and not (c == "_" and prev.isalnum())
            if opens:
                j = _find_closing(s, i + run, delim)
                if run == 2 and j < 0:
                    j = -1
                if j >= 0:
                    closers.append((delim, j))
                    if run == 2:
                        state["bold"] = not state["bold"]
                    i += run
                    continue
        _emit(out, flags, state, c)
        i += 1
    if closers:  # unmatched (crossed) closers: nothing to undo for em; reset bold
        state["bold"] = False


# ─── block rendering ──────────────────────────────────────────────────────────────────────────────


def _json_safe(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _json_safe(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_json_safe(x) for x in v]
    if isinstance(v, _dt.date | _dt.datetime | _dt.time):
        return v.isoformat()
    if v is None or isinstance(v, str | int | float | bool):
        return v
    return str(v)


def split_front_matter(text: str) -> tuple[str | None, int]:
    """``(yaml_text, body_offset)`` when the text starts with a front-matter block."""
    if not text.startswith("---\n") and text.strip() != "---":
        return None, 0
    pos = 4
    while pos <= len(text):
        nl = text.find("\n", pos)
        line = text[pos: nl if nl >= 0 else len(text)]
        if line.rstrip() in ("---", "..."):
            return text[4:pos], (nl + 1 if nl >= 0 else len(text))
        if nl < 0:
            break
        pos = nl + 1
    return None, 0


def _strip_comments(lines: list[str]) -> list[str]:
    """Remove HTML comments (possibly multi-line) outside fenced code."""
    out: list[str] = []
    in_comment = False
    fence: str | None = None
    for ln in lines:
        if fence is None and not in_comment:
            m = _FENCE.match(ln)
            if m:
                fence = m.group(2)[0] * 3
                out.append(ln)
                continue
        elif fence is not None:
            if ln.strip().startswith(fence):
                fence = None
            out.append(ln)
            continue
        res = []
        i = 0
        while i < len(ln):
            if in_comment:
                j = ln.find("-->", i)
                if j < 0:
                    i = len(ln)
                    break
                in_comment = False
                i = j + 3
            else:
                j = ln.find("<!--", i)
                if j < 0:
                    res.append(ln[i:])
                    break
                res.append(ln[i:j])
                in_comment = True
                i = j + 4
        out.append("".join(res))
    return out


def _split_cells(row: str) -> list[str]:
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    cells: list[str] = []
    cur: list[str] = []
    i = 0
    in_code = False
    while i < len(row):
        ch = row[i]
        if ch == "\\" and i + 1 < len(row) and row[i + 1] == "|":
            cur.append("|")
            i += 2
            continue
        if ch == "`":
            in_code = not in_code
        if ch == "|" and not in_code:
            cells.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    cells.append("".join(cur))
    return [c.strip() for c in cells]


def _block_start(ln: str) -> bool:
    return bool(
        _ATX.match(ln) or _FENCE.match(ln) or _HR.match(ln) or _QUOTE.match(ln) or _LIST.match(ln)
        or _FN_DEF.match(ln) or (ln.lstrip().startswith("|"))
    )


@dataclass
class _Para:
    raw: list[str]
    cues: dict[str, Any]


class _Renderer:
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

    def emit(self, raw: str, cues: dict[str, Any], prefix: str = "") -> None:
        pieces = _BR.split(raw)
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


def load_bytes(data: bytes, source: str) -> Document:
    raw_text, encoding = decode(data, source)
    text = normalize_newlines(raw_text)
    metadata: dict[str, Any] = {"encoding": encoding}
    warnings: list[str] = []
    fm, body_off = split_front_matter(text)
    if fm is not None:
        try:
            meta = yaml.safe_load(fm) if fm.strip() else None
        except yaml.YAMLError as e:
            warnings.append(f"front matter is not valid YAML: {' '.join(str(e).split())[:120]}")
            meta = None
        if isinstance(meta, dict):
            metadata.update(_json_safe(meta))
        elif meta is not None:
            metadata["front_matter"] = _json_safe(meta)
    src = _strip_comments(text[body_off:].split("\n"))

    # pass 1: footnote definitions and link reference definitions
    notes: dict[str, list[str]] = {}
    note_order: list[str] = []
    refs: dict[str, str] = {}
    body: list[str] = []
    i = 0
    fence: str | None = None
    while i < len(src):
        ln = src[i]
        if fence is None:
            fm_ = _FENCE.match(ln)
            if fm_:
                fence = fm_.group(2)[0] * 3
                body.append(ln)
                i += 1
                continue
        else:
            if ln.strip().startswith(fence):
                fence = None
            body.append(ln)
            i += 1
            continue
        m = _FN_DEF.match(ln)
        if m:
            label = m.group(1)
            parts = [m.group(2)]
            i += 1
            while i < len(src):
                nxt = src[i]
                if nxt.strip() == "":
                    # blank line: continue only if the next non-blank is indented
                    k = i
                    while k < len(src) and src[k].strip() == "":
                        k += 1
                    if k < len(src) and display_width(src[k]) >= 2 and not _FN_DEF.match(src[k]):
                        parts.append("")
                        i = k
                        continue
                    break
                if display_width(nxt) >= 2 or not _block_start(nxt):
                    if _FN_DEF.match(nxt):
                        break
                    parts.append(nxt.strip())
                    i += 1
                    continue
                break
            if label not in notes:
                note_order.append(label)
                notes[label] = parts
            else:
                warnings.append(f"footnote [^{label}] defined twice; the first definition is used")
            continue
        m = _REF_DEF.match(ln)
        if m and not ln.lstrip().startswith("[^"):
            refs[m.group(1).lower()] = m.group(0)
            i += 1
            continue
        body.append(ln)
        i += 1

    r = _Renderer(refs)
    b = r.b
    i = 0
    fence = None
    while i < len(body):
        ln = body[i]
        if fence is not None:
            if ln.strip().startswith(fence) and ln.strip().strip(fence[0]) == "":
                fence = None
            else:
                b.add_line(ln.rstrip(), role="code", style="code", indent=display_width(ln))
            i += 1
            continue
        m = _FENCE.match(ln)
        if m and not (m.group(2)[0] == "`" and "`" in m.group(3)):
            r.flush()
            fence = m.group(2)[0] * len(m.group(2))
            i += 1
            continue
        if not ln.strip():
            r.flush()
            i += 1
            continue
        if _HR.match(ln):
            r.flush()
            i += 1
            continue
        m = _ATX.match(ln)
        if m:
            r.flush()
            level = len(m.group(1))
            r.emit(m.group(2) or "", {"heading_level": level, "style": f"h{level}", "indent": 0})
            i += 1
            continue
        # pipe table: a row followed by a delimiter row
        if "|" in ln and i + 1 < len(body) and _TABLE_DELIM.match(body[i + 1]) and "-" in body[i + 1]:
            r.flush()
            rows = [ln]
            i += 2
            while i < len(body) and body[i].strip() and "|" in body[i]:
                rows.append(body[i])
                i += 1
            for k, row in enumerate(rows):
                _emit_table_row(r, row, header=(k == 0))
            continue
        indent = display_width(ln)
        style = None
        mq = _QUOTE.match(ln)
        if mq:
            while mq:
                ln = ln[mq.end():]
                mq = _QUOTE.match(ln)
            style = "blockquote"
            if not ln.strip():
                r.flush()
                i += 1
                continue
        ml = _LIST.match(ln)
        if ml and ml.group(4).strip() and not _HR.match(ln):
            r.flush()
            marker = ml.group(2)
            cues: dict[str, Any] = {"indent": display_width(ml.group(1)), "role": "list_item"}
            if style:
                cues["style"] = style
            content = ml.group(4)
            if marker[0].isdigit():
                cues["numbering"] = marker
                r.para = _Para(raw=[content], cues=cues)
                r.para.cues["_prefix"] = marker + " "
            else:
                r.para = _Para(raw=[content], cues=cues)
            i += 1
            i = _continue_para(r, body, i)
            _flush_with_prefix(r)
            continue
        # ordinary paragraph line (also **①**, 1\. lines of the statutes)
        r.flush()
        cues = {"indent": indent}
        if style:
            cues["style"] = style
        r.para = _Para(raw=[ln], cues=cues)
        i += 1
        i = _continue_para(r, body, i)
        if i < len(body) and not style and (ms := _SETEXT.match(body[i])):
            level = 1 if ms.group(1).startswith("=") else 2
            r.para.cues.update(heading_level=level, style=f"h{level}")
            i += 1
        r.flush()
    r.flush()

    # footnotes after the body
    if note_order:
        b.start_footnotes()
        for label in note_order:
            paras: list[list[str]] = [[]]
            for part in notes[label]:
                if part == "":
                    paras.append([])
                else:
                    paras[-1].append(part)
            rendered_lines = []
            for k, para in enumerate(p for p in paras if p):
                rr = render_inline(" ".join(x.strip() for x in para), refs)
                t = rr.text.strip()
                if k == 0:
                    t = f"{label} {t}".rstrip()
                if t:
                    rendered_lines.append((t, {"role": "footnote"}))
            if not rendered_lines:
                rendered_lines = [(label, {"role": "footnote"})]
            b.add_footnote(label, rendered_lines)
    doc = b.build(source, metadata=metadata, warnings=warnings)
    if not doc.text.strip():
        doc.warnings.append("no text")
    return doc


def _continue_para(r: _Renderer, body: list[str], i: int) -> int:
    """Absorb soft-wrapped continuation lines into ``r.para``; returns the next line index."""
    p = r.para
    assert p is not None
    while i < len(body):
        nxt = body[i]
        if not nxt.strip():
            break
        prev = p.raw[-1]
        if prev.endswith("  ") or (prev.rstrip().endswith("\\") and not prev.rstrip().endswith("\\\\")):
            break
        if _SETEXT.match(nxt) or _ARTICLE_LINE.match(prev.strip()):
            break  # an underline (handled by the caller) / a 제N조 (제목) heading line
        if _block_start(nxt) or _STRUCT.match(nxt.strip()):
            break
        if "|" in nxt and i + 1 < len(body) and _TABLE_DELIM.match(body[i + 1]):
            break
        if _HTML_BLOCK_TAG.match(nxt):
            break
        p.raw.append(nxt)
        i += 1
    return i


def _flush_with_prefix(r: _Renderer) -> None:
    p = r.para
    r.para = None
    if p is None:
        return
    prefix = p.cues.pop("_prefix", "")
    raw = " ".join(x.strip() for x in p.raw)
    r.emit(raw, p.cues, prefix=prefix)


def _emit_table_row(r: _Renderer, row: str, header: bool) -> None:
    cells = _split_cells(row)
    texts: list[str] = []
    marks: list[tuple[int, str]] = []
    pos = 0
    bp = 0
    for k, cell in enumerate(cells):
        rr = render_inline(cell, r.refs)
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
    r.b.add_line(line, marks=marks, role="table_row", style="th" if header else "td",
                 bold_prefix=bp, bold=bp > 0)
