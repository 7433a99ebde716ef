"""Dense pages (issue 18, item 1): a PDF of under 1 KB whose page shows tens of thousands of tiny glyphs made
pdfplumber's quadratic dedupe run for minutes. Our dedupe keeps exactly pdfplumber's characters in the
same order (checked on every sample page), and a page over the ceiling is refused with a typed one-line
error. How long such files take is measured by ``benchmarks/load_server.py --scenario hostile``."""

from __future__ import annotations

import sys
from pathlib import Path

import pdfplumber
import pytest
from pdfplumber.utils import dedupe_chars

from jogak.load import load_bytes
from jogak.load.errors import OversizeError
from jogak.load.pdf import dedupe

from .helpers import FIX

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from hostile import tiny_chars_pdf  # noqa: E402

SAMPLES = sorted((ROOT / "examples").rglob("*.pdf")) + sorted(FIX.rglob("*.pdf"))


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_same_characters_as_pdfplumber(path: Path) -> None:
    try:
        pdf = pdfplumber.open(path)
        pages = pdf.pages
    except Exception:  # encrypted or broken fixtures: nothing to compare
        pytest.skip("not readable by pdfplumber")
    with pdf:
        for number, page in enumerate(pages, start=1):
            theirs = [id(c) for c in dedupe_chars(page.chars, tolerance=1)]
            ours = [id(c) for c in dedupe.unique_chars(page.chars, tolerance=1)]
            assert ours == theirs, (path.name, number)
            assert [id(c) for c in dedupe.dedupe_page(page, number).chars] == theirs


def test_duplicates_are_removed() -> None:
    chars = [{"upright": True, "text": "가", "fontname": "F", "size": 10, "doctop": 5.0, "x0": 1.0},
             {"upright": True, "text": "나", "fontname": "F", "size": 10, "doctop": 5.0, "x0": 11.0},
             {"upright": True, "text": "가", "fontname": "F", "size": 10, "doctop": 5.4, "x0": 1.3},  # bold twin
             {"upright": True, "text": "가", "fontname": "F", "size": 10, "doctop": 5.0, "x0": 21.0}]
    assert dedupe.unique_chars(chars) == [chars[0], chars[1], chars[3]]
    assert dedupe.unique_chars(chars) == dedupe_chars(chars, tolerance=1)


def test_dense_pages_load_and_a_page_over_the_ceiling_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = load_bytes(tiny_chars_pdf(5_000), "dense.pdf")
    assert len(doc.text.replace("\n", "")) >= 5_000
    monkeypatch.setattr(dedupe, "MAX_PAGE_CHARS", 4_000)
    with pytest.raises(OversizeError) as e:
        load_bytes(tiny_chars_pdf(5_000), "dense.pdf")
    assert str(e.value) == ("dense.pdf: page 1 holds 5,000 characters (at most 4,000 per page): too dense to read "
                            "as a page of a document")
    assert e.value.code == "oversize"
