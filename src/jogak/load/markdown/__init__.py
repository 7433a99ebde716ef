"""Markdown loader: a careful line-based renderer to plain text with layout cues.

Modules: ``front_matter``, ``syntax`` (block/inline patterns, line predicates), ``definitions`` (pass 1:
footnote and link reference definitions), ``blocks`` (pass 2: block rules → lines), ``inline`` (inline
markup → text, bold, footnote marks). markdown-it-py is not used: CommonMark's block rules join the
numbered lines of a Korean statute into one paragraph and read 4-space-indented items as code.

What the rendered ``Document`` looks like:

* YAML front matter (``---`` … ``---``/``...`` at the very top) → ``metadata`` (``yaml.safe_load``; dates
  become ISO strings so metadata stays JSON-safe) and is excluded from the text.
* ATX (``#``) and setext headings → the text without the ``#`` marks, ``heading_level`` set,
  ``style="h<N>"``.
* Inline markup is removed: ``**bold**``/``__bold__`` and ``*em*``/``_em_`` markers, backslash escapes
  (``1\\.`` → ``1.``), code spans (content kept), links/images → their text/alt text, autolinks → the URL,
  HTML entities decoded, known inline HTML tags (``<br>``, ``<sup>``, ``<span …>``…) dropped, HTML
  comments dropped. ``<개정 2010.5.17>`` and other non-HTML angle-bracket text (the amendment tags of the
  Korean statutes) is TEXT and kept. ``bold_prefix`` = length of the bold run at the line start
  (``**①** …`` → 1), ``bold`` = ``bold_prefix > 0``.
* Leading indentation is stripped from the text and carried by ``Line.indent`` (spaces; tab = 4):
  ``  1\\. …`` → text ``1. …`` with ``indent=2``. Indented code blocks are not recognised (Korean
  documents indent their items by 4 spaces); fenced code blocks are kept verbatim (``role="code"``).
* Lists: ``- item`` → bullet removed, ``role="list_item"``; ``1. item`` → the number is kept in the text
  and in ``numbering`` ("1."). Soft-wrapped continuation lines of a paragraph or item are joined with one
  space (a Markdown soft break is a space), except before a line that starts a block or a Korean
  structural label (①, 1., 가., 제N조, (1), **①**…), which always starts a new line.
* Blank lines separate blocks and are not emitted: every line of ``text`` has content.
* Pipe tables → one line per row (header row included, delimiter row dropped), cells joined with
  ``" | "``, ``role="table_row"``.
* Footnotes: ``[^n]`` marks are removed from the text and recorded as ``FootnoteMark(offset, label)``
  (``end=None``), the same convention as the DOCX, HTML and PDF loaders. ``[^n]: …`` definitions are
  removed from the body and appended after it (``body_end``) as lines ``"n <text>"`` with
  ``role="footnote"``.
"""

from __future__ import annotations

from typing import Any

from jogak.load.encoding import decode, normalize_newlines
from jogak.load.markdown.blocks import BlockParser, Renderer
from jogak.load.markdown.definitions import collect_definitions
from jogak.load.markdown.front_matter import read_front_matter
from jogak.load.markdown.syntax import strip_comments
from jogak.model import Document

__all__ = ["load_bytes"]


def load_bytes(data: bytes, source: str) -> Document:
    raw_text, encoding = decode(data, source)
    text = normalize_newlines(raw_text)
    metadata: dict[str, Any] = {"encoding": encoding}
    warnings: list[str] = []
    body_off = read_front_matter(text, metadata, warnings)
    src = strip_comments(text[body_off:].split("\n"))
    defs = collect_definitions(src, warnings)
    r = Renderer(defs.refs)
    BlockParser(defs.body, r).run()
    r.footnotes(defs.notes, defs.note_order)
    doc = r.b.build(source, metadata=metadata, warnings=warnings)
    if not doc.text.strip():
        doc.warnings.append("no text")
    return doc
