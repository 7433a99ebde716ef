"""Search, ask and streamed ask over one collection-scoped store, in the CLI's JSON shapes.

The pipeline is the library's: ``jogak.retrieve.search`` then ``jogak.answer.ask.answer_hits``. The server
only adds, per citation, where to highlight: ``highlight.quote`` and ``highlight.clause`` are
``[start, end]`` character offsets into the cited chunk's ``text`` (the quote, and the clause the citation
was narrowed to), so the web page can mark the quote inside its clause without guessing.

Streaming (server-sent events) runs the same steps but lets the generator's ``stream()`` speak first:
``meta`` → ``delta``* → ``answer`` (the complete answer, citations included) → ``done``; ``error`` on failure.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

from jogak.server.settings import ServerSettings


def make_generator(settings: ServerSettings) -> Any:
    """A fresh generator per request (a streaming OpenAI generator leaves its draft on the instance)."""
    if settings.generator is not None:
        return settings.generator()
    section = settings.section("llm")
    provider = (os.environ.get("JOGAK_LLM") or section.get("provider") or "").lower()
    if provider in ("openai", "openai-compatible") and (section.get("model") or os.environ.get("JOGAK_LLM_MODEL")):
        from jogak.answer.generators.openai import OpenAIChatGenerator

        return OpenAIChatGenerator.from_config(section)
    from jogak.answer.generators.extractive import ExtractiveAnswerer

    return ExtractiveAnswerer.from_config(settings.section("answer"))


def search_options(settings: ServerSettings, expand: str | None = None) -> Any:
    from jogak.retrieve import SearchOptions

    opts = SearchOptions.from_config(settings.section("retrieve"))
    if expand:
        opts.expand = expand
    return opts


def ask_options(settings: ServerSettings, k: int | None) -> Any:
    from jogak.answer.ask import AskOptions

    opts = AskOptions.from_config(settings.section("answer"))
    if k is not None:
        opts.k = k
    return opts


def run_search(store: Any, settings: ServerSettings, query: str, k: int, filters: Any,
               expand: str | None = None) -> dict[str, Any]:
    from jogak.retrieve import search

    res = search(store, query, k=k, filters=filters, options=search_options(settings, expand))
    d = res.to_dict()
    d["collection"] = store.collection
    d.setdefault("warnings", [])
    return d


def _retrieve(store: Any, settings: ServerSettings, question: str, opts: Any,
              filters: Any) -> tuple[list, Any, list[str]]:
    """(hits, filters in force, the search's warnings about versions)."""
    from jogak.answer.ask import whole_hits
    from jogak.answer.versions import version_notices
    from jogak.retrieve import search

    res = search(store, question, k=opts.k, filters=filters, options=search_options(settings))
    hits = whole_hits(store, list(res.hits), opts)
    return hits, (res.filters or filters or {}), version_notices(res.warnings)


def run_ask(store: Any, settings: ServerSettings, question: str, k: int | None, filters: Any,
            generator: Any = None) -> dict[str, Any]:
    from jogak.answer.ask import answer_hits

    opts = ask_options(settings, k)
    hits, used, notices = _retrieve(store, settings, question, opts, filters)
    gen = generator or make_generator(settings)
    composed = answer_hits(question, hits, generator=gen, options=opts, filters=used, notices=notices)
    return answer_json(composed.answer, hits, store.collection)


class _Replay:
    """A generator that returns a draft already produced (by streaming) — so ``answer_hits`` finishes it."""

    def __init__(self, draft: Any, name: str) -> None:
        self.draft = draft
        self.name = name

    def generate(self, question: str, context: Any) -> Any:
        return self.draft


def stream_ask(use: Callable[[], AbstractContextManager[Any]], collection: str, settings: ServerSettings,
               question: str, k: int | None, filters: Any) -> Iterator[str]:
    """Server-sent events for one question (see the module docstring); ``use()`` lends the store for the
    retrieval (not for the generation, which may take long)."""
    from jogak.answer.generators.base import GeneratorError

    try:
        yield from _stream(use, collection, settings, question, k, filters)
    except GeneratorError as e:
        yield sse("error", {"error": "generator_error", "message": str(e)})
    except ValueError as e:
        yield sse("error", {"error": "bad_request", "message": str(e)})
    except Exception as e:  # the stream has started: report in-band rather than drop the connection
        import logging

        logging.getLogger("jogak.server").exception("streamed ask failed")
        yield sse("error", {"error": "internal_error", "message": f"{type(e).__name__}: {e}"})


def _stream(use: Callable[[], AbstractContextManager[Any]], collection: str, settings: ServerSettings,
            question: str, k: int | None, filters: Any) -> Iterator[str]:
    from jogak.answer.ask import answer_hits
    from jogak.answer.context import build_context

    opts = ask_options(settings, k)
    gen = make_generator(settings)
    yield sse("meta", {"question": question, "collection": collection, "generator": gen.name})
    with use() as store:
        hits, used, notices = _retrieve(store, settings, question, opts, filters)
    ctx = build_context(hits, budget=opts.budget, lang=opts.lang, question=question)
    draft = None
    if ctx.excerpts:
        if hasattr(gen, "last_draft"):  # a streaming generator: text as it arrives, the draft at the end
            for piece in gen.stream(question, ctx):
                if piece:
                    yield sse("delta", {"text": piece})
            draft = gen.last_draft
        if draft is None:
            draft = gen.generate(question, ctx)
            if not draft.related:  # a related outcome's text is written by finalize: the answer event has it
                yield sse("delta", {"text": draft.answer})
    replay = _Replay(draft, gen.name) if draft is not None else gen
    composed = answer_hits(question, hits, generator=replay, options=opts, filters=used, notices=notices)
    yield sse("answer", answer_json(composed.answer, hits, collection))
    yield sse("done", {})


def sse(event: str, data: Any) -> str:
    payload = json.dumps(data, ensure_ascii=False)
    return f"event: {event}\ndata: {payload}\n\n"


# ─── highlight offsets ──────────────────────────────────────────────────────────────────────────


def answer_json(answer: Any, hits: list, collection: str) -> dict[str, Any]:
    """``Answer.to_dict()`` plus ``collection``, per-citation ``ref`` (its display number, 1-based) and
    ``highlight``, and ``answer_parts``: the answer text with each source note replaced by the numbers
    of the citations it names (``{"text": …}`` / ``{"cite": [refs], "note": "(근거: …)"}``)."""
    from jogak.answer.citations import presented

    d = presented(answer)
    d["collection"] = collection
    chunks = {h.chunk.id: h.chunk for h in hits}
    for c in d.get("citations", []):
        ch = chunks.get(c.get("chunk_id"))
        c["highlight"] = highlight(ch, c.get("quote") or "", c.get("path")) if ch is not None else None
    return d


def find_quote(text: str, quote: str) -> tuple[int, int] | None:
    """Where ``quote`` sits in ``text``: exactly, else ignoring differences in whitespace."""
    q = quote.strip()
    if not q:
        return None
    i = text.find(q)
    if i >= 0:
        return i, i + len(q)
    words = q.split()
    if not words:
        return None
    m = re.search(r"\s*".join(re.escape(w) for w in words), text)
    return (m.start(), m.end()) if m else None


def clause_span(chunk: Any, path: str | None) -> tuple[int, int] | None:
    """The cited clause inside the chunk, from the chunk's leaf segments (document offsets)."""
    md = chunk.metadata
    if not path:
        return None
    segs = [s for s in md.segments if s.path == path or s.path.startswith(path + "/")]
    if not segs:
        return None
    start = min(s.start for s in segs) - md.char_start
    end = max(s.end for s in segs) - md.char_start
    n = len(chunk.text)
    start, end = max(0, min(start, n)), max(0, min(end, n))
    return (start, end) if end > start else None


def highlight(chunk: Any, quote: str, path: str | None) -> dict[str, Any]:
    q = find_quote(chunk.text, quote)
    cl = clause_span(chunk, path)
    if q is not None and cl is not None and not (cl[0] <= q[0] and q[1] <= cl[1]):
        cl = (min(cl[0], q[0]), max(cl[1], q[1]))  # the clause always contains its quote
    return {"quote": list(q) if q else None, "clause": list(cl) if cl else None}
