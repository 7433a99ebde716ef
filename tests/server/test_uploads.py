"""Bad uploads get a 4xx with a clear JSON error, leave no staged file behind and never touch the
collection: size limits (declared and streamed), types by magic bytes, zip bombs, path traversal names,
and a file that passes the checks but fails to load."""

from __future__ import annotations

import io
import struct
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from serverkit import KEYS, ServerProcess

from jogak.server.app import create_app
from jogak.server.settings import ServerSettings
from jogak.server.uploads import detect_format, sanitize_filename

MD = "# 운영 규정\n\n제1조 (목적)\n이 규정은 시험을 위한 것이다.\n\n제2조 (기간)\n보관 기간은 5년으로 한다.\n"


def _docx(extra: dict[str, bytes] | None = None, with_document: bool = True) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types/>')
        if with_document:
            z.writestr("word/document.xml", '<?xml version="1.0"?><w:document xmlns:w="x"/>')
        for name, data in (extra or {}).items():
            z.writestr(name, data)
    return buf.getvalue()


def _understate_sizes(data: bytes, declared: int = 1000) -> bytes:
    """Rewrite every member's uncompressed size in the local and central headers (a lying zip)."""
    b = bytearray(data)
    zf = zipfile.ZipFile(io.BytesIO(data))
    for info in zf.infolist():
        struct.pack_into("<I", b, info.header_offset + 22, declared)
    eocd = data.rfind(b"PK\x05\x06")
    cd_offset = struct.unpack_from("<I", data, eocd + 16)[0]
    pos = cd_offset
    while data[pos : pos + 4] == b"PK\x01\x02":
        struct.pack_into("<I", b, pos + 24, declared)
        n, m, k = struct.unpack_from("<HHH", data, pos + 28)
        pos += 46 + n + m + k
    return bytes(b)


@pytest.fixture()
def app_client(tmp_path: Path) -> Iterator[tuple[TestClient, ServerSettings]]:
    settings = ServerSettings(store=str(tmp_path / "store"), embedder=False, warm_up=False, max_upload_mb=1,
                              max_docx_inflated_mb=2, max_files=3)
    with TestClient(create_app(settings)) as c:
        yield c, settings


def _post(c: TestClient, files, coll: str = "default", **kw):
    return c.post(f"/v1/collections/{coll}/documents", files=files, **kw)


def _staged(settings: ServerSettings) -> list[Path]:
    return [p for p in (settings.work_path / "uploads").rglob("*") if p.is_file()]


def _wait(c: TestClient, job_id: str) -> dict:
    for _ in range(600):
        j = c.get(f"/v1/jobs/{job_id}").json()
        if j["status"] not in ("queued", "running"):
            return j
        time.sleep(0.05)
    raise AssertionError("job did not finish")


@pytest.mark.parametrize(("name", "data", "status", "code", "words"), [
    ("policy.pdf", b"this is not a pdf at all", 415, "type_mismatch", "the name says PDF"),
    ("policy.pdf", b"\x89PNG\r\n\x1a\n" + b"\0" * 100, 415, "type_mismatch", "PNG image"),
    ("notes.txt", b"%PDF-1.7\n%binary", 415, "type_mismatch", "it is PDF data"),
    ("notes.md", b"\x7fELF\x02\x01\x01" + b"\0" * 200, 415, "type_mismatch", "ELF"),
    ("notes.txt", bytes(range(256)) * 8, 415, "unsupported_type", "neither"),
    ("page.html", b"<p>no html root</p>", 415, "unsupported_type", "not an HTML document"),
    ("tool.exe", b"MZ\x90\x00", 415, "unsupported_type", "unsupported file type '.exe'"),
    ("polyglot.pdf", b"MZ\x90\x00" + b"\0" * 60 + b"%PDF-1.4\n%", 415, "type_mismatch", "Windows executable"),
    ("polyglot", b"\x7fELF\x02" + b"\0" * 60 + b"%PDF-1.4\n%", 415, "unsupported_type", "ELF"),
    ("archive.docx", b"PK\x03\x04 broken zip", 422, "corrupt_file", "zip"),
    ("sheet.docx", _docx(with_document=False, extra={"xl/workbook.xml": b"<x/>"}), 415, "type_mismatch",
     "no word/document.xml"),
    ("empty.md", b"", 422, "empty_file", "empty file"),
    ("mystery", b"\x00\x01\x02 binary", 415, "unsupported_type", "unsupported content"),
])
def test_bad_files_are_refused(app_client, name: str, data: bytes, status: int, code: str, words: str) -> None:
    c, settings = app_client
    r = _post(c, {"file": (name, data, "application/octet-stream")})
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"] == code and words in body["message"], body
    assert _staged(settings) == []
    assert c.get("/v1/jobs").json()["jobs"] == []


def test_zip_bombs_are_refused(app_client) -> None:
    c, settings = app_client
    # one member inflating 1000x (the DOCX loader's guard on declared sizes)
    bomb = _docx({"word/media/zeros.bin": b"\0" * (40 * 1024 * 1024)})
    assert len(bomb) < 1024 * 1024
    r = _post(c, {"file": ("bomb.docx", bomb, "application/octet-stream")})
    assert r.status_code == 422 and r.json()["error"] == "zip_bomb", r.text
    assert "zip bomb suspected" in r.json()["message"]
    # members each small and moderate in ratio, together over the inflation budget (2 MB here)
    many = _docx({f"word/media/part{i}.bin": bytes(range(256)) * 4096 for i in range(3)})
    r = _post(c, {"file": ("many.docx", many, "application/octet-stream")})
    assert r.status_code == 422 and r.json()["error"] == "zip_bomb", r.text
    assert "max_docx_inflated_mb" in r.json()["message"]
    # headers that understate the sizes do not get past the measured inflation
    liar = _understate_sizes(_docx({"word/media/zeros.bin": b"\0" * (5 * 1024 * 1024)}))
    r = _post(c, {"file": ("liar.docx", liar, "application/octet-stream")})
    assert r.status_code == 422 and r.json()["error"] in ("zip_bomb", "corrupt_file"), r.text
    assert _staged(settings) == []


def test_size_limit_declared_and_streamed(app_client) -> None:
    c, settings = app_client
    big = b"a" * (1024 * 1024 + 10)
    r = _post(c, {"file": ("big.txt", big, "text/plain")})
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    assert "1 MB" in r.json()["message"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit applies to bytes received
        for _ in range(40):
            yield b"b" * 65536

    r = c.post("/v1/collections/default/documents", content=chunks(), headers={"X-Filename": "stream.txt"})
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    assert _staged(settings) == []


def test_too_many_or_no_files(app_client) -> None:
    c, _ = app_client
    files = [("file", (f"f{i}.md", MD.encode(), "text/markdown")) for i in range(4)]
    r = _post(c, files)
    assert r.status_code == 400 and r.json()["error"] == "too_many_files"
    r = c.post("/v1/collections/default/documents", data={"strategy": "structure"},
               files={"unused": ("", b"", "application/octet-stream")})
    assert r.status_code in (400, 422)
    r = c.post("/v1/collections/default/documents", content=b"raw", headers={"Content-Type": "text/plain"})
    assert r.status_code == 400 and r.json()["error"] == "no_file"
    r = _post(c, {"file": ("a.md", MD.encode(), "text/markdown")}, coll="bad..name/x")
    assert r.status_code == 404  # not a route: '/' cannot be part of a collection name
    r = _post(c, {"file": ("a.md", MD.encode(), "text/markdown")}, coll="-bad")
    assert r.status_code == 400 and r.json()["error"] == "bad_collection"
    r = _post(c, {"file": ("a.md", MD.encode(), "text/markdown")}, params={"strategy": "magic"})
    assert r.status_code == 422


def test_failed_ingest_leaves_the_collection_unchanged(app_client) -> None:
    c, settings = app_client
    r = _post(c, {"file": ("규정.md", MD.encode(), "text/markdown")})
    assert r.status_code == 202
    assert _wait(c, r.json()["id"])["status"] == "succeeded"
    before = c.get("/v1/collections/default/documents").json()["documents"]
    hits_before = c.post("/v1/search", json={"query": "보관 기간"}).json()["hits"]
    assert [d["source"] for d in before] == ["규정.md"]
    # a PDF that passes the magic check but is cut off, next to a good file: the job fails as a whole
    truncated = (Path(__file__).resolve().parents[2] / "examples" / "haru-market"
                 / "하루마켓_멤버십정책.pdf").read_bytes()[:3000]
    changed = MD.replace("5년", "7년").encode()
    r = _post(c, [("file", ("cut.pdf", truncated, "application/pdf")),
                  ("file", ("규정.md", changed, "text/markdown"))])
    assert r.status_code == 202, r.text
    job = _wait(c, r.json()["id"])
    assert job["status"] == "failed"
    assert job["error"]["error"] == "corrupt_file" and job["error"]["message"].startswith("cut.pdf:")
    assert job["error"]["collection_changed"] is False
    after = c.get("/v1/collections/default/documents").json()["documents"]
    assert after == before
    assert c.post("/v1/search", json={"query": "보관 기간"}).json()["hits"] == hits_before
    assert _staged(settings) == []


def test_missing_extension_is_inferred_from_content(app_client) -> None:
    c, _ = app_client
    r = _post(c, {"file": ("README", MD.encode(), "application/octet-stream")})
    assert r.status_code == 202, r.text
    assert r.json()["files"][0]["name"] == "README.txt"
    assert r.json()["files"][0]["format"] == "text"
    assert _wait(c, r.json()["id"])["status"] == "succeeded"


def test_oversize_over_real_http(keyed_server: ServerProcess) -> None:
    with keyed_server.client(KEYS["upload"]) as c:
        r = c.post("/v1/collections/uploads/documents",
                   files={"file": ("big.txt", b"x" * (3 * 1024 * 1024), "text/plain")})
        assert r.status_code == 413 and r.json()["error"] == "too_large"
        assert "2 MB" in r.json()["message"]


@pytest.mark.parametrize(("raw", "safe"), [
    ("../../etc/passwd.txt", "passwd.txt"),
    ("..\\..\\Windows\\system.ini.md", "system.ini.md"),
    ("/abs/path/하루마켓_정책.pdf", "하루마켓_정책.pdf"),
    (".bashrc.md", "bashrc.md"),
    ("..", "upload"),
    ("", "upload"),
    ("a\x00b\x1f<c>:d|e?.txt", "ab_c__d_e_.txt"),
    ("evil\u202egpj.md", "evilgpj.md"),  # bidi override removed
    ("  spaced   name .md ", "spaced name.md"),
    ("x" * 300 + ".pdf", "x" * 116 + ".pdf"),
    ("\u1112\u1161\u1105\u116e.md", "하루.md"),  # NFD (macOS) → NFC
    ("규" * 150 + ".pdf", "규" * 65 + ".pdf"),  # at most 200 UTF-8 bytes
    ("no-extension-but.dots.", "no-extension-but.dots"),
])
def test_sanitize_filename(raw: str, safe: str) -> None:
    out = sanitize_filename(raw)
    assert out == safe
    assert "/" not in out and "\\" not in out and not out.startswith(".")


def test_detect_format() -> None:
    assert detect_format(b"%PDF-1.4 ...") == "pdf"
    assert detect_format(_docx()) == "docx"
    assert detect_format(b"<!DOCTYPE html><html><body>x</body></html>") == "html"
    assert detect_format("제1조 (목적)".encode("cp949")) == "text"
    assert detect_format(b"\xff\xd8\xff\xe0 jpeg") is None


def _multipart(disposition: str, body: bytes = MD.encode()) -> tuple[bytes, dict[str, str]]:
    data = (b"--B0UND\r\nContent-Disposition: " + disposition.encode("latin-1") + b"\r\nContent-Type: text/markdown"
            b"\r\n\r\n" + body + b"\r\n--B0UND--\r\n")
    return data, {"Content-Type": "multipart/form-data; boundary=B0UND"}


@pytest.mark.parametrize(("disposition", "name"), [
    ("form-data; name=\"file\"; filename*=UTF-8''%ED%95%98%EB%A3%A8.md", "하루.md"),
    ("form-data; name=\"file\"; filename=\"fallback.md\"; filename*=utf-8'ko'%EA%B7%9C%EC%A0%95.md", "규정.md"),
    ("form-data; name=\"file\"; filename*=ISO-8859-1''caf%E9.md", "café.md"),
])
def test_rfc5987_file_names(app_client, disposition: str, name: str) -> None:
    c, _ = app_client
    data, headers = _multipart(disposition)
    r = c.post("/v1/collections/default/documents", content=data, headers=headers)
    assert r.status_code == 202, r.text
    assert r.json()["files"][0]["name"] == name
    _wait(c, r.json()["id"])


def test_names_that_collapse_onto_a_document_are_refused(app_client) -> None:
    c, settings = app_client
    r = _post(c, {"file": ("규정.md", MD.encode(), "text/markdown")})
    assert _wait(c, r.json()["id"])["status"] == "succeeded"
    for sneaky in ("규\u200b정.md", "../규정.md", "규정\u202e.md"):
        r = _post(c, {"file": (sneaky, MD.replace("5년", "1년").encode(), "text/markdown")})
        assert r.status_code == 409 and r.json()["error"] == "name_conflict", (sneaky, r.text)
        assert "'규정.md'" in r.json()["message"]
    assert "<U+200B>" in _post(c, {"file": ("규\u200b정.md", MD.encode(), "text/markdown")}).json()["message"]
    for empty in ("..", ".", "\u200b", "  "):
        r = _post(c, {"file": (empty, MD.encode(), "text/markdown")})
        assert r.status_code == 400 and r.json()["error"] == "bad_filename", (empty, r.text)
    # the same name again is an update, and an NFD (macOS) spelling of it is the same name
    r = _post(c, {"file": ("\u1100\u1172\u110c\u1165\u11bc.md", MD.replace("5년", "9년").encode(), "text/markdown")})
    assert r.status_code == 202, r.text
    assert _wait(c, r.json()["id"])["status"] == "succeeded"
    docs = c.get("/v1/collections/default/documents").json()["documents"]
    assert [d["source"] for d in docs] == ["규정.md"]
    assert _staged(settings) == []
