"""OCR throughput and recall: the Korean terms fixture (24 articles, 4 pages) rendered to an image-only PDF
at 200 dpi (as a scanner would give it) and loaded with OCR; prints pages/s and how many of the text PDF's
article headings and 항 paragraphs come back with the same paths.

    .venv/bin/python benchmarks/ocr.py [--dpi 200] [--pdf FILE]
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TERMS = ROOT / "tests" / "fixtures" / "load" / "ocr" / "새솔몰_이용약관.pdf"


def image_pdf(pdf: bytes, dpi: int) -> bytes:
    import pypdfium2 as pdfium
    from PIL import Image

    src = pdfium.PdfDocument(pdf)
    images: list[Image.Image] = [page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L") for page in src]
    buf = io.BytesIO()
    images[0].save(buf, format="PDF", save_all=True, append_images=images[1:], resolution=dpi)
    return buf.getvalue()


def nodes(doc) -> tuple[list[str], list[str]]:
    from jogak.structure import parse

    arts, paras = [], []
    for n in parse(doc).root.walk():
        if n.kind == "article":
            arts.append(n.path)
        elif n.kind == "paragraph":
            paras.append(n.path)
    return arts, paras


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dpi", type=int, default=200, help="resolution of the simulated scan")
    ap.add_argument("--pdf", type=Path, default=TERMS, help="a text PDF to scan and read back")
    args = ap.parse_args()
    from jogak.load import load_bytes
    from jogak.load.pdf import ocr

    why = ocr.missing()
    if why:
        print(why, file=sys.stderr)
        return 1
    text = args.pdf.read_bytes()
    ref_arts, ref_paras = nodes(load_bytes(text, args.pdf.name))
    scan = image_pdf(text, args.dpi)
    t0 = time.perf_counter()
    doc = load_bytes(scan, "scanned.pdf", ocr="auto")
    dt = time.perf_counter() - t0
    arts, paras = nodes(doc)
    pages = len(doc.metadata.get("ocr_pages", {}))
    result = {
        "pdf": args.pdf.name, "scan_dpi": args.dpi, "render_dpi": ocr.DPI, "pages": pages,
        "seconds": round(dt, 1), "pages_per_s": round(pages / dt, 3),
        "articles": f"{len(set(arts) & set(ref_arts))}/{len(ref_arts)}",
        "paragraphs": f"{len(set(paras) & set(ref_paras))}/{len(ref_paras)}",
        "mean_confidence": doc.metadata.get("ocr_confidence"),
        "missing_articles": sorted(set(ref_arts) - set(arts)),
    }
    print(json.dumps(result, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
