"""Parser for the small markdown-like source format used by the sample documents.

The format is deliberately tiny (see README.md in this folder):

    % key: value              document settings (title, author, header, ...)
    # Title                   document title
    ## 제1조 (목적)            heading (article, FAQ, 부칙, ARTICLE 1 ..., Section headings)
    ### 부록A (위약 책임 세칙)  part heading (appendix, schedule, exhibit)
    ::: pagebreak             force a page break before the next block
    ::: parties               a parties table; rows follow as "| a | b | c |", closed by ":::"
    | a | b | c |             a grid table (first row is the header row; "|---|" lines are ignored)
    ^^ text                   centred line
    >> text                   right-aligned line
    <!-- comment -->          ignored
    [^1]: text                footnote definition
    anything else             one paragraph per line; the paragraph marker (①, 1., 가., (a), (i))
                              decides the indent level

Inline markup: **bold** and [^n] footnote references.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮"
HANGUL_ITEM = "가나다라마바사아자차카타파하"

_ITEM_RE = re.compile(r"^(\d+)\.\s")           # 호: "1. "
_MOK_RE = re.compile(rf"^[{HANGUL_ITEM}]\.\s")  # 목: "가. "
_ALPHA_RE = re.compile(r"^\([a-h]\)\s")         # (a) .. (h)
_ROMAN_RE = re.compile(r"^\((?:i|ii|iii|iv|v|vi|vii|viii)\)\s")
_SECTION_RE = re.compile(r"^\d+\.\d+\s")       # "1.1 " English sections / schedule paragraphs


@dataclass
class Block:
    kind: str                 # title | heading | part | para | table | parties | center | right | pagebreak
    text: str = ""
    level: int = 0            # indent level for paragraphs
    rows: list[list[str]] = field(default_factory=list)
    marker: str = ""          # the paragraph marker that decided the level (for hanging indents)


@dataclass
class Source:
    meta: dict[str, str]
    blocks: list[Block]
    footnotes: dict[str, str]


def para_level(text: str) -> tuple[int, str]:
    """Return (indent level, marker) for a paragraph line."""
    if text and text[0] in CIRCLED:
        return 1, text[0]
    m = _ITEM_RE.match(text)
    if m:
        return 2, m.group(0).rstrip()
    m = _MOK_RE.match(text)
    if m:
        return 3, m.group(0).rstrip()
    m = _ROMAN_RE.match(text)
    if m:
        return 3, m.group(0).rstrip()
    m = _ALPHA_RE.match(text)
    if m:
        return 2, m.group(0).rstrip()
    m = _SECTION_RE.match(text)
    if m:
        return 1, m.group(0).rstrip()
    return 0, ""


def _split_row(line: str) -> list[str]:
    cells = line.strip().strip("|").split("|")
    return [c.strip() for c in cells]


def parse(path: Path) -> Source:
    meta: dict[str, str] = {}
    blocks: list[Block] = []
    footnotes: dict[str, str] = {}
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    table: list[list[str]] | None = None
    while i < len(lines):
        raw = lines[i]
        line = raw.strip()
        i += 1
        if table is not None and not line.startswith("|"):
            blocks.append(Block("table", rows=table))
            table = None
        if not line or (line.startswith("<!--") and line.endswith("-->")):
            continue
        if line.startswith("% "):
            key, _, value = line[2:].partition(":")
            meta[key.strip()] = value.strip()
        elif line.startswith("### "):
            blocks.append(Block("part", line[4:].strip()))
        elif line.startswith("## "):
            blocks.append(Block("heading", line[3:].strip()))
        elif line.startswith("# "):
            blocks.append(Block("title", line[2:].strip()))
        elif line == "::: pagebreak":
            blocks.append(Block("pagebreak"))
        elif line == "::: parties":
            rows = []
            while i < len(lines) and lines[i].strip() != ":::":
                if lines[i].strip().startswith("|"):
                    rows.append(_split_row(lines[i]))
                i += 1
            i += 1
            blocks.append(Block("parties", rows=rows))
        elif line.startswith("|"):
            if re.fullmatch(r"\|[\s:|-]+\|", line):
                continue
            table = table or []
            table.append(_split_row(line))
        elif line.startswith("^^ "):
            blocks.append(Block("center", line[3:].strip()))
        elif line.startswith(">> "):
            blocks.append(Block("right", line[3:].strip()))
        elif re.match(r"^\[\^\w+\]:", line):
            key, _, text = line.partition("]:")
            footnotes[key[2:]] = text.strip()
        else:
            level, marker = para_level(line)
            blocks.append(Block("para", line, level=level, marker=marker))
    if table is not None:
        blocks.append(Block("table", rows=table))
    return Source(meta, blocks, footnotes)


INLINE_RE = re.compile(r"(\*\*.+?\*\*|\[\^\w+\])")


def inline_tokens(text: str) -> list[tuple[str, str]]:
    """Split a paragraph into ('text'|'bold'|'fn', value) tokens."""
    out: list[tuple[str, str]] = []
    for part in INLINE_RE.split(text):
        if not part:
            continue
        if part.startswith("**") and part.endswith("**"):
            out.append(("bold", part[2:-2]))
        elif part.startswith("[^"):
            out.append(("fn", part[2:-1]))
        else:
            out.append(("text", part))
    return out
