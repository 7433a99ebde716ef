"""Loaders: file → ``Document`` (plain text, page map, layout cues, footnotes).

One module per format; each exposes ``load_bytes(data: bytes, source: str) -> Document`` and leaves
``doc_title``/``sha256``/``path`` to the dispatcher here. Errors are ``jogak.load.errors.LoadError``s.
"""

from __future__ import annotations

import hashlib
import importlib
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from jogak.load.errors import (
    EmptyFileError,
    LoadError,
    OversizeError,
    UnsupportedTypeError,
)
from jogak.load.titles import TitleRule
from jogak.model import Document

# extension → loader module (imported lazily: a cold CLI call must not import pdfplumber/docx)
FORMATS: dict[str, str] = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".html": "html",
    ".htm": "html",
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".text": "text",
}
DEFAULT_MAX_BYTES = 200 * 1024 * 1024

__all__ = [
    "FORMATS",
    "ExpandResult",
    "LoadError",
    "TitleRule",
    "expand_paths",
    "load",
    "load_bytes",
]


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
) -> Document:
    """Load a document from bytes (the server's upload path). ``source`` is the file name."""
    fmt = fmt or _format_for(source)
    if len(data) == 0:
        raise EmptyFileError(source, "empty file (0 bytes)")
    if len(data) > max_bytes:
        raise OversizeError(source, f"file is {len(data):,} bytes, over the {max_bytes:,}-byte limit")
    module = importlib.import_module(f"jogak.load.{fmt}")
    doc: Document = module.load_bytes(data, source)
    doc.source = Path(source).name
    doc.doc_title = (title_rule or default_title_rule()).title_for(source)
    doc.sha256 = hashlib.sha256(data).hexdigest()
    doc.format = fmt
    return doc


def load(path: str | os.PathLike[str], *, title_rule: TitleRule | None = None,
         max_bytes: int = DEFAULT_MAX_BYTES) -> Document:
    """Load one file. Raises a ``LoadError`` subclass with a one-line message on bad input."""
    p = Path(path)
    source = p.name
    _format_for(source)  # unsupported types fail before reading
    try:
        size = p.stat().st_size
    except FileNotFoundError:
        raise LoadError(source, f"no such file: {p}") from None
    if size > max_bytes:
        raise OversizeError(source, f"file is {size:,} bytes, over the {max_bytes:,}-byte limit")
    data = p.read_bytes()
    doc = load_bytes(data, source, title_rule=title_rule, max_bytes=max_bytes)
    doc.path = str(p)
    return doc


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
