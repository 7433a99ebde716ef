"""Plain text loader (placeholder: UTF-8 only; the loader work replaces this)."""

from __future__ import annotations

from jogak.model import Document, Line


def load_bytes(data: bytes, source: str) -> Document:
    text = data.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    lines: list[Line] = []
    pos = 0
    for raw in text.split("\n"):
        indent = len(raw) - len(raw.lstrip(" \t"))
        lines.append(Line(start=pos, end=pos + len(raw), indent=indent))
        pos += len(raw) + 1
    return Document(source=source, doc_title="", text=text, format="text", lines=lines)
