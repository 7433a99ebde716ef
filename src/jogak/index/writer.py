"""Writing a collection: the ingest loop and the atomic commit of a batch of documents.

Chroma has no transactions, so a commit runs in five steps (see ``jogak.index.store``):

1. allocate generations and write the new chunk rows as *pending* (invisible to readers);
2. embed and add the vectors to Chroma under the new generations;
3. build the new BM25 directory (active rows of untouched documents + the new generations);
4. the flip: one transaction makes every new generation active, retires the old ones and points readers
   at the new BM25 directory;
5. delete the retired rows (readers already ignore them).

A crash before 4 leaves the previous state; the next writer garbage-collects the orphans.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jogak.filters import chroma_metadata, filter_columns
from jogak.index import heads, maintenance
from jogak.index.fanout import Job, Outcome, prepare_files
from jogak.index.ingest import (
    IngestReport,
    Prepared,
    Progress,
    chunk_config,
    file_sha256,
    no_progress,
    resolve_strategy,
)
from jogak.index.leaves import LeafRows
from jogak.index.lexical import lexical_text, tokenize
from jogak.index.state import Row, StoreError, now, row_key

if TYPE_CHECKING:
    from jogak.index.store import Store

_EMBED_STEP = 32  # passages per embedder call (at least; a remote service asks for more)


def ingest(store: Store, paths: Iterable[str | os.PathLike[str]], strategy: str = "structure",
           progress: Progress | None = None, size: int | None = None, overlap: int | None = None,
           commit_every: int | None = None, workers: int = 1, effective: str | None = None) -> IngestReport:
    """Load, chunk, embed and index files; unchanged files (same bytes, same chunking) are skipped.
    ``workers`` > 1 loads, parses, chunks and tokenizes in that many processes (``jogak.index.fanout``).
    ``effective``: the start of texts that name none (a change re-chunks, like a chunking change)."""
    from jogak.load import expand_paths, ocr_mode

    t0 = time.perf_counter()
    progress = progress or no_progress
    chunk_cfg = store.config.get("chunk") or {}
    size = int(size or chunk_cfg.get("size", 500))
    overlap = int(overlap if overlap is not None else chunk_cfg.get("overlap", 100))
    idx_cfg = store.config.get("index") or {}
    commit_every = int(commit_every or idx_cfg.get("commit_every", 25))
    report = IngestReport(strategy=strategy)
    strategy, w = resolve_strategy(strategy)
    report.strategy = strategy
    if w:
        report.warnings.append(w)
    job = Job(strategy, size, overlap, chunk_config(strategy, size, overlap, effective),
              ocr_mode() if workers > 1 else None, effective)
    exp = expand_paths(paths)
    report.skipped = [str(p) for p in exp.skipped]
    report.missing = [str(p) for p in exp.missing]
    emb = store.embedder
    if emb is None:
        report.dense = False
        report.warnings.append(store.embedder_reason or "no embedder; lexical-only")
    with store.manifest.write_lock():
        maintenance.gc(store)
        maintenance.retokenize_if_needed(store, progress)
        docs = store.documents()
        known = _Known({d.doc_id: d for d in docs}, {(d.source, d.sha256): d for d in docs})
        _check_embedder(store, emb)
        todo = _changed(store, exp.files, known, job.chunk_config, emb, report)
        pub = _Publisher(store, report, progress, float(idx_cfg.get("publish_ratio", 0.5)))
        batch: list[Prepared] = []
        n = len(todo)
        seen_ids: dict[str, str] = {}
        for i, out in enumerate(prepare_files([f for f, _ in todo], job, max(1, workers))):
            progress("load", i, n, Path(out.path).name)
            prep = _admit(todo[i], out, known, seen_ids, report)
            if prep is None:
                continue
            batch.append(prep)
            if len(batch) >= commit_every:
                pub.stage(batch)
                batch = []
        progress("load", n, n, "")
        if batch:
            pub.stage(batch)
        pub.publish()
        if emb is not None and heads.wanted(store.config):
            heads.fill(store, progress)
    report.seconds = time.perf_counter() - t0
    return report


@dataclass(frozen=True, slots=True)
class _Known:
    """The collection's documents before this ingest: by document id and by (file name, bytes)."""

    by_id: dict[str, Any]
    by_file: dict[tuple[str, str], Any]


def _changed(store: Store, files: list[Path], known: _Known, cfg: str, emb: Any,
             report: IngestReport) -> list[tuple[Path, str]]:
    """(file, sha256) of the files to (re-)ingest; the same bytes under the same name chunked the same way
    are the same document, reported unchanged."""
    out = []
    for f in files:
        try:
            sha = file_sha256(f)
        except OSError as e:
            report.failed.append({"source": f.name, "error": f"{f.name}: {e.strerror or e}"})
            continue
        same = known.by_file.get((f.name, sha))
        if (same is not None and store.manifest.doc_config(same.doc_id) == cfg
                and (same.embedded or emb is None)):
            report.unchanged.append(f.name)
            continue
        out.append((f, sha))
    return out


def _admit(item: tuple[Path, str], out: Outcome, known: _Known, seen_ids: dict[str, str],
           report: IngestReport) -> Prepared | None:
    """A prepared file as added or updated (with the warnings its identity calls for), or None on error."""
    from jogak.load.identity import document_key

    f, sha = item
    if out.prepared is None:
        report.failed.append({"source": f.name, "error": out.error or f"{f.name}: failed"})
        return None
    prep = out.prepared
    doc = prep.doc
    doc_id = _doc_id(doc)
    if doc_id in seen_ids:
        report.warnings.append(f"{f}: same document as {seen_ids[doc_id]}; it replaces it")
    seen_ids[doc_id] = str(f)
    old = known.by_id.get(doc_id)
    if old is not None and old.path and old.sha256 != sha and _elsewhere(old.path, f):
        # the document key (a law's title and dates, else the file name): say what is replaced
        same_as = "the same law and version" if doc.source != document_key(doc) else "the document of the same name"
        report.warnings.append(f"{f}: replaces {same_as} ingested from {old.path}")
    prep.action = "updated" if old else "added"
    return prep


def _check_embedder(store: Store, emb: Any) -> None:
    if emb is None:
        return
    have = store.manifest.meta("embedder")
    if have and have != emb.name and store.manifest.n_embedded_docs():
        raise StoreError(f"collection '{store.collection}' was embedded with '{have}', not '{emb.name}': "
                         "use the same embedder or a new collection")


def commit_or_fail(store: Store, batch: list[Prepared], report: IngestReport, progress: Progress) -> None:
    """Commit one batch now (all five steps); when the embedding backend fails midway, the batch's
    documents are reported as failed and the collection stays as it was (their pending rows are dropped)."""
    pub = _Publisher(store, report, progress, ratio=0.0)
    pub.stage(batch)
    pub.publish()


@dataclass
class _Staged:
    """A document written as pending (steps 1–2), waiting for the flip: its docs row and counts."""

    gen: int
    doc_id: str
    doc: tuple[Any, ...]  # the docs row after doc_id and gen
    action: str
    source: str
    n_chunks: int


class _Publisher:
    """Steps 1–2 per batch (``stage``: pending rows, vectors), steps 3–5 when due (``publish``: BM25, the
    flip, purge). Rebuilding BM25 costs the whole collection, so a long ingest publishes when what is
    staged reaches ``ratio`` × what is already active (geometric: O(log n) rebuilds for a corpus, not one
    per batch) and at the end; a small collection still publishes every batch. Staged batches are held
    as pending generations in the manifest (invisible, collected by the next writer after a crash), so
    memory holds one batch of documents, not everything staged."""

    def __init__(self, store: Store, report: IngestReport, progress: Progress, ratio: float) -> None:
        self.store, self.report, self.progress, self.ratio = store, report, progress, ratio
        self.active = store.manifest.count()
        self.staged: list[_Staged] = []
        self.pending = 0
        self.leaves = LeafRows()  # the staged rows' leaves (index.leaves), published with them

    def stage(self, batch: list[Prepared]) -> None:
        from jogak.index.embed import EmbedderUnavailable

        store, emb = self.store, self.store.embedder
        rows = _rows(batch, self.progress, leaves=bool((store.config.get("index") or {}).get("leaves", False)))
        gens = _write_pending(store, batch, rows)
        total = sum(len(r) for r in rows)
        try:
            if emb is not None and total:
                _add_vectors(store, emb, [(gen, r) for gen, rs in zip(gens, rows, strict=True) for r in rs],
                             self.report, self.progress)
        except EmbedderUnavailable as e:
            for p in batch:
                self.report.failed.append({"source": p.doc.source, "error": f"{p.doc.source}: {e}"})
            maintenance.purge(store, gens)
            return
        for r in (r for rs in rows for r in rs):
            vecs = r.leaf_vectors or [None] * len(r.leaves)
            for (path, _text, toks), v in zip(r.leaves, vecs, strict=True):
                self.leaves.add(r.row, path, toks, v)
        for p, gen, rs in zip(batch, gens, rows, strict=True):
            self.staged.append(_Staged(gen, _doc_id_of(p, rs), _doc_row(p, rs, self.report.strategy, emb),
                                       p.action, p.doc.source, len(rs)))
        self.pending += total
        if self.pending >= self.ratio * self.active:
            self.publish()

    def publish(self) -> None:
        if not self.staged:
            return
        store = self.store
        final = {s.doc_id: s.gen for s in self.staged}  # a document staged twice: the last one wins
        self.progress("index", 0, 1, "BM25")
        new_lex = maintenance.build_lexical(store, exclude_docs=set(final), extra=[],
                                            pending_gens=sorted(final.values()), leaves=self.leaves)
        self.progress("index", 1, 1, "BM25")
        retired = _flip(store, self.staged, new_lex, store.embedder, self.report)
        self.progress("commit", len(self.staged), len(self.staged), "")
        maintenance.purge(store, retired)
        maintenance.gc_lexical_dirs(store)
        self.active = store.manifest.count()
        self.staged, self.pending, self.leaves = [], 0, LeafRows()


def _rows(batch: list[Prepared], progress: Progress, leaves: bool = False) -> list[list[Row]]:
    """Each document's rows: BM25 tokens, filter columns (with its pointers and node kinds), embed text,
    and its leaves when the collection indexes them (``index.leaves``: each leaf is embedded too, so it
    costs about three times the embedding of the chunks alone)."""
    from jogak.chunk.contextualize import leaves as chunk_leaves  # the chunk package: only when writing

    total = sum(len(p.chunks) for p in batch)
    done = 0
    out: list[list[Row]] = []
    for p in batch:
        rows = []
        for k, c in enumerate(p.chunks):
            rows.append(Row("", c, p.tokens[k] if p.tokens is not None else tokenize(lexical_text(c)),
                            {**filter_columns(c), "pointers": p.pointers.get(c.id) or None,
                             "kind": p.kinds.get(c.id)},
                            c.embed_text or c.text,
                            [(path, text, tokenize(text)) for path, text in chunk_leaves(c)] if leaves else []))
            done += 1
            if done % 50 == 0:
                progress("tokenize", done, total, p.doc.source)
        out.append(rows)
    return out


def _doc_id_of(p: Prepared, rows: list[Row]) -> str:
    return rows[0].chunk.metadata.doc_id if rows else _doc_id(p.doc)


def _write_pending(store: Store, batch: list[Prepared], rows: list[list[Row]]) -> list[int]:
    """Step 1: a fresh generation per document, its rows written as pending; returns the generations."""
    m = store.manifest
    gens: list[int] = []
    with m.txn() as db:
        first = m.allocate_gens(db, len(batch))
        for j, (p, rs) in enumerate(zip(batch, rows, strict=True)):
            gen = first + j
            gens.append(gen)
            doc_id = p.chunks[0].metadata.doc_id if p.chunks else _doc_id(p.doc)
            for r in rs:
                r.row = row_key(r.chunk.id, gen)
            m.write_pending(db, gen, doc_id, rs, p.tree)
    return gens


def _add_vectors(store: Store, emb: Any, rows: list[tuple[int, Row]], report: IngestReport,
                 progress: Progress) -> None:
    """Step 2: embed the new rows (the cache answers known passages) and add them to Chroma."""
    hits0, miss0 = emb.hits, emb.misses
    vectors = store.vectors
    vectors.coll()
    max_batch = vectors.max_batch()
    pend: list[tuple[tuple[int, Row], Any]] = []
    step = max(_EMBED_STEP, int(getattr(emb, "step", _EMBED_STEP)))  # a service's batch × concurrency
    for i in range(0, len(rows), step):
        part = rows[i : i + step]
        vecs = emb.embed_passages([r.embed_text for _, r in part])
        progress("embed", min(i + step, len(rows)), len(rows), part[-1][1].chunk.metadata.source)
        pend.extend(zip(part, vecs, strict=True))
        if len(pend) >= min(max_batch, 512) or i + step >= len(rows):
            vectors.add(ids=[r.row for (_, r), _ in pend], embeddings=[v for _, v in pend],
                        documents=[r.chunk.text for (_, r), _ in pend],
                        metadatas=[chroma_metadata(r.cols, {"gen": g}) for (g, r), _ in pend])
            pend = []
    _embed_leaves(emb, [r for _, r in rows], progress, step)
    report.n_cached += emb.hits - hits0
    report.n_embedded += emb.misses - miss0


def _embed_leaves(emb: Any, rows: list[Row], progress: Progress, step: int) -> None:
    """Each row's leaf vectors (a chunk that is one leaf is its own embed text: the cache answers it)."""
    todo = [(r, j) for r in rows for j in range(len(r.leaves))]
    for r in rows:
        r.leaf_vectors = [None] * len(r.leaves)
    for i in range(0, len(todo), step):
        part = todo[i : i + step]
        vecs = emb.embed_passages([r.leaves[j][1] for r, j in part])
        for (r, j), v in zip(part, vecs, strict=True):
            r.leaf_vectors[j] = v
        progress("embed leaves", min(i + step, len(todo)), len(todo), part[-1][0].chunk.metadata.source)


def _doc_row(p: Prepared, rows: list[Row], strategy: str, emb: Any) -> tuple[Any, ...]:
    case = _case_of(p, rows)
    return (p.doc.source, p.doc.doc_title, p.doc.sha256, len(rows), now(), p.doc.path, p.doc.format,
            p.doc.n_pages, strategy, p.chunk_config,
            json.dumps(case, ensure_ascii=False, default=str) if case else None,
            1 if emb is not None else 0, p.doc.text)


def _flip(store: Store, staged: list[_Staged], new_lex: str, emb: Any, report: IngestReport) -> list[int]:
    """Step 4: one transaction activates the new generations and the new BM25 directory; returns the
    generations it retired."""
    m = store.manifest
    retired: list[int] = []
    with m.txn() as db:
        for s in staged:
            old = m.activate(db, s.gen, s.doc_id, s.doc)
            if old is not None:
                retired.append(old)
            (report.updated if s.action == "updated" else report.added).append(s.source)
            report.n_chunks += s.n_chunks
        m.set_lexical(db, new_lex)
        if emb is not None:
            m.set_meta(db, "embedder", emb.name)
            m.set_meta(db, "dim", str(emb.dim))
    return retired


def _case_of(p: Prepared, rows: list[Row]) -> dict[str, Any] | None:
    """A court decision's case metadata, from its first chunk that has it (else from the document)."""
    for r in rows:
        if r.chunk.metadata.case:
            return r.chunk.metadata.case.to_dict()
    if p.doc.metadata.get("case_number"):
        return {k: p.doc.metadata.get(k) for k in ("case_number", "decision_date", "court", "title")}
    return None


def _elsewhere(stored: str, f: Path) -> bool:
    """Is ``f`` another file than the one a document was ingested from (paths as given, maybe relative)?"""
    try:
        return Path(stored).resolve() != f.resolve()
    except OSError:
        return stored != str(f)


def _doc_id(doc: Any) -> str:
    from jogak.chunk import doc_id_for

    return doc_id_for(doc)
