"""The corpus a question set is about: the ``corpus:`` key of a questions file, resolved to files.

A questions file may name the documents its questions are about::

    corpus:
      - ../shared/corpora/korean_statutes          # a folder (expanded recursively at ingest)
      - examples/contracts/supply_agreement.pdf     # or single files

Relative entries are resolved against the project root (the nearest folder above the questions file that
holds ``pyproject.toml`` or ``.git``; the working directory when there is none), then against the questions
file's own folder. An entry may go *through* an archive (``.tar.xz``, ``.tar.gz``, ``.tgz``, ``.tar``,
``.zip``): ``../shared/corpora/korean_law_all.tar.xz/kr/개인정보보호법/법률.md`` names that member (or a folder
of members); a requested member is extracted once into a cache folder
(``$JOGAK_CORPUS_CACHE``, else ``<tmp>/jogak_corpora``) keyed by the archive's name, size and mtime. ``$JOGAK_CORPORA`` relocates entries under ``shared/corpora/`` (the shared corpora live
outside the repository, and CI may mount them elsewhere). Without the key, the corpus is the questions
file's folder. An entry that resolves nowhere is reported as missing, so callers can skip the set cleanly
instead of scoring it against an empty store.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SHARED = ("shared", "corpora")


@dataclass
class Corpus:
    questions_path: Path
    entries: list[str] = field(default_factory=list)  # as written in the file ([] = the file's folder)
    paths: list[Path] = field(default_factory=list)  # resolved, existing
    missing: list[str] = field(default_factory=list)  # entries that resolve nowhere

    @property
    def ok(self) -> bool:
        return bool(self.paths) and not self.missing

    def reason(self) -> str:
        return "corpus not found: " + ", ".join(self.missing) if self.missing else "empty corpus"


def project_root(start: Path) -> Path:
    for d in [start, *start.parents]:
        if (d / "pyproject.toml").is_file() or (d / ".git").exists():
            return d
    return Path.cwd()


def _candidates(entry: str, qdir: Path, root: Path) -> list[Path]:
    p = Path(entry).expanduser()
    if p.is_absolute():
        return [p]
    out = []
    parts = p.parts
    env = os.environ.get("JOGAK_CORPORA")
    if env:
        for i in range(len(parts) - 1):
            if parts[i : i + 2] == SHARED:
                out.append(Path(env).joinpath(*parts[i + 2 :]))
                break
    out += [root / p, qdir / p]
    return out


def corpus_entries(questions_path: str | Path) -> list[str]:
    import yaml

    with Path(questions_path).open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    raw = data.get("corpus") if isinstance(data, dict) else None
    if raw is None:
        return []
    return [str(x) for x in (raw if isinstance(raw, list) else [raw]) if str(x).strip()]


def resolve_corpus(questions_path: str | Path) -> Corpus:
    qp = Path(questions_path).resolve()
    qdir = qp.parent
    entries = corpus_entries(qp)
    c = Corpus(qp, entries)
    if not entries:
        c.paths = [qdir]
        return c
    root = project_root(qdir)
    for e in entries:
        cands = _candidates(e, qdir, root)
        found = next((p for p in cands if p.exists()), None)
        if found is None:
            found = next((m for m in map(archive_member, cands) if m is not None), None)
        if found is None:
            c.missing.append(e)
        else:
            c.paths.append(found.resolve())
    return c


ARCHIVE_SUFFIXES = (".tar.xz", ".tar.gz", ".tgz", ".tar", ".zip")


def _split_archive(p: Path) -> tuple[Path, str] | None:
    """``a/b.tar.xz/kr/x.md`` → (``a/b.tar.xz``, ``kr/x.md``) when ``a/b.tar.xz`` is an existing file."""
    parts = p.parts
    for i in range(len(parts) - 1, 0, -1):
        head = Path(*parts[:i])
        if head.name.lower().endswith(ARCHIVE_SUFFIXES) and head.is_file():
            return head, "/".join(parts[i:])
    return None


def _archive_cache(archive: Path) -> Path:
    st = archive.stat()
    base = os.environ.get("JOGAK_CORPUS_CACHE") or str(Path(tempfile.gettempdir()) / "jogak_corpora")
    return Path(base) / f"{archive.name}-{st.st_size}-{st.st_mtime_ns}"


def archive_member(p: Path) -> Path | None:
    """The extracted copy of an archive member (a file, or a folder prefix of members), or None."""
    split = _split_archive(p)
    if split is None:
        return None
    archive, member = split
    dest = _archive_cache(archive)
    done = dest / ".members" / (member.replace("/", "__") + ".done")
    target = dest / member
    if done.is_file() and target.exists():
        return target
    if not _extract(archive, member, dest):
        return None
    done.parent.mkdir(parents=True, exist_ok=True)
    done.write_text("ok")
    return target


def _extract(archive: Path, member: str, dest: Path) -> bool:
    """Extract ``member`` (a file or every member below that folder) into ``dest``; False when absent.
    Each file is written to a temporary name and renamed, so an interrupted run leaves no half file."""
    import tarfile
    import zipfile

    prefix = member.rstrip("/") + "/"
    wanted = lambda name: name == member or name.startswith(prefix)  # noqa: E731
    found = False
    if archive.name.lower().endswith(".zip"):
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                if not info.is_dir() and wanted(info.filename):
                    found = True
                    _write(dest, info.filename, zf.read(info))
        return found
    with tarfile.open(archive) as tf:
        for ti in tf:
            if ti.isfile() and wanted(ti.name.removeprefix("./")):
                fh = tf.extractfile(ti)
                if fh is not None:
                    found = True
                    _write(dest, ti.name.removeprefix("./"), fh.read())
    return found


def _write(dest: Path, name: str, data: bytes) -> None:
    target = (dest / name).resolve()
    if not target.is_relative_to(dest.resolve()):  # a hostile member name ("../x") never escapes the cache
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + f".{os.getpid()}.part")
    tmp.write_bytes(data)
    os.replace(tmp, target)


def default_cache() -> Path:
    """A persistent embedding cache for throwaway evaluation stores (``$JOGAK_EMBED_CACHE`` wins), so a
    re-run embeds nothing it has embedded before."""
    env = os.environ.get("JOGAK_EMBED_CACHE")
    return Path(env) if env else Path(tempfile.gettempdir()) / "jogak_eval" / "embed_cache.sqlite"


def build_store(corpus: Corpus | list[Path], where: str | Path, cache: str | Path | None = None,
                collection: str = "default", progress: Any = None,
                index: dict[str, Any] | None = None) -> tuple[Any, Any]:
    """A fresh store in ``where`` holding exactly the corpus; returns (store, ingest report). ``index``
    overrides keys of the config's index section (``{"leaves": True}``)."""
    from jogak.config import load_config
    from jogak.index import open_store

    paths = corpus.paths if isinstance(corpus, Corpus) else list(corpus)
    cfg = load_config()
    config = {k: dict(cfg.section(k)) for k in ("embed", "index", "retrieve", "chunk")}
    config["embed"]["cache"] = str(cache or default_cache())
    config["index"] = {**config["index"], **(index or {})}
    st = open_store(Path(where), collection, create=True, config=config)
    rep = st.ingest([str(p) for p in paths], progress=progress)
    return st, rep
