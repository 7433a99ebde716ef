"""한글 uploads: HWPX is a zip whose mimetype entry says application/hwp+zip (zip-bomb guarded as DOCX),
HWP an OLE file whose FileHeader carries the HWP signature; both are recognised without an extension and
ingested; a mismatched or bomb upload is refused before any job starts."""

from __future__ import annotations

import io
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from jogak.server.app import create_app
from jogak.server.settings import ServerSettings
from jogak.server.uploads import detect_format

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "load"


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = ServerSettings(store=str(tmp_path / "store"), embedder=False, warm_up=False, max_upload_mb=1,
                              max_docx_inflated_mb=2, max_files=3)
    with TestClient(create_app(settings)) as c:
        yield c


def _post(c: TestClient, name: str, data: bytes):
    return c.post("/v1/collections/default/documents", files={"file": (name, data, "application/octet-stream")})


def _wait(c: TestClient, job_id: str) -> dict:
    for _ in range(600):
        j = c.get(f"/v1/jobs/{job_id}").json()
        if j["status"] not in ("queued", "running"):
            return j
        time.sleep(0.05)
    raise AssertionError("job did not finish")


def _hwpx(extra: dict[str, bytes], mimetype: bytes = b"application/hwp+zip") -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("mimetype", mimetype)
        for name, data in extra.items():
            z.writestr(name, data)
    return buf.getvalue()


def test_detect_format() -> None:
    assert detect_format((FIX / "hwpx_features.hwpx").read_bytes()) == "hwpx"
    assert detect_format((FIX / "물품매매계약서.hwp").read_bytes()) == "hwp"
    # an OLE file that is not a 한글 document (no FileHeader signature) is not HWP
    assert detect_format(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600) is None


@pytest.mark.parametrize("name", ["물품매매계약서.hwpx", "물품매매계약서.hwp"])
def test_upload_is_ingested_and_inferred(client, name: str) -> None:
    data = (FIX / name).read_bytes()
    r = _post(client, name.rsplit(".", 1)[0], data)  # no extension: the bytes decide
    assert r.status_code == 202, r.text
    fmt = name.rsplit(".", 1)[1]
    assert r.json()["files"][0]["format"] == fmt and r.json()["files"][0]["name"].endswith("." + fmt)
    assert _wait(client, r.json()["id"])["status"] == "succeeded"
    docs = client.get("/v1/collections/default/documents").json()["documents"]
    assert len(docs) == 1


def test_mismatches_and_bombs_are_refused(client) -> None:
    hwp = (FIX / "물품매매계약서.hwp").read_bytes()
    r = _post(client, "계약.hwpx", hwp)
    assert r.status_code == 415 and r.json()["error"] == "type_mismatch", r.text
    r = _post(client, "계약.hwp", (FIX / "hwpx_features.hwpx").read_bytes())
    assert r.status_code == 415 and r.json()["error"] == "type_mismatch", r.text
    r = _post(client, "계약.hwp", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600)
    assert r.status_code == 415 and "HWP" in r.json()["message"], r.text
    r = _post(client, "sheet.hwpx", _hwpx({"Contents/x.xml": b"<a/>"}, mimetype=b"application/zip"))
    assert r.status_code == 415 and "mimetype" in r.json()["message"], r.text
    bomb = _hwpx({"BinData/zeros.bin": b"\0" * (40 * 1024 * 1024)})
    r = _post(client, "bomb.hwpx", bomb)
    assert r.status_code == 422 and r.json()["error"] == "zip_bomb", r.text
