"""PDF loader: pypdf validates and detects encryption; pdfplumber (pdfminer) characters give the layout.

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
  space (``_WrapAnalysis``): the document is classified as wrapping by word (어절 — every break was a
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

``page_text_check(doc, data)`` cross-checks each page's non-whitespace characters in the Document with
pypdf's own ``page.extract_text()``, adding back what was removed (furniture, marks, hyphens).
"""

from __future__ import annotations

import contextlib
import io
import itertools
import logging
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from jogak.load.builder import DocBuilder
from jogak.load.errors import CorruptFileError, EncryptedFileError, NoTextLayerError
from jogak.load.joining import is_cjk, join_wrapped, needs_decision, wrap_separator
from jogak.load.spacing import space_at_break
from jogak.model import Document

_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demibold|demi|extrabold|ultrabold|-bd|,bd|\bbd\b", re.I)
_MARK_TEXT = re.compile(r"^(?:\d{1,3}|[*†‡§¶]{1,3}|[a-z])$")
_FOLIO = [
    re.compile(r"^[-–—]\s*\d{1,4}\s*[-–—]$"),
    re.compile(r"^\d{1,4}$"),
    re.compile(r"^(?:page|p\.?)\s*\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$", re.I),
    re.compile(r"^\d{1,4}\s*/\s*\d{1,4}$"),
    re.compile(r"^[-–—]?\s*\d{1,4}\s*쪽\s*[-–—]?$"),
    re.compile(r"^[-–—]\s*\d{1,4}\s*/\s*\d{1,4}\s*[-–—]$"),
    re.compile(r"^[ivxlcdm]{1,6}$", re.I),
]
_LABEL = re.compile(
    r"^(?:[①-⑳㉑-㉟]|제\s*\d+\s*[조장절관편](?:의\s*\d+)?(?:\s|\(|$)|\d{1,3}[.)]\s|\d{1,3}(?:\.\d{1,3})+\.?\s|[가-하][.)]\s|"
    r"\(\d{1,3}\)|\([가-하]\)|[ⅰ-ⅿⅠ-Ⅿ]|[-•·※▶■□○●◎◇◆▷]\s|[A-Z][.)]\s|[a-z][.)]\s|부\s*칙|\[?\s*부\s*록|\[?\s*별\s*[표지]|"
    r"(?:Article|Section|ARTICLE|SECTION|Schedule|SCHEDULE|Exhibit|EXHIBIT)\s)"
)
# labels that always start a new line even after a full line that does not end a sentence
_STRONG_LABEL = re.compile(r"^(?:[①-⑳㉑-㉟]|제\s*\d+\s*[조장절관편](?:의\s*\d+)?(?:\s|\(|$)|[가-하][.)]\s|\([가-하]\)|"
                           r"[•※▶■□○●◎◇◆▷]\s|부\s*칙|\[?\s*부\s*록|\[?\s*별\s*[표지])")
_GANADA = "가나다라마바사아자차카타파하"
_GANADA_LABEL = re.compile(r"^([가-하])[.)]\s")
_CLAUSE_END = re.compile(r"[.:;。!?)\]」』]$|다\.?$")
_SENTENCE_END = re.compile(r"(?:[.!?。]|다\.|[.!?][\"'”’)\]])$")


# ─── line model ──────────────────────────────────────────────────────────────────────────────────


@dataclass
class _Char:
    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    font: str

    @property
    def bold(self) -> bool:
        return bool(_BOLD_FONT.search(self.font))


@dataclass
class _VLine:
    """One visual line on a page."""

    page: int
    chars: list[_Char]  # in x order, marks excluded
    text: str
    flags: list[bool]  # bold per text character
    marks: list[tuple[int, str]]  # (offset in text, label) of removed superscripts
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    lead_space: bool = False
    trail_space: bool = False
    cells: bool = False  # a borderless table row (column gaps)
    table: bool = False  # a row of a ruled table
    label_w: float = 0.0  # width of a leading structural label (hanging indent)
    first_w: float = 0.0  # width of the first character
    first_word_w: float = 0.0
    baseline: float = 0.0
    cell_lines: list[list[str]] | None = None  # a ruled table row: each cell's wrapped lines
    space_thr: float = 0.0  # a gap wider than this (points) between glyphs is a space

    @property
    def bold(self) -> bool:
        s = self.text.lstrip()
        k = len(self.text) - len(s)
        return bool(self.flags[k: k + 1] and self.flags[k])


@dataclass
class _Para:
    lines: list[_VLine] = field(default_factory=list)


def _dominant(values: list[float]) -> float:
    if not values:
        return 0.0
    c = Counter(round(v * 2) / 2 for v in values)
    return c.most_common(1)[0][0]


def _group_lines(chars: list[_Char]) -> list[list[_Char]]:
    chars = sorted(chars, key=lambda c: ((c.top + c.bottom) / 2, c.x0))
    lines: list[list[_Char]] = []
    bands: list[list[float]] = []  # [top, bottom] of the main characters of each line
    for c in chars:
        h = max(c.bottom - c.top, 0.1)
        placed = False
        for k in range(len(lines) - 1, max(len(lines) - 3, -1), -1):
            t, b = bands[k]
            ov = min(b, c.bottom) - max(t, c.top)
            if ov >= 0.5 * min(h, b - t):
                lines[k].append(c)
                if h >= (b - t) * 0.9:
                    bands[k] = [min(t, c.top), max(b, c.bottom)] if h > (b - t) * 1.1 else [t, b]
                placed = True
                break
        if not placed:
            lines.append([c])
            bands.append([c.top, c.bottom])
    return lines


def _space_threshold(main: list[_Char], size: float) -> float:
    """The gap between two glyphs of a line above which there was a space (points).

    Normally 0.22 em. Engines that shrink spaces to fit one more word (HWP's 최소 공백) leave word gaps
    of about 0.15 em, so the threshold comes down to 0.11 em when the line's glyphs otherwise sit close
    together (median gap inside words + 0.09 em): kerning and letter-spacing justification stay inside
    words."""
    if not size:
        return 0.0
    xs = sorted(main, key=lambda c: c.x0)
    gaps = sorted(b.x0 - a.x1 for a, b in itertools.pairwise(xs) if b.x0 - a.x1 < 0.22 * size)
    base = gaps[len(gaps) // 2] if len(gaps) >= 3 else 0.0
    return min(0.22 * size, max(0.11 * size, base + 0.09 * size))


def _build_vline(page: int, chars: list[_Char]) -> _VLine | None:
    chars = sorted(chars, key=lambda c: c.x0)
    main = [c for c in chars if c.text.strip()]
    if not main:
        return None
    size = _dominant([c.size for c in main])
    big = [c for c in main if c.size >= 0.9 * size] or main
    baseline = statistics.median(c.bottom for c in big)
    thr = _space_threshold(main, size)
    # superscript marks: smaller, raised, short, attached to a preceding word
    is_mark = [False] * len(chars)
    for i, c in enumerate(chars):
        if c.text.strip() and c.size <= 0.8 * size and c.bottom < baseline - 0.2 * size:
            is_mark[i] = True
    out: list[str] = []
    flags: list[bool] = []
    marks: list[tuple[int, str]] = []
    kept: list[_Char] = []
    prev: _Char | None = None
    i = 0
    n = len(chars)
    while i < n:
        c = chars[i]
        if is_mark[i]:
            j = i
            label = ""
            while j < n and is_mark[j]:
                label += chars[j].text
                j += 1
            label = label.strip()
            attached = bool(kept) and kept[-1].text.strip() != ""
            if _MARK_TEXT.match(label) and attached:
                marks.append((len(out), label))
                # measure the next gap from the mark's right edge: no space appears where it was
                prev = _Char(text="", x0=chars[j - 1].x0, x1=chars[j - 1].x1, top=c.top, bottom=c.bottom,
                             size=kept[-1].size, font=kept[-1].font)
                i = j
                continue
            if not kept and _MARK_TEXT.match(label):
                # a raised label at the line start (a footnote's own number): keep it as text
                for ch in chars[i:j]:
                    out.append(ch.text)
                    flags.append(ch.bold)
                    kept.append(ch)
                out.append(" ")
                flags.append(False)
                prev = chars[j - 1]
                i = j
                continue
        if prev is not None and c.text != " " and (not out or out[-1] != " "):
            gap = c.x0 - prev.x1
            sz = min(c.size, prev.size) or size
            if gap > 3.0 * sz and kept:
                out.append("\x00")  # column gap marker (resolved below)
                flags.append(False)
            elif gap > thr * sz / size if size else gap > 0.22 * sz:
                out.append(" ")
                flags.append(False)
        if c.text == " " and out and out[-1] == " ":
            i += 1
            prev = c
            continue
        for ch in c.text:
            out.append(ch)
            flags.append(c.bold)
        kept.append(c)
        prev = c
        i += 1
    text = "".join(out)
    lead_space = text.startswith(" ")
    trail_space = text.endswith(" ")
    cells = "\x00" in text
    # strip and re-map
    lead = len(text) - len(text.lstrip(" "))
    body = text.strip(" ")
    flags = flags[lead: lead + len(body)]
    marks = [(max(0, min(o - lead, len(body))), lab) for o, lab in marks]
    if cells:
        parts = body.split("\x00")
        new = ""
        new_flags: list[bool] = []
        pos_map: list[int] = []
        k = 0
        for pi, part in enumerate(parts):
            if pi:
                new += " | "
                new_flags += [False] * 3
            stripped = part.strip(" ")
            lp = len(part) - len(part.lstrip(" "))
            for q in range(len(part)):
                pos_map.append(len(new) + max(0, min(q - lp, len(stripped))))
            new += stripped
            new_flags += flags[k + lp: k + lp + len(stripped)]
            k += len(part) + 1
            pos_map.append(len(new))
        marks = [(pos_map[o] if o < len(pos_map) else len(new), lab) for o, lab in marks]
        body, flags = new, new_flags
    if not body.strip():
        return None
    vis = [c for c in kept if c.text.strip()]
    first = vis[0]
    fw_end = first.x1
    for c in vis[1:]:
        if c.x0 - fw_end > thr:
            break
        fw_end = c.x1
    m = _LABEL.match(body)
    label_w = 0.0
    if m:
        # x of the first character after the label and its space
        lab_len = len(m.group(0).rstrip())
        nonspace = [c for c in kept if c.text.strip()]
        cum = 0
        for c in nonspace:
            cum += len(c.text)
            if cum >= lab_len:
                nxt = [d for d in nonspace if d.x0 > c.x1 - 0.1]
                label_w = (nxt[0].x0 - first.x0) if nxt else 0.0
                break
    return _VLine(page=page, chars=kept, text=body, flags=flags, marks=marks, x0=first.x0,
                  x1=vis[-1].x1, top=min(c.top for c in big), bottom=max(c.bottom for c in big),
                  size=size, lead_space=lead_space, trail_space=trail_space, cells=cells,
                  label_w=label_w, first_w=first.x1 - first.x0, first_word_w=fw_end - first.x0,
                  baseline=baseline, space_thr=thr)


# ─── document analysis ───────────────────────────────────────────────────────────────────────────


def _norm_furniture(s: str) -> str:
    return re.sub(r"\d+", "#", " ".join(s.split()))


def _is_folio(s: str) -> bool:
    s = " ".join(s.split())
    return any(p.match(s) for p in _FOLIO)


def _open(data: bytes, source: str) -> tuple[Any, int]:
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
        raise CorruptFileError(source, f"corrupt PDF: {_short(e)}") from None
    if n_pages == 0:
        raise CorruptFileError(source, "corrupt PDF: no pages")
    import pdfplumber

    try:
        pdf = pdfplumber.open(io.BytesIO(data), password="" if encrypted else None)
        _ = pdf.pages
    except Exception as e:
        raise CorruptFileError(source, f"corrupt PDF: {_short(e)}") from None
    return pdf, n_pages


def _short(e: BaseException) -> str:
    msg = " ".join(str(e).split()) or type(e).__name__
    return msg[:117] + "…" if len(msg) > 120 else msg


@dataclass
class _Page:
    number: int
    width: float
    height: float
    lines: list[_VLine]  # body candidates incl. table rows, in reading order
    n_chars: int
    n_cid: int
    rules: list[tuple[float, float, float]]  # horizontal rules (x0, x1, y)
    image_cover: float = 0.0  # share of the page area covered by images

    @property
    def scanned(self) -> bool:
        """No text layer: (almost) no characters, or a page image with no more text than a scanner stamp
        ("Scanned with CamScanner") — a page of real text has hundreds of characters."""
        text = self.n_chars - self.n_cid
        return text < 10 or (self.image_cover >= 0.5 and text < 100)


def _read_page(page: Any, number: int) -> _Page:
    try:
        p = page.dedupe_chars(tolerance=1)
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
    boxes = [t.bbox for t in tables]

    def in_table(c: dict[str, Any]) -> bool:
        cx = (c["x0"] + c["x1"]) / 2
        cy = (c["top"] + c["bottom"]) / 2
        return any(b[0] - 1 <= cx <= b[2] + 1 and b[1] - 1 <= cy <= b[3] + 1 for b in boxes)

    chars: list[_Char] = []
    for c in raw:
        t = str(c.get("text", ""))
        if not t or t.startswith("(cid:") or in_table(c):
            continue
        if t in ("\u00a0", "\u3000"):
            t = " "
        chars.append(_Char(text=t, x0=float(c["x0"]), x1=float(c["x1"]), top=float(c["top"]),
                           bottom=float(c["bottom"]), size=float(c.get("size") or 0.0),
                           font=str(c.get("fontname") or "")))
    vlines = [v for v in (_build_vline(number, g) for g in _group_lines(chars)) if v is not None]
    for t in tables:
        rows = _table_rows(t, number)
        vlines.extend(rows)
    vlines.sort(key=lambda v: (v.top, v.x0))
    rules = []
    try:
        for ln in p.lines + p.rects:
            if abs(ln["top"] - ln["bottom"]) < 2 and ln["x1"] - ln["x0"] > 20:
                rules.append((float(ln["x0"]), float(ln["x1"]), float(ln["top"])))
    except Exception:
        pass
    cover = 0.0
    try:
        area = float(page.width) * float(page.height)
        for im in p.images:
            w = max(0.0, min(float(im["x1"]), float(page.width)) - max(float(im["x0"]), 0.0))
            h = max(0.0, min(float(im["bottom"]), float(page.height)) - max(float(im["top"]), 0.0))
            cover += w * h / area if area else 0.0
    except Exception:
        cover = 0.0
    return _Page(number=number, width=float(page.width), height=float(page.height), lines=vlines,
                 n_chars=n_chars, n_cid=n_cid, rules=rules, image_cover=min(cover, 1.0))


def _table_rows(table: Any, number: int) -> list[_VLine]:
    out: list[_VLine] = []
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
        out.append(_VLine(page=number, chars=[], text=text, flags=[False] * len(text), marks=[],
                          x0=float(row.bbox[0]), x1=float(row.bbox[2]), top=top, bottom=bottom, size=0.0,
                          table=True, cell_lines=cell_lines))
    return out


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
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


def load_bytes(data: bytes, source: str) -> Document:
    with _quiet():
        return _load(data, source)


def _load(data: bytes, source: str) -> Document:
    if b"%PDF-" not in data[:1024]:
        raise CorruptFileError(source, "corrupt PDF: not a PDF file (no %PDF header)")
    pdf, n_pages = _open(data, source)
    pages: list[_Page] = []
    try:
        for i, page in enumerate(pdf.pages, start=1):
            pages.append(_read_page(page, i))
    except (EncryptedFileError, NoTextLayerError):
        raise
    except Exception as e:
        raise CorruptFileError(source, f"corrupt PDF: {_short(e)}") from None
    finally:
        with contextlib.suppress(Exception):
            pdf.close()
    total = sum(p.n_chars for p in pages)
    cid = sum(p.n_cid for p in pages)
    if all(p.scanned for p in pages):
        raise NoTextLayerError(source, "no extractable text — scanned? OCR needed")
    if cid > 0.5 * total:
        raise NoTextLayerError(source, "no extractable text — fonts without Unicode mapping (cid glyphs); "
                                       "OCR needed")
    # pypdf and pdfplumber may disagree on a damaged page tree: the pages we read are the pages there are
    return _assemble(pages, source, max(n_pages, len(pages)))


def _assemble(pages: list[_Page], source: str, n_pages: int) -> Document:
    warnings: list[str] = []
    for p in pages:
        if p.scanned:
            warnings.append(f"page {p.number} has no text layer (scanned?)")
    text_lines = [v for p in pages for v in p.lines if not v.table]
    body_size = _dominant([v.size for v in text_lines for _ in range(max(1, len(v.text) // 10))]) or 10.0

    # ── furniture ──────────────────────────────────────────────────────────────────────────────
    furniture: list[tuple[int, str, str]] = []
    removed_ids: set[int] = set()
    sig_pages: dict[tuple[str, int, str], set[int]] = defaultdict(set)

    def band(v: _VLine, p: _Page) -> str | None:
        if v.bottom <= p.height * 0.12:
            return "top"
        if v.top >= p.height * 0.88:
            return "bottom"
        return None

    for p in pages:
        for v in p.lines:
            b = band(v, p)
            if b and not v.table and v.size <= body_size + 0.5:
                sig_pages[(_norm_furniture(v.text), round(v.top / 4), b)].add(p.number)
    for p in pages:
        body_lines = [v for v in p.lines if not v.table]
        edge_ids = set()
        if body_lines:
            edge_ids = {id(body_lines[0]), id(body_lines[-1])}
            if len(body_lines) > 1:
                edge_ids |= {id(body_lines[1]), id(body_lines[-2])}
        for v in p.lines:
            b = band(v, p)
            if not b or v.table:
                continue
            if _is_folio(v.text) and id(v) in edge_ids:
                furniture.append((p.number, v.text, "folio"))
                removed_ids.add(id(v))
                continue
            if v.size > body_size + 0.5:
                continue
            key = (_norm_furniture(v.text), round(v.top / 4), b)
            near = set()
            for dk in (-1, 0, 1):
                near |= sig_pages.get((key[0], key[1] + dk, b), set())
            if len(near) >= 2 and (len(pages) < 4 or len(near) >= 0.5 * len(pages)):
                furniture.append((p.number, v.text, "header" if b == "top" else "footer"))
                removed_ids.add(id(v))
    for p in pages:
        p.lines = [v for v in p.lines if id(v) not in removed_ids]

    # ── footnotes at page bottoms ──────────────────────────────────────────────────────────────
    notes: list[tuple[int, str, list[_VLine]]] = []  # (page, label, lines)
    for p in pages:
        page_marks = {lab for v in p.lines for _, lab in v.marks}
        if not page_marks:
            continue
        # find the start of the footnote block: the first small-font line below the last body line
        lines = p.lines
        cut = None
        for k in range(len(lines)):
            v = lines[k]
            rest = lines[k:]
            if v.table or v.size >= body_size - 0.4:
                continue
            if not all((not r.table) and r.size < body_size - 0.4 for r in rest):
                continue
            lab = _note_label(v.text)
            if lab in page_marks:
                cut = k
                break
        if cut is None:
            continue
        cur: tuple[str, list[_VLine]] | None = None
        for v in lines[cut:]:
            lab = _note_label(v.text)
            if lab is not None and lab in page_marks and (cur is None or lab != cur[0]):
                if cur:
                    notes.append((p.number, cur[0], cur[1]))
                cur = (lab, [v])
            elif cur is not None:
                cur[1].append(v)
        if cur:
            notes.append((p.number, cur[0], cur[1]))
        p.lines = lines[:cut]

    # ── geometry statistics ────────────────────────────────────────────────────────────────────
    xs = sorted((v.x1 for v in text_lines if not v.cells and v.size >= body_size - 0.5), reverse=True)
    if len(xs) >= 2 and xs[0] - xs[1] > body_size:
        right = xs[1]
    else:
        right = xs[0] if xs else max(p.width for p in pages)
    leading: dict[float, float] = {}
    pitches: dict[float, list[float]] = defaultdict(list)
    for p in pages:
        body = [v for v in p.lines if not v.table]
        for a, b in itertools.pairwise(body):
            if abs(a.size - b.size) < 0.3 and a.x1 >= right - 1.5 * a.size and not a.cells:
                pitches[round(a.size * 2) / 2].append(b.baseline - a.baseline)
    for s, ps in pitches.items():
        ps = [x for x in ps if x > 0]
        if ps:
            leading[s] = min(statistics.median(ps), sorted(ps)[len(ps) // 4])

    # heading levels: font sizes larger than the body, largest = 1
    big_sizes = sorted({round(v.size * 2) / 2 for v in text_lines if v.size > body_size + 0.9}, reverse=True)
    level_of = {s: i + 1 for i, s in enumerate(big_sizes)}

    # ── paragraphs ─────────────────────────────────────────────────────────────────────────────
    paras: list[_Para] = []
    prev: _VLine | None = None
    last_ganada: str | None = None  # the last 가./나./다. label that started a paragraph
    for p in pages:
        for v in p.lines:
            if prev is not None and _continues(prev, v, paras[-1], right, leading, last_ganada):
                paras[-1].lines.append(v)
            else:
                paras.append(_Para(lines=[v]))
                m = _GANADA_LABEL.match(v.text)
                if m:
                    last_ganada = m.group(1)
            prev = v
    wrap = _WrapAnalysis(text_lines, right, body_size)
    for para in paras:
        wrap.add_para(para)
    wrap.decide()
    for p in pages:
        for v in p.lines:
            if v.cell_lines is not None:
                v.text = " | ".join(wrap.join_cell(cl) for cl in v.cell_lines)
                v.flags = [False] * len(v.text)
    b = DocBuilder("pdf")
    hyphens: list[list[int]] = []
    for para in paras:
        _emit_para(b, para, wrap, level_of, hyphens)
    if notes:
        b.start_footnotes()
        for page_no, label, lines in notes:
            para = _Para(lines=lines)
            text, _flags, _marks, _page_breaks, _sp = _join(para, wrap, hyphens, b.pos)
            first = lines[0]
            t = text
            # "1 text" as printed; a raised label glued to the text gets a separating space
            if not t.startswith(label + " ") and t.startswith(label):
                t = label + " " + t[len(label):].lstrip()
            b.add_footnote(label, [(t, {"font_size": first.size, "x0": round(first.x0, 2),
                                        "bold": False})], page=page_no)
    metadata: dict[str, Any] = {
        "furniture": {
            "count": len(furniture),
            "examples": list(dict.fromkeys(t for _, t, _ in furniture))[:5],
            "items": [[pg, t, kind] for pg, t, kind in furniture],
        },
        "removed": {"hyphens": hyphens},
        "body_font_size": body_size,
        "right_margin": round(right, 2),
        "wrap": wrap.summary(),
    }
    doc = b.build(source, n_pages=n_pages, metadata=metadata, warnings=warnings)
    return doc


def _note_label(text: str) -> str | None:
    m = re.match(r"^(\d{1,3}|[*†‡§¶]{1,3}|[a-z])(?:[).]|\s|(?=[^\d\s]))", text)
    return m.group(1) if m else None


# never starts a line (kinsoku): a wrapper pulls the character before it down with it
_NO_LINE_START = frozenset(",.;:!?)]}」』）］｝〉》】〕”’%％·ㆍ")
_RUN = re.compile(r"[A-Za-z0-9][A-Za-z0-9,.%'’-]*")


def _gaps(v: _VLine) -> tuple[list[float], list[float]]:
    """Gaps between consecutive glyphs of a line: (between words, inside words)."""
    words: list[float] = []
    inside: list[float] = []
    prev: _Char | None = None
    spaced = False
    for c in v.chars:
        if not c.text.strip():
            spaced = True
            continue
        if prev is not None:
            g = c.x0 - prev.x1
            sz = min(c.size, prev.size) or v.size or 10.0
            if g <= 3.0 * sz:
                (words if spaced or g > (v.space_thr or 0.22 * sz) else inside).append(g)
        prev = c
        spaced = False
    return words, inside


def _text_right(lines: list[_VLine], right: float, body_size: float) -> float:
    """The right text margin, read off lines that end in a letter or digit.

    Wrappers let closing punctuation hang past the margin ("…이하 "회사"" ending a few points further
    right), so lines ending in punctuation do not count, and a lone line sticking out does not either:
    the margin is the rightmost end that at least two lines reach (within half a character)."""
    ends = sorted((v.x1 for v in lines if not (v.cells or v.table) and v.chars and v.text[-1:].isalnum()
                   and v.size >= body_size - 0.5), reverse=True)
    for k, x in enumerate(ends):
        if x > right + 0.5 * body_size:
            continue
        support = sum(1 for y in ends[k:k + 8] if x - y <= 0.5 * body_size)
        if support >= min(2, len(ends)):
            return x
    return right


class _WrapAnalysis:
    """Was there a space at each line break? Decided per document from the layout, then per break.

    A document wraps either by word (어절: HWP's and Word's default for Korean, always for English) or by
    character (글자 단위, reportlab's CJK wrap): with word wrapping every break fell on a space, with
    character wrapping most breaks fall inside a word. Justified lines reach the margin either way, so the
    signal is the line's *natural* width: its glyph extent minus the stretch justification added (gaps
    between words wider than the document's normal space, gaps between glyphs wider than normal letter
    spacing — both measured on lines that do not reach the margin, which are not stretched). The room
    left at the end of a line, ``slack``, is then compared with what the next line starts with (its first
    glyph, or its first Latin/number run, which character wrappers keep whole, plus any closing
    punctuation that may not start a line):

    * slack ≥ a space + the next glyph: a character wrapper would have put that glyph on this line, so
      the document wraps by word. With word wrapping a fifth to a half of all breaks show this (fewer when
      the engine shrinks spaces); with character wrapping none can. When at least two breaks and 10 % of
      them do, the document is ``"word"`` and every break is a space.
    * otherwise the document is ``"char"``; a break is a space when the next glyph alone would have
      fitted (slack ≥ the next glyph), or a space glyph was drawn at the break, and else the words on
      both sides decide (:func:`jogak.load.spacing.space_at_break`, Kiwi): a morpheme running across the
      break keeps it joined, a particle or ending before it makes it a word boundary, nouns stay
      together.

    ``summary()`` (``Document.metadata["wrap"]``) reports the mode and the counts behind it.
    """

    def __init__(self, lines: list[_VLine], right: float, body_size: float) -> None:
        self.body_size = body_size or 10.0
        self.right = _text_right(lines, right, self.body_size)
        loose_w: dict[float, list[float]] = defaultdict(list)
        loose_i: dict[float, list[float]] = defaultdict(list)
        all_w: dict[float, list[float]] = defaultdict(list)
        all_i: dict[float, list[float]] = defaultdict(list)
        for v in lines:
            if v.cells or v.table or not v.chars:
                continue
            w, i = _gaps(v)
            key = round(v.size * 2) / 2
            all_w[key] += w
            all_i[key] += i
            if v.x1 < right - 3 * (v.size or self.body_size):  # short of the margin: not stretched
                loose_w[key] += w
                loose_i[key] += i
        self.space: dict[float, float] = {}
        self.letter: dict[float, float] = {}
        for key in set(all_w) | set(all_i):
            if len(loose_w[key]) >= 3:
                self.space[key] = statistics.median(loose_w[key])
                # an engine that shrinks spaces to fit one more word (HWP) sets full lines tighter than
                # loose ones: a line "had room" only beyond the narrowest space it actually used
                full = sorted(set(all_w[key]) - set(loose_w[key]))
                if len(full) >= 10:
                    self.space[key] = min(self.space[key], full[len(full) // 10])
            elif all_w[key]:
                self.space[key] = sorted(all_w[key])[len(all_w[key]) // 5]
            if len(loose_i[key]) >= 5:
                self.letter[key] = statistics.median(loose_i[key])
            elif all_i[key]:
                self.letter[key] = statistics.median(all_i[key])
        self.junctions: list[tuple[_VLine, _VLine]] = []
        self.mode = "none"
        self.word_evidence = 0
        self.kiwi_calls = 0

    # ── geometry ───────────────────────────────────────────────────────────────────────────────
    def _space_w(self, v: _VLine) -> float:
        return self.space.get(round(v.size * 2) / 2, 0.3 * (v.size or self.body_size))

    def slack(self, a: _VLine) -> float:
        """Room left at the end of ``a`` had it been set with natural spacing (points)."""
        key = round(a.size * 2) / 2
        w, i = _gaps(a)
        sp = self._space_w(a)
        lt = self.letter.get(key, 0.0)
        return self.right - a.x1 + sum(g - sp for g in w) + sum(g - lt for g in i)

    @staticmethod
    def need(b: _VLine) -> float:
        """Width of what a wrapper could not have split off the start of ``b``."""
        vis = [c for c in b.chars if c.text.strip()]
        if not vis:
            return b.first_w
        m = _RUN.match(b.text)
        k = 1
        if m and len(m.group(0)) > 1:  # a Latin word or a number is kept whole
            n = len(m.group(0))
            k, cum = 0, 0
            while k < len(vis) and cum < n:
                cum += len(vis[k].text)
                k += 1
        while k < len(vis) and vis[k].text in _NO_LINE_START:
            k += 1
        k = max(1, min(k, len(vis)))
        return vis[k - 1].x1 - vis[0].x0

    # ── decisions ──────────────────────────────────────────────────────────────────────────────
    def add_para(self, para: _Para) -> None:
        for a, b in itertools.pairwise(para.lines):
            if a.table or b.table or a.cells or b.cells or not a.chars or not b.chars:
                continue
            if a.trail_space or b.lead_space or not needs_decision(a.text, b.text):
                continue
            self.junctions.append((a, b))

    def decide(self) -> None:
        n = len(self.junctions)
        if n == 0:
            return
        w = 0
        for a, b in self.junctions:
            size = a.size or self.body_size
            if self.slack(a) >= self._space_w(a) + self.need(b) + 0.2 * size:
                w += 1
        self.word_evidence = w
        self.mode = "word" if w >= 2 and w >= 0.1 * n else "char"

    @staticmethod
    def undecided(text: str, nxt: str) -> bool:
        return needs_decision(text, nxt)

    def space_at(self, a: _VLine, b: _VLine, text: str) -> bool:
        """Was there a space at the break between ``a`` and ``b``? (``text``: the paragraph so far)."""
        if self.mode == "word":
            return True
        if a.chars and b.chars and self.slack(a) >= self.need(b) + 0.2 * (a.size or self.body_size):
            return True  # the next glyph would have fitted: the break fell on a space
        self.kiwi_calls += 1
        return space_at_break(text, b.text)

    def join_cell(self, lines: list[str]) -> str:
        """A table cell's wrapped lines (no geometry): the document's mode, else the words decide."""
        return join_wrapped(lines, lambda out, ln: self.mode == "word" or space_at_break(out, ln))

    def summary(self) -> dict[str, Any]:
        return {"mode": self.mode, "breaks": len(self.junctions), "word_evidence": self.word_evidence,
                "space_width": {str(k): round(v, 2) for k, v in sorted(self.space.items())}}


def _continues(a: _VLine, b: _VLine, para: _Para, right: float, leading: dict[float, float],
               last_ganada: str | None = None) -> bool:
    """Is visual line ``b`` the continuation of the paragraph whose last line is ``a``?

    A line starting "다. " after a full line is usually the end of a sentence a character wrapper split
    ("…할 수 있" + "다. 다만 …"): a 가./나./다. label only starts a new line when it is 가. or the successor
    of the last such label (나. after 가.), otherwise it counts as a weak label."""
    if a.table or b.table or a.cells or b.cells:
        return False
    if abs(a.size - b.size) > 0.4:
        return False
    a_tail = a.flags[-1] if a.flags else a.bold  # a bold run-in heading "제1조(목적) 이 법은…" ends regular
    if a.bold != b.bold and a_tail != b.bold:
        return False  # a bold heading followed by body text, or body followed by a bold heading
    g = _GANADA_LABEL.match(b.text)
    in_sequence = g is None or g.group(1) == "가" or (
        last_ganada is not None and _GANADA.find(g.group(1)) == _GANADA.find(last_ganada) + 1)
    if _STRONG_LABEL.match(b.text) and in_sequence:
        return False
    # weaker labels ("(12)", "2.3", "a.", "Section") start a new line unless the previous line stops
    # mid-sentence ("… for the following twelve" + "(12) months")
    if _LABEL.match(b.text) and _CLAUSE_END.search(a.text):
        return False
    size = a.size or 10.0
    # the previous line must be full: the next line's first word would not have fitted after it
    gap = right - a.x1
    cjk_join = is_cjk(a.text[-1]) and is_cjk(b.text[0])
    need = b.first_word_w + (0.0 if cjk_join else 0.25 * size)
    # tolerance: CJK wrappers do not always fill the last character cell (kinsoku rules, rounding)
    slack = 1.0 * size if cjk_join else 0.5 * size
    if need + slack < gap or gap > 8 * size:
        return False
    same_page = a.page == b.page
    if same_page:
        pitch = b.baseline - a.baseline
        lead = leading.get(round(size * 2) / 2)
        if pitch <= 0:
            return False
        if lead is not None and pitch > lead + max(1.0, 0.1 * size):
            return False
        if lead is None and pitch > 1.9 * size:
            return False
    else:
        if b.page != a.page + 1:
            return False
        if _SENTENCE_END.search(a.text) and not (b.text[:1].islower()):
            return False
    # alignment
    first = para.lines[0]
    if a is first:
        lo = a.x0 - 4 * size
        hi = a.x0 + max(a.label_w, 0.0) + 0.6 * size
        if not (lo <= b.x0 <= hi):
            return False
    else:
        if abs(b.x0 - a.x0) > 0.6 * size:
            return False
    return True


def _join(para: _Para, wrap: _WrapAnalysis, hyphens: list[list[int]], base: int
          ) -> tuple[str, list[bool], list[tuple[int, str]], list[tuple[int, int]], bool]:
    """Join a paragraph's visual lines: text, bold flags, marks, page changes (offset, page)."""
    text = ""
    flags: list[bool] = []
    marks: list[tuple[int, str]] = []
    page_breaks: list[tuple[int, int]] = []
    prev: _VLine | None = None
    for v in para.lines:
        if prev is None:
            text = v.text
            flags = list(v.flags)
            marks = list(v.marks)
            prev = v
            continue
        space = prev.trail_space or v.lead_space
        if not space and wrap.undecided(text, v.text):
            space = wrap.space_at(prev, v, text)
        sep, drop = wrap_separator(text, v.text, space_in_source=space, tight=True)
        if drop:
            text = text[:-drop]
            flags = flags[:-drop]
            hyphens.append([prev.page, base + len(text)])
        off = len(text) + len(sep)
        if v.page != prev.page:
            page_breaks.append((off, v.page))
        text = text + sep + v.text
        flags = flags + [False] * len(sep) + list(v.flags)
        marks.extend((off + o, lab) for o, lab in v.marks)
        prev = v
    return text, flags, marks, page_breaks, False


def _emit_para(b: DocBuilder, para: _Para, wrap: _WrapAnalysis, level_of: dict[float, int],
               hyphens: list[list[int]]) -> None:
    first = para.lines[0]
    start = b.pos + (1 if b.parts else 0)
    text, flags, marks, page_breaks, _ = _join(para, wrap, hyphens, start)
    bp = 0
    for f in flags:
        if not f:
            break
        bp += 1
    while bp > 0 and text[bp - 1].isspace():
        bp -= 1
    if first.table or first.cells:
        b.add_line(text, page=first.page, page_breaks=page_breaks, marks=marks, role="table_row",
                   x0=round(first.x0, 2), font_size=first.size or None, bold=bp > 0, bold_prefix=bp)
        return
    size = round(first.size * 2) / 2
    b.add_line(text, page=first.page, page_breaks=page_breaks, marks=marks, font_size=first.size,
               bold=first.bold, bold_prefix=bp, x0=round(first.x0, 2), heading_level=level_of.get(size))


# ─── cross-check ─────────────────────────────────────────────────────────────────────────────────


def page_text_check(doc: Document, data: bytes) -> dict[int, dict[str, Counter[str]]]:
    """Compare each page's non-whitespace characters with pypdf's ``extract_text()``.

    Ours = the characters of ``doc.text`` whose offsets map to the page, plus what the loader removed
    from that page (furniture text, footnote marks, soft hyphens), minus the ``|`` cell separators.
    Returns ``{page: {"missing": ..., "extra": ...}}`` for pages that differ (empty when all agree).
    """
    import pypdf

    reader = pypdf.PdfReader(io.BytesIO(data))
    if reader.is_encrypted:
        reader.decrypt("")
    ours: dict[int, Counter[str]] = defaultdict(Counter)
    for span in doc.pages:
        ours[span.page].update(ch for ch in doc.text[span.start: span.end] if not ch.isspace() and ch != "|")
    for pg, text, _kind in doc.metadata.get("furniture", {}).get("items", []):
        ours[pg].update(ch for ch in text if not ch.isspace() and ch != "|")
    for fn in doc.footnotes:
        for m in fn.marks:
            pg = doc.page_at(m.offset)
            if pg is not None:
                ours[pg].update(ch for ch in m.label if not ch.isspace())
    for pg, _off in doc.metadata.get("removed", {}).get("hyphens", []):
        ours[pg]["-"] += 1
    out: dict[int, dict[str, Counter[str]]] = {}
    for i, page in enumerate(reader.pages, start=1):
        theirs = Counter(ch for ch in (page.extract_text() or "") if not ch.isspace() and ch != "|")
        mine = ours.get(i, Counter())
        missing = theirs - mine
        extra = mine - theirs
        if missing or extra:
            out[i] = {"missing": missing, "extra": extra}
    return out
