"""The dispatcher: typed one-line errors for bad input, expand_paths."""

from __future__ import annotations

from pathlib import Path

import pytest

from jogak.load import expand_paths, load, load_bytes
from jogak.load.errors import (
    CorruptFileError,
    EmptyFileError,
    LoadError,
    UnsupportedTypeError,
)

from .helpers import FIX


def _one_line(e: LoadError) -> None:
    assert "\n" not in str(e) and "Traceback" not in str(e)
    assert str(e).startswith(e.source + ": ")


@pytest.mark.parametrize(
    ("name", "cls", "message"),
    [
        ("empty.txt", EmptyFileError, "empty file (0 bytes)"),
        ("unsupported.xyz", UnsupportedTypeError, "unsupported file type '.xyz'"),
        ("not_a_pdf.pdf", CorruptFileError, "corrupt PDF: not a PDF file"),
        ("corrupt.docx", CorruptFileError, "corrupt DOCX"),
    ],
)
def test_bad_input(name: str, cls: type[LoadError], message: str) -> None:
    with pytest.raises(cls) as ei:
        load(FIX / name)
    _one_line(ei.value)
    assert ei.value.message.startswith(message)


def test_empty_for_every_format() -> None:
    for ext in (".pdf", ".docx", ".html", ".md", ".txt"):
        with pytest.raises(EmptyFileError):
            load_bytes(b"", "x" + ext)


def test_binary_content_with_text_extension() -> None:
    with pytest.raises(CorruptFileError) as ei:
        load_bytes(b"%PDF-1.4 binary", "x.md")
    assert "PDF" in ei.value.message


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as ei:
        load(tmp_path / "nope.txt")
    _one_line(ei.value)


def test_unknown_fmt_is_rejected() -> None:
    with pytest.raises(UnsupportedTypeError):
        load_bytes(b"x", "a.txt", fmt="os")


def test_dispatcher_fills_identity() -> None:
    doc = load(FIX / "korean_euckr.txt")
    assert doc.source == "korean_euckr.txt" and doc.doc_title == "korean_euckr"
    assert len(doc.sha256) == 64 and doc.format == "text" and doc.path.endswith("korean_euckr.txt")


def test_expand_paths(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# a")
    (tmp_path / "sub" / "deep").mkdir(parents=True)
    (tmp_path / "sub" / "b.PDF").write_bytes(b"%PDF-")
    (tmp_path / "sub" / "deep" / "c.txt").write_text("c")
    (tmp_path / "sub" / "notes.xyz").write_text("x")
    (tmp_path / "sub" / "image.png").write_bytes(b"\x89PNG")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "h.md").write_text("h")
    (tmp_path / ".secret.txt").write_text("s")
    single = tmp_path / "single.html"
    single.write_text("<p>x</p>")
    res = expand_paths([tmp_path / "sub", tmp_path, single, tmp_path / "missing.txt"])
    names = [p.relative_to(tmp_path).as_posix() for p in res.files]
    assert names == ["sub/b.PDF", "sub/deep/c.txt", "a.md", "single.html"]
    assert sorted(p.name for p in res.skipped) == ["image.png", "image.png", "notes.xyz", "notes.xyz"]
    assert [p.name for p in res.missing] == ["missing.txt"]
