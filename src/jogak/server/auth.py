"""API keys → collections, and the dependencies that hand a handler a *collection-scoped* store.

A handler never receives the store directory or a way to open arbitrary collections: it receives a
``Scope`` whose ``store`` is a ``jogak.index.Store`` bound to one collection. That store answers every
read (``get_chunk``, ``tree``, ``documents``, ``search``) from that collection's own manifest
(``collections/<name>/state.sqlite``), its own BM25 directory and its own Chroma collection, so an id
from another collection simply is not there. Ids that are not in the caller's collections are answered
with 404 — the same answer as for ids that do not exist — so a key cannot probe other collections.

Order of checks for a named collection: key (401) → the key's collection set (403) → the name (400) →
existence (404). Keys are compared as SHA-256 digests with ``hmac.compare_digest`` over every configured
key, so timing does not reveal how much of a key matched; only an 8-hex-digit key label is logged.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from jogak.index.names import collection_problem
from jogak.server.errors import ApiError
from jogak.server.settings import key_label

bearer_scheme = HTTPBearer(auto_error=False, description="API key as `Authorization: Bearer <key>`")
header_scheme = APIKeyHeader(name="X-API-Key", auto_error=False, description="API key as `X-API-Key: <key>`")


@dataclass(frozen=True)
class Principal:
    """Who is calling: ``collections`` None means every collection (local mode or a ``*`` key)."""

    collections: frozenset[str] | None
    key_label: str | None = None  # None in local mode

    @property
    def local(self) -> bool:
        return self.key_label is None

    def allows(self, collection: str) -> bool:
        return self.collections is None or collection in self.collections


class KeyRing:
    def __init__(self, keys: dict[str, list[str]]) -> None:
        self._entries: list[tuple[bytes, Principal]] = []
        for key, colls in keys.items():
            if key.lower().startswith("sha256:"):
                digest = bytes.fromhex(key[7:])
            else:
                digest = hashlib.sha256(key.encode("utf-8")).digest()
            allowed = None if "*" in colls else frozenset(colls)
            self._entries.append((digest, Principal(allowed, key_label(key))))

    @property
    def enabled(self) -> bool:
        return bool(self._entries)

    def resolve(self, presented: str) -> Principal | None:
        d = hashlib.sha256(presented.encode("utf-8")).digest()
        found: Principal | None = None
        for digest, principal in self._entries:  # no early exit: constant work per request
            if hmac.compare_digest(d, digest):
                found = principal
        return found


LOCAL = Principal(None, None)


def presented_key(headers: Any) -> str | None:
    """The API key a request presents: ``Authorization: Bearer <key>`` or ``X-API-Key: <key>``."""
    scheme, _, credentials = (headers.get("authorization") or "").strip().partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        return credentials.strip()
    return (headers.get("x-api-key") or "").strip() or None


def authenticate(ring: KeyRing, token: str | None) -> Principal:
    """Who presents ``token`` (local mode: everyone is ``LOCAL``); 401 for a missing or unknown key.
    Shared by the HTTP service and the MCP server's HTTP transport."""
    if not ring.enabled:
        return LOCAL
    if not token:
        raise ApiError(401, "unauthorized", "an API key is required: send `Authorization: Bearer <key>` "
                                            "or `X-API-Key: <key>`", headers={"WWW-Authenticate": "Bearer"})
    p = ring.resolve(token.strip())
    if p is None:
        raise ApiError(401, "unauthorized", "invalid API key", headers={"WWW-Authenticate": "Bearer"})
    return p


def get_principal(
    request: Request,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_scheme)],
    api_key: Annotated[str | None, Depends(header_scheme)],
) -> Principal:
    # The two security dependencies document the schemes in OpenAPI; the key is read by presented_key.
    p = authenticate(request.app.state.keyring, presented_key(request.headers))
    if not p.local:
        request.state.key_label = p.key_label
    return p


PrincipalDep = Annotated[Principal, Depends(get_principal)]


@dataclass
class Scope:
    """One collection the caller may use, and the store bound to it."""

    collection: str
    store: Any


def check_access(principal: Principal, collection: str) -> None:
    if not principal.allows(collection):
        raise ApiError(403, "forbidden", f"this API key has no access to collection '{collection}'")
    why = collection_problem(collection)
    if why:
        raise ApiError(400, "bad_collection", why)


def scope_for(request: Request, principal: Principal, collection: str) -> Scope:
    """The reader scope of one named collection (403 outside the key's set, 404 when it does not exist)."""
    check_access(principal, collection)
    store = request.app.state.collections.reader(collection)
    if store is None:
        raise ApiError(404, "not_found", f"no collection '{collection}'")
    return Scope(collection, store)


def default_collection(request: Request, principal: Principal) -> str:
    """The collection a request means when it names none."""
    return pick_default(principal, request.app.state.settings.default_collection)


def pick_default(principal: Principal, default: str) -> str:
    """``default`` when the caller may use it, else the caller's only collection; 400 when ambiguous."""
    if principal.allows(default):
        return default
    assert principal.collections is not None
    if len(principal.collections) == 1:
        return next(iter(principal.collections))
    raise ApiError(400, "collection_required", "name a collection: this API key can use "
                   + ", ".join(sorted(principal.collections)))


def readable_collections(request: Request, principal: Principal, requested: str | None) -> list[str]:
    """Collections an id lookup may search: the named one (checked), else the caller's existing ones."""
    if requested:
        check_access(principal, requested)
        return [requested]
    return readable(principal, request.app.state.collections.names(), request.app.state.settings.default_collection)


def readable(principal: Principal, existing: list[str], default: str) -> list[str]:
    """The existing collections the caller may read, the default first."""
    names = [c for c in existing if principal.allows(c)]
    return sorted(names, key=lambda c: (c != default, c))


def collection_scope(collection: str, request: Request, principal: PrincipalDep) -> Scope:
    """Dependency for ``/v1/collections/{collection}/…`` read endpoints."""
    return scope_for(request, principal, collection)


def writable_collection(collection: str, principal: PrincipalDep) -> str:
    """Dependency for uploads: the collection may not exist yet, but the key must cover it."""
    check_access(principal, collection)
    return collection
