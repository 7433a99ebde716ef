"""Chunks and clause trees by id, resolved only inside the caller's collections."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from jogak.server.auth import (
    PrincipalDep,
    readable_collections,
)
from jogak.server.errors import ApiError
from jogak.server.registry import Collections
from jogak.server.routes.common import E, public_doc
from jogak.server.schemas import (
    ChunkOut,
    TreeOut,
)

router = APIRouter()


@router.get("/v1/chunks/{chunk_id}", response_model=ChunkOut, tags=["documents"], responses=E)
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
            return {**c.to_dict(), "collection": name, "document": public_doc(info) if info else None}
    raise ApiError(404, "not_found", f"no chunk '{chunk_id}'")

@router.get("/v1/documents/{doc_id}/tree", response_model=TreeOut, tags=["documents"], responses=E)
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
        return {"collection": name, "doc_id": doc_id, "document": public_doc(info), "tree": tree}
    raise ApiError(404, "not_found", f"no document '{doc_id}'")
