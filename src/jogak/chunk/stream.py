"""Chunking a corpus as a stream: one file at a time, optionally fanned out to worker processes.

``jogak chunks DIR --jsonl FILE`` and the full-corpus benchmark read files through ``stream_files``: each
file is loaded, parsed and chunked, handed to the caller and dropped, so memory stays at one file per
worker (plus the pool's small read-ahead) however large the corpus is. With ``workers > 1`` the files are
spread over a process pool (parsing is pure Python: threads would share one core); results come back in
the order of the files, so the output is the same as with one process.
"""

from __future__ import annotations

import itertools
import os
import resource
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from jogak.model import Chunk


@dataclass
class FileChunks:
    """One file's outcome: its chunks, or the one-line error that stopped it."""

    path: str
    n_bytes: int = 0
    n_articles: int = 0  # 제N조 / Article nodes of the clause tree (structure strategy)
    chunks: list[Chunk] = field(default_factory=list)
    error: str | None = None
    cpu_s: float = 0.0  # CPU seconds this file took (in whichever process parsed it)
    rss_mb: float = 0.0  # that process's peak resident memory so far


_worker: dict[str, Any] = {}


def _init(strategy: str, size: int, overlap: int, options: dict[str, Any], ocr: str | None = None) -> None:
    from jogak.chunk import get_chunker

    if ocr is not None:  # the caller's --ocr (a worker process does not inherit the module setting)
        from jogak.load import set_ocr_mode

        set_ocr_mode(ocr)

    _worker["strategy"] = strategy
    _worker["chunker"] = get_chunker(strategy, size=size, overlap=overlap, **options)


def _one(path: str) -> FileChunks:
    t0 = time.process_time()
    out = _chunk_file(path)
    out.cpu_s = time.process_time() - t0
    out.rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB
    return out


def _chunk_file(path: str) -> FileChunks:
    from jogak.load import LoadError, load

    out = FileChunks(path)
    try:
        out.n_bytes = os.path.getsize(path)
        doc = load(Path(path))
    except (LoadError, OSError) as e:
        out.error = str(e)
        return out
    chunker = _worker["chunker"]
    try:
        if _worker["strategy"] == "structure":
            from jogak.structure import parse

            tree = parse(doc)
            out.n_articles = sum(1 for n in tree.root.walk() if n.kind == "article")
            out.chunks = list(chunker.chunk_document(doc, tree=tree))
        else:
            out.chunks = list(chunker.chunk_document(doc))
    except Exception as e:  # a chunker bug on one file must not stop the stream
        out.error = f"{Path(path).name}: chunking failed: {e}"
    return out


def stream_files(files: Iterable[str | os.PathLike[str]], strategy: str = "structure", size: int = 500,
                 overlap: int = 100, workers: int = 1, ocr: str | None = None,
                 **options: Any) -> Iterator[FileChunks]:
    """Each file's chunks, in the order of ``files``; ``workers`` > 1 parses in that many processes."""
    paths = [str(f) for f in files]
    init = (strategy, size, overlap, options, ocr)
    if workers <= 1 or len(paths) < 2:
        _init(*init)
        for p in paths:
            yield _one(p)
        return
    for p, res in ordered_map(_one, paths, workers, _init, init):
        yield res if res is not None else FileChunks(p, error=f"{Path(p).name}: {CRASHED}")


AHEAD = 8  # items in flight per worker: one file's chunks each, a few MB at most
CRASHED = "the worker process parsing it died (out of memory, or killed); the other files go on"
T = TypeVar("T")


def ordered_map(fn: Callable[[str], T], items: list[str], workers: int, initializer: Callable[..., None],
                initargs: tuple[Any, ...]) -> Iterator[tuple[str, T | None]]:
    """``(item, fn(item))`` in the order of ``items``, computed by ``workers`` processes, at most
    ``AHEAD`` × ``workers`` ahead of the consumer (a slow consumer — an embedding writer — must not let results
    pile up in memory; a window of 2 per worker left a worker idle behind each large statute at the head). An item whose worker process died yields None; the pool is started again for the rest.

    forkserver: workers start from a clean process (the caller may hold OpenMP, Kiwi or Chroma threads,
    which a plain fork would copy half-alive)."""
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    ctx = mp.get_context("forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn")
    todo = list(items)
    while todo:
        with ProcessPoolExecutor(min(workers, len(todo)), mp_context=ctx, initializer=initializer,
                                 initargs=initargs) as pool:
            window: deque[tuple[str, Any]] = deque()
            rest = iter(todo)
            for it in itertools.islice(rest, AHEAD * workers):
                window.append((it, pool.submit(fn, it)))
            done = 0
            try:
                while window:
                    it, fut = window.popleft()
                    res = fut.result()
                    nxt = next(rest, None)
                    if nxt is not None:
                        window.append((nxt, pool.submit(fn, nxt)))
                    done += 1
                    yield it, res
                todo = []
            except BrokenProcessPool:
                # a worker died and took the pool down: run the head item alone to learn whether it was the
                # one (then it fails), and go on with a fresh pool from the next one
                yield it, _alone(fn, it, ctx, initializer, initargs)
                todo = todo[done + 1 :]


def _alone(fn: Callable[[str], T], item: str, ctx: Any, initializer: Callable[..., None],
           initargs: tuple[Any, ...]) -> T | None:
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    with ProcessPoolExecutor(1, mp_context=ctx, initializer=initializer, initargs=initargs) as pool:
        try:
            return pool.submit(fn, item).result()
        except BrokenProcessPool:
            return None
