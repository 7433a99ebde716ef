"""The CPU-bound half of ingest — load, parse, chunk, BM25 tokens — for one file, in this process or in a
pool of worker processes (``jogak ingest --workers N``).

Nothing here touches the store: a worker returns a ``Prepared`` file (its document, chunks, tree and each
chunk's BM25 tokens) or a one-line error, and the writer (``jogak.index.writer``), alone in the main
process, decides what it means for the collection and commits it. Results come back in the order of the
files, so a run with N workers writes the same collection as a run with one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jogak.chunk.stream import CRASHED, ordered_map
from jogak.index.ingest import Prepared, prepare
from jogak.index.lexical import lexical_text, tokenize


@dataclass(frozen=True)
class Job:
    """How every file of one ingest is cut (the same for all workers)."""

    strategy: str
    size: int
    overlap: int
    chunk_config: str
    ocr: str | None = None
    effective: str | None = None  # jogak ingest --effective: the start of texts that name none


@dataclass
class Outcome:
    path: str
    prepared: Prepared | None = None
    error: str | None = None


_state: dict[str, Any] = {}


def _init(job: Job) -> None:
    from jogak.chunk import get_chunker

    if job.ocr is not None:  # a worker process does not inherit the caller's --ocr
        from jogak.load import set_ocr_mode

        set_ocr_mode(job.ocr)
    _state["job"] = job
    _state["chunker"] = get_chunker(job.strategy, size=job.size, overlap=job.overlap)


def _one(path: str) -> Outcome:
    from jogak.load import LoadError, load

    job: Job = _state["job"]
    f = Path(path)
    try:
        doc = load(f)
    except LoadError as e:
        return Outcome(path, error=str(e))
    if job.effective:
        from jogak.structure.versions import EFFECTIVE_AT_INGEST

        doc.metadata[EFFECTIVE_AT_INGEST] = job.effective
    try:
        prep = prepare(doc, _state["chunker"], job.strategy, job.chunk_config, "added")
    except Exception as e:  # a chunker bug on one file must not lose the others
        return Outcome(path, error=f"{f.name}: chunking failed: {e}")
    prep.tokens = [tokenize(lexical_text(c)) for c in prep.chunks]
    return Outcome(path, prep)


def prepare_files(paths: list[Path], job: Job, workers: int = 1) -> Iterator[Outcome]:
    """Each file prepared (or its error), in the order of ``paths``; ``workers`` > 1 uses processes."""
    names = [str(p) for p in paths]
    if workers <= 1 or len(names) < 2:
        _init(job)
        for p in names:
            yield _one(p)
        return
    for p, out in ordered_map(_one, names, workers, _init, (job,)):
        yield out if out is not None else Outcome(p, error=f"{Path(p).name}: {CRASHED}")
