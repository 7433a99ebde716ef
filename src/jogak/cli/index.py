"""``jogak ingest``, ``docs``, ``rm``, ``search``, ``eval-retrieval``, ``eval-cuad`` (issue 5)."""

from __future__ import annotations

import os
import tempfile
import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from jogak.cli.common import AsOfOpt, OcrOpt, apply_ocr, as_of_option, emit_json, err, error, note, out, warn
from jogak.cli.stores import STATE_HELP, check_collection, check_question, loading, open_existing
from jogak.korean import warm_up_in_background

StoreOpt = Annotated[str, typer.Option("--store", help="Store directory, or http://HOST:PORT of a Chroma server.")]
CollOpt = Annotated[str, typer.Option("--collection", help="Collection name inside the store.")]
StateOpt = Annotated[str | None, typer.Option(
    "--state", envvar="JOGAK_STATE", help=STATE_HELP)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")]


def register(app: typer.Typer) -> None:
    app.command("ingest")(ingest_cmd)
    app.command("docs")(docs_cmd)
    app.command("rm")(rm_cmd)
    app.command("search")(search_cmd)
    app.command("eval-retrieval")(eval_retrieval_cmd)
    app.command("eval-cuad")(eval_cuad_cmd)


def _open(store: str, collection: str, state: str | None, create: bool) -> Any:
    if not create:
        return open_existing(store, collection, state)
    check_collection(collection)
    from jogak.index import open_store
    from jogak.index.store import StoreError

    try:
        return open_store(store, collection, state_dir=state, create=True)
    except StoreError as e:
        error(str(e))
        raise typer.Exit(2) from None


class Expand(StrEnum):
    neighbours = "neighbours"
    neighbors = "neighbors"
    parent = "parent"


class _Bar:
    """Progress on stderr, one task per stage: a rich bar on a terminal; plain lines (every 10 % and at
    least every 15 s) when stderr is a file or a pipe, where a live bar would print nothing until the end."""

    def __init__(self) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.live = err.is_terminal
        self.p = Progress(TextColumn("{task.description:<9}"), BarColumn(), MofNCompleteColumn(),
                          TextColumn("{task.fields[note]}", style="dim"), TimeElapsedColumn(),
                          console=err, transient=False, disable=not self.live)
        self.tasks: dict[str, Any] = {}
        self.logged: dict[str, tuple[int, float]] = {}  # stage → (last decile printed, time)
        self.t0 = time.monotonic()

    def __enter__(self) -> _Bar:
        self.p.__enter__()
        return self

    def __exit__(self, *a: Any) -> None:
        self.p.__exit__(*a)

    def __call__(self, stage: str, done: int, total: int, note: str = "") -> None:
        if not self.live:
            self._line(stage, done, total, note)
            return
        t = self.tasks.get(stage)
        if t is None:
            t = self.tasks[stage] = self.p.add_task(stage, total=total or 1, note="")
        self.p.update(t, completed=done, total=total or 1, note=note[:40])

    def _line(self, stage: str, done: int, total: int, note: str) -> None:
        now = time.monotonic()
        decile = 10 * done // total if total else 10
        last = self.logged.get(stage)
        if last is not None and decile <= last[0] and now - last[1] < 15 and done < total:
            return
        if last is not None and done >= total and last[0] >= 10:
            return
        self.logged[stage] = (decile if done < total else 10, now)
        tail = f"  {note}" if note and done < total else ""
        err.print(f"{stage}: {done}/{total}{tail}  [{now - self.t0:.0f}s]", markup=False, highlight=False)


def ingest_cmd(
    paths: Annotated[list[str], typer.Argument(help="Files or directories (recursively).")],
    store: StoreOpt = "./jogak_db",
    collection: CollOpt = "default",
    state: StateOpt = None,
    strategy: Annotated[str, typer.Option(help="structure (clause tree) or recursive (seed 001).")] = "structure",
    size: Annotated[int | None, typer.Option(help="Maximum chunk length in characters.")] = None,
    overlap: Annotated[int | None, typer.Option(help="Overlap in characters (recursive strategy).")] = None,
    workers: Annotated[int, typer.Option(help="Load, parse, chunk and tokenize in N processes.")] = 1,
    as_json: JsonOpt = False,
    ocr: OcrOpt = None,
    effective: Annotated[str | None, typer.Option(
        "--effective", help="YYYY-MM-DD: when these documents take effect, for texts that say none (no "
                            "front-matter 시행일자, no 부칙 '…부터 시행한다'); makes them versions of their work.")] = None,
) -> None:
    """Load, parse, chunk, embed and index files; unchanged files are skipped, changed ones replaced."""
    apply_ocr(ocr)
    if effective is not None:
        effective = as_of_option(effective, "--effective")
    if strategy not in ("structure", "recursive"):
        raise typer.BadParameter(f"unknown strategy '{strategy}' (structure or recursive)")
    st = _open(store, collection, state, create=True)
    from jogak.index.store import StoreError

    try:
        with _Bar() as bar:
            rep = st.ingest(paths, strategy=strategy, progress=bar, size=size, overlap=overlap,
                            workers=max(1, workers), effective=effective)
    except StoreError as e:
        error(str(e))
        raise typer.Exit(2) from None
    except Exception as e:  # e.g. the Chroma server is unreachable: one line, not a traceback
        error(f"ingest failed ({type(e).__name__}): {e}; the collection was left as it was")
        raise typer.Exit(2) from None
    for w in rep.warnings:
        warn(w)
    for s in rep.skipped:
        note(f"skipped (unsupported type): {s}")
    for m in rep.missing:
        error(f"{m}: no such file or directory")
    for f in rep.failed:
        error(f["error"])
    summary = (f"{len(rep.added)} added, {len(rep.updated)} updated, {len(rep.unchanged)} unchanged, "
               f"{len(rep.failed)} failed; {rep.n_chunks} chunks written ({rep.n_embedded} embedded, "
               f"{rep.n_cached} from cache) in {rep.seconds:.1f}s [{rep.strategy}]")
    if as_json:
        emit_json(rep.to_dict())
        err.print(summary, markup=False)
    else:
        out.print(summary, markup=False)
    if not rep.ok:
        raise typer.Exit(1)


def docs_cmd(store: StoreOpt = "./jogak_db", collection: CollOpt = "default", state: StateOpt = None,
             as_json: JsonOpt = False) -> None:
    """List the documents in a collection."""
    st = _open(store, collection, state, create=False)
    docs = st.documents()
    if as_json:
        emit_json({"collection": collection, "documents": [d.to_dict() for d in docs]})
        return
    from rich.table import Table

    t = Table(title=f"{collection}: {len(docs)} documents")
    for c in ("doc_id", "source", "title", "chunks", "ingested", "sha256"):
        t.add_column(c, overflow="fold")
    for d in docs:
        t.add_row(d.doc_id, d.source, d.doc_title, str(d.n_chunks), d.ingested_at, d.sha256[:12])
    out.print(t)


def rm_cmd(doc: Annotated[str, typer.Argument(help="doc_id, file name or title.")],
           store: StoreOpt = "./jogak_db", collection: CollOpt = "default", state: StateOpt = None,
           as_json: JsonOpt = False) -> None:
    """Remove one document (its chunks, vectors and BM25 entries) from a collection."""
    st = _open(store, collection, state, create=False)
    ok = st.remove(doc)
    if as_json:
        emit_json({"removed": ok, "document": doc})
    elif ok:
        out.print(f"removed {doc}", markup=False)
    if not ok:
        error(f"no document '{doc}' in collection '{collection}'")
        raise typer.Exit(1)


def search_cmd(
    query: Annotated[str, typer.Argument(help="The question.")],
    store: StoreOpt = "./jogak_db",
    collection: CollOpt = "default",
    state: StateOpt = None,
    k: Annotated[int, typer.Option("-k", "--k", min=1, help="Number of hits.")] = 5,
    filters: Annotated[list[str] | None, typer.Option(
        "--filter", help="KEY=OP:VALUE (ops eq, in, gte, lte, contains); repeatable.")] = None,
    expand: Annotated[Expand | None, typer.Option(help="Extra context after each hit.")] = None,
    no_structure: Annotated[bool, typer.Option("--no-structure", help="Plain hybrid search.")] = False,
    ids: Annotated[bool, typer.Option("--ids", help="Show chunk ids (for `GET /v1/chunks/{id}`).")] = False,
    as_of: AsOfOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Hybrid search (dense + BM25) with clause lookup, cross-reference following and layer routing."""
    check_question(query, "query")
    warm_up_in_background()  # Kiwi loads while Chroma and the embedder do (a cold call on two cores)
    from jogak.filters import coerce_filters

    try:
        fl = coerce_filters([*(filters or []), *([f"as_of={as_of}"] if as_of else [])])
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None
    st = _open(store, collection, state, create=False)
    with loading():
        from jogak.retrieve import SearchOptions, search

        opts = SearchOptions.from_config()
        if expand:
            opts.expand = expand.value
        if no_structure:
            opts.clause_lookup = opts.xref = opts.routing = opts.query_filters = False
        try:
            res = search(st, query, k=k, filters=fl, options=opts)
        except Exception as e:
            error(f"search failed ({type(e).__name__}): {e}")
            raise typer.Exit(2) from None
    for w in res.warnings:
        warn(w)
    if as_json:
        emit_json(res.to_dict())
        return
    print_hits(res, st, ids)


def hit_label(md: Any) -> str:
    """How a hit is named for people: document · clause · pages (the citation's words, not ids)."""
    where = md.article or md.breadcrumb or md.path or ""
    pages = ""
    if md.page_start is not None:
        pages = (f"p.{md.page_start}" if md.page_end in (None, md.page_start)
                 else f"pp.{md.page_start}–{md.page_end}")
    return " · ".join(x for x in (md.doc_title or md.source, where, pages) if x)


def version_label(version: dict[str, Any] | None) -> str:
    """" · 2023-07-11 시행 (현행)", " · 2020-07-31 시행 ~ 2023-07-11 전 (현행 아님)" for a hit of a work the
    collection holds several versions of (or of a version not in force today)."""
    if not version or (version.get("current") and int(version.get("versions") or 1) < 2):
        return ""
    span = f"{version['effective_from']} 시행"
    if version.get("effective_to"):
        span += f" ~ {version['effective_to']} 전"
    return f" · {span} ({'현행' if version.get('current') else '현행 아님'})"


def print_hits(res: Any, store: Any, ids: bool = False) -> None:
    if res.filters:
        out.print("filters: " + "; ".join(
            str(f) + (f" (from “{f.phrase}”)" if f.phrase else "") for f in res.filters), markup=False)
    if not res.hits:
        why = [w for w in res.warnings if "in force" in w]
        out.print("no hits" + (": " + "; ".join(why) if why else ""), markup=False)
    rank = {h.chunk.id: h.rank for h in res.hits}
    for h in res.hits:
        md = h.chunk.metadata
        how = "+".join(h.matched)
        if h.via:  # the hit came in by a cross-reference from another chunk: name that one
            src = store.get_chunk(h.via) if h.via not in rank else None
            how += f", referred to by {rank[h.via]}." if h.via in rank else (
                f", referred to by {src.metadata.article or src.metadata.path}" if src else "")
        tail = f"  [{how}; {h.chunk.id}]" if ids else f"  [{how}]"
        out.print(f"\n{h.rank}. {hit_label(md)}{version_label(h.version)}{tail}", markup=False)
        text = " ".join(h.chunk.text.split())
        out.print("   " + (text if len(text) <= 400 else text[:400] + " …"), markup=False)


def eval_retrieval_cmd(
    questions: Annotated[Path, typer.Argument(help="questions.yaml (id, question, gold).")],
    store: Annotated[str | None, typer.Option(
        "--store", help="Store directory or http://HOST:PORT. Default: a fresh temporary store built from "
                        "the file's `corpus:` (skipped cleanly when absent), else ./jogak_db.")] = None,
    collection: CollOpt = "default",
    state: StateOpt = None,
    corpus: Annotated[list[str] | None, typer.Option(
        help="Documents for the baseline store (default: the sources of --store's documents).")] = None,
    baseline: Annotated[str, typer.Option(
        help="Baselines run on the same documents in the same run: hybrid (recursive 500/100, dense + "
             "Kiwi-BM25, RRF — the bar), dense (seed 001's), a comma-separated list, or none.")] = "hybrid,dense",
    k: Annotated[int, typer.Option(help="Hits retrieved per question by our pipeline.")] = 10,
    as_json: JsonOpt = False,
) -> None:
    """Recall@1/3/5/10, MRR, nDCG@10, clause-P@1 for our pipeline and the baselines, side by side."""
    import shutil

    from jogak.eval.corpus import build_store, corpus_entries, resolve_corpus
    from jogak.eval.retrieval import evaluate, render_table

    if not questions.is_file():
        error(f"{questions}: no such file")
        raise typer.Exit(2)
    from jogak.eval.retrieval import baseline_names

    try:
        baseline_names(baseline)
    except ValueError as e:
        error(str(e))
        raise typer.Exit(2) from None
    tmp: str | None = None
    st: Any = None
    if store is None and corpus_entries(questions):
        qc = resolve_corpus(questions)
        if not qc.ok:
            note(f"skipped {questions}: {qc.reason()}")
            if as_json:
                emit_json({"skipped": True, "questions_file": str(questions), "reason": qc.reason()})
            return
        tmp = tempfile.mkdtemp(prefix="jogak_evalr_")
    try:
        if tmp:
            with _Bar() as bar:
                st, ing = build_store(qc, tmp, collection=collection, progress=bar)
            for f in ing.failed:
                error(f["error"])
            corpus = corpus or [str(p) for p in qc.paths]
        else:
            st = _open(store or "./jogak_db", collection, state, create=False)
        rep = evaluate(questions, st, k=k, baseline=baseline, corpus=corpus, progress=_Bar())
    finally:
        if tmp:
            if st is not None:
                st.close()
            shutil.rmtree(tmp, ignore_errors=True)
    if as_json:
        emit_json(rep)
    else:
        out.print(render_table(rep))


_CUAD_WORK = Path(tempfile.gettempdir()) / "jogak_cuad"


def eval_cuad_cmd(
    corpus: Annotated[Path | None, typer.Option(
        help="LegalBench-RAG's cuad_contracts folder (gold_clauses.jsonl, contracts/*.txt); default $JOGAK_CUAD.")]
    = None,
    work: Annotated[Path, typer.Option(help="Where to build the CUAD stores and embedding cache (kept between "
                                             "runs, so a re-run embeds nothing).")] = _CUAD_WORK,
    limit: Annotated[int | None, typer.Option(help="Use only the first N contracts (quick runs).")] = None,
    strategies: Annotated[str, typer.Option(help="Comma-separated strategies.")] = "recursive,structure",
    as_json: JsonOpt = False,
) -> None:
    """CUAD the LegalBench-RAG way: span precision/recall@k next to the published figures."""
    from jogak.eval.cuad import render_table, run_cuad

    corpus = corpus or (Path(os.environ["JOGAK_CUAD"]) if os.environ.get("JOGAK_CUAD") else None)
    if corpus is None or not (corpus / "gold_clauses.jsonl").is_file():
        error((f"no CUAD corpus at {corpus} (expected gold_clauses.jsonl and contracts/*.txt)" if corpus else
               "no CUAD corpus given") + ": pass --corpus DIR, LegalBench-RAG's cuad_contracts folder, or set "
              "$JOGAK_CUAD")
        raise typer.Exit(2)
    rep = run_cuad(corpus, work, strategies=[s for s in strategies.split(",") if s], limit=limit,
                   progress=_Bar())
    if as_json:
        emit_json(rep)
    else:
        out.print(render_table(rep))
