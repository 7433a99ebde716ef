"""Random input either loads or raises a LoadError — never another exception; corpora load cleanly."""

from __future__ import annotations

import importlib
import io
import time
import zipfile

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from jogak.load import load, load_bytes
from jogak.load.errors import LoadError
from jogak.load.joining import join_wrapped, wrap_separator

from .helpers import FIX, check_invariants

MODULES = ["text", "markdown", "html", "docx", "pdf"]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _try(module: str, data: bytes) -> None:
    mod = importlib.import_module(f"jogak.load.{module}")
    try:
        doc = mod.load_bytes(data, f"x.{module}")
    except LoadError as e:
        assert "\n" not in e.message
        return
    check_invariants(doc)


@pytest.mark.parametrize("module", MODULES)
@SETTINGS
@given(data=st.binary(min_size=1, max_size=2000))
def test_random_bytes(module: str, data: bytes) -> None:
    _try(module, data)


@pytest.mark.parametrize("module", ["text", "markdown", "html"])
@SETTINGS
@given(s=st.text(alphabet=st.sampled_from(list("가나다 ①②「」·*_#-|[]^():\\`<>!&;\n\t abc1.")), max_size=400))
def test_random_markup(module: str, s: str) -> None:
    _try(module, s.encode("utf-8"))


@SETTINGS
@given(cut=st.integers(min_value=1, max_value=10_000), flip=st.integers(min_value=0, max_value=255))
@example(cut=1897, flip=64)  # zip "version 6.4" once escaped as NotImplementedError
@example(cut=90, flip=0)  # pypdf saw 1 page, pdfplumber 2: pages beyond n_pages
def test_mutated_pdf_and_docx(cut: int, flip: int) -> None:
    for name, mod in (("korean.pdf", "pdf"), ("contract.docx", "docx")):
        data = bytearray((FIX / name).read_bytes())
        pos = (cut * 7919) % len(data)
        data[pos] = flip
        _try(mod, bytes(data))
        _try(mod, bytes(data[: max(cut, 5)]))


def test_docx_with_broken_document_xml() -> None:
    src = zipfile.ZipFile(FIX / "contract.docx")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "word/document.xml":
                data = data[: len(data) // 2]
            z.writestr(info, data)
    with pytest.raises(LoadError):
        load_bytes(out.getvalue(), "x.docx")


@pytest.mark.parametrize(
    ("prev", "nxt", "sep"),
    [
        ("적립되지 않는", "다.", ""),
        ("①", "하루포인트", ""),
        ("「전자상거래", "법」", ""),
        ("word", "next", " "),
        ("con-", "tract", ""),  # soft hyphen removed (drop 1)
        ("self-", "employed", ""),
        ("제", "5조", ""),
    ],
)
def test_wrap_separator(prev: str, nxt: str, sep: str) -> None:
    got, _drop = wrap_separator(prev, nxt, tight=True)
    assert got == sep


def test_join_wrapped() -> None:
    assert join_wrapped(["적립금·쿠폰으로 결제한 금액에는 적립되지 않는", "다."]) == "적립금·쿠폰으로 결제한 금액에는 적립되지 않는다."
    assert join_wrapped(["the con-", "tract is"]) == "the contract is"
    assert join_wrapped(["a self-", "employed"]) == "a self-employed"
    assert join_wrapped(["end of", "line"]) == "end of line"


@pytest.mark.corpus
def test_cuad_contracts(corpora_dir) -> None:
    files = sorted((corpora_dir / "cuad_contracts" / "contracts").glob("*.txt"))
    if not files:
        pytest.skip("no CUAD contracts in the corpus folder")
    import json

    gold = {}
    gold_path = corpora_dir / "cuad_contracts" / "gold_clauses.jsonl"
    if gold_path.exists():
        for line in gold_path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            gold.setdefault(row.get("contract") or row.get("file") or row.get("source"), []).append(row)
    for f in files:
        doc = load(f)
        check_invariants(doc)
        assert doc.metadata["encoding"] in ("utf-8", "utf-8-sig", "cp1252", "ascii")
        # the text is the file, byte for byte (gold offsets index into it)
        raw = f.read_bytes().decode(doc.metadata["encoding"].replace("-sig", ""))
        assert doc.text == raw.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")


@pytest.mark.corpus
def test_korean_precedents_load(corpora_dir) -> None:
    files = sorted((corpora_dir / "korean_precedents").rglob("*.md"))
    if not files:
        pytest.skip("no precedents in the corpus folder")
    for f in files:
        doc = load(f)
        check_invariants(doc)
        assert doc.metadata.get("사건번호")


def test_load_speed_pdf() -> None:
    t = time.perf_counter()
    doc = load(FIX / "korean.pdf")
    per_page = (time.perf_counter() - t) / doc.n_pages
    assert per_page < 2.0, per_page


def test_a_stray_nul_becomes_a_space_and_offsets_hold() -> None:
    # PDF/DOCX extractors can emit U+0000; PostgreSQL TEXT (the shared store) refuses it
    from jogak.load.builder import DocBuilder

    b = DocBuilder("pdf")
    b.add_line("제1조\x00(목적)", page=1, marks=[(4, "1")])
    b.add_line("이 약관은\x00정한다.", page=1)
    doc = b.build("x.pdf", n_pages=1)
    assert "\x00" not in doc.text
    assert doc.text == "제1조 (목적)\n이 약관은 정한다."
    check_invariants(doc)
