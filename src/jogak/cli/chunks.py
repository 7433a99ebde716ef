"""``jogak chunks`` and ``jogak experiment`` (seed 001)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from jogak.cli.common import OcrOpt, apply_ocr, emit_json, err, error, load_documents, note, out

SETTINGS = ((200, 0), (500, 100), (1500, 200))


def register(app: typer.Typer) -> None:
    app.command("chunks")(chunks_cmd)
    app.command("experiment")(experiment_cmd)


def chunks_cmd(
    paths: Annotated[list[str], typer.Argument(help="Files or directories (recursively).")],
    size: Annotated[int, typer.Option(help="Maximum chunk length in characters.")] = 500,
    overlap: Annotated[int, typer.Option(help="Overlap in characters (recursive strategy).")] = 100,
    strategy: Annotated[str, typer.Option(help="recursive (seed 001) or structure (clause tree).")] = "recursive",
    max_depth: Annotated[int, typer.Option(help="structure: levels kept apart when cutting (deeper ones fold "
                                                "into their parent; paths keep full precision).")] = 3,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON list of chunks on stdout.")] = False,
    jsonl: Annotated[Path | None, typer.Option("--jsonl", help="Write chunks as JSON lines to FILE.")] = None,
    sample: Annotated[int | None, typer.Option(help="Print only N sample chunks (from the third on).")] = None,
    workers: Annotated[int, typer.Option(help="--jsonl: parse and chunk in N processes.")] = 1,
    ocr: OcrOpt = None,
) -> None:
    """Cut documents into chunks and print every chunk in full with its provenance metadata."""
    apply_ocr(ocr)
    from jogak.chunk import chunk

    if jsonl is not None and not as_json:
        _stream_jsonl(paths, jsonl, size, overlap, strategy, max_depth, workers, ocr)
        return
    docs, n_bad = load_documents(paths)
    try:
        extra = {"max_depth": max_depth} if strategy == "structure" else {}
        chunks = chunk(docs, size=size, overlap=overlap, strategy=strategy, **extra)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None
    if jsonl is not None:
        _write_jsonl(jsonl, chunks)
        err.print(f"wrote {len(chunks)} chunks to {jsonl}", markup=False)
    if as_json:
        emit_json([c.to_dict() for c in chunks])
    elif jsonl is None:
        shown = chunks
        if sample is not None:
            start = 2 if len(chunks) > 2 + sample - 1 else 0
            shown = chunks[start : start + sample]
            out.print(f"■ {len(chunks)} chunks (size={size}, overlap={overlap}, strategy={strategy}); "
                      f"{len(shown)} samples:", markup=False)
        for c in shown:
            md = c.metadata
            out.print(
                f"\n[{c.id}] {md.source} · chunk_no={md.chunk_no} · pages {md.page_start}–{md.page_end} · "
                f"chars {md.char_start}–{md.char_end}", markup=False)
            out.print(f"  article={md.article!r}", markup=False)
            if md.path is not None:
                out.print(f"  path={md.path!r} block_type={md.block_type}", markup=False)
            out.print(c.text, markup=False)
    if n_bad:
        raise typer.Exit(1)


def _write_jsonl(path: Path, chunks: list[Any]) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for c in chunks:
            fh.write(json.dumps(c.to_dict(), ensure_ascii=False) + "\n")


def _stream_jsonl(paths: list[str], jsonl: Path, size: int, overlap: int, strategy: str, max_depth: int,
                  workers: int, ocr: str | None) -> None:
    """--jsonl: one file at a time (memory does not grow with the corpus), ids as ``chunk()`` numbers them."""
    from jogak.chunk import STRATEGIES
    from jogak.chunk.stream import stream_files
    from jogak.load import expand_paths

    if strategy not in STRATEGIES:
        raise typer.BadParameter(f"unknown chunking strategy '{strategy}' (choose from {', '.join(STRATEGIES)})")
    exp = expand_paths(paths)
    for s in exp.skipped:
        note(f"skipped (unsupported type): {s}")
    for m in exp.missing:
        error(f"{m}: no such file or directory")
    extra = {"max_depth": max_depth} if strategy == "structure" else {}
    n = n_bad = 0
    with jsonl.open("w", encoding="utf-8") as fh:
        for res in stream_files(exp.files, strategy, size, overlap, max(1, workers), ocr, **extra):
            if res.error:
                error(res.error)
                n_bad += 1
                continue
            for c in res.chunks:
                c.id = f"policy-{n:03d}"  # the batch numbering of ``jogak.chunk.chunk`` (seed 000's ids)
                fh.write(json.dumps(c.to_dict(), ensure_ascii=False) + "\n")
                n += 1
    err.print(f"wrote {n} chunks to {jsonl}", markup=False)
    if n_bad or exp.missing:
        raise typer.Exit(1)


def experiment_cmd(
    paths: Annotated[list[str], typer.Argument(help="Files or directories.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the rows as one JSON list.")] = False,
    ocr: OcrOpt = None,
) -> None:
    """Seed 001's chunk-size experiment: (200,0), (500,100), (1500,200) compared."""
    apply_ocr(ocr)
    from jogak.eval.experiment import run_experiment

    docs, n_bad = load_documents(paths)
    sink = err if as_json else out
    for d in docs:
        pages = f"{d.n_pages}쪽, " if d.n_pages else ""
        sink.print(f"■ 로딩: {d.source} — {pages}{len(d.text):,}자", markup=False)
    rows = run_experiment(docs, SETTINGS)
    if as_json:
        emit_json(rows)
    else:
        from rich.table import Table

        t = Table(title="청킹 실험 (chunking experiment)")
        for col in ("size", "overlap", "count", "avg_len", "min_len", "max_len", "no_heading",
                    "three_plus_headings"):
            t.add_column(col, justify="right", overflow="fold")
        for r in rows:
            t.add_row(*(str(r[k]) for k in ("size", "overlap", "count", "avg_len", "min_len", "max_len",
                                             "no_heading", "three_plus_headings")))
        out.print(t)
    if n_bad:
        raise typer.Exit(1)
