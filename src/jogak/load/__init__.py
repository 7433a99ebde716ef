"""Loaders: file → ``Document`` (plain text, page map, layout cues, footnotes).

One module per format; each exposes ``load_bytes(data: bytes, source: str) -> Document`` and leaves
``doc_title``/``sha256``/``path`` to the dispatcher here. Errors are ``jogak.load.errors.LoadError``s.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import sys as _sys
import types as _types
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from jogak.load.errors import (
    CorruptFileError,
    EmptyFileError,
    LoadError,
    OversizeError,
    UnsupportedTypeError,
    short,
)
from jogak.load.identity import law_identity
from jogak.load.titles import TitleRule
from jogak.model import Document

# extension → loader module (imported lazily: a cold CLI call must not import pdfplumber/docx)
FORMATS: dict[str, str] = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".hwp": "hwp",
    ".hwpx": "hwpx",
    ".html": "html",
    ".htm": "html",
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".text": "text",
}
DEFAULT_MAX_BYTES = 200 * 1024 * 1024
OCR_MODES = ("never", "auto", "always")
_ocr_override: str | None = None
_notifier: Callable[[str], None] | None = None

__all__ = [
    "FORMATS",
    "OCR_MODES",
    "ExpandResult",
    "LoadError",
    "TitleRule",
    "expand_paths",
    "load",
    "load_bytes",
    "ocr_mode",
    "set_notifier",
    "set_ocr_mode",
]


def set_ocr_mode(mode: str | None) -> None:
    """Process-wide OCR mode for image-only PDF pages (the CLI's ``--ocr``); None: back to the config."""
    global _ocr_override
    if mode is not None and mode not in OCR_MODES:
        raise ValueError(f"unknown OCR mode '{mode}' (choose from {', '.join(OCR_MODES)})")
    _ocr_override = mode


def ocr_mode(explicit: str | None = None) -> str:
    """The mode in force: an explicit argument, else ``set_ocr_mode``, else ``load.ocr`` in the
    configuration, else "auto" (pages without a text layer are recognised when Tesseract is installed)."""
    from jogak.config import load_config

    mode = explicit or _ocr_override or load_config().section("load").get("ocr") or "auto"
    if mode not in OCR_MODES:
        raise ValueError(f"unknown OCR mode '{mode}' (load.ocr: choose from {', '.join(OCR_MODES)})")
    return mode


def set_notifier(fn: Callable[[str], None] | None) -> None:
    """Where notes a person should see go (the CLI prints them on stderr): e.g. that pages were read by
    OCR. A library caller finds the same facts in ``Document.metadata``."""
    global _notifier
    _notifier = fn


def _format_for(source: str) -> str:
    ext = Path(source).suffix.lower()
    fmt = FORMATS.get(ext)
    if fmt is None:
        supported = ", ".join(sorted({e for e in FORMATS}))
        raise UnsupportedTypeError(source, f"unsupported file type '{ext or '(none)'}' (supported: {supported})")
    return fmt


def load_bytes(
    data: bytes,
    source: str,
    *,
    title_rule: TitleRule | None = None,
    fmt: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    ocr: str | None = None,
) -> Document:
    """Load a document from bytes (the server's upload path). ``source`` is the file name. ``ocr``
    (never | auto | always) decides what happens to PDF pages without a text layer (see ``ocr_mode``).

    Every failure is a ``LoadError`` with a one-line message: the content is checked against the
    extension (magic bytes) before the format loader runs, and anything unexpected a loader raises is
    turned into ``CorruptFileError`` rather than a traceback.
    """
    fmt = fmt or _format_for(source)
    if fmt not in _MODULES:
        raise UnsupportedTypeError(source, f"unsupported format '{fmt}'")
    if len(data) == 0:
        raise EmptyFileError(source, "empty file (0 bytes)")
    if len(data) > max_bytes:
        raise OversizeError(source, f"file is {len(data):,} bytes, over the {max_bytes:,}-byte limit")
    _check_magic(data, source, fmt)
    module = importlib.import_module(f"jogak.load.{fmt}")
    extra = {"ocr": ocr_mode(ocr)} if fmt == "pdf" else {}
    try:
        doc: Document = module.load_bytes(data, source, **extra)
    except LoadError:
        raise
    except RecursionError:
        raise CorruptFileError(source, f"corrupt {_NAMES[fmt]}: nested too deeply") from None
    except MemoryError:
        raise OversizeError(source, "out of memory while reading the file") from None
    except Exception as e:  # a loader bug or a parser failure we did not anticipate
        raise CorruptFileError(source, f"corrupt {_NAMES[fmt]}: {short(e)}") from None
    doc.source = Path(source).name
    ident = law_identity(doc.metadata)  # a statute's front matter names the work; else the file name does
    doc.doc_title = ident.title if ident is not None else (title_rule or default_title_rule()).title_for(source)
    doc.sha256 = hashlib.sha256(data).hexdigest()
    doc.format = fmt
    if doc.metadata.get("ocr") and _notifier is not None:
        pages = doc.metadata["ocr_pages"]
        _notifier(f"{doc.source}: {len(pages)} page(s) without a text layer read by OCR (Tesseract "
                  f"{doc.metadata.get('ocr_lang', 'kor')}, mean confidence {doc.metadata.get('ocr_confidence')})")
    return doc


def load(path: str | os.PathLike[str], *, title_rule: TitleRule | None = None,
         max_bytes: int = DEFAULT_MAX_BYTES, ocr: str | None = None) -> Document:
    """Load one file. Raises a ``LoadError`` subclass with a one-line message on bad input."""
    p = Path(path)
    source = p.name
    _format_for(source)  # unsupported types fail before reading
    try:
        size = p.stat().st_size
    except FileNotFoundError:
        raise LoadError(source, f"no such file: {p}") from None
    except OSError as e:
        raise LoadError(source, f"cannot read file: {e.strerror or short(e)}") from None
    if size > max_bytes:
        raise OversizeError(source, f"file is {size:,} bytes, over the {max_bytes:,}-byte limit")
    try:
        data = p.read_bytes()
    except IsADirectoryError:
        raise LoadError(source, f"is a directory: {p}") from None
    except OSError as e:
        raise LoadError(source, f"cannot read file: {e.strerror or short(e)}") from None
    doc = load_bytes(data, source, title_rule=title_rule, max_bytes=max_bytes, ocr=ocr)
    doc.path = str(p)
    return doc


_MODULES = frozenset(FORMATS.values())
_NAMES = {"pdf": "PDF", "docx": "DOCX", "hwp": "HWP", "hwpx": "HWPX", "html": "HTML", "markdown": "Markdown",
          "text": "text file"}
# magic numbers of binary formats that must not be read as text
_BINARY_MAGIC = (
    (b"%PDF-", "PDF"),
    (b"PK\x03\x04", "zip (DOCX/XLSX/...)"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "OLE (legacy .doc/.hwp/.xls)"),
    (b"\x89PNG", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF8", "GIF image"),
    (b"\x1f\x8b", "gzip"),
    (b"HWP Document File", "HWP"),
)


def _check_magic(data: bytes, source: str, fmt: str) -> None:
    head = data[:1024]
    if fmt == "pdf":
        if b"%PDF-" not in head:
            raise CorruptFileError(source, "corrupt PDF: not a PDF file (no %PDF header)")
    elif fmt == "hwp":
        if not data.startswith((b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", b"HWP Document File")):
            what = next((name for magic, name in _BINARY_MAGIC if data.startswith(magic)), None)
            raise CorruptFileError(source, f"corrupt HWP: {f'it is a {what} file' if what else 'not an OLE file'}")
    elif fmt in ("docx", "hwpx"):
        if not data.startswith(b"PK"):
            what = next((name for magic, name in _BINARY_MAGIC if data.startswith(magic)), None)
            detail = f"it is a {what} file" if what else "not a zip archive"
            raise CorruptFileError(source, f"corrupt {_NAMES[fmt]}: {detail}")
    else:
        for magic, name in _BINARY_MAGIC:
            if data.startswith(magic):
                raise CorruptFileError(source, f"not a {_NAMES[fmt]}: the content is {name} data")


def default_title_rule() -> TitleRule:
    from jogak.config import load_config

    return TitleRule.from_config(load_config().section("load").get("doc_title"))


@dataclass
class ExpandResult:
    files: list[Path] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)  # unsupported files found inside directories
    missing: list[Path] = field(default_factory=list)


def expand_paths(paths: Iterable[str | os.PathLike[str]]) -> ExpandResult:
    """Expand arguments: files as given; directories recursively to supported types only.

    Hidden files and folders (name starting with '.') inside a directory are ignored. Order is stable:
    arguments in the order given, directory contents sorted by path.
    """
    out = ExpandResult()
    seen: set[Path] = set()
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    if name.startswith("."):
                        continue
                    f = Path(root) / name
                    if f.suffix.lower() in FORMATS:
                        if f not in seen:
                            seen.add(f)
                            out.files.append(f)
                    else:
                        out.skipped.append(f)
        elif p.exists():
            if p not in seen:
                seen.add(p)
                out.files.append(p)
        else:
            out.missing.append(p)
    return out


class _CallableModule(_types.ModuleType):
    """``jogak.load`` is both this package and the function ``jogak.load(path)``: importing the package
    replaces the attribute on ``jogak``, so the package itself must be callable."""

    def __call__(self, path: str | os.PathLike[str], **kwargs) -> Document:
        return load(path, **kwargs)


_sys.modules[__name__].__class__ = _CallableModule
