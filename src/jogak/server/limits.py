"""Request limits that keep one caller from holding the service: body size and text length.

* ``BodyLimit`` (ASGI middleware): a request body over ``max_request_kb`` is refused with 413 before it
  is read (declared ``Content-Length``) or as soon as the streamed bytes pass the limit. The upload
  endpoint has its own limit (``max_upload_mb``, enforced by ``uploads.receive`` while the file streams
  to disk).
* ``check_text``: a question or query longer than ``max_question_chars`` is refused with 422 before any
  work is done (a 20,000-character query would otherwise spend seconds of CPU in tokenising and
  scoring; the embedder reads only its first 512 tokens anyway).
"""

from __future__ import annotations

import json
import re
from typing import Any

from jogak.server.errors import ApiError

_UPLOAD_PATH = re.compile(r"^/v1/collections/[^/]+/documents/?$")


def check_text(field: str, text: str, limit: int) -> None:
    if len(text) > limit:
        raise ApiError(422, "too_long", f"{field}: {len(text):,} characters; at most {limit:,} "
                                        "(server.max_question_chars)", limit=limit)


class _TooLarge(Exception):
    pass


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413 (the upload endpoint is left to ``uploads``)."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if (scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS")
                or (scope["method"] == "POST" and _UPLOAD_PATH.match(scope.get("path", "")))):
            await self.app(scope, receive, send)
            return
        limit = self.limit
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._refuse(send, limit)
            return
        seen = 0
        started = False

        async def counted() -> Any:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > limit:
                    raise _TooLarge
            return msg

        async def tracked(msg: dict[str, Any]) -> None:
            nonlocal started
            if msg["type"] == "http.response.start":
                started = True
            await send(msg)

        try:
            await self.app(scope, counted, tracked)
        except _TooLarge:
            if not started:
                await self._refuse(send, limit)

    @staticmethod
    async def _refuse(send: Any, limit: int) -> None:
        body = json.dumps({"error": "too_large", "message": f"request body is larger than the {limit / 1024:,.0f} "
                           "KB limit (server.max_request_kb)", "limit_bytes": limit}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})
