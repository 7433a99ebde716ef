"""OCR of image-only PDF pages (Tesseract kor, rendered with pypdfium2): a 200 dpi image-only rendering of
the Korean terms fixture gives the same article and 항 labels as its text PDF, page by page in a mixed
PDF; the modes never/auto/always; without Tesseract the error names what to install. Short on purpose
(a few pages): throughput is measured in benchmarks/ocr.py."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from jogak.load import load_bytes
from jogak.load.errors import NoTextLayerError
from jogak.load.pdf import ocr
from jogak.structure import parse

from .helpers import FIX, check_invariants

TERMS = FIX / "ocr" / "새솔몰_이용약관.pdf"

if ocr.missing() and not os.environ.get("JOGAK_REQUIRE_OCR"):
    pytest.skip(f"OCR tests need Tesseract: {ocr.missing()}", allow_module_level=True)


def image_pdf(pdf: bytes, pages: list[int], dpi: int = 200, keep_text: tuple[int, ...] = ()) -> bytes:
    """An image-only rendering of ``pages`` (0-based) at ``dpi``, as a scanner makes it; pages listed in
    ``keep_text`` stay the original text pages (a mixed PDF)."""
    import pypdfium2 as pdfium
    from pypdf import PdfReader, PdfWriter

    src = pdfium.PdfDocument(pdf)
    original = PdfReader(io.BytesIO(pdf))
    out = PdfWriter()
    for i in pages:
        if i in keep_text:
            out.add_page(original.pages[i])
            continue
        img = src[i].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
        buf = io.BytesIO()
        img.save(buf, format="PDF", resolution=dpi)
        out.add_page(PdfReader(buf).pages[0])
    res = io.BytesIO()
    out.write(res)
    return res.getvalue()


def labels(doc) -> tuple[list[str], list[str]]:
    """Paths of the articles and of their 항 (paragraphs)."""
    nodes = list(parse(doc).root.walk())
    return [n.path for n in nodes if n.kind == "article"], [n.path for n in nodes if n.kind == "paragraph"]


def assert_same_clauses(got: tuple[list[str], list[str]], want: tuple[list[str], list[str]]) -> None:
    """Every article back, in order; 항 numbers, which OCR reads worst, at least 9 in 10 and none invented."""
    assert got[0] == want[0]
    assert set(got[1]) <= set(want[1])
    assert len(got[1]) >= 0.9 * len(want[1]), sorted(set(want[1]) - set(got[1]))


@pytest.fixture(scope="module")
def text_pdf() -> bytes:
    return TERMS.read_bytes()


@pytest.fixture(scope="module")
def scanned(text_pdf):
    """Pages 1–2 as images (about 16 s of OCR on this machine)."""
    data = image_pdf(text_pdf, [0, 1])
    return load_bytes(data, "scanned.pdf")


def test_scanned_pages_give_the_text_pdf_labels(text_pdf, scanned) -> None:
    check_invariants(scanned)
    reference = labels(load_bytes(image_pdf(text_pdf, [0, 1], keep_text=(0, 1)), "text.pdf"))
    assert len(reference[0]) >= 10 and len(reference[1]) >= 15
    assert_same_clauses(labels(scanned), reference)
    md = scanned.metadata
    assert md["ocr"] is True and sorted(md["ocr_pages"]) == [1, 2]
    assert all(60 <= c <= 100 for c in md["ocr_pages"].values())
    assert any("read by OCR" in w for w in scanned.warnings)
    assert "제1조 (목적)" in scanned.text and "목적으로 한다." in scanned.text


def test_mixed_pdf_is_read_page_by_page(text_pdf) -> None:
    data = image_pdf(text_pdf, [0, 1], keep_text=(0,))
    doc = load_bytes(data, "mixed.pdf")
    assert list(doc.metadata["ocr_pages"]) == [2]
    assert_same_clauses(labels(doc), labels(load_bytes(image_pdf(text_pdf, [0, 1], keep_text=(0, 1)), "text.pdf")))
    assert doc.page_at(doc.text.index("제1조")) == 1  # the text page kept its own text layer


def test_modes(text_pdf) -> None:
    data = image_pdf(text_pdf, [0])
    with pytest.raises(NoTextLayerError, match="OCR"):
        load_bytes(data, "scan.pdf", ocr="never")
    # always: a text page is recognised too (its text layer ignored)
    doc = load_bytes(image_pdf(text_pdf, [0], keep_text=(0,)), "text.pdf", ocr="always")
    assert doc.metadata["ocr_pages"].keys() == {1}


def test_missing_tesseract_says_what_to_install(text_pdf, monkeypatch) -> None:
    monkeypatch.setenv("JOGAK_TESSERACT", "/nonexistent/tesseract")
    ocr.reset()
    try:
        with pytest.raises(NoTextLayerError) as ei:
            load_bytes(image_pdf(text_pdf, [0]), "scan.pdf")
        assert "apt-get install tesseract-ocr tesseract-ocr-kor" in ei.value.message
        assert "\n" not in str(ei.value)
    finally:
        monkeypatch.delenv("JOGAK_TESSERACT")
        ocr.reset()


def test_scanner_app_pdf() -> None:
    """Page images with a scanner app's stamp as their only text (the structure fixture)."""
    doc = load_bytes((FIX.parent / "structure" / "scanned_contract.pdf").read_bytes(), "scanned_contract.pdf")
    arts, paras = labels(doc)
    assert arts[:2] == ["본문/제1조", "본문/제2조"] and "본문/제2조/제2항" in paras


def test_chunks_carry_the_ocr_confidence(scanned) -> None:
    from jogak.chunk import chunk
    from jogak.model import Chunk

    chunks = chunk([scanned], strategy="structure", id_prefix=None)
    assert chunks and all(c.metadata.ocr_confidence is not None for c in chunks)
    d = chunks[0].to_dict()
    assert d["metadata"]["ocr"] is True and 60 <= d["metadata"]["ocr_confidence"] <= 100
    back = Chunk.from_dict(d)
    assert back.metadata.case is None and back.metadata.ocr_confidence == chunks[0].metadata.ocr_confidence


def test_cli_tree_of_a_scan(text_pdf, tmp_path) -> None:
    import subprocess
    import sys

    scan = tmp_path / "scanned.pdf"
    scan.write_bytes(image_pdf(text_pdf, [0]))
    jogak = [str(Path(sys.executable).parent / "jogak")]
    r = subprocess.run([*jogak, "tree", str(scan), "--ocr", "never"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "OCR is off" in r.stderr and r.stdout == ""
    r = subprocess.run([*jogak, "tree", str(scan)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "제1조 (목적)" in r.stdout and "① 이 약관에서" in r.stdout
    assert "read by OCR" in r.stderr
