"""``jogak ask`` and ``jogak eval`` (issue 6): answers with citations, and the standard-question check."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from jogak.cli.common import AsOfOpt, cited_version, emit_json, err, error, note, out, warn
from jogak.cli.stores import STATE_HELP, check_question, loading, open_existing
from jogak.korean import warm_up_in_background

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")]
CollOpt = Annotated[str, typer.Option("--collection", help="Collection name inside the store.")]
StateOpt = Annotated[str | None, typer.Option(
    "--state", envvar="JOGAK_STATE", help=STATE_HELP)]
LlmOpt = Annotated[str | None, typer.Option(
    "--llm", help="Generator: extractive (offline, default) or openai (any OpenAI-compatible server).")]
ModelOpt = Annotated[str | None, typer.Option("--model", help="Model name for --llm openai.")]
BaseUrlOpt = Annotated[str | None, typer.Option("--base-url", help="Base URL for --llm openai (…/v1).")]
KOpt = Annotated[int | None, typer.Option("-k", "--k", min=1, help="Excerpts retrieved (default: answer.k or 8).")]
BudgetOpt = Annotated[int | None, typer.Option(
    "--budget", help="Token budget of the excerpt block (default: answer.context_tokens or 4000).")]


def register(app: typer.Typer) -> None:
    app.command("ask")(ask_cmd)
    app.command("eval")(eval_cmd)


def _generator(llm: str | None, model: str | None, base_url: str | None) -> Any:
    from jogak.answer.ask import default_generator
    from jogak.answer.generators import GeneratorError, get_generator

    try:
        if llm is None and model is None and base_url is None:
            return default_generator()
        kw: dict[str, Any] = {}
        if model:
            kw["model"] = model
        if base_url:
            kw["base_url"] = base_url
        return get_generator(llm or ("openai" if model or base_url else "extractive"), **kw)
    except (GeneratorError, ValueError, TypeError) as e:
        raise typer.BadParameter(str(e)) from None


def _options(k: int | None, budget: int | None) -> Any:
    from jogak.answer.ask import AskOptions
    from jogak.config import load_config

    opts = AskOptions.from_config(load_config().section("answer"))
    if k is not None:
        opts.k = k
    if budget is not None:
        opts.budget = budget
    return opts


def _open(store: str, collection: str, state: str | None) -> Any:
    return open_existing(store, collection, state)


def ask_cmd(
    question: Annotated[str, typer.Argument(help="The question.")],
    store: Annotated[str, typer.Option("--store", help="Store directory (from `jogak ingest`).")] = "./jogak_db",
    collection: CollOpt = "default",
    state: StateOpt = None,
    k: KOpt = None,
    filters: Annotated[list[str] | None, typer.Option(
        "--filter", help="KEY=OP:VALUE (ops eq, in, gte, lte, contains); repeatable.")] = None,
    llm: LlmOpt = None,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    budget: BudgetOpt = None,
    as_of: AsOfOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Answer a question from the store, every statement followed by the clause that says it."""
    check_question(question)
    warm_up_in_background()  # Kiwi loads while Chroma and the embedder do (a cold call on two cores)
    from jogak.answer.ask import ask_composed
    from jogak.answer.generators import GeneratorError
    from jogak.model import ChunkSchemaError

    fl = None
    filters = [*(filters or []), *([f"as_of={as_of}"] if as_of else [])]
    if filters:
        from jogak.filters import coerce_filters

        try:
            fl = coerce_filters(filters)
        except ValueError as e:
            raise typer.BadParameter(str(e)) from None
    gen = _generator(llm, model, base_url)
    opts = _options(k, budget)
    st = _open(store, collection, state)
    try:
        with loading():
            composed = ask_composed(st, question, k=opts.k, filters=fl, generator=gen, options=opts)
    except (GeneratorError, ChunkSchemaError) as e:  # a store this version cannot read: one line
        error(str(e))
        raise typer.Exit(2) from None
    ans = composed.answer
    for w in ans.warnings:
        warn(w)
    if as_json:
        from jogak.answer.citations import presented

        emit_json(presented(ans))
        return
    print_answer(ans, composed.context.lang)


# What each outcome is called where a reader sees it (the web page uses the same words: i18n.js).
OUTCOME_HEAD = {
    "ko": {"answer": "답변", "related": "관련 조항 — 답이라고 확신하지 못함", "none": "근거 없음"},
    "en": {"answer": "Answer", "related": "Related clauses — not sure they answer", "none": "No evidence"},
}


def print_answer(ans: Any, lang: str) -> None:
    """The answer as a reader sees it: the outcome and its confidence, the text with numbered markers
    ([1] — the numbers of the JSON's ``ref`` and of the web page), then the numbered sources with how
    relevant each clause is to the question (a word, the number in brackets)."""
    from jogak.answer.citations import case_name, with_markers
    from jogak.answer.relevance import relevance_label

    ko = lang == "ko"
    head = OUTCOME_HEAD["ko" if ko else "en"][ans.outcome]
    conf = f"{'신뢰도' if ko else 'confidence'} {round(100 * ans.confidence)}%"
    out.print(f"[{head} · {conf}]", markup=False)
    out.print(with_markers(ans.answer, list(ans.citations)), markup=False)
    if ans.citations:
        out.print("", markup=False)
        lab = "근거" if ko else "Sources"
        out.print(f"── {lab} ──", markup=False)
        for c in ans.citations:
            pages = ""
            if c.page_start is not None:
                pages = f" · p.{c.page_start}" + (f"–{c.page_end}" if c.page_end not in (None, c.page_start) else "")
            rel = f"{'관련도' if ko else 'relevance'} {relevance_label(c.relevance, lang)} ({c.relevance:.2f})"
            head = f"[{c.ref}] {c.doc_title} · {c.article}{pages}{cited_version(c)} · {rel}"
            if c.case:
                head += f" · {case_name(c.case)}"
            out.print(head, markup=False)
            out.print(f"    “{' '.join(c.quote.split())}”", markup=False)
    if ans.outcome == "answer" and not ans.supported and ans.citations:
        note("note: not every statement is confirmed by its citation")


def eval_cmd(
    questions: Annotated[Path, typer.Argument(help="questions.yaml (id, question, gold, must_contain, cite, answerable).")],
    store: Annotated[str | None, typer.Option(
        "--store", help="Store directory. Default: a fresh temporary store built from the file's "
                        "`corpus:` (skipped cleanly when absent); without that key ./jogak_db if it "
                        "exists, else the documents beside the questions file.")] = None,
    collection: CollOpt = "default",
    state: StateOpt = None,
    k: KOpt = None,
    llm: LlmOpt = None,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    budget: BudgetOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Run the standard questions: per-question pass/fail, retrieval recall, ALCE citation recall and
    precision, checkpoint pass rate, abstention on unanswerable questions."""
    import shutil
    import tempfile

    from jogak.answer.generators import GeneratorError
    from jogak.eval.answers import evaluate_answers, load_questions, render_report
    from jogak.model import ChunkSchemaError

    if not questions.is_file():
        error(f"{questions}: no such file")
        raise typer.Exit(2)
    try:
        qs = load_questions(questions)
    except ValueError as e:
        error(str(e))
        raise typer.Exit(2) from None
    gen = _generator(llm, model, base_url)
    opts = _options(k, budget)
    tmp: str | None = None
    st: Any = None
    if store is None:
        from jogak.eval.corpus import corpus_entries, resolve_corpus
        from jogak.index import DEFAULT_STORE

        if not corpus_entries(questions) and Path(DEFAULT_STORE).exists():
            store = DEFAULT_STORE
        else:
            corpus = resolve_corpus(questions)
            if not corpus.ok:
                _skip(questions, corpus.reason(), as_json)
                return
            tmp = tempfile.mkdtemp(prefix="jogak_eval_")
            store = tmp
    try:
        if tmp:
            from jogak.eval.corpus import build_store

            note(f"ingesting {', '.join(str(p) for p in corpus.paths)} into a fresh temporary store")
            st, ing = build_store(corpus, tmp, collection=collection)
            for w in ing.warnings:
                warn(w)
            for f in ing.failed:
                error(f["error"])
        else:
            st = _open(store, collection, state)
        try:
            rep = evaluate_answers(qs, st, generator=gen, options=opts, progress=_progress(len(qs)))
        except (GeneratorError, ChunkSchemaError) as e:
            error(str(e))
            raise typer.Exit(2) from None
    finally:
        if tmp:
            if st is not None:
                st.close()
            shutil.rmtree(tmp, ignore_errors=True)
    if as_json:
        emit_json(rep)
    else:
        out.print(render_report(rep), markup=False)


def _skip(questions: Path, reason: str, as_json: bool) -> None:
    """A question set whose corpus is not on this machine is skipped, not failed (exit 0)."""
    note(f"skipped {questions}: {reason}")
    if as_json:
        emit_json({"skipped": True, "questions_file": str(questions), "reason": reason})


def _progress(total: int):
    def tick(i: int, qid: str, ok: bool) -> None:
        err.print(f"  [{i}/{total}] {qid}: {'pass' if ok else 'FAIL'}", markup=False)

    return tick
