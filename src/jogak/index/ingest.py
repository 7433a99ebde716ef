"""Ingest steps that do not touch the store: read a file, decide whether it changed, load, parse, chunk.

The store (``store.py``) owns the atomic part: writing a new generation of rows, flipping the manifest,
retiring the old rows.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jogak.grammar.laws import EXTERNAL_REASONS as EXTERNAL
from jogak.grammar.laws import law_pointer
from jogak.model import Chunk, Document

# progress(stage, done, total, note): stage is "scan", "load", "embed", "index" or "commit".
Progress = Callable[[str, int, int, str], None]


def no_progress(stage: str, done: int, total: int, note: str = "") -> None:
    return None


@dataclass
class IngestReport:
    added: list[str] = field(default_factory=list)  # sources
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    failed: list[dict[str, str]] = field(default_factory=list)  # {"source", "error"}
    skipped: list[str] = field(default_factory=list)  # unsupported files inside directories
    missing: list[str] = field(default_factory=list)
    n_chunks: int = 0  # chunks written by this run
    n_embedded: int = 0  # passages actually sent to the embedder (cache misses)
    n_cached: int = 0  # passages read back from the embedding cache
    dense: bool = True  # False when ingest ran lexical-only
    strategy: str = "structure"
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failed and not self.missing

    def to_dict(self) -> dict[str, Any]:
        return {
            "added": self.added,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "failed": self.failed,
            "skipped": self.skipped,
            "missing": self.missing,
            "n_chunks": self.n_chunks,
            "n_embedded": self.n_embedded,
            "n_cached": self.n_cached,
            "dense": self.dense,
            "strategy": self.strategy,
            "seconds": round(self.seconds, 3),
            "warnings": self.warnings,
        }


@dataclass
class Prepared:
    """One file ready to be written: its document, chunks and (when the parser is available) tree."""

    doc: Document
    chunks: list[Chunk]
    tree: dict[str, Any] | None
    chunk_config: str
    action: str  # added | updated
    pointers: dict[str, list[str]] = field(default_factory=dict)  # chunk id → pointer target paths
    kinds: dict[str, str] = field(default_factory=dict)  # chunk id → kind of its node (article, faq, …)
    tokens: list[list[str]] | None = None  # each chunk's BM25 tokens, when a worker process made them


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def chunk_config(strategy: str, size: int, overlap: int, effective: str | None = None) -> str:
    """What decides a document's chunks besides its bytes; a change re-chunks even unchanged files."""
    from jogak.model import CHUNK_SCHEMA_VERSION

    cfg: dict[str, Any] = {"strategy": strategy, "size": size, "overlap": overlap, "schema": CHUNK_SCHEMA_VERSION}
    if effective:  # --effective at ingest: the documents' start
        cfg["effective"] = effective
    return json.dumps(cfg, sort_keys=True)


def resolve_strategy(strategy: str) -> tuple[str, str | None]:
    """(strategy actually usable, warning). Falls back to recursive while the structure chunker is absent."""
    if strategy == "structure":
        try:
            import jogak.chunk.hierarchical  # noqa: F401
        except ModuleNotFoundError as e:
            if e.name and e.name.startswith("jogak"):
                return "recursive", "the structure chunker is not available in this build; using recursive"
            raise
    return strategy, None


def parse_tree(doc: Document) -> Any:
    """The document's clause tree (``DocTree``), or None when no parser is available or it fails."""
    try:
        from jogak.structure import parse
    except ImportError:
        return None
    try:
        return parse(doc)
    except Exception:  # a parser failure must not fail ingest: the chunks are what matter
        return None


def pointer_targets(tree: Any, chunks: list[Chunk]) -> dict[str, list[str]]:
    """chunk id → target paths of the *pointer* references inside it ("부록A 참조", "Schedule 1 applies"):
    sentences that only say where the answer is. Plain cross-references ("제2조에 따라") are not pointers."""
    out: dict[str, list[str]] = {}
    if tree is None:
        return out
    # in this document: the target path; in another law ("법 제34조제1항 각 호의 사항"): the law and clause,
    # which retrieval resolves against the collection it searches (jogak.grammar.laws.law_pointer)
    refs = [(r.start, r.target_path or law_pointer(r.law or "", r.clause or "")) for n in tree.root.walk()
            for r in n.refs if r.pointer and (r.target_path or (r.law and r.clause and r.reason in EXTERNAL))]
    if not refs:
        return out
    for c in chunks:
        s, e = c.metadata.char_start, c.metadata.char_end
        own = set(c.metadata.paths or ([c.metadata.path] if c.metadata.path else []))
        ts: list[str] = []
        for start, target in refs:
            if s <= start < e and target not in ts and target not in own:
                ts.append(target)
        if ts:
            out[c.id] = ts
    return out


def node_kinds(tree: Any, chunks: list[Chunk]) -> dict[str, str]:
    """chunk id → the kind of the tree node at the chunk's path (article, faq, appendix, footnote, …)."""
    if tree is None:
        return {}
    by_path = {n.path: n.kind for n in tree.root.walk() if n.path}
    out = {}
    for c in chunks:
        p = c.metadata.path
        while p:
            if p in by_path:
                out[c.id] = by_path[p]
                break
            p = p.rsplit("/", 1)[0] if "/" in p else ""
    return out


def prepare(doc: Document, chunker: Any, strategy: str, cfg: str, action: str,
            want_tree: bool = True) -> Prepared:
    t0 = time.perf_counter()
    doctree = parse_tree(doc) if want_tree else None
    if doctree is not None and strategy == "structure":
        chunks = list(chunker.chunk_document(doc, tree=doctree))  # parse once, chunk and store the same tree
    else:
        chunks = list(chunker.chunk_document(doc))
    for c in chunks:
        if not c.metadata.doc_id:
            from jogak.chunk import doc_id_for

            c.metadata.doc_id = doc_id_for(doc)
    pointers = pointer_targets(doctree, chunks) if strategy == "structure" else {}
    kinds = node_kinds(doctree, chunks) if strategy == "structure" else {}
    tree = doctree.root.to_dict() if doctree is not None else None
    _ = time.perf_counter() - t0
    return Prepared(doc=doc, chunks=chunks, tree=tree, chunk_config=cfg, action=action, pointers=pointers,
                    kinds=kinds)
