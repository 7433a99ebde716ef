"""The HTTP service: ``create_app(settings)`` builds the FastAPI application.

Endpoints (all ``/v1`` endpoints need an API key when keys are configured):

    POST   /v1/ask                                  answer with citations (SSE with "stream": true)
    POST   /v1/search                               hybrid search, the CLI's JSON shape
    GET    /v1/collections                          collections this key can use
    POST   /v1/collections                          create an empty collection
    GET    /v1/collections/{c}/documents            documents of a collection
    GET    /v1/collections/{c}/overview             documents and sample questions (the landing view)
    POST   /v1/collections/{c}/documents            upload files → 202 + an ingest job
    DELETE /v1/collections/{c}/documents/{doc_id}   remove a document (a job; answered when it is done)
    GET    /v1/jobs, /v1/jobs/{id}                  job status
    POST   /v1/jobs/{id}/cancel                     cancel a queued or running job
    GET    /v1/chunks/{id}[?collection=c]           one chunk (searched in the key's collections only)
    GET    /v1/documents/{id}/tree[?collection=c]   a document's clause tree
    GET    /healthz                                 liveness/readiness (no key)
    GET    /, /static/*                             the web page; /docs, /openapi.json the API docs

See ``jogak.server.auth`` for how every read is confined to the caller's collections. Uploads are parsed
and embedded in worker processes (``jogak.server.jobs``), never in this one; questions and queries are
limited to ``max_question_chars`` (422) and JSON bodies to ``max_request_kb`` (413).
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import threading
import time
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from jogak import __version__
from jogak.server import errors, uploads
from jogak.server.answering import run_ask, run_search, stream_ask
from jogak.server.auth import (
    KeyRing,
    Principal,
    PrincipalDep,
    Scope,
    collection_scope,
    default_collection,
    readable_collections,
    scope_for,
    writable_collection,
)
from jogak.server.errors import ApiError
from jogak.server.jobs import Job, JobManager
from jogak.server.limits import BodyLimit, check_text
from jogak.server.registry import Collections
from jogak.server.schemas import (
    AnswerOut,
    AskRequest,
    ChunkOut,
    CollectionIn,
    CollectionsOut,
    DocumentsOut,
    ErrorOut,
    HealthOut,
    JobOut,
    JobsOut,
    SearchOut,
    SearchRequest,
    TreeOut,
)
from jogak.server.settings import ServerSettings

log = logging.getLogger("jogak.server")
STATIC = Path(__file__).resolve().parent / "static"
REMOVE_WAIT_S = 30.0

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

_E = {401: {"model": ErrorOut, "description": "no or invalid API key"},
      403: {"model": ErrorOut, "description": "the key does not cover this collection"},
      404: {"model": ErrorOut, "description": "not found in the key's collections"},
      422: {"model": ErrorOut, "description": "invalid request"}}


def create_app(settings: ServerSettings) -> FastAPI:
    settings.validate()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        app.state.jobs.start()
        if settings.warm_up:
            threading.Thread(target=_warm_up, args=(app,), name="jogak-warm-up", daemon=True).start()
        else:
            app.state.ready = True
        try:
            yield
        finally:
            app.state.jobs.stop()
            app.state.collections.close()

    app = FastAPI(
        title="jogak",
        version=__version__,
        description="Retrieval-augmented answers over structured documents; every answer cites the clause "
                    "that says it. Send the API key as `Authorization: Bearer <key>` or `X-API-Key`.",
        docs_url=None, redoc_url=None,  # the stock pages load scripts from a CDN; /docs is ours, offline
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.keyring = KeyRing(settings.keys)
    app.state.collections = Collections(settings)
    app.state.ready = False
    app.state.jobs = _job_manager(settings, app.state.collections)
    errors.install(app)
    _middleware(app, settings)
    _routes(app)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def _job_manager(settings: ServerSettings, reg: Collections) -> JobManager:
    from jogak.server.workers import Limits

    init = {"store": settings.store, "state_dir": settings.state_dir, "store_config": reg.store_config,
            "config_path": settings.config_path, "embed": False if settings.embedder is False else None,
            "embed_config": settings.section("embed")}
    limits = Limits(timeout_s=settings.job_timeout_s, memory_mb=settings.job_memory_mb, nice=settings.job_nice,
                    threads=settings.job_threads)
    return JobManager(settings.work_path, init, limits, workers=settings.job_workers, spare=settings.job_spare)


def _middleware(app: FastAPI, settings: ServerSettings) -> None:
    app.add_middleware(BodyLimit, limit=settings.max_request_bytes)
    @app.middleware("http")
    async def security_headers(request: Request, call_next):
        response = await call_next(request)
        h = response.headers
        h.setdefault("X-Content-Type-Options", "nosniff")
        h.setdefault("Referrer-Policy", "no-referrer")
        h.setdefault("X-Frame-Options", "DENY")
        h.setdefault("Content-Security-Policy", CSP)
        if request.url.path.startswith("/v1/"):
            h.setdefault("Cache-Control", "no-store")
        return response

    if settings.cors_origins:
        from fastapi.middleware.cors import CORSMiddleware

        app.add_middleware(CORSMiddleware, allow_origins=settings.cors_origins, allow_credentials=False,
                           allow_methods=["GET", "POST", "DELETE"],
                           allow_headers=["Authorization", "X-API-Key", "Content-Type", "X-Filename"])


def _warm_up(app: FastAPI) -> None:
    """Load Kiwi, the embedder, Chroma and the answerer's models before the first request needs them."""
    try:
        from jogak.korean import warm_up

        warm_up()
        reg: Collections = app.state.collections
        names = reg.names()
        name = app.state.settings.default_collection if app.state.settings.default_collection in names else (
            names[0] if names else None)
        if name:
            with reg.use(name) as store:
                if store is not None:
                    run_ask(store, app.state.settings, "준비", 1, None)
    except Exception as e:  # warm-up is an optimisation only
        log.warning("warm-up failed: %s", e)
    finally:
        app.state.ready = True
        log.info("ready")


def _doc(info: Any) -> dict[str, Any]:
    d = info.to_dict()
    d.pop("path", None)  # a server-side path (uploads live in a staging directory) is nobody's business
    return d


def _public_job(job: Job) -> dict[str, Any]:
    d = job.to_dict()
    d["files"] = [{k: v for k, v in f.items() if k != "path"} for f in d.get("files", [])]
    return d


def _filters(raw: Any) -> Any:
    if raw is None:
        return None
    from jogak.filters import coerce_filters

    try:
        return coerce_filters(raw)
    except (ValueError, KeyError, TypeError) as e:
        raise ApiError(422, "bad_filter", f"filters: {e}") from None


def _check_k(settings: ServerSettings, k: int | None) -> None:
    if k is not None and k > settings.max_k:
        raise ApiError(422, "invalid", f"k: at most {settings.max_k} (server.max_k)")


def _routes(app: FastAPI) -> None:
    # ── pages ──
    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    @app.get("/docs", include_in_schema=False)
    def docs() -> FileResponse:
        return FileResponse(STATIC / "docs.html", media_type="text/html; charset=utf-8")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @app.get("/healthz", response_model=HealthOut, tags=["service"])
    def healthz(request: Request) -> dict[str, Any]:
        """Liveness and readiness (``ready`` turns true once models are loaded). Needs no key."""
        return {"status": "ok", "ready": bool(request.app.state.ready),
                "mode": "keys" if request.app.state.keyring.enabled else "local", "version": __version__}

    # ── asking ──
    @app.post("/v1/ask", response_model=AnswerOut, tags=["answers"], responses={
        **_E, 502: {"model": ErrorOut, "description": "the LLM server failed"},
        200: {"content": {"text/event-stream": {}}, "description": "the answer (JSON, or SSE when streaming)"}})
    def ask(body: AskRequest, request: Request, principal: PrincipalDep) -> Any:
        """Answer a question; every statement is followed by the clause that says it.

        With ``"stream": true`` (or ``Accept: text/event-stream``) the answer comes as server-sent events:
        ``meta``, ``delta`` (answer text as the model writes it), ``answer`` (complete, with citations),
        ``done`` — or ``error``."""
        settings: ServerSettings = request.app.state.settings
        check_text("question", body.question, settings.max_question_chars)
        _check_k(settings, body.k)
        scope = scope_for(request, principal, body.collection or default_collection(request, principal))
        filters = _filters(body.filters)
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

    @app.post("/v1/search", response_model=SearchOut, tags=["answers"], responses=_E)
    def search(body: SearchRequest, request: Request, principal: PrincipalDep) -> Any:
        """Hybrid search (dense + BM25) with clause lookup and cross-reference following."""
        settings: ServerSettings = request.app.state.settings
        check_text("query", body.query, settings.max_question_chars)
        _check_k(settings, body.k)
        scope = scope_for(request, principal, body.collection or default_collection(request, principal))
        filters = _filters(body.filters)
        with request.app.state.collections.use(scope.collection) as store:
            return run_search(store, settings, body.query, body.k, filters, body.expand)

    # ── collections and documents ──
    @app.get("/v1/collections", response_model=CollectionsOut, tags=["documents"], responses=_E)
    def collections(request: Request, principal: PrincipalDep) -> Any:
        """Collections this key can use (with their document counts)."""
        reg: Collections = request.app.state.collections
        settings: ServerSettings = request.app.state.settings
        names = set(readable_collections(request, principal, None))
        if principal.collections is not None:
            names |= set(principal.collections)  # granted but still empty
        out = []
        for name in sorted(names):
            st = reg.reader(name)
            out.append({"name": name, "exists": st is not None,
                        "documents": len(st.documents()) if st is not None else 0})
        default = None
        with suppress(ApiError):
            default = default_collection(request, principal)
        return {"collections": out, "default": default or settings.default_collection}

    @app.post("/v1/collections", status_code=201, tags=["documents"], responses={
        **_E, 409: {"model": ErrorOut, "description": "the collection exists"}})
    def create_collection(body: CollectionIn, request: Request, principal: PrincipalDep) -> Any:
        """Create an empty collection (the key must cover the name)."""
        name = writable_collection(body.name, principal)
        reg: Collections = request.app.state.collections
        if reg.exists(name):
            raise ApiError(409, "conflict", f"collection '{name}' already exists")
        reg.create(name)
        return JSONResponse({"name": name, "exists": True, "documents": 0}, status_code=201)

    @app.get("/v1/collections/{collection}/overview", tags=["documents"], responses=_E)
    def overview(scope: Annotated[Scope, Depends(collection_scope)], request: Request) -> Any:
        """What a person sees first: the collection's documents and a few questions to try (from
        ``server.sample_questions``, else made from the documents' clause titles)."""
        from jogak.server.overview import documents, sample_questions

        settings: ServerSettings = request.app.state.settings
        return {"collection": scope.collection, "documents": documents(scope.store),
                "samples": sample_questions(scope.store, settings.sample_questions)}

    @app.get("/v1/collections/{collection}/documents", response_model=DocumentsOut, tags=["documents"],
             responses=_E)
    def list_documents(scope: Annotated[Scope, Depends(collection_scope)]) -> Any:
        """The documents of one collection."""
        return {"collection": scope.collection, "documents": [_doc(d) for d in scope.store.documents()]}

    @app.post("/v1/collections/{collection}/documents", status_code=202, response_model=JobOut,
              tags=["documents"], responses={
                  **_E, 400: {"model": ErrorOut}, 413: {"model": ErrorOut, "description": "over max_upload_mb"},
                  415: {"model": ErrorOut, "description": "unsupported type, or content not matching the name"}},
              openapi_extra={"requestBody": {"content": {"multipart/form-data": {"schema": {
                  "type": "object", "properties": {
                      "file": {"type": "array", "items": {"type": "string", "format": "binary"}},
                      "strategy": {"type": "string", "enum": ["structure", "recursive"]}}}},
                  "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}}})
    async def upload(request: Request, collection: Annotated[str, Depends(writable_collection)],
                     strategy: Annotated[str | None, Query(pattern="^(structure|recursive)$")] = None) -> Any:
        """Upload files (multipart field ``file``, repeatable; or a raw body with ``X-Filename``) and start
        an ingest job. Files are checked by content (PDF, DOCX, HTML, Markdown, text); the collection is
        changed only if every file ingests (``GET /v1/jobs/{id}`` for progress)."""
        settings: ServerSettings = request.app.state.settings
        jobs: JobManager = request.app.state.jobs
        job_id = jobs.new_id()
        dest = jobs.staging_dir(job_id)
        try:
            got = await uploads.receive(request, dest, settings.max_upload_bytes, settings.max_files)
            reader = await run_in_threadpool(request.app.state.collections.reader, collection)
            if reader is not None:
                existing = {d.source for d in await run_in_threadpool(reader.documents)}
                uploads.check_names(got.files, existing)
            for f in got.files:
                await run_in_threadpool(uploads.check_file, f, int(settings.max_docx_inflated_mb * 1024 * 1024))
            strat = strategy or got.fields.get("strategy") or "structure"
            if strat not in ("structure", "recursive"):
                raise ApiError(422, "invalid", f"strategy: '{strat}' is not structure or recursive")
        except BaseException:
            shutil.rmtree(dest, ignore_errors=True)
            raise
        job = Job(id=job_id, collection=collection, strategy=strat,
                  files=[{**f.to_dict(), "path": str(f.path)} for f in got.files])
        jobs.submit(job)
        log.info("job %s: %d file(s) for '%s'", job_id, len(got.files), collection)
        return JSONResponse(_public_job(job), status_code=202, headers={"Location": f"/v1/jobs/{job_id}"})

    async def _remove(request: Request, principal: Principal, collection: str, doc_id: str) -> Any:
        scope = await run_in_threadpool(scope_for, request, principal, collection)
        info = await run_in_threadpool(scope.store.document, doc_id)
        if info is None:
            raise ApiError(404, "not_found", f"no document '{doc_id}' in collection '{collection}'")
        jobs: JobManager = request.app.state.jobs
        job = jobs.submit(Job(id=jobs.new_id(), collection=collection, kind="remove", doc_id=info.doc_id))
        deadline = time.monotonic() + REMOVE_WAIT_S
        while time.monotonic() < deadline:  # answer when done (a worker does it); else 202 with the job
            got = jobs.get(job.id)
            if got is not None and got.status not in ("queued", "running"):
                if got.status == "succeeded" and (got.report or {}).get("removed"):
                    return {"removed": True, "doc_id": info.doc_id, "collection": collection}
                if got.status == "succeeded":
                    raise ApiError(404, "not_found", f"no document '{doc_id}' in collection '{collection}'")
                err = got.error or {}
                raise ApiError(500, err.get("error", "remove_failed"), err.get("message", "removal failed"))
            await asyncio.sleep(0.1)
        return JSONResponse(_public_job(jobs.get(job.id) or job), status_code=202,
                            headers={"Location": f"/v1/jobs/{job.id}"})

    @app.delete("/v1/collections/{collection}/documents/{doc_id}", tags=["documents"], responses=_E)
    async def delete_document(collection: str, doc_id: str, request: Request,
                              principal: PrincipalDep) -> Any:
        """Remove one document (by doc_id or file name) with its chunks, vectors and BM25 entries. Runs as
        a job; answered when it is done (202 with the job if that takes longer than 30 s)."""
        return await _remove(request, principal, collection, doc_id)

    @app.delete("/v1/collections/{collection}/documents", tags=["documents"], responses=_E)
    async def delete_document_q(collection: str, request: Request, principal: PrincipalDep,
                                doc_id: Annotated[str, Query(description="doc_id or file name")]) -> Any:
        """Same as ``DELETE /v1/collections/{c}/documents/{doc_id}``, the id as a query parameter."""
        return await _remove(request, principal, collection, doc_id)

    # ── jobs ──
    @app.get("/v1/jobs", response_model=JobsOut, tags=["documents"], responses=_E)
    def list_jobs(request: Request, principal: PrincipalDep) -> Any:
        cols = None if principal.collections is None else set(principal.collections)
        return {"jobs": [_public_job(j) for j in request.app.state.jobs.list(cols)]}

    @app.get("/v1/jobs/{job_id}", response_model=JobOut, tags=["documents"], responses=_E)
    def get_job(job_id: str, request: Request, principal: PrincipalDep) -> Any:
        """An ingest job: ``queued``, ``running`` (``stage``, ``done``/``total``), ``succeeded``, ``failed``
        (``error``) or ``interrupted`` (the server stopped; the collection was left as it was)."""
        job = request.app.state.jobs.get(job_id)
        if job is None or not principal.allows(job.collection):
            raise ApiError(404, "not_found", f"no job '{job_id}'")
        return _public_job(job)

    @app.post("/v1/jobs/{job_id}/cancel", response_model=JobOut, tags=["documents"], responses={
        **_E, 409: {"model": ErrorOut, "description": "the job has already finished"}})
    def cancel_job(job_id: str, request: Request, principal: PrincipalDep) -> Any:
        """Cancel a queued or running job: its worker process is stopped and the collection is left as it
        was (unless the commit had already happened: then ``error.collection_changed`` is true)."""
        jobs: JobManager = request.app.state.jobs
        job = jobs.get(job_id)
        if job is None or not principal.allows(job.collection):
            raise ApiError(404, "not_found", f"no job '{job_id}'")
        if jobs.cancel(job_id) is None:
            raise ApiError(409, "conflict", f"job '{job_id}' has already finished ({job.status})")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            now = jobs.get(job_id)
            if now is not None and now.status not in ("queued", "running"):
                return _public_job(now)
            time.sleep(0.05)
        return _public_job(jobs.get(job_id) or job)

    # ── chunks and trees (ids resolved only inside the caller's collections) ──
    @app.get("/v1/chunks/{chunk_id}", response_model=ChunkOut, tags=["documents"], responses=_E)
    def get_chunk(chunk_id: str, request: Request, principal: PrincipalDep,
                  collection: Annotated[str | None, Query()] = None) -> Any:
        """One chunk with its provenance; looked up in ``collection`` or else in the key's collections."""
        reg: Collections = request.app.state.collections
        for name in readable_collections(request, principal, collection):
            st = reg.reader(name)
            if st is None:
                continue
            c = st.get_chunk(chunk_id)
            if c is not None:
                info = st.document(c.metadata.doc_id)
                return {**c.to_dict(), "collection": name, "document": _doc(info) if info else None}
        raise ApiError(404, "not_found", f"no chunk '{chunk_id}'")

    @app.get("/v1/documents/{doc_id}/tree", response_model=TreeOut, tags=["documents"], responses=_E)
    def get_tree(doc_id: str, request: Request, principal: PrincipalDep,
                 collection: Annotated[str | None, Query()] = None,
                 text: Annotated[bool, Query(description="include each node's text")] = False) -> Any:
        """The document's clause tree (kind, label, title, path, pages, offsets, children)."""
        reg: Collections = request.app.state.collections
        for name in readable_collections(request, principal, collection):
            st = reg.reader(name)
            if st is None:
                continue
            info = next((d for d in st.documents() if d.doc_id == doc_id), None)
            if info is None:
                continue
            tree = st.tree(doc_id, with_text=text)
            if tree is None:
                raise ApiError(404, "no_tree", f"document '{doc_id}' was indexed without a clause tree")
            return {"collection": name, "doc_id": doc_id, "document": _doc(info), "tree": tree}
        raise ApiError(404, "not_found", f"no document '{doc_id}'")
