"""One Kiwi (the Korean morphological analyser, kiwipiepy) per process, shared by every stage.

BM25 tokens (index/lexical.py) and the answer stage's morpheme matching (answer/morph.py) use the same
instance: loading Kiwi takes about a second, and two instances would also hold its model twice. The typo
and multi-word dictionaries are off: they roughly double the start-up time and do not change the content
morphemes either stage keeps.
"""

from __future__ import annotations

import threading
import unicodedata
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


def warm_up_in_background() -> threading.Thread:
    """``warm_up`` in a thread while the caller loads its store and embedder (a cold CLI call on two cores).
    Not a daemon: a command that fails fast ("no collection …") must not let the interpreter finalize while
    Kiwi's native constructor runs in that thread — that crashed the process (SIGSEGV after the error
    message, about one exit in fifty under load). Exiting waits for the load instead (about a second)."""
    t = threading.Thread(target=warm_up, name="jogak-kiwi-warm-up", daemon=False)
    t.start()
    return t


def analysis_form(text: str) -> str:
    """The text the analysers read: NFC, so decomposed Hangul (conjoining jamo) reads as syllables and a
    CJK compatibility ideograph (U+F900–U+FAFF: statutes' "漏" written as U+F94E) as its unified hanja —
    a question typed with the ordinary character then matches. Stored text is never rewritten."""
    return text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)


def has_hangul(text: str) -> bool:
    """Whether the text holds a Hangul syllable (what decides Korean analysis over English)."""
    return any("\uac00" <= ch <= "\ud7a3" for ch in text)


def modifying_verb(text: str) -> tuple[str, str] | None:
    """The verb (stem, Kiwi tag) whose adnominal ending ends ``text`` — what modifies the noun that follows it:
    "…살 수 있는" → ("있", "VA"), "약관에서 말하는" → ("말하", "XSV": a noun + 하/되 joined), "정해진" → ("정하",
    "VV": the main verb before its auxiliary); None when ``text`` does not end in one."""
    toks = kiwi().tokenize(analysis_form(text))
    if len(toks) < 2 or toks[-1].tag != "ETM":
        return None
    i = len(toks) - 2
    while i > 0 and toks[i].tag in ("VX", "EC", "EP"):
        i -= 1
    verb = toks[i]
    if verb.tag in ("XSV", "XSA") and i > 0:
        return toks[i - 1].form + verb.form, verb.tag
    return verb.form, verb.tag
