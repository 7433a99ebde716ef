"""Collections and their documents: list, create, overview, upload (an ingest job), remove."""

from __future__ import annotations

import asyncio
import logging
import shutil
import time
from contextlib import suppress
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from jogak.server import uploads
from jogak.server.auth import (
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
from jogak.server.registry import Collections
from jogak.server.routes.common import E, public_doc, public_job
from jogak.server.schemas import (
    CollectionIn,
    CollectionsOut,
    DocumentsOut,
    ErrorOut,
    JobOut,
)
from jogak.server.settings import ServerSettings

log = logging.getLogger("jogak.server")
router = APIRouter()

REMOVE_WAIT_S = 30.0


@router.get("/v1/collections", response_model=CollectionsOut, tags=["documents"], responses=E)
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

@router.post("/v1/collections", status_code=201, tags=["documents"], responses={
    **E, 409: {"model": ErrorOut, "description": "the collection exists"}})
def create_collection(body: CollectionIn, request: Request, principal: PrincipalDep) -> Any:
    """Create an empty collection (the key must cover the name)."""
    name = writable_collection(body.name, principal)
    reg: Collections = request.app.state.collections
    if reg.exists(name):
        raise ApiError(409, "conflict", f"collection '{name}' already exists")
    reg.create(name)
    return JSONResponse({"name": name, "exists": True, "documents": 0}, status_code=201)

@router.get("/v1/collections/{collection}/overview", tags=["documents"], responses=E)
def overview(scope: Annotated[Scope, Depends(collection_scope)], request: Request) -> Any:
    """What a person sees first: the collection's documents and a few questions to try (from
    ``server.sample_questions``, else made from the documents' clause titles)."""
    from jogak.server.overview import documents, sample_questions

    settings: ServerSettings = request.app.state.settings
    return {"collection": scope.collection, "documents": documents(scope.store),
            "samples": sample_questions(scope.store, settings.sample_questions)}

@router.get("/v1/collections/{collection}/documents", response_model=DocumentsOut, tags=["documents"],
         responses=E)
def list_documents(scope: Annotated[Scope, Depends(collection_scope)]) -> Any:
    """The documents of one collection."""
    return {"collection": scope.collection, "documents": [public_doc(d) for d in scope.store.documents()]}

@router.post("/v1/collections/{collection}/documents", status_code=202, response_model=JobOut,
          tags=["documents"], responses={
              **E, 400: {"model": ErrorOut}, 413: {"model": ErrorOut, "description": "over max_upload_mb"},
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
    return JSONResponse(public_job(job), status_code=202, headers={"Location": f"/v1/jobs/{job_id}"})

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
    return JSONResponse(public_job(jobs.get(job.id) or job), status_code=202,
                        headers={"Location": f"/v1/jobs/{job.id}"})

@router.delete("/v1/collections/{collection}/documents/{doc_id}", tags=["documents"], responses=E)
async def delete_document(collection: str, doc_id: str, request: Request,
                          principal: PrincipalDep) -> Any:
    """Remove one document (by doc_id or file name) with its chunks, vectors and BM25 entries. Runs as
    a job; answered when it is done (202 with the job if that takes longer than 30 s)."""
    return await _remove(request, principal, collection, doc_id)

@router.delete("/v1/collections/{collection}/documents", tags=["documents"], responses=E)
async def delete_document_q(collection: str, request: Request, principal: PrincipalDep,
                            doc_id: Annotated[str, Query(description="doc_id or file name")]) -> Any:
    """Same as ``DELETE /v1/collections/{c}/documents/{doc_id}``, the id as a query parameter."""
    return await _remove(request, principal, collection, doc_id)
