"""Worker processes for jobs, seen from the server: start one, hand it a job, read its events, end it.

Every job runs in its own process (``jogak.server.worker_main``), so a file that makes a parser spin or
allocate without end costs that process only: the API keeps its GIL, its memory and its event loop. The
server enforces, per job, a wall-clock limit (``job_timeout_s``), a memory limit (``job_memory_mb``:
resident memory polled here, plus an address-space ceiling inside the worker) and cancellation; each ends
the worker's process group with SIGKILL. One warm spare process (models loaded) is kept once the first
job has run, so later jobs start at once.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

READY_TIMEOUT = 300.0  # a worker loading its models on a very busy machine


class WorkerGone(Exception):
    """The worker ended without a result; ``code`` says why (timeout, memory_limit, cancelled, ...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Limits:
    timeout_s: float = 600.0
    memory_mb: float = 2048.0
    nice: int = 10
    threads: int = 1


def rss_bytes(pid: int) -> int:
    """Resident memory of a process (Linux /proc; 0 when unknown)."""
    with contextlib.suppress(OSError, ValueError), open(f"/proc/{pid}/status", encoding="ascii",
                                                          errors="replace") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


class Worker:
    """One worker process and its pipes (spawned by a long-lived thread: the child dies with it)."""

    def __init__(self, init: dict[str, Any], limits: Limits, env: dict[str, str] | None = None) -> None:
        child_env = {**os.environ, **(env or {})}
        for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "RAYON_NUM_THREADS"):
            child_env[var] = str(limits.threads)
        child_env["PYTHONUNBUFFERED"] = "1"
        child_env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        self.limits = limits
        self.proc = subprocess.Popen([sys.executable, "-m", "jogak.server.worker_main"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=None, env=child_env, start_new_session=True,
                                     close_fds=True)
        self._buf = b""
        self.ready = False
        self.send(init)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(msg, ensure_ascii=False) + "\n").encode("utf-8"))
        self.proc.stdin.flush()

    def kill(self) -> None:
        """SIGKILL the worker's process group (the worker and anything it started)."""
        with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            self.proc.wait(10)
        for f in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(Exception):
                if f is not None:
                    f.close()

    def events(self, poll: Callable[[], None], timeout: float | None = None) -> Iterator[dict[str, Any]]:
        """Events as they arrive; ``poll`` runs at least every 0.25 s (it raises ``WorkerGone`` to stop).
        Raises ``WorkerGone`` when the process exits without a ``result`` or ``timeout`` passes first."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            while b"\n" in self._buf:
                line, self._buf = self._buf.split(b"\n", 1)
                with contextlib.suppress(ValueError):
                    ev = json.loads(line)
                    yield ev
                    if ev.get("event") == "result":
                        return
            poll()
            if deadline is not None and time.monotonic() > deadline:
                raise WorkerGone("timeout", "no answer from the worker in time")
            ready, _, _ = select.select([fd], [], [], 0.25)
            if not ready:
                continue
            data = os.read(fd, 65536)
            if not data:
                self.proc.wait(10)
                if self.proc.returncode == -signal.SIGXCPU:  # the CPU-time ceiling: a time limit too
                    raise WorkerGone("timeout", "the job used more CPU time than its limit allows "
                                                "(server.job_timeout_s)")
                raise WorkerGone("worker_crashed", exit_reason(self.proc.returncode))
            self._buf += data

    def wait_ready(self, poll: Callable[[], None]) -> None:
        if self.ready:
            return
        for ev in self.events(poll, READY_TIMEOUT):
            if ev.get("event") == "ready":
                self.ready = True
                return
            if ev.get("event") == "result":  # start-up failed
                err = ev.get("error") or {}
                raise WorkerGone(err.get("error", "worker_error"), err.get("message", "worker start-up failed"))


def exit_reason(code: int | None) -> str:
    if code is None:
        return "the worker stopped answering"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        extra = {"SIGXCPU": " (CPU-time limit)", "SIGKILL": " (killed, perhaps out of memory)",
                 "SIGABRT": " (aborted, perhaps out of memory)", "SIGSEGV": " (crashed)"}.get(name, "")
        return f"the worker process ended with {name}{extra}"
    return f"the worker process exited with status {code}"


class WorkerPool:
    """Starts workers; keeps one warm spare once ``refill`` has been called (after the first job)."""

    def __init__(self, init: dict[str, Any], limits: Limits, spare: bool = True) -> None:
        self.init = {**init, "nice": limits.nice, "memory_mb": limits.memory_mb,
                     "cpu_s": 2 * limits.timeout_s + 10 if limits.timeout_s > 0 else 0}  # a backstop only
        self.limits = limits
        self.keep_spare = spare
        self._spare: Worker | None = None
        self._lock = threading.Lock()
        self._closed = False

    def take(self) -> Worker:
        """A worker for one job (the spare when it is alive, else a new one). Call from a long-lived thread."""
        with self._lock:
            w, self._spare = self._spare, None
            if self._closed:
                raise WorkerGone("interrupted", "the server is stopping")
        if w is not None and w.alive():
            return w
        if w is not None:
            w.kill()
        return Worker(self.init, self.limits)

    def refill(self) -> None:
        if not self.keep_spare:
            return
        with self._lock:
            if self._closed or (self._spare is not None and self._spare.alive()):
                return
            old, self._spare = self._spare, Worker(self.init, self.limits)
        if old is not None:
            old.kill()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            w, self._spare = self._spare, None
        if w is not None:
            w.kill()


def memory_guard(worker: Worker, limit_mb: float) -> Callable[[], None]:
    """A ``poll`` check that ends the job when the worker's resident memory passes the limit."""
    limit = int(limit_mb * 1024 * 1024)

    def check() -> None:
        if limit > 0 and rss_bytes(worker.pid) > limit:
            raise WorkerGone("memory_limit", f"the job used more than {limit_mb:g} MB of memory "
                                             "(server.job_memory_mb)")

    return check
