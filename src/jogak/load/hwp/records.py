"""HWP 5.0 data records (Hancom, "한글 문서 파일 형식 5.0", §4.1.1 데이터 레코드).

A stream (``DocInfo``, ``BodyText/SectionN``) is a sequence of records. Each starts with a 32-bit
little-endian header: tag id in bits 0–9, level in bits 10–19, size in bits 20–31; a size of 0xFFF means
the real size follows as another 32-bit word. Levels nest: a record whose level is one deeper than the
record before it is that record's child (a paragraph's text, a control's table and cell lists).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

HWPTAG_BEGIN = 0x10
# DocInfo
DOCUMENT_PROPERTIES = HWPTAG_BEGIN
ID_MAPPINGS = HWPTAG_BEGIN + 1
CHAR_SHAPE = HWPTAG_BEGIN + 5
NUMBERING = HWPTAG_BEGIN + 7
BULLET = HWPTAG_BEGIN + 8
PARA_SHAPE = HWPTAG_BEGIN + 9
STYLE = HWPTAG_BEGIN + 10
DISTRIBUTE_DOC_DATA = HWPTAG_BEGIN + 12
# BodyText
PARA_HEADER = HWPTAG_BEGIN + 50
PARA_TEXT = HWPTAG_BEGIN + 51
PARA_CHAR_SHAPE = HWPTAG_BEGIN + 52
PARA_LINE_SEG = HWPTAG_BEGIN + 53
CTRL_HEADER = HWPTAG_BEGIN + 55
LIST_HEADER = HWPTAG_BEGIN + 56
SHAPE_COMPONENT = HWPTAG_BEGIN + 60
TABLE = HWPTAG_BEGIN + 61


class RecordError(ValueError):
    """The stream is not a valid record sequence (truncated or garbage)."""


@dataclass(slots=True)
class Record:
    tag: int
    level: int
    data: bytes
    children: list[Record] = field(default_factory=list)

    def ctrl_id(self) -> str:
        """A control header's 4-character id ('tbl ', 'fn  ', 'secd', …), stored as a little-endian word."""
        return self.data[:4][::-1].decode("latin-1") if len(self.data) >= 4 else ""


def read_records(data: bytes) -> list[Record]:
    """The stream's records in order (flat)."""
    out: list[Record] = []
    pos, n = 0, len(data)
    while pos < n:
        if pos + 4 > n:
            raise RecordError(f"truncated record header at byte {pos}")
        (h,) = struct.unpack_from("<I", data, pos)
        pos += 4
        tag, level, size = h & 0x3FF, (h >> 10) & 0x3FF, h >> 20
        if size == 0xFFF:
            if pos + 4 > n:
                raise RecordError(f"truncated record size at byte {pos}")
            (size,) = struct.unpack_from("<I", data, pos)
            pos += 4
        if pos + size > n:
            raise RecordError(f"record {tag} at byte {pos} runs past the end of the stream")
        out.append(Record(tag, level, data[pos: pos + size]))
        pos += size
    return out


def build_tree(records: list[Record]) -> list[Record]:
    """Attach each record to the nearest earlier record one level up; returns the top-level records."""
    roots: list[Record] = []
    stack: list[Record] = []
    for r in records:
        while stack and stack[-1].level >= r.level:
            stack.pop()
        if stack:
            stack[-1].children.append(r)
        else:
            roots.append(r)
        stack.append(r)
    return roots


def u16(b: bytes, off: int, default: int = 0) -> int:
    return struct.unpack_from("<H", b, off)[0] if off + 2 <= len(b) else default


def u32(b: bytes, off: int, default: int = 0) -> int:
    return struct.unpack_from("<I", b, off)[0] if off + 4 <= len(b) else default


def i32(b: bytes, off: int, default: int = 0) -> int:
    return struct.unpack_from("<i", b, off)[0] if off + 4 <= len(b) else default


def wstr(b: bytes, off: int) -> tuple[str, int]:
    """A length-prefixed (WORD count) UTF-16LE string at ``off``; returns it and the offset after it."""
    n = u16(b, off)
    start = off + 2
    end = start + 2 * n
    return b[start:end].decode("utf-16-le", errors="replace"), end
