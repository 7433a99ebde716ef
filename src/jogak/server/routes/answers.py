"""Asking and searching: ``POST /v1/ask`` (JSON or server-sent events) and ``POST /v1/search``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from jogak.server.answering import run_ask, run_search, stream_ask
from jogak.server.auth import (
    PrincipalDep,
    default_collection,
    scope_for,
)
from jogak.server.errors import ApiError
from jogak.server.limits import check_text
from jogak.server.registry import Collections
from jogak.server.routes.common import E, check_k, parse_filters, with_as_of
from jogak.server.schemas import (
    AnswerOut,
    AskRequest,
    ErrorOut,
    SearchOut,
    SearchRequest,
)
from jogak.server.settings import ServerSettings

router = APIRouter()


@router.post("/v1/ask", response_model=AnswerOut, tags=["answers"], responses={
    **E, 502: {"model": ErrorOut, "description": "the LLM server failed"},
    200: {"content": {"text/event-stream": {}}, "description": "the answer (JSON, or SSE when streaming)"}})
def ask(body: AskRequest, request: Request, principal: PrincipalDep) -> Any:
    """Answer a question; every statement is followed by the clause that says it.

    With ``"stream": true`` (or ``Accept: text/event-stream``) the answer comes as server-sent events:
    ``meta``, ``delta`` (answer text as the model writes it), ``answer`` (complete, with citations),
    ``done`` — or ``error``."""
    settings: ServerSettings = request.app.state.settings
    check_text("question", body.question, settings.max_question_chars)
    check_k(settings, body.k)
    scope = scope_for(request, principal, body.collection or default_collection(request, principal))
    filters = with_as_of(parse_filters(body.filters), body.as_of)
    reg: Collections = request.app.state.collections
    streaming = body.stream or "text/event-stream" in request.headers.get("accept", "")
    if streaming:
        return StreamingResponse(stream_ask(lambda: reg.use(scope.collection), scope.collection, settings,
                                            body.question, body.k, filters),
                                 media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    from jogak.answer.generators.base import GeneratorError

    try:
        with reg.use(scope.collection) as store:
            return run_ask(store, settings, body.question, body.k, filters)
    except GeneratorError as e:
        raise ApiError(502, "generator_error", str(e)) from None

@router.post("/v1/search", response_model=SearchOut, tags=["answers"], responses=E)
def search(body: SearchRequest, request: Request, principal: PrincipalDep) -> Any:
    """Hybrid search (dense + BM25) with clause lookup and cross-reference following."""
    settings: ServerSettings = request.app.state.settings
    check_text("query", body.query, settings.max_question_chars)
    check_k(settings, body.k)
    scope = scope_for(request, principal, body.collection or default_collection(request, principal))
    filters = with_as_of(parse_filters(body.filters), body.as_of)
    with request.app.state.collections.use(scope.collection) as store:
        return run_search(store, settings, body.query, body.k, filters, body.expand)
