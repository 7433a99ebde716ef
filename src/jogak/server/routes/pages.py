"""The web page, the API docs page and the health check (no key needed)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from jogak import __version__
from jogak.server.routes.common import STATIC
from jogak.server.schemas import (
    HealthOut,
)

router = APIRouter()


@router.get("/", include_in_schema=False)
def index() -> FileResponse:
    return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

@router.get("/docs", include_in_schema=False)
def docs() -> FileResponse:
    return FileResponse(STATIC / "docs.html", media_type="text/html; charset=utf-8")

@router.get("/favicon.ico", include_in_schema=False)
def favicon() -> FileResponse:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

@router.get("/healthz", response_model=HealthOut, tags=["service"])
def healthz(request: Request) -> dict[str, Any]:
    """Liveness and readiness (``ready`` turns true once models are loaded). Needs no key."""
    return {"status": "ok", "ready": bool(request.app.state.ready),
            "mode": "keys" if request.app.state.keyring.enabled else "local", "version": __version__}
