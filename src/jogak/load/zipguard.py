"""Zip packages (DOCX, HWPX) opened safely: what a zip bomb or a damaged archive becomes.

Not a zip / truncated → ``CorruptFileError``; more than 400 MB uncompressed, more than 10,000 members, or
a member inflating more than 200× and past 10 MB → ``OversizeError`` "zip bomb suspected". Declared sizes
can lie, so ``inflate_all`` reads every member once and measures; a CRC or deflate error found there is
reported as corruption rather than surfacing mid-parse.
"""

from __future__ import annotations

import io
import zipfile
import zlib

from jogak.load.errors import CorruptFileError, OversizeError, short

MAX_UNCOMPRESSED = 400 * 1024 * 1024
MAX_RATIO = 200
MAX_MEMBERS = 10_000
_BIG_MEMBER = 10 * 1024 * 1024
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError, OSError, NotImplementedError)


def open_zip(data: bytes, source: str, kind: str) -> zipfile.ZipFile:
    """``data`` as a zip whose declared sizes pass the limits; ``kind`` ("DOCX", "HWPX") names it in errors."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except _ZIP_ERRORS as e:
        raise CorruptFileError(source, f"corrupt {kind}: not a readable zip archive ({short(e)})") from None
    if len(infos) > MAX_MEMBERS:
        raise OversizeError(source, f"{kind} has {len(infos):,} zip members — zip bomb suspected")
    total = sum(i.file_size for i in infos)
    if total > MAX_UNCOMPRESSED:
        raise OversizeError(source, f"{kind} inflates to {total:,} bytes — zip bomb suspected")
    for i in infos:
        if i.file_size > _BIG_MEMBER and i.file_size > MAX_RATIO * max(i.compress_size, 1):
            raise OversizeError(source, f"{kind} member {i.filename} inflates "
                                        f"{i.file_size // max(i.compress_size, 1)}× — zip bomb suspected")
    return zf


def inflate_all(zf: zipfile.ZipFile, source: str, kind: str) -> None:
    """Read every member once, measuring what it really inflates to (declared sizes can lie)."""
    total = 0
    try:
        for info in zf.infolist():
            with zf.open(info) as fh:
                while block := fh.read(1 << 20):
                    total += len(block)
                    if total > MAX_UNCOMPRESSED:
                        raise OversizeError(source, f"{kind} inflates past {MAX_UNCOMPRESSED >> 20} MB — "
                                                    "zip bomb suspected")
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError) as e:
        raise CorruptFileError(source, f"corrupt {kind}: {short(e)}") from None
