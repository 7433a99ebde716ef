"""What the route modules share: error responses for the OpenAPI page, the static folder, and the
small conversions between stored objects and what a caller may see."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jogak.server.errors import ApiError
from jogak.server.jobs import Job
from jogak.server.schemas import ErrorOut
from jogak.server.settings import ServerSettings

STATIC = Path(__file__).resolve().parent.parent / "static"

E: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorOut, "description": "no or invalid API key"},
    403: {"model": ErrorOut, "description": "the key does not cover this collection"},
    404: {"model": ErrorOut, "description": "not found in the key's collections"},
    422: {"model": ErrorOut, "description": "invalid request"}}


def public_doc(info: Any) -> dict[str, Any]:
    d = info.to_dict()
    d.pop("path", None)  # a server-side path (uploads live in a staging directory) is nobody's business
    return d


def public_job(job: Job) -> dict[str, Any]:
    d = job.to_dict()
    d["files"] = [{k: v for k, v in f.items() if k != "path"} for f in d.get("files", [])]
    return d


def parse_filters(raw: Any) -> Any:
    if raw is None:
        return None
    from jogak.filters import coerce_filters

    try:
        return coerce_filters(raw)
    except (ValueError, KeyError, TypeError) as e:
        raise ApiError(422, "bad_filter", f"filters: {e}") from None


def with_as_of(filters: Any, as_of: str | None) -> Any:
    """The body's ``as_of`` as one more filter (422 when it is not a date)."""
    if not as_of:
        return filters
    from jogak.filters import Filter

    try:
        f = Filter("as_of", "eq", as_of)
    except ValueError as e:
        raise ApiError(422, "bad_filter", f"as_of: {e}") from None
    return [*(filters or []), f]


def check_k(settings: ServerSettings, k: int | None) -> None:
    if k is not None and k > settings.max_k:
        raise ApiError(422, "invalid", f"k: at most {settings.max_k} (server.max_k)")
