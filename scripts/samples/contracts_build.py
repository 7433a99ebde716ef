"""Build the contract samples (PDF + DOCX from one source each)."""

from __future__ import annotations

from pathlib import Path

import _docx
from _pdf import Layout, render
from _source import parse


def _layout(meta: dict[str, str]) -> Layout:
    header_text = meta.get("header")
    header_from = int(meta.get("header_from", "1"))

    def header(page: int) -> str | None:
        return header_text if header_text and page >= header_from else None

    common = dict(
        title=meta.get("title", ""), author=meta.get("author", ""), subject=meta.get("subject", ""),
        header=header, folio=meta.get("folio") == "yes",
    )
    if meta.get("lang", "ko") == "en":
        return Layout(
            lang="en", body_size=10.5, body_leading=13.8, heading_size=11.5, part_size=12.5,
            title_size=16, para_space=4, heading_space_before=9, indent_step=18, justify=True,
            footnote_size=8, footnote_leading=9.8, **common,
        )
    return Layout(lang="ko", body_size=10, body_leading=16.5, heading_size=11, part_size=12.5,
                  title_size=18, para_space=2.5, indent_step=10, **common)


def build(src_dir: Path, out_dir: Path) -> list[tuple[Path, dict]]:
    results = []
    for src_path in sorted(src_dir.glob("*.md")):
        src = parse(src_path)
        pdf_path = out_dir / (src_path.stem + ".pdf")
        facts = render(src, _layout(src.meta), pdf_path)
        results.append((pdf_path, facts))
        docx_path = out_dir / (src_path.stem + ".docx")
        results.append((docx_path, _docx.render(src, docx_path)))
    return results
