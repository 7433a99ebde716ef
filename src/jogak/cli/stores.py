"""Opening stores and checking inputs for the CLI commands, with one wording for every command.

* A missing store or collection gets one message, naming what exists: "no store at ./jogak_db: …",
  "no collection 'x' in store ./jogak_db; it has: default, haru …".
* A question or query must hold text and be at most ``MAX_QUESTION_CHARS`` long (the server's default
  ``max_question_chars``); ``-k`` is at least 1 (Typer's ``min``).
* ``loading()`` shows a transient "loading models…" line on stderr while a cold command loads Chroma, Kiwi
  and the embedder — on a terminal only, so pipes and ``--json`` output stay clean.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer

from jogak.cli.common import err, error

MAX_QUESTION_CHARS = 2000
STATE_HELP = ("Manifest, BM25 and embedding cache: a local directory when --store is a Chroma server, or "
              "postgresql://… to share every collection's state between processes and machines.")
DEFAULT_STATE = "./jogak_state"  # jogak.index.store.DEFAULT_STATE, without importing the store


def collections_in(state_dir: Path) -> list[str]:
    """Collections of a store (those with a manifest), sorted."""
    from jogak.index.names import valid_collection

    root = state_dir / "collections"
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if valid_collection(p.name) and (p / "state.sqlite").is_file())


def missing_store(store: str, collection: str, state: str | Path | None) -> str | None:
    """Why ``store``/``collection`` cannot be read (None when it can)."""
    from jogak.index.names import collection_problem

    why = collection_problem(collection)
    if why:
        return why
    remote = store.startswith(("http://", "https://"))
    if str(state or "").startswith(("postgresql://", "postgres://")):
        from jogak.index.shared import collection_names
        from jogak.index.state import StoreError

        try:
            have = collection_names(str(state))
        except StoreError as e:
            return str(e)
        return None if collection in have else (
            f"no collection '{collection}' in the shared state; it has: {', '.join(have) or 'none'}")
    if not remote and not Path(store).is_dir():
        return f"no store at {store}: build one with `jogak ingest PATH --store {store}`"
    state_dir = Path(state) if state else (Path(DEFAULT_STATE) if remote else Path(store))
    have = collections_in(state_dir)
    if collection in have:
        return None
    where = f"store {store}" + (f" (state {state_dir})" if remote else "")
    if not have:
        return (f"{where} holds no collection yet: add documents with "
                f"`jogak ingest PATH --store {store} --collection {collection}`")
    return f"no collection '{collection}' in {where}; it has: {', '.join(have)} (choose one with --collection NAME)"


def open_existing(store: str, collection: str, state: str | Path | None, **kw: Any) -> Any:
    """The store bound to an existing collection, or exit 2 with the one message above."""
    problem = missing_store(store, collection, state)
    if problem:
        error(problem)
        raise typer.Exit(2)
    from jogak.index import open_store
    from jogak.index.store import StoreError

    try:
        return open_store(store, collection, state_dir=state, create=False, **kw)
    except StoreError as e:
        error(str(e))
        raise typer.Exit(2) from None


def check_collection(collection: str) -> None:
    """Exit 2 on a collection name the store would refuse (before anything is created)."""
    from jogak.index.names import collection_problem

    why = collection_problem(collection)
    if why:
        error(why)
        raise typer.Exit(2)


def check_question(text: str, what: str = "question") -> str:
    """The text, or exit 2: empty or only whitespace, or longer than ``MAX_QUESTION_CHARS``."""
    if not text.strip():
        error(f"the {what} is empty: give the text to search for, e.g. jogak {'search' if what == 'query' else 'ask'} "
              "\"반품 배송비\"")
        raise typer.Exit(2)
    if len(text) > MAX_QUESTION_CHARS:
        error(f"the {what} is {len(text):,} characters long; at most {MAX_QUESTION_CHARS:,}")
        raise typer.Exit(2)
    return text


@contextlib.contextmanager
def loading(message: str = "loading models…") -> Iterator[None]:
    """A transient status line on a terminal's stderr (nothing when stderr is a pipe or a file)."""
    if not err.is_terminal:
        yield
        return
    with err.status(message, spinner="dots"):
        yield
