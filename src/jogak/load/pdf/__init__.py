"""PDF loader: pypdf validates and detects encryption; pdfplumber (pdfminer) characters give the layout.

Modules, in pipeline order: ``pages`` (open, read a page: dedupe, tables, characters) with ``dedupe``
(duplicate characters in O(n log n); at most 50,000 characters a page), ``lines`` (visual
lines, spaces, superscript marks), ``furniture``, ``footnotes``, ``paragraphs`` (which line continues
which, joining), ``wrap`` (was there a space at a break), ``assemble`` (the stages → Document), ``check``.

Pipeline per page: dedupe characters → tables (pdfplumber ruling-line detection) → characters outside
tables grouped into visual lines by vertical overlap (so raised superscripts stay on their line) →
characters ordered by x with spaces inserted from gaps (a gap over 3 × the font size inside a line is a
column gap: the line becomes a borderless table row, cells joined with " | ") → furniture removed →
footnote block at the page bottom split off → visual lines re-joined into logical lines.

Decisions the structure parser relies on:

* **Reading order** is top-to-bottom, single column. Tables are placed at their top edge.
* **Wrap joining** (``jogak.load.joining``): two visual lines are one paragraph when the first reaches
  the right text margin (the next line's first word would not have fitted), font size and weight
  match, the vertical pitch is the normal leading for that size (paragraph spacing breaks), the next
  line is aligned with the paragraph (no extra indent; a first-line indent or hanging label is
  allowed), and the next line does not start with a structural label (①, 1., 가., 제N조, (1), -, •, Q./A.,
  ※ …; a "다. " after a full line is a label only in sequence, 가. or after 나.). Whether a break had a
  space (``wrap.WrapAnalysis``): the document is classified as wrapping by word (어절 — every break was a
  space) or by character (breaks inside words) from the natural width of its full lines (justification
  stretch removed) against what the next line starts with; in a character-wrapped document a break is a
  space when the next glyph would have fitted, else Kiwi reads the words on both sides
  (``jogak.load.spacing``; nouns are never split). ``metadata["wrap"]`` reports the mode. Latin words
  get one space; a soft hyphen between lowercase letters is removed (``metadata["removed"]["hyphens"]``).
* **Page breaks**: a paragraph whose last line on page *n* is full and whose continuation starts page
  *n+1* (same size, aligned, no label, previous line not ending a sentence) is re-joined; its Line has
  the first page, and ``pages`` has one span per page, so every character offset maps to its page.
* **Superscript footnote marks** (smaller raised characters attached to a word) are **removed** from
  the text and recorded as ``FootnoteMark(offset, label)`` with ``end=None`` — the same convention as
  the DOCX/HTML/Markdown loaders (a mark left in the text would glue to numbers: "10,000" + "3").
* **Footnotes**: lines below the body in a smaller font that start with a label matching a mark on
  that page are moved after the body (``body_end``), one ``Footnote`` per label, its lines
  ``role="footnote"``, text ``"<label> <text>"`` as printed; ``Footnote.page`` and its PageSpan give the
  page it sat on (spans are not monotonic in page after ``body_end``).
* **Furniture**: folios ("- 3 -", "3", "Page 3 of 10", "3 / 10", "3쪽") in the top/bottom band and
  running headers/footers (same text, digits normalised, at the same height on at least two pages,
  not larger than body text) are dropped; ``metadata["furniture"]`` = count, examples and every item
  (page, text, kind).
* **Cues**: ``font_size`` (dominant size), ``bold`` (font name says Bold/Black/Heavy/Semibold… for the
  first characters), ``bold_prefix`` (bold characters at the start), ``x0`` (left edge, points),
  ``heading_level`` (rank of font sizes larger than the body size: largest = 1), ``page``. Table rows
  (``role="table_row"``) are cells joined with ``" | "``; a cell's wrapped lines are re-joined.
* **Errors**: no ``%PDF`` header / parser failure → ``CorruptFileError``; encrypted with a non-empty
  user password → ``EncryptedFileError`` ("encrypted PDF — password required"); every page without a
  text layer (fewer than 10 characters, or a page image with fewer than 100 — a scanner app's stamp), or
  mostly unmapped ``(cid:N)`` glyphs → ``NoTextLayerError``.

**OCR** (``ocr``): pages without a text layer (and pages of unmapped cid glyphs) are rendered with pypdfium2
and read by Tesseract when it is installed (mode ``auto``; ``always`` reads every page, ``never`` none);
the recognised words become glyphs for the same line model, so headings, wrap re-joining and furniture
work as on text pages. ``metadata["ocr"]``, ``["ocr_pages"]`` (page → mean word confidence) and
``["ocr_confidence"]`` say which pages were read so; chunks of those pages carry ``ocr_confidence``.

``page_text_check(doc, data)`` cross-checks each page's non-whitespace characters in the Document with
pypdf's own ``page.extract_text()``, adding back what was removed (furniture, marks, hyphens).
"""

from __future__ import annotations

import contextlib

from jogak.load.errors import CorruptFileError, EncryptedFileError, NoTextLayerError, OversizeError, short
from jogak.load.pdf.assemble import assemble
from jogak.load.pdf.check import page_text_check
from jogak.load.pdf.dedupe import TooDense
from jogak.load.pdf.ocr import recognise_pages, with_ocr_info
from jogak.load.pdf.pages import Page, open_pdf, quiet, read_page
from jogak.model import Document

__all__ = ["load_bytes", "page_text_check"]


def load_bytes(data: bytes, source: str, ocr: str = "auto") -> Document:
    """``ocr``: never | auto (pages without a text layer, when Tesseract is installed) | always."""
    with quiet():
        return _load(data, source, ocr)


def _load(data: bytes, source: str, ocr_mode: str = "auto") -> Document:
    if b"%PDF-" not in data[:1024]:
        raise CorruptFileError(source, "corrupt PDF: not a PDF file (no %PDF header)")
    pdf, n_pages = open_pdf(data, source)
    pages: list[Page] = []
    try:
        for i, page in enumerate(pdf.pages, start=1):
            pages.append(read_page(page, i))
    except (EncryptedFileError, NoTextLayerError):
        raise
    except TooDense as e:
        raise OversizeError(source, str(e)) from None
    except Exception as e:
        raise CorruptFileError(source, f"corrupt PDF: {short(e)}") from None
    finally:
        with contextlib.suppress(Exception):
            pdf.close()
    pages, info = recognise_pages(pages, data, source, ocr_mode)
    total = sum(p.n_chars for p in pages)
    cid = sum(p.n_cid for p in pages)
    off = " (OCR is off: --ocr never / load.ocr: never)" if ocr_mode == "never" else ""
    if all(p.scanned for p in pages):
        raise NoTextLayerError(source, f"no extractable text — scanned? OCR needed{off}")
    if cid > 0.5 * total:
        raise NoTextLayerError(source, "no extractable text — fonts without Unicode mapping (cid glyphs); "
                                       f"OCR needed{off}")
    # pypdf and pdfplumber may disagree on a damaged page tree: the pages we read are the pages there are
    doc = assemble(pages, source, max(n_pages, len(pages)))
    return with_ocr_info(doc, info)
