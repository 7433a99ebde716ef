"""Plain text loader.

Decoding: BOM, strict UTF-8, UTF-16 without BOM, EUC-KR/CP949 (checked to look Korean), then
charset-normalizer (see ``jogak.load.encoding``); the encoding used is ``metadata["encoding"]``.

The text is kept exactly as decoded except for line endings (``\\r\\n``/``\\r`` → ``\\n``) and decomposed
Hangul (conjoining jamo, composed into syllables; ``metadata["hangul"] = "composed"``): leading
indentation stays in the text so chunks are exact slices of the file (gold offsets made against an
LF file, like CUAD's, still line up); ``Line.indent`` is the width of the leading whitespace (tab = 4,
full-width space = 2). Form feeds (``\\f``) are page breaks: when present, ``pages`` maps offsets to
pages (the ``\\f`` belongs to the page it ends) and ``n_pages`` is set; otherwise there are no pages.
"""

from __future__ import annotations

import bisect

from jogak.load.encoding import decode, normalize_newlines
from jogak.load.joining import compose_hangul, display_width
from jogak.model import Document, Line, PageSpan


def load_bytes(data: bytes, source: str) -> Document:
    raw, encoding = decode(data, source)
    decoded = normalize_newlines(raw)
    text = compose_hangul(decoded)
    lines: list[Line] = []
    pos = 0
    for seg in text.split("\n"):
        lines.append(Line(start=pos, end=pos + len(seg), indent=display_width(seg)))
        pos += len(seg) + 1
    pages: list[PageSpan] = []
    n_pages = 0
    if "\f" in text:
        start = 0
        page = 1
        for i, ch in enumerate(text):
            if ch == "\f":
                pages.append(PageSpan(page=page, start=start, end=i + 1))
                start = i + 1
                page += 1
        if start < len(text) or not pages:
            pages.append(PageSpan(page=page, start=start, end=len(text)))
        else:
            page -= 1
        n_pages = page
        starts = [p.start for p in pages]
        for ln in lines:
            ln.page = pages[max(bisect.bisect_right(starts, ln.start) - 1, 0)].page
    metadata = {"encoding": encoding}
    if text is not decoded:
        metadata["hangul"] = "composed"  # the file held decomposed (NFD) Hangul: offsets are into the NFC text
    if "\r" in raw:
        metadata["newlines"] = "crlf" if "\r\n" in raw else "cr"
    warnings = []
    if not text.strip():
        warnings.append("no text (the file holds only whitespace)")
    return Document(source=source, doc_title="", text=text, format="text", lines=lines, pages=pages,
                    n_pages=n_pages, metadata=metadata, warnings=warnings)
