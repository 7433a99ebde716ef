"""Convenience entry points mirroring seed 000's ``load_policy_chunks()``."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field

from jogak.load import LoadError, expand_paths, load
from jogak.model import Chunk, Document


@dataclass
class LoadReport:
    documents: list[Document] = field(default_factory=list)
    errors: list[LoadError] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # unsupported files inside directories
    missing: list[str] = field(default_factory=list)


def load_many(paths: Iterable[str | os.PathLike[str]]) -> LoadReport:
    """Load every supported file under ``paths``; bad files are reported, the rest still load."""
    exp = expand_paths(paths)
    report = LoadReport(skipped=[str(p) for p in exp.skipped], missing=[str(p) for p in exp.missing])
    for f in exp.files:
        try:
            report.documents.append(load(f))
        except LoadError as e:
            report.errors.append(e)
    return report


def load_policy_chunks(
    paths: Iterable[str | os.PathLike[str]] = ("examples/haru-market",),
    size: int = 500,
    overlap: int = 100,
    strategy: str = "recursive",
) -> list[Chunk]:
    """Policy files → chunks in seed 000's shape (ids ``policy-000``…). Raises on the first bad file."""
    from jogak.chunk import chunk

    report = load_many(paths)
    if report.errors:
        raise report.errors[0]
    return chunk(report.documents, size=size, overlap=overlap, strategy=strategy)
