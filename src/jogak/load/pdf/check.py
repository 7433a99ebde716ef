"""Cross-check of the PDF loader against pypdf's own text extraction (used by tests and diagnostics)."""

from __future__ import annotations

import io
from collections import Counter, defaultdict

from jogak.model import Document


def page_text_check(doc: Document, data: bytes) -> dict[int, dict[str, Counter[str]]]:
    """Compare each page's non-whitespace characters with pypdf's ``extract_text()``.

    Ours = the characters of ``doc.text`` whose offsets map to the page, plus what the loader removed
    from that page (furniture text, footnote marks, soft hyphens), minus the ``|`` cell separators.
    Returns ``{page: {"missing": ..., "extra": ...}}`` for pages that differ (empty when all agree).
    """
    import pypdf

    reader = pypdf.PdfReader(io.BytesIO(data))
    if reader.is_encrypted:
        reader.decrypt("")
    ours: dict[int, Counter[str]] = defaultdict(Counter)
    for span in doc.pages:
        ours[span.page].update(ch for ch in doc.text[span.start: span.end] if not ch.isspace() and ch != "|")
    for pg, text, _kind in doc.metadata.get("furniture", {}).get("items", []):
        ours[pg].update(ch for ch in text if not ch.isspace() and ch != "|")
    for fn in doc.footnotes:
        for m in fn.marks:
            pg = doc.page_at(m.offset)
            if pg is not None:
                ours[pg].update(ch for ch in m.label if not ch.isspace())
    for pg, _off in doc.metadata.get("removed", {}).get("hyphens", []):
        ours[pg]["-"] += 1
    out: dict[int, dict[str, Counter[str]]] = {}
    for i, page in enumerate(reader.pages, start=1):
        theirs = Counter(ch for ch in (page.extract_text() or "") if not ch.isspace() and ch != "|")
        mine = ours.get(i, Counter())
        missing = theirs - mine
        extra = mine - theirs
        if missing or extra:
            out[i] = {"missing": missing, "extra": extra}
    return out
