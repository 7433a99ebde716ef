"""OCR for PDF pages without a text layer: pypdfium2 renders the page, the Tesseract binary reads it.

* Tesseract is called as a program (``tesseract - - -l kor+eng --dpi N tsv``) rather than through
  pytesseract: pytesseract is itself a subprocess wrapper that adds temporary files and a dependency,
  while the TSV output (one row per word with its box and confidence) is all the loader needs.
  Debian: ``apt-get install tesseract-ocr tesseract-ocr-kor``. Without them the error names exactly that.
* Pages are rendered with pypdfium2 (Apache-2.0/BSD-3; already installed with pdfplumber) at 300 dpi:
  Tesseract's Hangul model reads small 9–10 pt body text far better there than at the 200 dpi of a
  typical scan, which is only upscaled.
* Words come back as pseudo-glyphs: each word's characters share its line's top and bottom and split its
  width evenly, so the text-PDF line model (grouping, space detection from gaps, wrap re-joining, labels)
  runs unchanged on recognised pages. Font sizes are estimated from the line height; bold is unknown.
"""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from jogak.load.errors import NoTextLayerError
from jogak.load.pdf.pages import Page, ocr_page
from jogak.model import Document

LANGS = ("kor", "eng")
DPI = 300
INSTALL_HINT = "install Tesseract with Korean: apt-get install tesseract-ocr tesseract-ocr-kor"
_TIMEOUT = 120  # seconds per page


class OcrUnavailable(RuntimeError):
    """Tesseract (or its Korean data) is not installed; the message says what to install."""


@dataclass(slots=True)
class Word:
    text: str
    x0: float  # points, PDF page coordinates (top-left origin, as pdfplumber)
    x1: float
    top: float  # the word's line box
    bottom: float
    conf: float  # 0–100
    line_x0: float = 0.0  # left edge of the word's line box


def _binary() -> str | None:
    exe = os.environ.get("JOGAK_TESSERACT")  # a Tesseract outside PATH
    return (exe if exe and os.path.isfile(exe) else None) if exe else shutil.which("tesseract")


def reset() -> None:
    """Forget what was found out about the installed Tesseract (tests change JOGAK_TESSERACT)."""
    missing.cache_clear()


@lru_cache(maxsize=1)
def missing() -> str | None:
    """None when OCR can run; otherwise what is missing and how to install it."""
    exe = _binary()
    if not exe:
        return f"Tesseract is not installed — {INSTALL_HINT}"
    try:
        out = subprocess.run([exe, "--list-langs"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as e:
        return f"Tesseract does not run ({e}) — {INSTALL_HINT}"
    langs = set((out.stdout + out.stderr).split())
    lacking = [lang for lang in LANGS if lang not in langs]
    if lacking:
        return f"Tesseract has no {'+'.join(lacking)} language data — {INSTALL_HINT}"
    return None


def render_pages(pdf_bytes: bytes, indexes: list[int], dpi: int = DPI) -> list[bytes]:
    """Pages ``indexes`` (0-based) as grayscale PNGs at ``dpi``."""
    import pypdfium2 as pdfium  # lazily: only scanned pages need it

    doc = pdfium.PdfDocument(pdf_bytes)
    out = []
    try:
        for i in indexes:
            page = doc[i]
            image = page.render(scale=dpi / 72, grayscale=True).to_pil()
            page.close()
            buf = io.BytesIO()
            image.save(buf, format="PNG")
            out.append(buf.getvalue())
    finally:
        doc.close()
    return out


def recognise(png: bytes, dpi: int = DPI, lang: str = "kor") -> list[Word]:
    """The words on one page image, in Tesseract's reading order, with boxes in points. Page segmentation
    mode 4 (one column of text of varying sizes): the default automatic mode cuts long lines of a
    contract page into columns."""
    why = missing()
    if why:
        raise OcrUnavailable(why)
    cmd = [_binary() or "tesseract", "-", "-", "-l", lang, "--dpi", str(dpi), "--psm", "4", "tsv"]
    # one thread per page: the machine's cores are better spent on pages in parallel than on OpenMP
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    try:
        out = subprocess.run(cmd, input=png, capture_output=True, timeout=_TIMEOUT, env=env, check=False)
    except subprocess.TimeoutExpired:
        raise OcrUnavailable(f"Tesseract took longer than {_TIMEOUT} s on one page") from None
    if out.returncode != 0:
        raise OcrUnavailable(f"Tesseract failed: {out.stderr.decode(errors='replace').strip()[:200]}")
    return parse_tsv(out.stdout.decode("utf-8", errors="replace"), 72 / dpi)


def parse_tsv(tsv: str, scale: float) -> list[Word]:
    """Tesseract TSV → words; each word takes its line's vertical extent (level 4 rows)."""
    rows = list(csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE))
    lines: dict[tuple[str, str, str], tuple[float, float, float]] = {}
    words: list[Word] = []
    for r in rows:
        key = (r.get("block_num", ""), r.get("par_num", ""), r.get("line_num", ""))
        try:
            left, top = float(r["left"]), float(r["top"])
            width, height = float(r["width"]), float(r["height"])
            conf = float(r["conf"])
        except (KeyError, TypeError, ValueError):
            continue
        if r.get("level") == "4":
            lines[key] = (top * scale, (top + height) * scale, left * scale)
        elif r.get("level") == "5":
            text = (r.get("text") or "").strip()
            if not text or conf < 0:
                continue
            top_l, bottom_l, left_l = lines.get(key, (top * scale, (top + height) * scale, left * scale))
            words.append(Word(text=text, x0=left * scale, x1=(left + width) * scale, top=top_l,
                              bottom=bottom_l, conf=conf, line_x0=left_l))
    return words


# ─── language choice ─────────────────────────────────────────────────────────────────────────────


def _hangul_share(words: list[Word]) -> float:
    letters = [ch for w in words for ch in w.text if ch.isalpha()]
    if not letters:
        return 0.0
    return sum(1 for ch in letters if "가" <= ch <= "힣") / len(letters)


def _mean_conf(words: list[Word]) -> float:
    return sum(w.conf for w in words) / len(words) if words else 0.0


# ─── circled paragraph numbers ───────────────────────────────────────────────────────────────────

# What Tesseract's Hangul model makes of ①…⑳ at the start of a line (it has no circled digits)
_CIRCLED_MISREADS = frozenset({"©", "@", "®", "0", "00", "(0", "0)", "(0)", "01", "02", "03", "©)", "@)", "®)",
                               "ⓒ", "(1"})
_PAREN_NUM = re.compile(r"^\((\d{1,2})\)$")
_BARE_NUM = re.compile(r"^(\d{1,2})$")  # "2 발주자는…": a 호 would be written "2."
_ARTICLE = re.compile(r"^제\d+조")


class CircledFixer:
    """Restores 항 numbers (①, ②, …), which Tesseract's Hangul model cannot read: a line-start token it
    makes of them (©, @, 0, 01, …) takes the next number of its article. Once an article's sequence has
    started that way, a "(N)" at a line start and a line whose box begins a glyph's width before its
    first word (the glyph was dropped) are its next numbers too; a document that really numbers with
    (1), (2) never starts such a sequence, so it keeps them. State runs across pages."""

    def __init__(self) -> None:
        self.last = 0

    def line(self, words: list[Word]) -> None:
        if not words:
            return
        head = words[0].text
        if _ARTICLE.match("".join(w.text for w in words[:4])):
            self.last = 0
            return
        dropped = words[0].x0 - words[0].line_x0 > 0.6 * (words[0].bottom - words[0].top)
        misread = head in _CIRCLED_MISREADS and len(words) > 1
        numbered = _PAREN_NUM.match(head) or _BARE_NUM.match(head)
        in_sequence = numbered is not None and int(numbered.group(1)) in (self.last + 1, self.last + 2)
        if not (misread or (self.last >= 1 and (in_sequence or dropped))):
            return
        n = self.last + 1
        if n > 20:
            return
        mark = chr(0x2460 + n - 1)
        if dropped and not misread and numbered is None:
            w = words[0]
            words.insert(0, Word(text=mark, x0=w.line_x0, x1=w.x0 - 0.3 * (w.bottom - w.top), top=w.top,
                                 bottom=w.bottom, conf=0.0, line_x0=w.line_x0))
        else:
            words[0].text = mark
        self.last = n


def fix_lines(words: list[Word], fixer: CircledFixer) -> list[Word]:
    """The page's words with 항 numbers restored (see ``CircledFixer``), line by line."""
    out: list[Word] = []
    line: list[Word] = []
    for w in [*words, None]:
        if line and (w is None or (w.top, w.bottom) != (line[0].top, line[0].bottom)):
            fixer.line(line)
            out.extend(line)
            line = []
        if w is not None:
            line.append(w)
    return out


# ─── words → pdfplumber-like glyphs ──────────────────────────────────────────────────────────────


def to_chars(words: list[Word]) -> list[dict[str, object]]:
    """Words as pdfplumber-like glyphs for the text-PDF line model (grouping, spaces from gaps, wrap
    re-joining). Tesseract's Hangul model returns a box per syllable or two, so boxes of one line closer
    than a third of the line height are one word (a space between words is wider); each word's characters
    split its width evenly and share its line's top and bottom."""
    out: list[dict[str, object]] = []
    for run in _merge_close(words):
        text = "".join(w.text for w in run)
        x0, x1 = run[0].x0, run[-1].x1
        top, bottom = run[0].top, run[0].bottom
        step = (x1 - x0) / len(text)
        # Tesseract's line box spans about 0.95 em of Hangul text
        size = round((bottom - top) / 0.95, 1)
        for i, ch in enumerate(text):
            out.append({"text": ch, "x0": x0 + i * step, "x1": x0 + (i + 1) * step, "top": top, "bottom": bottom,
                        "size": size, "fontname": "OCR"})
    return out


def _merge_close(words: list[Word]) -> list[list[Word]]:
    runs: list[list[Word]] = []
    for w in words:
        prev = runs[-1][-1] if runs else None
        same_line = prev is not None and (prev.top, prev.bottom) == (w.top, w.bottom)
        # overlapping boxes merge too: apart, their glyphs would interleave when the line is sorted by x
        if same_line and w.x0 - prev.x1 < (w.bottom - w.top) / 3:  # type: ignore[union-attr]
            runs[-1].append(w)
        else:
            runs.append([w])
    return runs


@dataclass
class PageResult:
    chars: list[dict[str, object]]
    conf: float  # mean word confidence, 0–100
    lang: str


class Recogniser:
    """One document's OCR. The first page picks the model (Hangul first: kor+eng turns bold Hangul into
    Latin noise and kor cannot read English, so a page with little Hangul is read again with eng and the
    more confident reading wins); the other pages run in parallel with that model, one Tesseract process
    per core. Paragraph numbers are restored in page order afterwards."""

    def __init__(self, langs: str | None = None, dpi: int = DPI, workers: int | None = None) -> None:
        self.fixed_langs = langs  # e.g. "kor+eng" from the configuration: used as given
        self.lang = "kor"
        self.dpi = dpi
        self.workers = workers or max(1, min(4, os.cpu_count() or 1))

    def pages(self, pdf_bytes: bytes, indexes: list[int]) -> list[PageResult]:
        if not indexes:
            return []
        pngs = render_pages(pdf_bytes, indexes, self.dpi)
        first = self._read(pngs[0], adapt=True)
        rest: list[tuple[list[Word], str]] = []
        if len(pngs) > 1:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=self.workers) as pool:
                rest = list(pool.map(lambda png: self._read(png, adapt=False), pngs[1:]))
        fixer = CircledFixer()
        out = []
        for raw, lang in [first, *rest]:
            words = fix_lines(raw, fixer)
            out.append(PageResult(chars=to_chars(words), conf=round(_mean_conf(words), 1), lang=lang))
        return out

    def _read(self, png: bytes, adapt: bool) -> tuple[list[Word], str]:
        if self.fixed_langs:
            return recognise(png, self.dpi, self.fixed_langs), self.fixed_langs
        lang = self.lang
        words = recognise(png, self.dpi, lang)
        wrong = _hangul_share(words) < 0.2 if lang == "kor" else _mean_conf(words) < 60
        if not wrong:
            return words, lang
        other = "eng" if lang == "kor" else "kor"
        second = recognise(png, self.dpi, other)
        if _mean_conf(second) > _mean_conf(words):
            if adapt:
                self.lang = other
            return second, other
        return words, lang


# ─── the PDF loader's side ───────────────────────────────────────────────────────────────────────


def _needs_ocr(page: Page, mode: str) -> bool:
    if mode == "always":
        return True
    return mode == "auto" and (page.scanned or page.n_cid > 0.5 * max(page.n_chars, 1))


def recognise_pages(pages: list[Page], data: bytes, source: str, mode: str) -> tuple[list[Page], dict[str, Any]]:
    """``pages`` with the ones that need it replaced by their OCR reading, and what to record about it."""
    todo = [p for p in pages if _needs_ocr(p, mode)]
    if not todo:
        return pages, {}
    why = missing()
    if why:
        if all(p.scanned for p in pages):
            raise NoTextLayerError(source, f"no extractable text — scanned pages need OCR: {why}")
        return pages, {"warning": f"{len(todo)} page(s) without a text layer were not read: {why}"}
    from jogak.config import load_config

    langs = load_config().section("load").get("ocr_langs")
    try:
        results = Recogniser(langs=str(langs) if langs else None).pages(data, [p.number - 1 for p in todo])
    except OcrUnavailable as e:
        raise NoTextLayerError(source, f"OCR failed: {e}") from None
    # a page where OCR found nothing stays a page without text
    read = {p.number: ocr_page(p, r.chars, r.conf) for p, r in zip(todo, results, strict=True) if len(r.chars) >= 10}
    if not read:
        if all(p.scanned for p in pages):
            raise NoTextLayerError(source, "no extractable text — scanned pages, and OCR found no text on them")
        return pages, {}
    confs = {p.number: r.conf for p, r in zip(todo, results, strict=True) if p.number in read}
    langs_used = sorted({r.lang for p, r in zip(todo, results, strict=True) if p.number in read})
    info = {"ocr": True, "ocr_pages": confs, "ocr_lang": "+".join(langs_used),
            "ocr_confidence": round(sum(confs.values()) / len(confs), 1)}
    return [read.get(p.number, p) for p in pages], info


def with_ocr_info(doc: Document, info: dict[str, Any]) -> Document:
    if "warning" in info:
        doc.warnings.append(info["warning"])
    if info.get("ocr"):
        doc.metadata.update({k: v for k, v in info.items() if k != "warning"})
        pages = ", ".join(map(str, info["ocr_pages"]))
        doc.warnings.append(f"page(s) {pages} read by OCR (Tesseract {info['ocr_lang']}, mean word confidence "
                            f"{info['ocr_confidence']}): check names and numbers against the original")
    return doc
