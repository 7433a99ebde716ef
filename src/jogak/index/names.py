"""The collection-name rule, shared by the store, the CLI and the server.

A name is 1–63 ASCII letters, digits, ``.``, ``_`` and ``-``, starting with a letter or digit, with no
``..`` and not ending in ``.`` (Chroma refuses ``..``; a name must not read as a path). The match is
anchored with ``\\Z``: ``$`` would also accept a trailing newline (``"alpha\\n"``).
"""

from __future__ import annotations

import re

COLLECTION_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,62}\Z")
RULE = ("letters, digits, '.', '_' and '-', starting with a letter or digit, at most 63 characters, "
        "no '..', not ending in '.'")


def collection_problem(name: str) -> str | None:
    """Why ``name`` is not a valid collection name (None when it is)."""
    if not isinstance(name, str) or not COLLECTION_RE.match(name) or ".." in name or name.endswith("."):
        return f"invalid collection name {name!r} ({RULE})"
    return None


def valid_collection(name: str) -> bool:
    return collection_problem(name) is None
