"""The corpus a question set is about: the ``corpus:`` key of a questions file, resolved to files.

A questions file may name the documents its questions are about::

    corpus:
      - ../shared/corpora/korean_statutes          # a folder (expanded recursively at ingest)
      - examples/contracts/supply_agreement.pdf     # or single files

Relative entries are resolved against the project root (the nearest folder above the questions file that
holds ``pyproject.toml`` or ``.git``; the working directory when there is none), then against the questions
file's own folder. ``$JOGAK_CORPORA`` relocates entries under ``shared/corpora/`` (the shared corpora live
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
        found = next((p for p in _candidates(e, qdir, root) if p.exists()), None)
        if found is None:
            c.missing.append(e)
        else:
            c.paths.append(found.resolve())
    return c


def default_cache() -> Path:
    """A persistent embedding cache for throwaway evaluation stores (``$JOGAK_EMBED_CACHE`` wins), so a
    re-run embeds nothing it has embedded before."""
    env = os.environ.get("JOGAK_EMBED_CACHE")
    return Path(env) if env else Path(tempfile.gettempdir()) / "jogak_eval" / "embed_cache.sqlite"


def build_store(corpus: Corpus | list[Path], where: str | Path, cache: str | Path | None = None,
                collection: str = "default", progress: Any = None) -> tuple[Any, Any]:
    """A fresh store in ``where`` holding exactly the corpus; returns (store, ingest report)."""
    from jogak.config import load_config
    from jogak.index import open_store

    paths = corpus.paths if isinstance(corpus, Corpus) else list(corpus)
    cfg = load_config()
    config = {k: dict(cfg.section(k)) for k in ("embed", "index", "retrieve", "chunk")}
    config["embed"]["cache"] = str(cache or default_cache())
    st = open_store(Path(where), collection, create=True, config=config)
    rep = st.ingest([str(p) for p in paths], progress=progress)
    return st, rep
