"""Versions of a work: ``GET /v1/collections/{c}/versions`` (every work's timeline) and
``GET /v1/collections/{c}/diff?work=…&from=…&to=…`` (articles added, removed and changed, with the
changed sentences and word marks for the 신구조문대비표)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from jogak.server.auth import Scope, collection_scope
from jogak.server.errors import ApiError
from jogak.server.routes.common import E
from jogak.server.schemas import DiffOut

router = APIRouter()


@router.get("/v1/collections/{collection}/versions", tags=["documents"], responses=E)
def versions(scope: Annotated[Scope, Depends(collection_scope)]) -> Any:
    """Every work with dated versions: its versions in effective order (effective_from, effective_to,
    current)."""
    from jogak.index.versions import lexical_timelines, today

    now = today()
    tl = lexical_timelines(scope.store.lexical())
    return {"collection": scope.collection, "today": now,
            "works": [{"work": w, "versions": [v.to_dict(now) for v in vs]} for w, vs in sorted(tl.items())]}


@router.get("/v1/collections/{collection}/diff", response_model=DiffOut, tags=["documents"], responses=E)
def diff(scope: Annotated[Scope, Depends(collection_scope)],
         work: Annotated[str, Query(min_length=1, description="The work (a law's 제목, a policy's title).")],
         from_: Annotated[str, Query(alias="from", description="YYYY-MM-DD: the older version (promulgated or "
                                                               "taking effect that day, else in force then)")],
         to: Annotated[str, Query(description="YYYY-MM-DD: the newer version")]) -> Any:
    """Articles added, removed and changed between two versions of a work, with the changed sentences."""
    from jogak.filters import as_of_value
    from jogak.index.versions import VersionError
    from jogak.index.versions import diff as diff_versions

    try:
        a, b = as_of_value(from_), as_of_value(to)
    except ValueError as e:
        raise ApiError(422, "invalid", str(e)) from None
    try:
        return {**diff_versions(scope.store, work, a, b), "collection": scope.collection}
    except VersionError as e:
        raise ApiError(404, "not_found", str(e)) from None
