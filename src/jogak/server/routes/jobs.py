"""Ingest and removal jobs: list, status, cancel."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request

from jogak.server.auth import (
    PrincipalDep,
)
from jogak.server.errors import ApiError
from jogak.server.jobs import JobManager
from jogak.server.routes.common import E, public_job
from jogak.server.schemas import (
    ErrorOut,
    JobOut,
    JobsOut,
)

router = APIRouter()


@router.get("/v1/jobs", response_model=JobsOut, tags=["documents"], responses=E)
def list_jobs(request: Request, principal: PrincipalDep) -> Any:
    cols = None if principal.collections is None else set(principal.collections)
    return {"jobs": [public_job(j) for j in request.app.state.jobs.list(cols)]}

@router.get("/v1/jobs/{job_id}", response_model=JobOut, tags=["documents"], responses=E)
def get_job(job_id: str, request: Request, principal: PrincipalDep) -> Any:
    """An ingest job: ``queued``, ``running`` (``stage``, ``done``/``total``), ``succeeded``, ``failed``
    (``error``) or ``interrupted`` (the server stopped; the collection was left as it was)."""
    job = request.app.state.jobs.get(job_id)
    if job is None or not principal.allows(job.collection):
        raise ApiError(404, "not_found", f"no job '{job_id}'")
    return public_job(job)

@router.post("/v1/jobs/{job_id}/cancel", response_model=JobOut, tags=["documents"], responses={
    **E, 409: {"model": ErrorOut, "description": "the job has already finished"}})
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
            return public_job(now)
        time.sleep(0.05)
    return public_job(jobs.get(job_id) or job)
