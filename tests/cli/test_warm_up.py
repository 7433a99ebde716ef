"""The CLI loads Kiwi in a background thread while the store opens; a command that fails fast must still exit
cleanly (a daemon thread inside Kiwi's native constructor at interpreter shutdown crashed the process with
SIGSEGV after its error message — seen in CI as `jogak search x --collection nope` returning -11)."""

from __future__ import annotations

import threading

from jogak.korean import kiwi, warm_up_in_background


def test_the_warm_up_thread_is_joined_at_exit() -> None:
    t = warm_up_in_background()
    assert isinstance(t, threading.Thread)
    assert not t.daemon  # the interpreter waits for it before finalizing
    t.join(timeout=60)
    assert not t.is_alive()
    assert kiwi().tokenize("준비")
