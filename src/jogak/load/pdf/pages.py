"""Opening a PDF (pypdf validates and detects encryption) and reading each page's lines with pdfplumber.

Per page: dedupe characters → tables (pdfplumber ruling-line detection; each row one line, cells kept
as their wrapped lines) → characters outside tables grouped into visual lines → horizontal rules and the
share of the page covered by images (a scanned page is an image with almost no text).
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from jogak.load.errors import CorruptFileError, EncryptedFileError, short
from jogak.load.joining import join_wrapped
from jogak.load.pdf.dedupe import TooDense, dedupe_page
from jogak.load.pdf.lines import Char, VLine, build_vline, group_lines


def open_pdf(data: bytes, source: str) -> tuple[Any, int]:
    """Validate with pypdf; return (pdfplumber PDF, n_pages)."""
    import pypdf
    from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError

    try:
        reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
        encrypted = reader.is_encrypted
        if encrypted:
            try:
                ok = reader.decrypt("")
            except (DependencyError, NotImplementedError):
                raise EncryptedFileError(source, "encrypted PDF — unsupported encryption, password required") \
                    from None
            if not ok:
                raise EncryptedFileError(source, "encrypted PDF — password required")
        n_pages = len(reader.pages)
    except EncryptedFileError:
        raise
    except FileNotDecryptedError:
        raise EncryptedFileError(source, "encrypted PDF — password required") from None
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError, IndexError, AssertionError,
            RecursionError, OSError, EOFError, ZeroDivisionError) as e:
        raise CorruptFileError(source, f"corrupt PDF: {short(e)}") from None
    if n_pages == 0:
        raise CorruptFileError(source, "corrupt PDF: no pages")
    import pdfplumber

    try:
        pdf = pdfplumber.open(io.BytesIO(data), password="" if encrypted else None)
        _ = pdf.pages
    except Exception as e:
        raise CorruptFileError(source, f"corrupt PDF: {short(e)}") from None
    return pdf, n_pages


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """pypdf/pdfminer log recoverable damage ("EOF marker not found") to stderr; the loader reports
    problems itself, so those loggers are raised to ERROR while a file is read."""
    loggers = [logging.getLogger(n) for n in ("pypdf", "pdfminer", "pdfplumber")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for lg, lv in zip(loggers, levels, strict=True):
            lg.setLevel(lv)


@dataclass
class Page:
    number: int
    width: float
    height: float
    lines: list[VLine]  # body candidates incl. table rows, in reading order
    n_chars: int
    n_cid: int
    rules: list[tuple[float, float, float]]  # horizontal rules (x0, x1, y)
    image_cover: float = 0.0  # share of the page area covered by images
    ocr_conf: float | None = None  # the page was recognised by OCR: mean word confidence (0–100)

    @property
    def scanned(self) -> bool:
        """No text layer: (almost) no characters, or a page image with no more text than a scanner stamp
        ("Scanned with CamScanner") — a page of real text has hundreds of characters."""
        if self.ocr_conf is not None:
            return False
        text = self.n_chars - self.n_cid
        return text < 10 or (self.image_cover >= 0.5 and text < 100)


def read_page(page: Any, number: int) -> Page:
    try:
        p = dedupe_page(page, number, tolerance=1)
    except TooDense:
        raise
    except Exception:
        p = page
    raw = p.chars
    n_cid = sum(1 for c in raw if str(c.get("text", "")).startswith("(cid:"))
    n_chars = sum(1 for c in raw if str(c.get("text", "")).strip())
    tables = []
    try:
        tables = p.find_tables()
    except Exception:
        tables = []
    chars = _chars_outside(raw, [t.bbox for t in tables])
    vlines = [v for v in (build_vline(number, g) for g in group_lines(chars)) if v is not None]
    for t in tables:
        rows = _table_rows(t, number)
        vlines.extend(rows)
    vlines.sort(key=lambda v: (v.top, v.x0))
    return Page(number=number, width=float(page.width), height=float(page.height), lines=vlines,
                n_chars=n_chars, n_cid=n_cid, rules=_rules(p), image_cover=_image_cover(page, p))


def ocr_page(page: Page, chars: list[dict[str, Any]], conf: float) -> Page:
    """``page`` rebuilt from OCR glyphs: they go through the same line model as a text layer's."""
    glyphs = _chars_outside(chars, [])
    vlines = [v for v in (build_vline(page.number, g) for g in group_lines(glyphs)) if v is not None]
    vlines.sort(key=lambda v: (v.top, v.x0))
    n = sum(1 for c in chars if str(c.get("text", "")).strip())
    return Page(number=page.number, width=page.width, height=page.height, lines=vlines, n_chars=n, n_cid=0,
                rules=[], image_cover=page.image_cover, ocr_conf=conf)


def _chars_outside(raw: list[dict[str, Any]], boxes: list[Any]) -> list[Char]:
    """The page's text characters that are not inside a table (and not unmapped ``(cid:N)`` glyphs)."""

    def in_table(c: dict[str, Any]) -> bool:
        cx = (c["x0"] + c["x1"]) / 2
        cy = (c["top"] + c["bottom"]) / 2
        return any(b[0] - 1 <= cx <= b[2] + 1 and b[1] - 1 <= cy <= b[3] + 1 for b in boxes)

    chars: list[Char] = []
    for c in raw:
        t = str(c.get("text", ""))
        if not t or t.startswith("(cid:") or in_table(c):
            continue
        if t in ("\u00a0", "\u3000"):
            t = " "
        chars.append(Char(text=t, x0=float(c["x0"]), x1=float(c["x1"]), top=float(c["top"]),
                          bottom=float(c["bottom"]), size=float(c.get("size") or 0.0),
                          font=str(c.get("fontname") or "")))
    return chars


def _rules(p: Any) -> list[tuple[float, float, float]]:
    rules = []
    try:
        for ln in p.lines + p.rects:
            if abs(ln["top"] - ln["bottom"]) < 2 and ln["x1"] - ln["x0"] > 20:
                rules.append((float(ln["x0"]), float(ln["x1"]), float(ln["top"])))
    except Exception:
        pass
    return rules


def _image_cover(page: Any, p: Any) -> float:
    cover = 0.0
    try:
        area = float(page.width) * float(page.height)
        for im in p.images:
            w = max(0.0, min(float(im["x1"]), float(page.width)) - max(float(im["x0"]), 0.0))
            h = max(0.0, min(float(im["bottom"]), float(page.height)) - max(float(im["top"]), 0.0))
            cover += w * h / area if area else 0.0
    except Exception:
        cover = 0.0
    return min(cover, 1.0)


def _table_rows(table: Any, number: int) -> list[VLine]:
    out: list[VLine] = []
    try:
        rows = table.rows
        data = table.extract()
    except Exception:
        return out
    for row, cells in zip(rows, data, strict=False):
        cell_lines = [(c or "").split("\n") for c in cells]
        texts = [join_wrapped(cl) for cl in cell_lines]
        if not any(texts):
            continue
        text = " | ".join(texts)
        top, bottom = float(row.bbox[1]), float(row.bbox[3])
        out.append(VLine(page=number, chars=[], text=text, flags=[False] * len(text), marks=[],
                         x0=float(row.bbox[0]), x1=float(row.bbox[2]), top=top, bottom=bottom, size=0.0,
                         table=True, cell_lines=cell_lines))
    return out
