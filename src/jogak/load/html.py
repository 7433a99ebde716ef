"""HTML loader (BeautifulSoup + lxml): block elements → lines, with heading/list/table cues.

* Charset: BOM, then ``<meta charset>``/http-equiv, then the text-detection chain of
  ``jogak.load.encoding``.
* Dropped: ``script``, ``style``, ``noscript``, ``template``, ``svg``, forms controls, ``nav``, navigation
  ``aside``s (role=navigation or class/id naming nav/menu/sidebar/toc), small blocks whose class/id names
  site chrome (breadcrumb, location, gnb/lnb/snb, skip links, pagination, share), hidden elements, and
  ``header``/``footer`` that are page chrome (not inside ``article``/``main``/``section``).
* Whitespace is collapsed as a browser would (a source newline inside a paragraph is a space); ``pre``
  keeps its lines (``role="code"``).
* ``h1``–``h6`` → ``heading_level``; ``style`` = tag name of the block.
* ``li`` → ``role="list_item"``, ``indent`` = list nesting level (0 for a top-level list); in an ``ol``
  the rendered number (honouring ``start``, ``type``, ``reversed``, ``value``) is prefixed into the text
  and stored in ``numbering`` ("1.", "a.", "iv."); CSS ``list-style-type`` (``hangul`` → 가., ``lower-alpha``…)
  and the non-standard ``type="가"`` some Korean pages use are honoured.
* Tables: one line per ``tr`` (header rows too), cells joined with ``" | "``, ``role="table_row"``;
  ``caption`` → ``role="caption"``. Block content inside a cell is joined with a space.
* ``bold``/``bold_prefix``: characters inside ``b``/``strong``/``font-weight: bold`` at the line start.
* Footnotes: a reference is an ``a href="#id"`` (usually inside ``sup``, or ``role=doc-noteref``, or
  class ``footnote-ref``) whose target is a footnote element (``li``/``p``/``div``/``aside``…). The
  reference text is removed from the body and recorded as ``FootnoteMark(offset, label)`` with
  ``end=None`` (same convention as the other loaders); the footnote elements (and their container,
  e.g. ``<section class="footnotes">``) are removed from the body and appended after ``body_end`` as
  ``"<label> <text>"`` lines with ``role="footnote"``; back-links (↩) are dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bs4 import BeautifulSoup, Comment, Doctype, NavigableString, Tag
from bs4.element import CData, Declaration, ProcessingInstruction

from jogak.grammar.numbering import chosung, circled, ganada, int_to_roman, letters_bijective
from jogak.load.builder import DocBuilder
from jogak.load.encoding import decode, sniff_html_charset
from jogak.model import Document

_DROP = frozenset(
    ["script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "embed", "button", "select", "input", "textarea", "option", "head", "nav", "map", "area", "audio", "video", "source", "track"]
)
_BLOCK = frozenset(
    ["address", "article", "aside", "blockquote", "body", "center", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html", "legend", "li", "main", "menu", "nav", "ol", "p", "pre", "section", "summary", "table", "ul", "tr", "caption", "tbody", "thead", "tfoot"]
)
_BOLD_TAGS = frozenset({"b", "strong"})
_WS = re.compile(r"[ \t\n\r\f]+")
_NAV_HINT = re.compile(r"(^|[\s_-])(nav|navbar|menu|sidebar|toc|breadcrumbs?)($|[\s_-])", re.I)
_CHROME_HINT = re.compile(r"(^|[\s_-])(breadcrumbs?|location|gnb|lnb|snb|skip(?:nav|link|to|-nav|-link|-to|_nav)?|"
                          r"pagination|paging|sitemap|share|sns)($|[\s_-])", re.I)
_FN_CONTAINER = re.compile(r"footnote|endnote|fn-?list|notes", re.I)
_BACKREF = re.compile(r"fnref|footnote-back|backref|backlink", re.I)


@dataclass
class _Buf:
    chars: list[str] = field(default_factory=list)
    bold: list[bool] = field(default_factory=list)
    marks: list[tuple[int, str]] = field(default_factory=list)

    def add(self, s: str, bold: bool) -> None:
        for ch in s:
            self.chars.append(ch)
            self.bold.append(bold)

    def add_text(self, s: str, bold: bool, pre: bool = False) -> None:
        if not pre:
            s = _WS.sub(" ", s)
            if s.startswith(" ") and (not self.chars or self.chars[-1] == " "):
                s = s[1:]
        self.add(s, bold)

    def space(self) -> None:
        if self.chars and self.chars[-1] != " ":
            self.add(" ", False)

    def take(self) -> tuple[str, int, list[tuple[int, str]]]:
        text = "".join(self.chars)
        lead = len(text) - len(text.lstrip())
        stripped = text.strip()
        bp = 0
        for k in range(lead, len(text)):
            if not self.bold[k]:
                break
            bp += 1
        bp = min(bp, len(stripped))
        while bp > 0 and stripped[bp - 1].isspace():
            bp -= 1
        marks = [(max(0, min(o - lead, len(stripped))), lab) for o, lab in self.marks]
        self.chars, self.bold, self.marks = [], [], []
        return stripped, bp, marks


def _classes(el: Tag) -> str:
    c = el.get("class") or []
    if isinstance(c, str):
        c = [c]
    return " ".join(c) + " " + str(el.get("id") or "")


def _is_hidden(el: Tag) -> bool:
    if el.has_attr("hidden") or str(el.get("aria-hidden", "")).lower() == "true":
        return True
    style = str(el.get("style") or "").replace(" ", "").lower()
    return "display:none" in style or "visibility:hidden" in style


def _is_bold(el: Tag) -> bool:
    if el.name in _BOLD_TAGS:
        return True
    style = str(el.get("style") or "").replace(" ", "").lower()
    return bool(re.search(r"font-weight:(bold|bolder|[6-9]00)", style))


# CSS list-style-type → the ``type`` letter used below (Korean sites style lists rather than type them)
_CSS_LIST = {"lower-alpha": "a", "lower-latin": "a", "upper-alpha": "A", "upper-latin": "A", "lower-roman": "i",
             "upper-roman": "I", "hangul": "가", "korean-hangul-formal": "가", "hangul-consonant": "ㄱ",
             "decimal": "1", "circled-decimal": "①"}


def _list_type(el: Tag, default: str) -> str:
    """The numbering style of an ``ol``/``li``: ``type`` (also the non-standard 가/ㄱ/① some Korean pages
    use), else CSS ``list-style-type`` in the ``style`` attribute."""
    typ = str(el.get("type") or "").strip()
    if typ in ("1", "a", "A", "i", "I", "가", "ㄱ", "①"):
        return typ
    m = re.search(r"list-style(?:-type)?\s*:\s*([a-z-]+)", str(el.get("style") or "").lower())
    if m and m.group(1) in _CSS_LIST:
        return _CSS_LIST[m.group(1)]
    return default


def _fmt_number(n: int, typ: str) -> str:
    if typ == "가":
        return ganada(n) or str(n)
    if typ == "ㄱ":
        return chosung(n) or str(n)
    if typ == "①":
        return circled(n, limit=20) or str(n)
    if typ == "a":
        return letters_bijective(n) or "0"
    if typ == "A":
        return (letters_bijective(n) or "0").upper()
    if typ == "i":
        return int_to_roman(n) or "0"
    if typ == "I":
        return int_to_roman(n, upper=True) or "0"
    return str(n)


def _int(v: Any, default: int) -> int:
    try:
        return int(str(v).strip())
    except (TypeError, ValueError):
        return default


class _Walker:
    def __init__(self, refs: dict[int, str], drop_ids: set[int]) -> None:
        self.b = DocBuilder("html")
        self.buf = _Buf()
        self.cues: dict[str, Any] = {}
        self.refs = refs  # id(tag) → footnote key for reference anchors/sups
        self.drop_ids = drop_ids  # id(tag) of footnote elements/containers removed from the body
        self.list_depth = 0

    # -- lines -------------------------------------------------------------------------------------
    def flush(self) -> None:
        text, bp, marks = self.buf.take()
        cues = self.cues
        self.cues = {}
        if not text:
            return
        self.b.add_line(text, marks=marks, bold=bp > 0, bold_prefix=bp, **cues)

    # -- walking ---------------------------------------------------------------------------------
    def walk(self, el: Tag, bold: bool = False, pre: bool = False, inline: bool = False) -> None:
        for child in el.children:
            if isinstance(child, Comment | Doctype | CData | Declaration | ProcessingInstruction):
                continue
            if isinstance(child, NavigableString):
                self.buf.add_text(str(child), bold, pre)
                continue
            if not isinstance(child, Tag):
                continue
            self.element(child, bold, pre, inline)

    def element(self, el: Tag, bold: bool, pre: bool, inline: bool) -> None:
        name = (el.name or "").lower()
        if self._skipped(el, name):
            return
        key = self.refs.get(id(el))
        if key is not None:
            self.buf.marks.append((len(self.buf.chars), key))
            return
        if name == "br":
            self._br(pre, inline)
            return
        if name == "img":
            return
        bold = bold or _is_bold(el)
        if inline:
            if name in _BLOCK or name in ("td", "th"):
                self.buf.space()
                self.walk(el, bold, pre, inline=True)
                self.buf.space()
            else:
                self.walk(el, bold, pre, inline=True)
            return
        if name == "table":
            self.flush()
            self.table(el)
            return
        if name == "pre":
            self._pre(el, bold, pre)
            return
        if name in ("ol", "ul", "menu", "dir"):
            self.flush()
            self.list_depth += 1
            try:
                self.list(el, bold)
            finally:
                self.list_depth -= 1
            return
        if re.fullmatch(r"h[1-6]", name):
            self.flush()
            self.cues = {"heading_level": int(name[1]), "style": name}
            self.walk(el, bold, pre)
            self.flush()
            return
        if name in _BLOCK or name in ("td", "th", "dt", "dd"):
            self.flush()
            if name in ("p", "blockquote", "dt", "dd", "figcaption", "summary", "address"):
                self.cues = {"style": name}
            self.walk(el, bold, pre)
            self.flush()
            return
        self.walk(el, bold, pre)

    def _skipped(self, el: Tag, name: str) -> bool:
        """Not content: footnotes moved after the body, hidden elements, page headers/footers, navigation."""
        if id(el) in self.drop_ids or name in _DROP or _is_hidden(el):
            return True
        if name in ("header", "footer") and not el.find_parent(["article", "main", "section"]):
            return True
        if name == "aside" and (str(el.get("role", "")).lower() == "navigation"
                                or _NAV_HINT.search(_classes(el))):
            return True
        # breadcrumbs, skip links, site menus (gnb/lnb/snb), pagination, share buttons
        return str(el.get("role", "")).lower() == "navigation" or bool(
            name in ("div", "ul", "ol", "p", "section", "span") and _CHROME_HINT.search(_classes(el))
            and not el.find(re.compile(r"^h[1-6]$")) and len(el.get_text(" ", strip=True)) < 300)

    def _br(self, pre: bool, inline: bool) -> None:
        if pre:
            self.buf.add("\n", False)
        elif inline:
            self.buf.space()
        else:
            cues = dict(self.cues)
            cues.pop("numbering", None)
            self.flush()
            self.cues = cues

    def _pre(self, el: Tag, bold: bool, pre: bool) -> None:
        """Preformatted text: one code line per source line."""
        self.flush()
        self.walk(el, bold, pre=True, inline=True)
        text = "".join(self.buf.chars)
        self.buf = _Buf()
        for ln in text.strip("\n").split("\n"):
            if ln.strip():
                self.b.add_line(ln.rstrip(), role="code", style="pre")

    def list(self, el: Tag, bold: bool) -> None:
        ordered = el.name == "ol"
        typ = _list_type(el, "1")
        items = [c for c in el.children if isinstance(c, Tag) and c.name == "li"]
        reversed_ = ordered and el.has_attr("reversed")
        start = _int(el.get("start"), len(items) if reversed_ else 1)
        n = start
        for child in el.children:
            if not isinstance(child, Tag):
                if isinstance(child, NavigableString) and not isinstance(child, Comment) and str(child).strip():
                    self.buf.add_text(str(child), bold)
                continue
            if child.name != "li":
                self.element(child, bold, False, False)
                continue
            if id(child) in self.drop_ids or _is_hidden(child):
                continue
            self.flush()
            if child.has_attr("value"):
                n = _int(child.get("value"), n)
            cues: dict[str, Any] = {"role": "list_item", "indent": self.list_depth - 1, "style": "li"}
            if ordered:
                t = _list_type(child, typ)
                label = _fmt_number(n, t) + ("" if t == "①" else ".")
                cues["numbering"] = label
                self.buf.add(label + " ", False)
                n = n - 1 if reversed_ else n + 1
            self.cues = cues
            self.walk(child, bold)
            self.flush()

    def table(self, table: Tag) -> None:
        cap = table.find("caption")
        if cap is not None and cap.find_parent("table") is table:
            self.walk(cap, False, inline=True)
            self.cues = {"role": "caption", "style": "caption"}
            self.flush()
        for tr in table.find_all("tr"):
            if tr.find_parent("table") is not table:
                continue
            cells = [c for c in tr.children if isinstance(c, Tag) and c.name in ("td", "th")]
            if not cells:
                continue
            texts: list[str] = []
            marks: list[tuple[int, str]] = []
            pos = 0
            bp = 0
            for cell in cells:
                if _is_hidden(cell):
                    continue
                self.walk(cell, _is_bold(cell), inline=True)
                t, cbp, cmarks = self.buf.take()
                if texts:
                    pos += 3
                if not texts:
                    bp = cbp
                marks.extend((pos + o, lab) for o, lab in cmarks)
                texts.append(t)
                pos += len(t)
            line = " | ".join(texts)
            if not line.replace("|", "").strip():
                continue
            header = all(c.name == "th" for c in cells)
            self.b.add_line(line, marks=marks, role="table_row", style="th" if header else "tr",
                            bold=bp > 0, bold_prefix=bp)


def _find_footnotes(soup: BeautifulSoup) -> tuple[dict[int, str], list[tuple[str, Tag]], set[int]]:
    """References (id(tag) → key), footnote elements in order (key, element), ids of removed tags."""
    by_id: dict[str, Tag] = {}
    for t in soup.find_all(id=True):
        by_id.setdefault(str(t.get("id")), t)
    refs: dict[int, str] = {}
    notes: dict[str, Tag] = {}
    labels: dict[str, str] = {}
    for a in soup.find_all("a", href=True):
        href = str(a.get("href"))
        if not href.startswith("#") or len(href) < 2:
            continue
        target = by_id.get(href[1:])
        if target is None or target.name not in ("li", "p", "div", "aside", "dd", "section", "span"):
            continue
        label = a.get_text().strip().strip("[]()")
        if not label or len(label) > 6:
            continue
        cls = _classes(a)
        in_sup = a.find_parent("sup") is not None or a.find("sup") is not None
        container = target.find_parent(lambda t: _FN_CONTAINER.search(_classes(t)) is not None
                                       or str(t.get("role", "")).startswith("doc-endnote"))
        is_ref = (in_sup or "footnote" in cls.lower() or "noteref" in str(a.get("role", ""))
                  or container is not None or _FN_CONTAINER.search(_classes(target)) is not None)
        if not is_ref or _BACKREF.search(" ".join(a.get("class") or [])) or _BACKREF.search(href) \
                or a.find_parent(id=href[1:]) is not None:
            continue
        key = href[1:]
        # the whole <sup> is the mark when it holds nothing but the reference
        mark_el: Tag = a
        sup = a.find_parent("sup")
        if sup is not None and sup.get_text().strip().strip("[]()") == label:
            mark_el = sup
        refs[id(mark_el)] = key
        if key not in notes:
            notes[key] = target
            labels[key] = label
    drop: set[int] = set()
    ordered: list[tuple[str, Tag]] = []
    for key, target in notes.items():
        ordered.append((key, target))
        drop.add(id(target))
        container = target.find_parent(lambda t: _FN_CONTAINER.search(_classes(t)) is not None
                                       or str(t.get("role", "")).startswith("doc-endnote"))
        if container is not None and container.name not in ("body", "html", "main", "article"):
            drop.add(id(container))
    # document order of footnotes
    pos = {id(t): i for i, t in enumerate(soup.find_all(True))}
    ordered.sort(key=lambda kv: pos.get(id(kv[1]), 0))
    return refs, [(labels[k] + "\x00" + k, t) for k, t in ordered], drop


def load_bytes(data: bytes, source: str) -> Document:
    declared = sniff_html_charset(data)
    text, encoding = decode(data, source, declared=declared)
    soup = BeautifulSoup(text, "lxml")
    metadata: dict[str, Any] = {"encoding": encoding}
    if soup.title and soup.title.string:
        metadata["title"] = " ".join(soup.title.string.split())
    for meta in soup.find_all("meta"):
        name = str(meta.get("name") or meta.get("property") or "").lower()
        if name in ("description", "author", "keywords", "og:title", "date") and meta.get("content"):
            metadata[name] = str(meta.get("content"))
    refs, notes, drop = _find_footnotes(soup)
    w = _Walker(refs, drop)
    root = soup.body or soup
    w.walk(root)
    w.flush()
    b = w.b
    if notes:
        b.start_footnotes()
        for packed, el in notes:
            label, key = packed.split("\x00", 1)
            fw = _Walker({}, set())
            # drop back-links inside the footnote
            for a in el.find_all("a", href=True):
                if _BACKREF.search(_classes(a)) or str(a.get("href", "")).startswith("#fnref") or \
                        a.get_text().strip() in ("↩", "↩︎", "^"):
                    a.decompose()
            fw.walk(el, inline=True)
            t, _bp, _m = fw.buf.take()
            t = f"{label} {t}".strip()
            b.add_footnote(label, [(t, {"style": el.name})], key=key)
    doc = b.build(source, metadata=metadata)
    if not doc.text.strip():
        doc.warnings.append("no text")
    return doc
