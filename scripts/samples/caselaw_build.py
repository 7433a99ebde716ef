"""Build examples/caselaw/민법판례집.txt from caselaw/민법판례집.src.txt.

Output format follows a typical Korean casebook text export: a table of contents first, then one
decision per block: title line (full-width colon, "(1)"/"(2)" counters when a title repeats), the
court/date/case-number line, then <쟁점>, <판결요지>, <참조조문>, <참조판례> sections whose paragraphs are
hard-wrapped at about 40 Korean characters (breaks may fall inside words).
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from pathlib import Path

WRAP_COLUMNS = 80  # display columns: Hangul counts 2, ASCII 1 -> about 40 Korean characters


def _width(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def wrap(text: str, first_indent: str = "  ") -> list[str]:
    lines, cur, w = [], first_indent, len(first_indent)
    for ch in text:
        cw = _width(ch)
        if w + cw > WRAP_COLUMNS:
            if ch == " ":  # a space at the break stays at the end of the line, as in exported text
                lines.append(cur + ch)
                cur, w = "", 0
                continue
            lines.append(cur)
            cur, w = "", 0
        cur += ch
        w += cw
    if cur:
        lines.append(cur)
    return lines


def parse(src: Path) -> list[dict]:
    cases, cur, section = [], None, None
    for raw in src.read_text(encoding="utf-8").splitlines():
        line = raw.rstrip()
        if line.startswith("#") or (not line and cur is None):
            continue
        if line.startswith("=== "):
            cur = {"title": line[4:].strip(), "court": None, "sections": []}
            cases.append(cur)
            section = None
        elif cur is not None and cur["court"] is None and line.startswith("("):
            cur["court"] = line
        elif line.startswith("<") and line.endswith(">"):
            section = (line, [])
            cur["sections"].append(section)
        elif line and section is not None:
            section[1].append(line)
    return cases


def build(src_dir: Path, out_dir: Path) -> list[tuple[Path, dict]]:
    cases = parse(src_dir / "민법판례집.src.txt")
    counts = Counter(c["title"] for c in cases)
    seen: Counter = Counter()
    blocks, toc = [], []
    page = 3
    for c in cases:
        title = c["title"]
        if counts[title] > 1:
            seen[title] += 1
            title = f"{title} ({seen[title]})"
        out = [title, c["court"]]
        for tag, paras in c["sections"]:
            out.append(tag)
            for para in paras:
                out.extend(wrap(para))
        blocks.append("\n".join(out))
        toc.append((title, page))
        page += max(1, sum(len(b) for b in out) // 1100 + 1)
    toc_lines = ["목차", ""]
    for title, pg in toc:
        dots = "·" * max(4, 30 - sum(_width(ch) for ch in title) // 2)
        toc_lines.append(f"{title} {dots} {pg}")
    text = "\n".join(toc_lines) + "\n\n\n" + "\n\n".join(blocks) + "\n"
    out_path = out_dir / "민법판례집.txt"
    out_dir.mkdir(parents=True, exist_ok=True)
    out_path.write_text(text, encoding="utf-8")
    return [(out_path, {"decisions": len(cases), "chars": len(text)})]
