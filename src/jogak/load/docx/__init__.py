"""DOCX loader (python-docx opens the package; the WordprocessingML is read with lxml).

Modules: ``package`` (zip checks, parts, core properties), ``ooxml`` (namespaces, attribute readers),
``styles``, ``numbering`` (number formats, list counters), ``render`` (a paragraph → lines), ``tables``,
``body`` (document order, pages), ``notes`` (footnotes/endnotes after the body).

* Safety first: the zip is checked before python-docx sees it (not a zip / truncated →
  ``CorruptFileError``; more than 400 MB uncompressed, or a member inflating more than 200× and past
  10 MB → ``OversizeError`` "zip bomb suspected"). XML is parsed without entity resolution or network.
* Body elements in document order: paragraphs and tables interleaved (the parties block of a contract
  is often a table), content controls (``w:sdt``) unwrapped. Headers/footers (page furniture), comments,
  deleted text (``w:del``), field instructions and hidden (``w:vanish``) runs are not text. Text boxes
  and drawings are skipped.
* One line per paragraph; a manual line break (``w:br``/``w:cr``) starts a new line of the same
  paragraph; a tab is rendered as one space; empty paragraphs produce no line. Indentation is not in
  the text.
* Cues: ``style`` = paragraph style name; ``heading_level`` from "Heading N"/"제목 N" styles or an
  outline level (pPr or style chain); "Title"/"제목" → ``role="title"``; ``bold`` when the first
  content run is bold (run, character style, paragraph style and document defaults resolved);
  ``bold_prefix`` = length of the bold run at the line start (a numbering label counts as bold when its
  level or the paragraph mark is bold); ``font_size`` in points of the first content run; ``x0`` = the
  paragraph's left indent in points; ``indent`` = numbering level (``ilvl``), 0 otherwise.
* Automatic numbering (``w:numPr`` → numbering.xml, also via the style chain) is rendered into the
  text and into ``numbering``: decimal, decimalZero, decimalEnclosedCircle (①), ganada (가), chosung
  (ㄱ), lower/upperLetter, lower/upperRoman, koreanDigital, koreanCounting, ideographDigital,
  decimalFullWidth, decimalEnclosedParen/Fullstop, with ``lvlText`` templates like ``%1.``, ``(%1)``,
  ``제%1조``, ``%1.%2.``; counters per ``numId`` with level restarts and start overrides. Bullets are not
  put in the text (``role="list_item"``, ``numbering=None``); numbered paragraphs get
  ``role="list_item"`` unless they are headings.
* Tables: one line per row (header rows included), cells joined with ``" | "``, a cell's paragraphs
  joined with a space, horizontally merged cells once, vertically merged continuation cells empty,
  nested tables flattened into their cell; ``role="table_row"``, ``style`` = table style name or None.
* Footnotes from ``word/footnotes.xml`` (separator/continuation entries skipped) and endnotes from
  ``word/endnotes.xml``: ``w:footnoteReference`` has no text, so the mark is an offset
  (``FootnoteMark(offset, label)``, ``end=None``; custom marks are removed from the text too). Notes are
  numbered in order of first reference (footnotes 1, 2, 3…; endnotes i, ii, iii… as Word shows them,
  or the custom mark) and appended after ``body_end`` as ``"<label> <text>"`` lines with
  ``role="footnote"``; unreferenced notes are dropped with a warning.
* Pages: if Word saved rendered page breaks (``w:lastRenderedPageBreak``) they define the pages
  (``metadata["page_source"] = "rendered"``); otherwise there are no page numbers (``None``): explicit
  breaks alone would give every page that overflowed the number of the page before, so citations would
  read "p.1" for most of a document (a warning says so when the file has them). A footnote's page is
  the page of its first mark.
"""

from __future__ import annotations

from typing import Any

from jogak.load.builder import DocBuilder
from jogak.load.docx.body import explicit_breaks, page_mode_of, render_body
from jogak.load.docx.notes import emit_notes
from jogak.load.docx.numbering import Numbering, format_number
from jogak.load.docx.package import check_zip, core_metadata, open_document, read_parts
from jogak.load.docx.render import Ctx
from jogak.load.docx.styles import parse_styles
from jogak.model import Document

__all__ = ["check_zip", "format_number", "load_bytes"]


def load_bytes(data: bytes, source: str) -> Document:
    d = open_document(data, source)
    body = d.element.body
    warnings: list[str] = []
    parts = read_parts(d, warnings)
    styles = parse_styles(parts.styles)
    numbering = Numbering(parts.numbering, styles)
    page_mode = page_mode_of(body)
    ctx = Ctx(styles, numbering, page_mode)
    b = DocBuilder("docx")
    render_body(body, ctx, b)
    n_pages = ctx.page if page_mode else 0
    emit_notes(b, ctx, parts.notes, bool(page_mode), warnings)
    n_explicit = explicit_breaks(body) if page_mode is None else 0
    if n_explicit:
        warnings.append(f"no page numbers: Word saved no page layout in this file (no rendered page breaks); "
                        f"its {n_explicit} explicit page break(s) alone would give every page that overflowed "
                        "the number of the page before")
    metadata: dict[str, Any] = {"page_source": page_mode, **core_metadata(d)}
    doc = b.build(source, n_pages=n_pages, metadata=metadata, warnings=warnings)
    if not doc.text.strip():
        doc.warnings.append("no text")
    return doc
