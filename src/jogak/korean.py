"""One Kiwi (the Korean morphological analyser, kiwipiepy) per process, shared by every stage.

BM25 tokens (index/lexical.py) and the answer stage's morpheme matching (answer/morph.py) use the same
instance: loading Kiwi takes about a second, and two instances would also hold its model twice. The typo
and multi-word dictionaries are off: they roughly double the start-up time and do not change the content
morphemes either stage keeps.
"""

from __future__ import annotations

import threading
from typing import Any

_kiwi: Any = None
_lock = threading.Lock()


def kiwi() -> Any:
    """The process-wide Kiwi instance, created on first use (thread-safe)."""
    global _kiwi
    if _kiwi is None:
        with _lock:
            if _kiwi is None:
                import warnings

                from kiwipiepy import Kiwi

                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    _kiwi = Kiwi(load_typo_dict=False, load_multi_dict=False)
    return _kiwi


def warm_up() -> None:
    """Load Kiwi and its model (the first tokenize is slow); safe to call from a background thread."""
    kiwi().tokenize("준비")
