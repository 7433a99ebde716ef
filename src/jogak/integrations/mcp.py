"""An MCP server over a jogak store (``pip install 'jogak[mcp]'``; run it with ``jogak mcp``).

Tools (JSON schemas from the signatures; results keep paths and rendered citations):

    search(query, k?, filters?, collection?, expand?, as_of?)  hybrid search: the /v1/search shape, + citation per hit
    ask(question, k?, filters?, collection?, as_of?)           a cited answer: the /v1/ask shape
    get_clause(document, path, collection?)             one clause ("본문/제7조/제2항") with its text and citation
    tree(document, depth?, collection?)                 a document's clause tree
    list_documents(collection?)                         documents of a collection, and the collections readable

Transports: stdio (an agent spawns ``jogak mcp``), and streamable HTTP (``--http``, 127.0.0.1 by default,
endpoint ``/mcp``). Access follows the HTTP service (``jogak.server.auth``): with ``server.keys`` configured
every HTTP request needs a key (``Authorization: Bearer`` or ``X-API-Key``) and a key reaches only its
collections; without keys (local mode) only loopback addresses may be bound. Over stdio the caller is the
local user and every collection of the store is readable. Reads go through ``jogak.server``'s registry:
one reader store per collection, one shared embedder.
"""

from __future__ import annotations

import logging
import threading
from typing import Annotated, Any, Literal

try:
    import anyio
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from pydantic import BaseModel, Field
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("jogak.integrations.mcp needs the MCP SDK: pip install 'jogak[mcp]'") from e

from jogak import __version__
from jogak.integrations import clauses, provenance
from jogak.server.auth import (
    LOCAL,
    KeyRing,
    Principal,
    authenticate,
    check_access,
    pick_default,
    presented_key,
)
from jogak.server.errors import ApiError
from jogak.server.schemas import FILTERS_DOC, AnswerOut, DocumentOut, SearchOut
from jogak.server.settings import ServerSettings

log = logging.getLogger("jogak.mcp")
PRINCIPAL = "jogak_principal"  # key of the caller's Principal in the ASGI scope's state (HTTP transport)

INSTRUCTIONS = (
    "jogak answers from Korean and English legal documents (policies, terms, contracts, statutes, court "
    "decisions) with exact citations. Use `ask` for a cited answer, `search` for the matching clauses, "
    "`get_clause` to read one clause by document and path (e.g. '본문/제7조/제2항', '부록A/제2조'), `tree` to "
    "see how a document is organised, `list_documents` to see what is there. Quote citations as given.")


class ClauseOut(BaseModel):
    collection: str
    document: DocumentOut
    path: str = Field(description="The clause's path, e.g. 본문/제2조/제1항")
    citation: str = Field(description="How jogak cites it: '반품교환환불정책 · 제2조 (반품 배송비) ①'")
    kind: str | None = None
    label: str | None = None
    title: str | None = None
    block_type: str | None = None
    page_start: int | None = None
    page_end: int | None = None
    char_start: int
    char_end: int
    text: str = Field(description="The clause's text, exactly as in the document")
    refs: list[dict[str, Any]] = []
    children: list[dict[str, Any]] = Field([], description="Sub-clauses (path, kind, label, title, pages)")
    chunk_ids: list[str] = []


class TreeResult(BaseModel):
    collection: str
    doc_id: str
    document: DocumentOut
    tree: dict[str, Any] = Field(description="Nodes: kind, label, title, path, pages, offsets, refs, children")


class DocumentList(BaseModel):
    collection: str
    documents: list[DocumentOut]
    collections: list[str] = Field(description="Collections this caller can read (the default first)")


Collection = Annotated[str | None, Field(description="Collection name (default: the server's collection)")]
Filters = Annotated[list[str] | dict[str, Any] | None, Field(description=FILTERS_DOC)]
AsOf = Annotated[str | None, Field(description="YYYY-MM-DD: answer from the version of each work in force on that "
                                               "day (default: today; a date in the question sets it too)")]
Document = Annotated[str, Field(description="doc_id, file name or title of the document (see list_documents), or a court decision's case number")]


class Backend:
    """The store's collections and the access rules of ``jogak serve``."""

    def __init__(self, settings: ServerSettings, collection: str | None = None) -> None:
        from jogak.server.registry import Collections

        self.settings = settings
        self.default = collection or settings.default_collection
        self.ring = KeyRing(settings.keys)
        self.collections = Collections(settings)

    def principal(self, ctx: Context) -> Principal:
        """The HTTP caller (set by ``KeyMiddleware``), or the local user over stdio."""
        request = ctx.request_context.request
        state = getattr(request, "scope", {}).get("state", {}) if request is not None else {}
        principal = state.get(PRINCIPAL)
        if principal is not None:
            return principal
        if request is not None and self.ring.enabled:  # an HTTP request that bypassed the middleware
            raise ToolError("unauthorized: an API key is required")
        return LOCAL

    def store(self, principal: Principal, collection: str | None) -> tuple[str, Any]:
        """(name, reader store) of a collection the caller may read: 403 / 400 / 404 as the HTTP service."""
        name = collection or pick_default(principal, self.default)
        check_access(principal, name)
        st = self.collections.reader(name)
        if st is None:
            raise ApiError(404, "not_found", f"no collection '{name}'")
        return name, st

    def readable(self, principal: Principal) -> list[str]:
        from jogak.server.auth import readable

        return readable(principal, self.collections.names(), self.default)

    def warm_up(self) -> None:
        """Load Kiwi, the embedder, Chroma and BM25 before the first question needs them."""
        try:
            from jogak.korean import warm_up

            warm_up()
            if self.collections.exists(self.default):
                self.collections.reader(self.default)
        except Exception as e:  # an optimisation only
            log.warning("warm-up failed: %s", e)


async def _run(backend: Backend, ctx: Context, collection: str | None, fn: Any) -> Any:
    """Resolve the caller's collection, then run ``fn(name, store)`` in a worker thread (jogak's work is
    synchronous CPU and disk work); jogak's errors become tool errors with the HTTP service's codes."""
    try:
        name, st = backend.store(backend.principal(ctx), collection)
        return await anyio.to_thread.run_sync(fn, name, st)
    except ApiError as e:
        raise ToolError(f"{e.code}: {e.message}") from None
    except clauses.NotFound as e:
        raise ToolError(f"not_found: {e}") from None
    except (ValueError, KeyError, TypeError, NotImplementedError) as e:
        raise ToolError(f"invalid: {e}") from None


def _filters(raw: Any, as_of: str | None = None) -> Any:
    try:
        fl = provenance.coerce(raw)
        if as_of:  # the day whose versions answer (default: today)
            from jogak.filters import Filter

            fl = [*fl, Filter("as_of", "eq", as_of)]
        return fl or None
    except (ValueError, KeyError, TypeError) as e:
        raise ToolError(f"bad_filter: filters: {e}") from None


def _cited_hits(result: dict[str, Any]) -> dict[str, Any]:
    """Each hit of a /v1/search result gains ``citation`` and ``source_note`` as jogak renders them."""
    from jogak.model import Chunk

    for h in result.get("hits", []):
        chunk = Chunk.from_dict({"id": h["chunk_id"], "text": h["text"], "metadata": h["metadata"]})
        h["citation"] = provenance.citation_label(chunk)
        h["source_note"] = provenance.source_note(chunk)
    return result


def build_server(backend: Backend) -> MCPServer:
    """The MCP server: five tools over the backend's store."""
    from jogak.server.answering import run_ask, run_search

    settings = backend.settings
    server = MCPServer("jogak", title="jogak", instructions=INSTRUCTIONS, version=__version__, log_level="WARNING")

    def check_k(k: int | None) -> None:
        if k is not None and not 1 <= k <= settings.max_k:
            raise ToolError(f"invalid: k must be between 1 and {settings.max_k} (server.max_k)")

    @server.tool(title="Search the documents", structured_output=True)
    async def search(
        query: Annotated[str, Field(min_length=1, description="What to look for (Korean or English)")],
        ctx: Context,
        k: Annotated[int, Field(description="Number of hits")] = 5,
        filters: Filters = None,
        collection: Collection = None,
        expand: Annotated[Literal["neighbours", "parent"] | None,
                          Field(description="Extra context after each hit")] = None,
        as_of: AsOf = None,
    ) -> SearchOut:
        """Hybrid search (dense + BM25) with clause lookup, cross-reference following and layer routing.
        Each hit has the chunk text, its provenance (doc_title, article, path, pages, offsets) and citation."""
        check_k(k)
        fl = _filters(filters, as_of)
        return await _run(backend, ctx, collection,
                          lambda name, st: _cited_hits(run_search(st, settings, query, k, fl, expand)))

    @server.tool(title="Answer with citations", structured_output=True)
    async def ask(
        question: Annotated[str, Field(min_length=1, description="The question (Korean or English)")],
        ctx: Context,
        k: Annotated[int | None, Field(description="Excerpts retrieved (default: answer.k or 8)")] = None,
        filters: Filters = None,
        collection: Collection = None,
        as_of: AsOf = None,
    ) -> AnswerOut:
        """A grounded answer: every statement is followed by the clause that says it, e.g.
        '… 고객이 부담한다. (근거: 반품교환환불정책 · 제2조 (반품 배송비) ①)'. ``citations`` hold the verbatim
        quotes with path and pages; ``supported`` is false when a statement lacks confirmed support."""
        if len(question) > settings.max_question_chars:
            raise ToolError(f"invalid: question: at most {settings.max_question_chars} characters")
        check_k(k)
        fl = _filters(filters, as_of)
        return await _run(backend, ctx, collection, lambda name, st: run_ask(st, settings, question, k, fl))

    @server.tool(title="Read one clause", structured_output=True)
    async def get_clause(
        document: Document,
        path: Annotated[str, Field(min_length=1, description="Clause path as in the tree, e.g. 본문/제7조/제2항, "
                                                              "부록A/제2조, 부칙/제1조, Article 4/4.2")],
        ctx: Context,
        collection: Collection = None,
    ) -> ClauseOut:
        """One clause by document and path: its exact text, citation label, pages, offsets, references and
        sub-clauses. An unknown path is answered with the paths that exist there."""
        return await _run(backend, ctx, collection, lambda name, st: clauses.clause(st, document, path, name))

    @server.tool(title="Clause tree of a document", structured_output=True)
    async def tree(
        document: Document,
        ctx: Context,
        depth: Annotated[int | None, Field(ge=0, description="Levels below the document (default: all)")] = None,
        collection: Collection = None,
    ) -> TreeResult:
        """How a document is organised: chapters, articles (제N조), paragraphs (①), items, appendices (부록),
        addenda (부칙), FAQ, with each node's path for get_clause."""
        return await _run(backend, ctx, collection, lambda name, st: clauses.tree(st, document, depth, name))

    @server.tool(title="List documents", structured_output=True)
    async def list_documents(ctx: Context, collection: Collection = None) -> DocumentList:
        """The documents of a collection (doc_id, source file, title, chunks, pages) and the collections
        this caller can read."""
        principal = backend.principal(ctx)
        result = await _run(backend, ctx, collection, lambda name, st: clauses.documents(st, name))
        return {**result, "collections": backend.readable(principal)}

    return server


# ─── HTTP transport ────────────────────────────────────────────────────────────────────────────


class KeyMiddleware:
    """Every HTTP request presents a key (when keys are configured): 401 otherwise, in the HTTP service's
    error shape; the caller's ``Principal`` is put in the request state for the tools."""

    def __init__(self, app: Any, ring: KeyRing) -> None:
        self.app = app
        self.ring = ring

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        from starlette.datastructures import Headers
        from starlette.responses import JSONResponse

        try:
            principal = authenticate(self.ring, presented_key(Headers(scope=scope)))
        except ApiError as e:
            await JSONResponse(e.to_dict(), status_code=e.status, headers=e.headers)(scope, receive, send)
            return
        scope.setdefault("state", {})[PRINCIPAL] = principal
        await self.app(scope, receive, send)


class JogakMCP:
    """``jogak mcp``: the server, its backend, and the two transports."""

    def __init__(self, settings: ServerSettings, collection: str | None = None) -> None:
        self.backend = Backend(settings, collection)
        self.server = build_server(self.backend)

    def http_app(self, host: str = "127.0.0.1") -> Any:
        """The streamable HTTP ASGI app (endpoint ``/mcp``) behind the key check. Stateless: every call is one
        HTTP request, authenticated on its own."""
        app = self.server.streamable_http_app(stateless_http=True, json_response=True, host=host)
        return KeyMiddleware(app, self.backend.ring)

    def _warm_up(self) -> None:
        threading.Thread(target=self.backend.warm_up, daemon=True, name="jogak-warm-up").start()

    def run_stdio(self, warm_up: bool = True) -> None:
        if warm_up:
            self._warm_up()
        self.server.run("stdio")

    def run_http(self, host: str, port: int, warm_up: bool = True, log_level: str = "warning") -> None:
        import uvicorn

        if warm_up:
            self._warm_up()
        uvicorn.run(self.http_app(host), host=host, port=port, log_level=log_level, server_header=False,
                    timeout_graceful_shutdown=5)
