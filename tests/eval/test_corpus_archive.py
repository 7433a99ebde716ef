"""Question-set corpora may name files inside an archive (the all-laws tarball): extracted once, cached."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from jogak.eval.corpus import resolve_corpus


def _tar(path: Path, members: dict[str, str]) -> None:
    with tarfile.open(path, "w:xz") as tf:
        for name, text in members.items():
            data = text.encode("utf-8")
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            tf.addfile(ti, io.BytesIO(data))


def _questions(folder: Path, entries: list[str]) -> Path:
    q = folder / "q.yaml"
    body = "\n".join(f"  - {e}" for e in entries)
    q.write_text(f"version: 1\ncorpus:\n{body}\nquestions: []\n", encoding="utf-8")
    return q


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    c = tmp_path / "cache"
    monkeypatch.setenv("JOGAK_CORPUS_CACHE", str(c))
    return c


def test_member_file_and_folder_are_extracted(tmp_path: Path, cache: Path) -> None:
    _tar(tmp_path / "laws.tar.xz", {"kr/갑법/법률.md": "제1조 갑", "kr/갑법/시행령.md": "제1조 영",
                                     "kr/을법/법률.md": "제1조 을"})
    q = _questions(tmp_path, ["laws.tar.xz/kr/갑법/법률.md", "laws.tar.xz/kr/을법"])
    c = resolve_corpus(q)
    assert c.ok, c.reason()
    assert c.paths[0].read_text(encoding="utf-8") == "제1조 갑"
    assert c.paths[0].is_relative_to(cache)
    assert c.paths[1].is_dir() and [p.name for p in c.paths[1].iterdir()] == ["법률.md"]
    # a second resolution reuses the extracted copy
    mtime = c.paths[0].stat().st_mtime_ns
    assert resolve_corpus(q).paths[0].stat().st_mtime_ns == mtime


def test_absent_member_is_missing(tmp_path: Path, cache: Path) -> None:
    _tar(tmp_path / "laws.tar.xz", {"kr/갑법/법률.md": "제1조 갑"})
    c = resolve_corpus(_questions(tmp_path, ["laws.tar.xz/kr/없는법/법률.md"]))
    assert not c.ok and c.missing == ["laws.tar.xz/kr/없는법/법률.md"]


def test_zip_members_and_hostile_names(tmp_path: Path, cache: Path) -> None:
    with zipfile.ZipFile(tmp_path / "a.zip", "w") as zf:
        zf.writestr("docs/x.txt", "안녕")
        zf.writestr("docs/../../evil.txt", "no")
    c = resolve_corpus(_questions(tmp_path, ["a.zip/docs"]))
    assert c.ok
    assert (c.paths[0] / "x.txt").read_text(encoding="utf-8") == "안녕"
    assert not (tmp_path / "evil.txt").exists() and not (cache.parent / "evil.txt").exists()
