"""Regenerate every sample document under examples/ from the sources in scripts/samples/.

    python scripts/samples/build.py            # everything
    python scripts/samples/build.py haru       # only one group: haru | contracts | caselaw

Needs reportlab, python-docx and lxml, and the NanumGothic fonts (apt-get install -y fonts-nanum).
Output is deterministic: PDFs are written with reportlab's invariant mode, DOCX zips with fixed
timestamps and core properties, so re-running produces the same bytes.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _pdf import Layout, render  # noqa: E402
from _source import parse  # noqa: E402

ROOT = HERE.parent.parent
EXAMPLES = ROOT / "examples"


def _layout_from_meta(meta: dict[str, str], **kw) -> Layout:
    header_text = meta.get("header")
    header_from = int(meta.get("header_from", "1"))

    def header(page: int) -> str | None:
        return header_text if header_text and page >= header_from else None

    return Layout(
        title=meta.get("title", ""), author=meta.get("author", ""), subject=meta.get("subject", ""),
        header=header, folio=meta.get("folio", "no") == "yes", **kw,
    )


def build_haru() -> list[tuple[Path, dict]]:
    out = []
    for src_path in sorted((HERE / "haru-market").glob("*.md")):
        src = parse(src_path)
        lay = _layout_from_meta(src.meta, lang="ko")
        target = EXAMPLES / "haru-market" / (src_path.stem + ".pdf")
        facts = render(src, lay, target)
        out.append((target, facts))
    return out


def build_contracts() -> list[tuple[Path, dict]]:
    from contracts_build import build as build_c

    return build_c(HERE / "contracts", EXAMPLES / "contracts")


def build_caselaw() -> list[tuple[Path, dict]]:
    from caselaw_build import build as build_cl

    return build_cl(HERE / "caselaw", EXAMPLES / "caselaw")


GROUPS = {"haru": build_haru, "contracts": build_contracts, "caselaw": build_caselaw}


def main(argv: list[str]) -> int:
    names = argv or list(GROUPS)
    for name in names:
        for path, facts in GROUPS[name]():
            print(f"wrote {path.relative_to(ROOT)}  {facts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
