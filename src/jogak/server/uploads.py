"""Uploads: stream the request body to disk under a size limit, sanitise file names, check types by content.

* The body is parsed as it arrives (``python_multipart``'s streaming parser, or a raw body with
  ``X-Filename``); the byte limit is enforced on the bytes received, not on a declared length, and the
  files are written straight into the job's staging directory — nothing is spooled elsewhere.
* File names are reduced to a bare, NFC-normalised name: no directories (``/`` or ``\\``), no control or
  bidi characters, no leading dots, no reserved characters, bounded length. Duplicates get " (2)".
* The type comes from the bytes: ``%PDF-`` for PDF (not after another format's signature); a zip holding
  ``word/document.xml`` for DOCX and a zip whose ``mimetype`` entry is ``application/hwp+zip`` for HWPX
  (both with the loader's zip-bomb guard on declared sizes plus an inflation budget measured while
  decompressing); an OLE compound file whose ``FileHeader`` stream carries the HWP signature for HWP (its
  streams are inflated under a budget by the loader);
  ``<html``/``<!doctype html`` for HTML; UTF-8 (or UTF-16 with BOM, or CP949) without binary data for text
  and Markdown. A known extension whose content disagrees is refused; a missing extension is inferred.
"""

from __future__ import annotations

import contextlib
import io
import re
import unicodedata
import zipfile
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from jogak.load import FORMATS
from jogak.server.errors import ApiError

MAX_NAME = 120  # characters
MAX_NAME_BYTES = 200  # UTF-8 bytes
MAX_FIELDS_BYTES = 64 * 1024
_SLACK = 64 * 1024  # multipart framing and form fields on top of the files' bytes
_RESERVED = re.compile(r'[<>:"|?*\x00-\x1f\x7f]')
_BINARY_MAGIC = (
    (b"%PDF-", "PDF"),
    (b"PK\x03\x04", "zip archive"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "OLE (legacy .doc/.hwp/.xls)"),
    (b"\x89PNG", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF8", "GIF image"),
    (b"\x1f\x8b", "gzip"),
    (b"\x7fELF", "ELF executable"),
    (b"MZ", "Windows executable"),
    (b"HWP Document File", "HWP"),
)
_EXT_OF = {"pdf": ".pdf", "docx": ".docx", "hwp": ".hwp", "hwpx": ".hwpx", "html": ".html", "markdown": ".md",
           "text": ".txt"}
_NAMES = {"pdf": "PDF", "docx": "DOCX", "hwp": "HWP", "hwpx": "HWPX", "html": "HTML", "markdown": "Markdown",
          "text": "text"}
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


@dataclass
class SavedFile:
    name: str  # sanitised; what the store will call the document's source
    original: str  # as the client sent it
    path: Path
    size: int = 0
    format: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "size": self.size, "format": self.format}
        if self.original != self.name:
            d["original_name"] = self.original
        return d


@dataclass
class Received:
    files: list[SavedFile] = field(default_factory=list)
    fields: dict[str, str] = field(default_factory=dict)
    n_bytes: int = 0


# ─── names ──────────────────────────────────────────────────────────────────────────────────────


def sanitize_filename(raw: str | None, fallback: str = "upload") -> str:
    """A safe bare file name: never a path, never hidden, never empty; Hangul and spaces survive."""
    name = unicodedata.normalize("NFC", raw or "")
    name = name.replace("\\", "/").rsplit("/", 1)[-1]
    # control, format (bidi overrides, zero-width) and unassigned characters go
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C")
    name = _RESERVED.sub("_", name)
    name = re.sub(r"\s+", " ", name).strip().lstrip(". ").rstrip(". ")
    if name in ("", ".", ".."):
        name = fallback
    stem, dot, ext = name.rpartition(".")
    if not (dot and stem and 1 <= len(ext) <= 10 and re.fullmatch(r"[A-Za-z0-9]+", ext)):
        stem, ext = name, ""
    suffix = f".{ext}" if ext else ""
    stem = stem[: MAX_NAME - len(suffix)]
    # file systems count bytes (255 on ext4): Hangul takes three in UTF-8
    while len((stem + suffix).encode("utf-8")) > MAX_NAME_BYTES:
        stem = stem[:-1]
    stem = stem.rstrip(". ") or fallback
    return stem + suffix


def unusable_name(raw: str | None) -> bool:
    """True when nothing of the name is left once directories, invisible characters and dots are gone
    (``""``, ``"."``, ``".."``, ``"\u200b"``): such a file is refused rather than given a made-up name that
    could replace another upload's document."""
    name = unicodedata.normalize("NFC", raw or "").replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C")
    return not name.strip().strip(". ")


def visible(name: str) -> str:
    """A name with its invisible characters spelled out (U+200B), for messages."""
    return "".join(f"<U+{ord(ch):04X}>" if unicodedata.category(ch)[0] == "C" else ch for ch in name)


def check_names(files: list[SavedFile], existing: set[str]) -> None:
    """A name our sanitising changed (beyond NFC) may not land on a document the collection already
    holds: that would silently replace it. Re-uploading under the very same name still updates."""
    for f in files:
        as_sent = unicodedata.normalize("NFC", f.original)
        if f.name != as_sent and f.name in existing:
            raise ApiError(409, "name_conflict", f"{visible(f.original)!r} would be stored as '{f.name}', the name "
                           "of a document already in this collection; rename the file", file=f.name)


def unique_name(name: str, taken: set[str]) -> str:
    if name.lower() not in taken:
        taken.add(name.lower())
        return name
    stem, dot, ext = name.rpartition(".")
    if not dot:
        stem, ext = name, ""
    i = 2
    while True:
        cand = f"{stem} ({i}){'.' + ext if ext else ''}"
        if cand.lower() not in taken:
            taken.add(cand.lower())
            return cand
        i += 1


_EXT_VALUE = re.compile(rb"""(?:^|;)\s*filename\*\s*=\s*"?([A-Za-z0-9_-]*)'[A-Za-z0-9-]*'([^;"\s]*)""", re.I)


def extended_filename(disposition: bytes) -> str | None:
    """``filename*=charset'lang'percent-encoded`` of a Content-Disposition header (RFC 5987), decoded."""
    m = _EXT_VALUE.search(disposition)
    if m is None:
        return None
    charset = m.group(1).decode("ascii").lower() or "utf-8"
    value = m.group(2).decode("latin-1")
    try:
        return unquote(value, encoding=charset, errors="replace")
    except LookupError:  # an unknown charset: read it as UTF-8
        return unquote(value, encoding="utf-8", errors="replace")


# ─── receiving ──────────────────────────────────────────────────────────────────────────────────


def too_large(limit: int) -> ApiError:
    return ApiError(413, "too_large", f"upload is larger than the {_mb(limit)} limit (server.max_upload_mb)",
                    limit_bytes=limit)


def _mb(n: int) -> str:
    return f"{n / 1024 / 1024:g} MB"


class _Sink:
    """python_multipart callbacks writing each file part straight to disk."""

    def __init__(self, dest: Path, max_files: int) -> None:
        self.dest = dest
        self.max_files = max_files
        self.out = Received()
        self.taken: set[str] = set()
        self._hname = bytearray()
        self._hval = bytearray()
        self._headers: dict[str, bytes] = {}
        self._fh: Any = None
        self._cur: SavedFile | None = None
        self._field: str | None = None
        self._fbuf = bytearray()
        self._fields_bytes = 0

    def callbacks(self) -> dict[str, Any]:
        return {"on_part_begin": self.part_begin, "on_header_field": self.header_field,
                "on_header_value": self.header_value, "on_header_end": self.header_end,
                "on_headers_finished": self.headers_finished, "on_part_data": self.part_data,
                "on_part_end": self.part_end}

    def part_begin(self) -> None:
        self._headers = {}
        self._cur = None
        self._field = None
        self._fbuf = bytearray()

    def header_field(self, data: bytes, start: int, end: int) -> None:
        self._hname += data[start:end]

    def header_value(self, data: bytes, start: int, end: int) -> None:
        self._hval += data[start:end]

    def header_end(self) -> None:
        self._headers[self._hname.decode("latin-1").strip().lower()] = bytes(self._hval)
        self._hname = bytearray()
        self._hval = bytearray()

    def headers_finished(self) -> None:
        from python_multipart.multipart import parse_options_header

        raw = self._headers.get("content-disposition", b"")
        _, params = parse_options_header(raw)
        fname = extended_filename(raw)  # RFC 5987 filename*= wins over filename= (RFC 6266)
        if fname is None and b"filename" in params:
            fname = params[b"filename"].decode("utf-8", errors="replace")
        if fname is None:
            self._field = params.get(b"name", b"").decode("utf-8", errors="replace")
            return
        if len(self.out.files) >= self.max_files:
            raise ApiError(400, "too_many_files", f"at most {self.max_files} files per upload (server.max_files)")
        if unusable_name(fname):
            raise ApiError(400, "bad_filename", f"{visible(fname)!r} is not a usable file name")
        name = unique_name(sanitize_filename(fname), self.taken)
        path = self.dest / f"{len(self.out.files):03d}"
        path.mkdir(parents=True, exist_ok=True)
        self._cur = SavedFile(name=name, original=fname, path=path / name)
        self._fh = self._cur.path.open("wb")
        self.out.files.append(self._cur)

    def part_data(self, data: bytes, start: int, end: int) -> None:
        if self._cur is not None and self._fh is not None:
            self._fh.write(data[start:end])
            self._cur.size += end - start
        elif self._field is not None:
            self._fields_bytes += end - start
            if self._fields_bytes > MAX_FIELDS_BYTES:
                raise ApiError(400, "bad_request", "form fields are too large")
            self._fbuf += data[start:end]

    def part_end(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
        elif self._field:
            self.out.fields[self._field] = self._fbuf.decode("utf-8", errors="replace")
        self._cur = None
        self._field = None

    def close(self) -> None:
        if self._fh is not None:
            with contextlib.suppress(OSError):
                self._fh.close()
            self._fh = None


async def receive(request: Any, dest: Path, max_bytes: int, max_files: int) -> Received:
    """Stream the request body into ``dest`` (multipart/form-data, or a raw body named by X-Filename)."""
    from starlette.concurrency import run_in_threadpool

    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > max_bytes + _SLACK:
        raise too_large(max_bytes)
    ctype = request.headers.get("content-type", "")
    dest.mkdir(parents=True, exist_ok=True)
    if ctype.lower().startswith("multipart/form-data"):
        from python_multipart.multipart import MultipartParser, parse_options_header

        _, params = parse_options_header(ctype)
        boundary = params.get(b"boundary")
        if not boundary:
            raise ApiError(400, "bad_request", "multipart body without a boundary")
        sink = _Sink(dest, max_files)
        parser = MultipartParser(boundary, sink.callbacks())
        try:
            async for chunk in _limited(request.stream(), max_bytes + _SLACK, max_bytes, sink.out):
                await run_in_threadpool(parser.write, chunk)
            parser.finalize()
        except ApiError:
            raise
        except Exception as e:
            raise ApiError(400, "bad_request", f"malformed multipart body ({type(e).__name__}: {e})") from None
        finally:
            sink.close()
        out = sink.out
        total = sum(f.size for f in out.files)
        if total > max_bytes:
            raise too_large(max_bytes)
    else:
        raw = request.headers.get("x-filename") or request.query_params.get("filename")
        if not raw:
            raise ApiError(400, "no_file", "send files as multipart/form-data (field 'file'), or a raw body "
                                           "with an X-Filename header")
        if unusable_name(unquote(raw, encoding="utf-8", errors="replace")):
            raise ApiError(400, "bad_filename", f"{visible(unquote(raw))!r} is not a usable file name")
        name = sanitize_filename(unquote(raw, encoding="utf-8", errors="replace"))
        (dest / "000").mkdir(parents=True, exist_ok=True)
        f = SavedFile(name=name, original=unquote(raw), path=dest / "000" / name)
        out = Received(files=[f])
        with f.path.open("wb") as fh:
            async for chunk in _limited(request.stream(), max_bytes, max_bytes, out):
                fh.write(chunk)
                f.size += len(chunk)
    if not out.files:
        raise ApiError(400, "no_file", "the upload holds no file (multipart field with a filename)")
    return out


async def _limited(stream: AsyncIterator[bytes], abort_at: int, limit: int,
                   out: Received) -> AsyncIterator[bytes]:
    """The body's chunks; stops with 413 as soon as more than ``abort_at`` bytes have arrived."""
    async for chunk in stream:
        out.n_bytes += len(chunk)
        if out.n_bytes > abort_at:
            raise too_large(limit)
        if chunk:
            yield chunk


# ─── checking types ─────────────────────────────────────────────────────────────────────────────


def _leading_magic(data: bytes) -> str | None:
    return next((name for magic, name in _BINARY_MAGIC if data.startswith(magic)), None)


def _is_pdf(data: bytes) -> bool:
    """``%PDF-`` within the first KB (readers allow leading junk) — but never after another format's
    signature: ``MZ…%PDF-`` is a Windows executable carrying a PDF, not a PDF."""
    lead = _leading_magic(data)
    return b"%PDF-" in data[:1024] and (lead is None or lead == "PDF")


def _magic_name(data: bytes) -> str | None:
    lead = _leading_magic(data)
    if lead is None and b"%PDF-" in data[:1024]:
        return "PDF"
    return lead


def _decode_text(data: bytes) -> str | None:
    """UTF-8 (BOM optional), UTF-16 with BOM, or CP949 — None when it is none of them or is binary."""
    text: str | None = None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        with contextlib.suppress(UnicodeDecodeError):
            text = data.decode("utf-16")
    else:
        for enc in ("utf-8-sig", "cp949"):
            try:
                text = data.decode(enc)
                break
            except UnicodeDecodeError:
                continue
    if text is None or "\x00" in text:
        return None
    sample = text[:20000]
    ctrl = sum(1 for c in sample if unicodedata.category(c) == "Cc" and c not in "\t\n\r\f\v")
    if ctrl > max(2, len(sample) * 0.05):
        return None
    return text


def _looks_html(text: str) -> bool:
    head = text[:4096].lower()
    return "<html" in head or "<!doctype html" in head


def _zip_kind(zf: zipfile.ZipFile) -> str | None:
    names = zf.namelist()
    if "word/document.xml" in names:
        return "docx"
    if "mimetype" in names and zf.read("mimetype").strip() == b"application/hwp+zip":
        return "hwpx"
    return None


def detect_format(data: bytes) -> str | None:
    """The format the bytes are, whatever the name says (None: unsupported content)."""
    if _is_pdf(data):
        return "pdf"
    if data.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as zf:
                return _zip_kind(zf)
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
            return None
    if data.startswith(_OLE):
        from jogak.load.hwp.container import is_hwp5

        return "hwp" if is_hwp5(data) else None
    if _magic_name(data):
        return None
    text = _decode_text(data)
    if text is None:
        return None
    if _looks_html(text):
        return "html"
    return "text"


def check_file(f: SavedFile, max_inflated: int) -> str:
    """Validate one saved file by its content; returns the format and may rename (missing extension)."""
    ext = Path(f.name).suffix.lower()
    fmt = FORMATS.get(ext)
    supported = ", ".join(sorted(FORMATS))
    if fmt is None and ext and re.fullmatch(r"\.[A-Za-z0-9]{1,10}", ext):
        raise ApiError(415, "unsupported_type", f"{f.name}: unsupported file type '{ext}' (supported: {supported})",
                       file=f.name)
    data = f.path.read_bytes()
    if not data:
        raise ApiError(422, "empty_file", f"{f.name}: empty file (0 bytes)", file=f.name)
    if fmt is None:  # no usable extension: the content decides
        fmt = detect_format(data)
        if fmt is None:
            what = _magic_name(data)
            raise ApiError(415, "unsupported_type",
                           f"{f.name}: unsupported content{f' ({what})' if what else ''}; supported: PDF, DOCX, "
                           "HWP, HWPX, HTML, Markdown, UTF-8/CP949 text", file=f.name)
        new = f.path.with_name(f.name + _EXT_OF[fmt])
        f.path.rename(new)
        f.path, f.name = new, new.name
    if fmt == "pdf":
        if not _is_pdf(data):
            raise _mismatch(f, fmt, data)
    elif fmt in ("docx", "hwpx"):
        _check_zip_package(f, data, max_inflated, fmt)
    elif fmt == "hwp":
        from jogak.load.hwp.container import is_hwp5

        if not is_hwp5(data):
            raise _mismatch(f, fmt, data)
    else:
        what = _magic_name(data)
        if what:
            raise _mismatch(f, fmt, data)
        text = _decode_text(data)
        if text is None:
            raise ApiError(415, "unsupported_type", f"{f.name}: not a {_NAMES[fmt]} file: the bytes are neither "
                                                    "UTF-8 (or UTF-16 with BOM) nor CP949 text", file=f.name)
        if fmt == "html" and not _looks_html(text):
            raise ApiError(415, "unsupported_type", f"{f.name}: not an HTML document (no <html> or <!DOCTYPE html> "
                                                    "in the first 4 KB)", file=f.name)
    f.format = fmt
    return fmt


def _mismatch(f: SavedFile, fmt: str, data: bytes) -> ApiError:
    what = _magic_name(data)
    actual = f"it is {what} data" if what else f"it does not start like a {_NAMES[fmt]} file"
    return ApiError(415, "type_mismatch", f"{f.name}: the name says {_NAMES[fmt]} but {actual}", file=f.name)


def _check_zip_package(f: SavedFile, data: bytes, max_inflated: int, fmt: str) -> None:
    from jogak.load.errors import LoadError, OversizeError

    if not data.startswith(b"PK\x03\x04"):
        raise _mismatch(f, fmt, data)
    guard = None
    with contextlib.suppress(ImportError):
        if fmt == "docx":
            from jogak.load.docx import check_zip as guard  # the loader's guard (declared sizes)
        else:
            from jogak.load.hwpx import check_zip as guard
    try:
        zf = guard(data, f.name) if guard else zipfile.ZipFile(io.BytesIO(data))
    except OversizeError as e:
        raise ApiError(422, "zip_bomb", f"{f.name}: {e.message}", file=f.name) from None
    except LoadError as e:
        raise ApiError(422, "corrupt_file", f"{f.name}: {e.message}", file=f.name) from None
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as e:
        raise ApiError(422, "corrupt_file", f"{f.name}: not a readable zip archive ({e})", file=f.name) from None
    with zf:
        if _zip_kind(zf) != fmt:
            what = "a Word document (no word/document.xml)" if fmt == "docx" else \
                "a 한글 document (no application/hwp+zip mimetype entry)"
            raise ApiError(415, "type_mismatch", f"{f.name}: a zip archive but not {what}", file=f.name)
        # declared sizes can lie: measure what the members really inflate to, within a budget
        total = 0
        try:
            for info in zf.infolist():
                with zf.open(info) as fh:
                    while True:
                        block = fh.read(1 << 20)
                        if not block:
                            break
                        total += len(block)
                        if total > max_inflated:
                            raise ApiError(422, "zip_bomb", f"{f.name}: inflates to more than {_mb(max_inflated)} "
                                                            "— zip bomb suspected (server.max_docx_inflated_mb)",
                                           file=f.name)
        except ApiError:
            raise
        except Exception as e:  # CRC errors, encrypted members, bad compression
            raise ApiError(422, "corrupt_file", f"{f.name}: corrupt {_NAMES[fmt]} ({type(e).__name__}: {e})",
                           file=f.name) from None
