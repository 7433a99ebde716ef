"""The zip guard DOCX and HWPX share: bombs are refused before any parser sees them, in one line."""

from __future__ import annotations

import io
import zipfile

import pytest

from jogak.load import load_bytes
from jogak.load.errors import CorruptFileError, OversizeError


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


@pytest.mark.parametrize("name,first", [("bomb.docx", {"[Content_Types].xml": b"<Types/>"}),
                                        ("bomb.hwpx", {"mimetype": b"application/hwp+zip"})])
def test_a_member_that_inflates_a_thousandfold_is_refused(name: str, first: dict[str, bytes]) -> None:
    data = _zip({**first, "big.xml": b"\0" * (11 * 1024 * 1024)})
    assert len(data) < 100_000
    with pytest.raises(OversizeError, match=r"member big\.xml inflates \d+× — zip bomb suspected"):
        load_bytes(data, name)


@pytest.mark.parametrize("name", ["many.docx", "many.hwpx"])
def test_too_many_members_are_refused(name: str) -> None:
    data = _zip({f"m{i}": b"" for i in range(10_001)})
    with pytest.raises(OversizeError, match="10,001 zip members"):
        load_bytes(data, name)


@pytest.mark.parametrize("name,kind", [("cut.docx", "DOCX"), ("cut.hwpx", "HWPX")])
def test_a_truncated_archive_is_corrupt(name: str, kind: str) -> None:
    data = _zip({"mimetype": b"application/hwp+zip", "a.xml": b"<a/>" * 1000})
    with pytest.raises(CorruptFileError, match=f"corrupt {kind}"):
        load_bytes(data[: len(data) // 2], name)
