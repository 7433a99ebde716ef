"""HWPX loader (한글's zip + OWPML XML format, KS X 6101), read with the standard library's zipfile and lxml.

Why not python-hwpx: it is an editing library (a document model, writers, validators; a new major
version every few months) while reading needs only the package layout and a few OWPML elements, and
the zip must be guarded before anything parses it. zipfile + lxml (already a dependency) keep the
reader small, fast to import and under our control; python-hwpx generates the test fixtures.

* Safety first: the zip is checked as the DOCX loader checks it (readable, member count, declared and
  measured inflation — "zip bomb suspected" ``OversizeError``), the ``mimetype`` entry must say
  ``application/hwp+zip``, XML is parsed without entities or network, encrypted packages (an
  ``encryption-data`` entry in ``META-INF/manifest.xml``) raise ``EncryptedFileError``.
* Sections in the order of ``Contents/content.hpf``'s spine. Paragraphs (``hp:p``) in document order;
  runs' ``hp:t`` text with tabs as spaces, line breaks as new lines; ``hp:switch`` takes its first case.
* Tables (``hp:tbl``): one line per row, cells by column address; a cell spanning rows leaves an empty
  place in the rows below; nested tables flattened into their cell; captions with ``role="caption"``.
  A paragraph's text before and after an inline table stays around it.
* Footnotes/endnotes (``hp:footNote``/``hp:endNote``): the mark at the control's place, the note's
  paragraphs after ``body_end`` (labels 1, 2, … and i, ii, …). Headers, footers and hidden comments are
  page furniture, not text. Text boxes (``hp:drawText``) follow the paragraph that anchors them.
* Cues from ``Contents/header.xml``: 개요 (outline) paragraphs get ``heading_level``; numbered
  paragraphs get their label rendered (``^1.`` templates, 한글's number formats) and
  ``role="list_item"``; bullets are not put in the text; ``style`` = style name; bold/size from the
  character properties; ``x0`` = left margin in points. Pages: ``pageBreak="1"`` and new sections.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from typing import Any

from lxml import etree

from jogak.load.errors import CorruptFileError, EncryptedFileError, short
from jogak.load.hangul import (
    Cell,
    Counters,
    HangulDoc,
    Level,
    NumberingDef,
    OutLine,
    ParaBuf,
    finish_paragraph,
    table_rows,
)
from jogak.load.zipguard import inflate_all, open_zip
from jogak.model import Document

HP = "{http://www.hancom.co.kr/hwpml/2011/paragraph}"
HH = "{http://www.hancom.co.kr/hwpml/2011/head}"
HC = "{http://www.hancom.co.kr/hwpml/2011/core}"
OPF = "{http://www.idpf.org/2007/opf/}"
MIMETYPE = b"application/hwp+zip"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, remove_comments=True)
_SKIPPED_CTRLS = {HP + "header", HP + "footer", HP + "hiddenComment"}
_SHAPES = {HP + t for t in ("rect", "ellipse", "polygon", "arc", "curve", "container", "textart")}


# ─── package ─────────────────────────────────────────────────────────────────────────────────────


def check_zip(data: bytes, source: str) -> zipfile.ZipFile:
    """Open the package with the same limits as the DOCX loader; every member is inflated once."""
    zf = open_zip(data, source, "HWPX")
    inflate_all(zf, source, "HWPX")
    return zf


def _xml(zf: zipfile.ZipFile, name: str, source: str) -> Any:
    try:
        return etree.fromstring(zf.read(name), _PARSER)
    except KeyError:
        raise CorruptFileError(source, f"corrupt HWPX: no {name}") from None
    except etree.XMLSyntaxError as e:
        raise CorruptFileError(source, f"corrupt HWPX: {name} is not well-formed XML ({short(e)})") from None


def _section_names(zf: zipfile.ZipFile, source: str) -> list[str]:
    names = zf.namelist()
    out: list[str] = []
    if "Contents/content.hpf" in names:
        hpf = _xml(zf, "Contents/content.hpf", source)
        hrefs = {it.get("id"): it.get("href") for it in hpf.iter(OPF + "item")}
        for ref in hpf.iter(OPF + "itemref"):
            href = hrefs.get(ref.get("idref"))
            if href and re.search(r"section\d+\.xml$", href):
                href = href if href in names else posixpath.join("Contents", posixpath.basename(href))
                if href in names:
                    out.append(href)
    if not out:
        out = sorted((n for n in names if re.fullmatch(r"Contents/section\d+\.xml", n)),
                     key=lambda n: int(re.findall(r"\d+", n)[-1]))
    if not out:
        raise CorruptFileError(source, "corrupt HWPX: no Contents/section*.xml")
    return out


# ─── header: shapes, styles, numbering ───────────────────────────────────────────────────────────


def _int(v: Any, default: int = 0) -> int:
    try:
        return int(str(v))
    except (TypeError, ValueError):
        return default


class _Header:
    def __init__(self, root: Any) -> None:
        self.chars: dict[str, tuple[float | None, bool]] = {}
        self.paras: dict[str, tuple[str, str, int, float | None]] = {}  # type, idRef, level, left pt
        self.styles: dict[str, str] = {}
        self.numberings: dict[str, NumberingDef] = {}
        if root is None:
            return
        for cp in root.iter(HH + "charPr"):
            h = _int(cp.get("height"))
            self.chars[cp.get("id") or ""] = (h / 100 if h > 0 else None, cp.find(HH + "bold") is not None)
        for pp in root.iter(HH + "paraPr"):
            head = _first(pp, HH + "heading")
            typ, ref, lvl = ("NONE", "0", 0) if head is None else (
                head.get("type") or "NONE", head.get("idRef") or "0", _int(head.get("level")))
            self.paras[pp.get("id") or ""] = (typ, ref, lvl, _left_margin(pp))
        for st in root.iter(HH + "style"):
            self.styles[st.get("id") or ""] = st.get("name") or st.get("engName") or ""
        for nb in root.iter(HH + "numbering"):
            levels = {}
            for ph in nb.iter(HH + "paraHead"):
                levels[_int(ph.get("level"), 1)] = Level(fmt=ph.get("numFormat") or "DIGIT",
                                                         template=ph.text or "", start=_int(ph.get("start"), 1))
            self.numberings[nb.get("id") or ""] = NumberingDef(levels=levels)


def _first(el: Any, tag: str) -> Any:
    """The first ``tag`` under ``el``, preferring an ``hp:switch``'s first case over its default."""
    for found in el.iter(tag):
        return found
    return None


def _left_margin(pp: Any) -> float | None:
    # hp:case (HwpUnitChar) holds HWPUNITs (100 per point); the compatible default doubles them
    for case in pp.iter(HP + "case"):
        left = case.find(f"{HH}margin/{HC}left")
        if left is not None:
            return _int(left.get("value")) / 100 or None
    left = _first(pp, HC + "left")
    return (_int(left.get("value")) / 200 or None) if left is not None else None


# ─── body ────────────────────────────────────────────────────────────────────────────────────────


class _Reader:
    def __init__(self, header: _Header, doc: HangulDoc) -> None:
        self.h = header
        self.doc = doc
        self.counters = Counters(header.numberings)
        self.outline_id = "1"

    def section(self, root: Any, first: bool) -> None:
        if not first and self.doc.body:
            self.doc.new_page()
        for k, p in enumerate(root.findall(HP + "p")):
            self.doc.add(self.paragraph(p, body=True, first=(k == 0)))

    def sublist(self, el: Any) -> list[OutLine]:
        out: list[OutLine] = []
        if el is not None:
            for p in el.findall(HP + "p"):
                out.extend(self.paragraph(p, body=False))
        return out

    def paragraph(self, p: Any, *, body: bool, first: bool = False) -> list[OutLine]:
        if body and not first and p.get("pageBreak") == "1":
            self.doc.new_page()
        sec = p.find(f"{HP}run/{HP}secPr")
        if sec is not None:
            self.outline_id = sec.get("outlineShapeIDRef") or self.outline_id
        cues, label = self._cues(p)
        first_run = p.find(HP + "run")
        label_bold = bool(first_run is not None and self.h.chars.get(first_run.get("charPrIDRef") or "",
                                                                       (None, False))[1])
        state = {"buf": ParaBuf(), "started": False}
        out: list[OutLine] = []

        def flush() -> None:
            buf = state["buf"]
            if not buf.empty():
                lines = finish_paragraph(buf, label=None if state["started"] else label, cues=cues,
                                         label_bold=label_bold)
                out.extend(lines)
                state["started"] = state["started"] or bool(lines)
            state["buf"] = ParaBuf()

        for run in _unswitch(p):
            if run.tag == HP + "run":
                self.run(run, state, out, flush)
        flush()
        return out

    def _cues(self, p: Any) -> tuple[dict[str, Any], str | None]:
        typ, ref, lvl, left = self.h.paras.get(p.get("paraPrIDRef") or "", ("NONE", "0", 0, None))
        cues: dict[str, Any] = {"style": self.h.styles.get(p.get("styleIDRef") or ""), "heading_level": None,
                                "role": None, "x0": left, "indent": 0}
        label = None
        if typ == "OUTLINE":
            label = self.counters.next_label(ref if ref != "0" else self.outline_id, lvl + 1)
            cues["heading_level"] = lvl + 1
        elif typ == "NUMBER":
            label = self.counters.next_label(ref, lvl + 1)
            cues.update(role="list_item", indent=lvl, numbering=label)
        elif typ == "BULLET":
            cues.update(role="list_item", indent=lvl, numbering=None)
        return cues, label

    def run(self, run: Any, state: dict[str, Any], out: list[OutLine], flush: Any) -> None:
        size, bold = self.h.chars.get(run.get("charPrIDRef") or "", (None, False))
        for el in _unswitch(run):
            tag = el.tag if isinstance(el.tag, str) else ""
            if tag == HP + "t":
                self.text(el, state["buf"], bold, size)
            elif tag == HP + "ctrl":
                for c in _unswitch(el):
                    self.control(c, state["buf"])
            elif tag == HP + "tbl":
                flush()
                out.extend(self.table(el))
            elif tag in _SHAPES or tag == HP + "pic":
                boxes = [self.sublist(dt.find(HP + "subList")) for dt in el.iter(HP + "drawText")]
                if any(boxes):
                    flush()
                    for lines in boxes:
                        out.extend(lines)
            elif tag == HP + "dutmal":
                main = el.find(HP + "mainText")
                if main is not None and main.text:
                    state["buf"].text(main.text, bold, size)

    @staticmethod
    def text(t: Any, buf: ParaBuf, bold: bool, size: float | None) -> None:
        if t.text:
            buf.text(t.text, bold, size)
        for c in t:
            tag = c.tag if isinstance(c.tag, str) else ""
            if tag == HP + "tab" or tag in (HP + "nbSpace", HP + "fwSpace"):
                buf.text(" ", bold, size)
            elif tag == HP + "lineBreak":
                buf.newline()
            elif tag == HP + "hyphen":
                buf.text("-", bold, size)
            if c.tail:
                buf.text(c.tail, bold, size)

    def control(self, c: Any, buf: ParaBuf) -> None:
        tag = c.tag if isinstance(c.tag, str) else ""
        if tag in (HP + "footNote", HP + "endNote"):
            kind = "f" if tag == HP + "footNote" else "e"
            key = self.doc.note_key(kind)
            buf.mark(key)
            self.doc.add_note(kind, key, self.sublist(c.find(HP + "subList")))
        elif tag == HP + "autoNum" and c.get("numType") in ("PICTURE", "TABLE", "EQUATION"):
            buf.text(c.get("num") or "", False, None)
        # headers, footers, hidden comments, fields, bookmarks, page numbers: no body text

    def table(self, tbl: Any) -> list[OutLine]:
        cells: list[Cell] = []
        for tr_i, tr in enumerate(tbl.findall(HP + "tr")):
            for tc_i, tc in enumerate(tr.findall(HP + "tc")):
                addr = tc.find(HP + "cellAddr")
                span = tc.find(HP + "cellSpan")
                row = _int(addr.get("rowAddr"), tr_i) if addr is not None else tr_i
                col = _int(addr.get("colAddr"), tc_i) if addr is not None else tc_i
                rowspan = _int(span.get("rowSpan"), 1) if span is not None else 1
                text, marks, bp, bold = "", [], 0, False
                for ln in self.sublist(tc.find(HP + "subList")):
                    off = len(text) + (1 if text else 0)
                    if not text:
                        bp, bold = ln.cues.get("bold_prefix", 0), bool(ln.cues.get("bold"))
                    text = f"{text} {ln.text}" if text else ln.text
                    marks.extend((off + o, key) for o, key in ln.marks)
                cells.append((row, col, max(rowspan, 1), 1, text, marks, bp, bold))
        rows = table_rows(cells)
        cap = tbl.find(HP + "caption")
        caption = self.sublist(cap.find(HP + "subList")) if cap is not None else []
        for ln in caption:
            ln.cues["role"] = "caption"
        above = cap is not None and cap.get("side") == "TOP"
        return (caption + rows) if above else (rows + caption)


def _unswitch(el: Any) -> list[Any]:
    """Children with each ``hp:switch`` replaced by its first case (or its default)."""
    out = []
    for c in el:
        if c.tag == HP + "switch":
            chosen = c.find(HP + "case")
            if chosen is None:
                chosen = c.find(HP + "default")
            if chosen is not None:
                out.extend(_unswitch(chosen))
        else:
            out.append(c)
    return out


def load_bytes(data: bytes, source: str) -> Document:
    zf = check_zip(data, source)
    names = set(zf.namelist())
    if "mimetype" not in names or zf.read("mimetype").strip() != MIMETYPE:
        raise CorruptFileError(source, "corrupt HWPX: no 'application/hwp+zip' mimetype entry (not a 한글 package)")
    if "META-INF/manifest.xml" in names and b"encryption-data" in zf.read("META-INF/manifest.xml"):
        raise EncryptedFileError(source, "encrypted HWPX (password-protected): open it in 한글 and save it "
                                         "without a password")
    header = _Header(_xml(zf, "Contents/header.xml", source) if "Contents/header.xml" in names else None)
    doc = HangulDoc("hwpx")
    reader = _Reader(header, doc)
    for k, name in enumerate(_section_names(zf, source)):
        reader.section(_xml(zf, name, source), first=(k == 0))
    metadata: dict[str, Any] = {}
    if "Contents/content.hpf" in names:
        hpf = _xml(zf, "Contents/content.hpf", source)
        title = hpf.find(f".//{OPF}title")
        if title is not None and (title.text or "").strip():
            metadata["title"] = title.text.strip()
        for meta in hpf.iter(OPF + "meta"):
            if meta.get("name") in ("creator", "subject") and (meta.text or "").strip():
                metadata["author" if meta.get("name") == "creator" else "subject"] = meta.text.strip()
    return doc.build(source, metadata=metadata, warnings=[])
