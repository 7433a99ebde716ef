"""Parse + chunk throughput of the structure strategy, with seed 001's recursive chunker as baseline.

    .venv/bin/python benchmarks/structure.py [--repeat 3] [--corpora ../shared/corpora]

Documents are loaded once (loading is reported separately); each strategy then runs ``--repeat`` times
over the same in-memory documents and the best time is kept. Pages are real for PDFs and estimated as
characters / 1,800 (a dense A4 page of Korean text) elsewhere, marked "~".
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from jogak.chunk import get_chunker  # noqa: E402
from jogak.load import load  # noqa: E402
from jogak.structure import parse  # noqa: E402

CHARS_PER_PAGE = 1800


def corpora(base: Path) -> dict[str, list[Path]]:
    sets = {
        "Haru Market PDFs": sorted((ROOT / "examples" / "haru-market").glob("*.pdf")),
        "contracts PDF+DOCX": sorted((ROOT / "examples" / "contracts").glob("*.*")),
        "casebook (txt)": sorted((ROOT / "examples" / "caselaw").glob("*.txt")),
        "Korean statutes (md)": sorted((base / "korean_statutes").glob("*.md")),
        "court decisions (md)": sorted((base / "korean_precedents").rglob("*.md")),
        "CUAD contracts (txt)": sorted((base / "cuad_contracts" / "contracts").glob("*.txt")),
    }
    return {k: v for k, v in sets.items() if v}


def best(fn, repeat: int) -> float:
    t = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - t0)
    return t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    args = ap.parse_args()
    console = Console(width=200)
    table = Table(title="structure vs recursive (seed 001 baseline): parse + chunk, best of "
                        f"{args.repeat}")
    for col in ("corpus", "docs", "pages", "MB", "load s", "recursive s", "structure s",
                "× baseline", "pages/s", "MB/s", "chunks rec/str"):
        table.add_column(col, justify="right" if col != "corpus" else "left")
    recursive = get_chunker("recursive", size=500, overlap=100)
    structure = get_chunker("structure", size=500, overlap=100)
    tot = {"pages": 0.0, "mb": 0.0, "rec": 0.0, "str": 0.0}
    for name, files in corpora(args.corpora).items():
        t0 = time.perf_counter()
        docs = [load(f) for f in files]
        t_load = time.perf_counter() - t0
        pages = sum(d.n_pages or len(d.text) / CHARS_PER_PAGE for d in docs)
        estimated = any(not d.n_pages for d in docs)
        mb = sum(len(d.text.encode("utf-8")) for d in docs) / 1e6
        n_rec = sum(1 for _ in recursive.chunk(docs))
        n_str = sum(1 for _ in structure.chunk(docs))
        t_rec = best(lambda docs=docs: list(recursive.chunk(docs)), args.repeat)
        # the structure strategy parses inside chunk(); time both together, as a user pays them
        t_str = best(lambda docs=docs: [list(structure.chunk_document(d, parse(d))) for d in docs], args.repeat)
        tot["pages"] += pages
        tot["mb"] += mb
        tot["rec"] += t_rec
        tot["str"] += t_str
        table.add_row(name, str(len(docs)), f"{'~' if estimated else ''}{pages:,.0f}", f"{mb:.2f}",
                      f"{t_load:.2f}", f"{t_rec:.3f}", f"{t_str:.3f}", f"{t_str / t_rec:.1f}",
                      f"{pages / t_str:,.0f}", f"{mb / t_str:.2f}", f"{n_rec}/{n_str}")
    table.add_row("all", "", f"~{tot['pages']:,.0f}", f"{tot['mb']:.2f}", "", f"{tot['rec']:.3f}",
                  f"{tot['str']:.3f}", f"{tot['str'] / tot['rec']:.1f}", f"{tot['pages'] / tot['str']:,.0f}",
                  f"{tot['mb'] / tot['str']:.2f}", "", style="bold")
    console.print(table)


if __name__ == "__main__":
    main()
