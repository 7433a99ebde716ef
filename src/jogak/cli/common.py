"""Shared CLI plumbing: stdout carries only results (one JSON document with --json); everything a
person reads while waiting — progress, notes, warnings, errors — goes to stderr."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.console import Console

err = Console(stderr=True, highlight=False, soft_wrap=True)
# Piped output gets a wide console so tables are not squeezed; tables also fold cells rather than cut them
# (people read this output: nothing is silently truncated).
out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 160)


AsOfOpt = Annotated[str | None, typer.Option(
    "--as-of", help="YYYY-MM-DD: answer from the version of each work in force on that day (default: today; "
                    "a date in the question, '2022년 5월에', '작년', '개정 전', sets it too).")]


def as_of_option(value: str, name: str = "--as-of") -> str:
    """A YYYY-MM-DD option value, checked (exit 2 with one line otherwise)."""
    from jogak.filters import as_of_value

    try:
        return as_of_value(value)
    except ValueError:
        raise typer.BadParameter(f"{name} '{value}' is not a date (YYYY-MM-DD)") from None


def cited_version(c: Any) -> str:
    """" · 2020-07-31 시행 ~ 2023-07-11 전" after a citation of a version that a later one replaced (the
    answer text names it too); the latest version's dates stay in the JSON."""
    if not getattr(c, "effective_from", None) or not getattr(c, "effective_to", None):
        return ""
    return f" · {c.effective_from} 시행" + (f" ~ {c.effective_to} 전" if c.effective_to else "")


OcrOpt = Annotated[str | None, typer.Option(
    "--ocr", help="PDF pages without a text layer: never, auto (recognise them when Tesseract is installed; "
                  "the default, or load.ocr in the config) or always (every page, ignoring text layers).")]


def apply_ocr(mode: str | None) -> None:
    """Set the OCR mode for this command and print OCR notes on stderr."""
    from jogak.load import set_notifier, set_ocr_mode

    try:
        set_ocr_mode(mode)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--ocr") from None
    set_notifier(note)


def emit_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2, default=_default))
    sys.stdout.write("\n")
    sys.stdout.flush()


def _default(o: Any) -> Any:
    if hasattr(o, "to_dict"):
        return o.to_dict()
    if isinstance(o, set | frozenset | tuple):
        return list(o)
    return str(o)


def warn(msg: str) -> None:
    err.print(f"[yellow]warning:[/yellow] {msg}", markup=True)


def note(msg: str) -> None:
    err.print(msg, markup=False)


def error(msg: str) -> None:
    err.print(f"[red]error:[/red] {_escape(msg)}", markup=True)


def _escape(s: str) -> str:
    from rich.markup import escape

    return escape(s)


def load_documents(paths: list[str]):
    """Load paths for a command: prints skipped/bad files to stderr, returns (docs, n_errors)."""
    from jogak.api import load_many

    rep = load_many(paths)
    for s in rep.skipped:
        note(f"skipped (unsupported type): {s}")
    for m in rep.missing:
        error(f"{m}: no such file or directory")
    for e in rep.errors:
        error(str(e))
    return rep.documents, len(rep.errors) + len(rep.missing)
