"""Typed load errors. Each has a one-line message the CLI prints as ``source: message``."""

from __future__ import annotations


class LoadError(Exception):
    """Base class: the file could not be turned into a Document. Nothing else is affected."""

    code = "load_error"

    def __init__(self, source: str, message: str) -> None:
        super().__init__(f"{source}: {message}")
        self.source = source
        self.message = message

    def to_dict(self) -> dict[str, str]:
        return {"source": self.source, "error": self.code, "message": self.message}


class UnsupportedTypeError(LoadError):
    code = "unsupported_type"


class EmptyFileError(LoadError):
    code = "empty_file"


class CorruptFileError(LoadError):
    code = "corrupt_file"


class EncryptedFileError(LoadError):
    code = "encrypted"


class NoTextLayerError(LoadError):
    code = "no_text_layer"


class EncodingError(LoadError):
    code = "encoding"


class OversizeError(LoadError):
    code = "oversize"


def short(e: BaseException, limit: int = 120) -> str:
    """An exception as one short line for a ``LoadError`` message (white space collapsed, cut with "…")."""
    msg = " ".join(str(e).split()) or type(e).__name__
    return msg[: limit - 3] + "…" if len(msg) > limit else msg
