"""The HWP 5.0 container: an OLE compound file (read with ``olefile``, BSD) holding ``FileHeader``,
``DocInfo`` and ``BodyText/Section0..N`` streams, the latter two raw-deflate compressed when the header
says so. Encrypted (password), 배포용 (distribution) and DRM documents are refused with a typed error:
their body streams cannot be read without decrypting them, which jogak does not do.
"""

from __future__ import annotations

import io
import re
import struct
import zlib
from dataclasses import dataclass

from jogak.load.errors import CorruptFileError, EncryptedFileError, OversizeError, UnsupportedTypeError, short

SIGNATURE = b"HWP Document File"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
MAX_INFLATED = 400 * 1024 * 1024  # all streams together, as the DOCX guard
MAX_RATIO = 200  # a stream inflating more than this and past 10 MB is a deflate bomb

# FileHeader properties (§3.2.1)
F_COMPRESSED = 1 << 0
F_PASSWORD = 1 << 1
F_DISTRIBUTION = 1 << 2
F_DRM = 1 << 4
F_CERT_ENCRYPTED = 1 << 8


@dataclass
class HwpFile:
    version: tuple[int, int, int, int]
    flags: int
    docinfo: bytes
    sections: list[bytes]

    @property
    def version_str(self) -> str:
        return ".".join(map(str, self.version))


def is_hwp5(data: bytes) -> bool:
    """An OLE file whose FileHeader stream carries the HWP signature (the upload check uses this)."""
    if not data.startswith(OLE_MAGIC):
        return False
    try:
        import olefile

        with olefile.OleFileIO(io.BytesIO(data)) as ole:
            return ole.exists("FileHeader") and ole.openstream("FileHeader").read(32).startswith(SIGNATURE)
    except Exception:  # not a readable OLE file
        return False


def open_hwp(data: bytes, source: str) -> HwpFile:
    import olefile  # BSD; imported lazily (the CLI must start fast)

    if data.startswith(SIGNATURE):
        raise UnsupportedTypeError(source, "HWP 3.x document (1990s binary format): only HWP 5.0 (한글 2002 and "
                                           "later) is read — save it again in 한글 as HWP or HWPX")
    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
    except Exception as e:
        raise CorruptFileError(source, f"corrupt HWP: not a readable OLE compound file ({short(e)})") from None
    with ole:
        if not ole.exists("FileHeader"):
            raise CorruptFileError(source, "corrupt HWP: an OLE file without a FileHeader stream (not a 한글 "
                                           "document — a .doc or .xls?)")
        head = ole.openstream("FileHeader").read()
        if not head.startswith(SIGNATURE) or len(head) < 40:
            raise CorruptFileError(source, "corrupt HWP: the FileHeader stream has no HWP signature")
        (ver,) = struct.unpack_from("<I", head, 32)
        (flags,) = struct.unpack_from("<I", head, 36)
        version = (ver >> 24 & 0xFF, ver >> 16 & 0xFF, ver >> 8 & 0xFF, ver & 0xFF)
        _refuse_protected(flags, source)
        if version[0] != 5:
            raise UnsupportedTypeError(source, f"HWP version {'.'.join(map(str, version))}: only HWP 5.x is read")
        names = ["/".join(p) for p in ole.listdir(streams=True, storages=False)]
        sections = sorted((n for n in names if re.fullmatch(r"BodyText/Section\d+", n)),
                          key=lambda n: int(n.rsplit("Section", 1)[1]))
        if "DocInfo" not in names or not sections:
            raise CorruptFileError(source, "corrupt HWP: no DocInfo or BodyText/Section streams")
        budget = [MAX_INFLATED]
        compressed = bool(flags & F_COMPRESSED)
        docinfo = _stream(ole, "DocInfo", compressed, budget, source)
        bodies = [_stream(ole, n, compressed, budget, source) for n in sections]
    return HwpFile(version=version, flags=flags, docinfo=docinfo, sections=bodies)


def _refuse_protected(flags: int, source: str) -> None:
    if flags & (F_PASSWORD | F_CERT_ENCRYPTED):
        raise EncryptedFileError(source, "encrypted HWP (password-protected): open it in 한글 and save it "
                                         "without a password")
    if flags & F_DISTRIBUTION:
        raise EncryptedFileError(source, "배포용 (distribution) HWP: its body is stored encrypted for viewing "
                                         "only and is not read — ask for the original HWP/HWPX or a PDF")
    if flags & F_DRM:
        raise EncryptedFileError(source, "DRM-protected HWP: its body cannot be read")


def _stream(ole: object, name: str, compressed: bool, budget: list[int], source: str) -> bytes:
    raw = ole.openstream(name).read()  # type: ignore[attr-defined]
    if not compressed:
        return raw
    d = zlib.decompressobj(-15)
    try:
        out = d.decompress(raw, budget[0] + 1)
    except zlib.error as e:
        raise CorruptFileError(source, f"corrupt HWP: stream {name} does not inflate ({short(e)})") from None
    if len(out) > budget[0] or d.unconsumed_tail:
        raise OversizeError(source, f"HWP streams inflate past {MAX_INFLATED:,} bytes — deflate bomb suspected")
    if len(out) > 10 * 1024 * 1024 and len(out) > MAX_RATIO * max(len(raw), 1):
        raise OversizeError(source, f"HWP stream {name} inflates {len(out) // max(len(raw), 1)}× — deflate "
                                    "bomb suspected")
    budget[0] -= len(out)
    return out
