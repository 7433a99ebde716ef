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

import logging
import threading
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.staticfiles import StaticFiles

from jogak import __version__
from jogak.server import errors
from jogak.server.answering import run_ask
from jogak.server.auth import (
    KeyRing,
)
from jogak.server.jobs import JobManager
from jogak.server.limits import BodyLimit
from jogak.server.registry import Collections
from jogak.server.routes import ROUTERS
from jogak.server.routes.common import STATIC
from jogak.server.settings import ServerSettings

log = logging.getLogger("jogak.server")

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

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
    for router in ROUTERS:
        app.include_router(router)
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
