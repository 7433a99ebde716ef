"""The worker process of an ingest or removal job: ``python -m jogak.server.worker_main``.

The server (``jogak.server.workers``) starts this process, sends it one ``init`` line and one ``job`` line
of JSON on stdin, and reads JSON events from its stdout: ``ready`` (models loaded), ``started``,
``progress`` (stage, done, total, note), then one ``result`` — after which the process exits. A job that
runs too long, uses too much memory or is cancelled is ended by the server with SIGKILL; the collection
stays consistent because the store only changes it by one atomic manifest flip (``jogak.index.store``).

Limits set here, on this process only: a lower CPU priority (``nice``), one compute thread for the
embedder, an address-space ceiling (``RLIMIT_AS``) of what the warm process maps plus the job's memory
budget, a CPU-time ceiling (``RLIMIT_CPU``), and death with the server (``PR_SET_PDEATHSIG``; also when
stdin closes).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any, TextIO


def _die_with_parent() -> None:
    with contextlib.suppress(Exception):
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _vm_size() -> int:
    """Bytes of address space mapped now (Linux /proc; 0 elsewhere)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _limit(memory_mb: float, cpu_s: float) -> None:
    import resource

    if memory_mb > 0:
        ceiling = _vm_size() + int(memory_mb * 1024 * 1024)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_AS, (ceiling, ceiling))
    if cpu_s > 0:
        used = resource.getrusage(resource.RUSAGE_SELF)
        spent = used.ru_utime + used.ru_stime
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_CPU, (int(spent + cpu_s), int(spent + cpu_s) + 5))


class Channel:
    """JSON lines to the server on the original stdout (stdout itself is pointed at stderr, so nothing a
    library prints can corrupt the protocol)."""

    def __init__(self) -> None:
        self._out: TextIO = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
        os.dup2(2, 1)
        sys.stdout = sys.stderr
        self._lock = threading.Lock()

    def send(self, event: str, **data: Any) -> None:
        with self._lock:
            self._out.write(json.dumps({"event": event, **data}, ensure_ascii=False, default=str) + "\n")
            self._out.flush()


def _watch_stdin() -> None:
    """The server closes our stdin when it goes away: exit rather than run on as an orphan."""
    with contextlib.suppress(Exception):
        while sys.stdin.readline():
            pass
    os._exit(3)


def _warm(init: dict[str, Any]) -> Any:
    """Load what every job needs before the job arrives (Kiwi, the embedder)."""
    from jogak.korean import warm_up

    warm_up()
    import jogak.load  # noqa: F401  (the loaders and their libraries)

    if init.get("embed") is False:
        return False
    from jogak.index.embed import EmbedderUnavailable, build_embedder

    try:
        return build_embedder(init.get("embed_config") or {})
    except EmbedderUnavailable:
        return None  # the store reports the reason and ingests lexical-only


def _progress(ch: Channel) -> Any:
    last = [0.0, ""]

    def cb(stage: str, done: int, total: int, note: str = "") -> None:
        now = time.monotonic()
        if stage != last[1] or now - last[0] > 0.25 or done >= total:
            last[0], last[1] = now, stage
            ch.send("progress", stage=stage, done=int(done), total=int(total), note=(note or "")[:120])

    return cb


def _validate(paths: list[Path], progress: Any) -> list[dict[str, Any]]:
    """Every file must load before the collection is touched."""
    from jogak.load import LoadError, load

    errors = []
    for i, p in enumerate(paths):
        progress("validate", i, len(paths), p.name)
        try:
            load(p)
        except LoadError as e:
            errors.append(e.to_dict())
        except MemoryError:
            raise
        except Exception as e:  # a loader bug: still this file's fault, not the collection's
            errors.append({"source": p.name, "error": "load_error", "message": f"{type(e).__name__}: {e}"})
    progress("validate", len(paths), len(paths), "")
    return errors


def run_ingest(job: dict[str, Any], open_store: Any, ch: Channel) -> dict[str, Any]:
    from jogak.index.store import StoreError

    paths = [Path(f["path"]) for f in job["files"]]
    progress = _progress(ch)
    errors = _validate(paths, progress)
    if errors:  # nothing was opened, nothing was created
        first = errors[0]
        return {"status": "failed", "error": {"error": first["error"], "message": f"{first['source']}: "
                f"{first['message']}", "files": errors, "collection_changed": False}}
    store = open_store()
    try:  # one batch: one atomic manifest flip for the whole upload
        rep = store.ingest([str(p) for p in paths], strategy=job.get("strategy") or "structure",
                           progress=progress, commit_every=len(paths) + 1)
    except StoreError as e:
        return {"status": "failed", "error": {"error": "store_error", "message": str(e), "collection_changed": False}}
    finally:
        with contextlib.suppress(Exception):
            store.close()
    out: dict[str, Any] = {"report": rep.to_dict(), "status": "succeeded" if rep.ok else "failed"}
    if not rep.ok:
        fails = rep.failed or [{"source": m, "error": "missing"} for m in rep.missing]
        out["error"] = {"error": "ingest_failed", "message": "; ".join(f["error"] for f in fails)[:500],
                        "files": fails, "collection_changed": bool(rep.added or rep.updated)}
    return out


def run_remove(job: dict[str, Any], open_store: Any) -> dict[str, Any]:
    store = open_store()
    try:
        ok = store.remove(job["doc_id"])
    finally:
        with contextlib.suppress(Exception):
            store.close()
    return {"status": "succeeded", "report": {"removed": ok, "doc_id": job["doc_id"]}}


def run_job(init: dict[str, Any], job: dict[str, Any], embedder: Any, ch: Channel) -> dict[str, Any]:
    from jogak.index import open_store

    def opener() -> Any:
        return open_store(init["store"], job["collection"], state_dir=init.get("state_dir"),
                          embedder=embedder, create=job.get("kind") != "remove", config=init.get("store_config"))

    if job.get("kind") == "remove":
        return run_remove(job, opener)
    return run_ingest(job, opener, ch)


def main() -> int:
    _die_with_parent()
    ch = Channel()
    init = json.loads(sys.stdin.readline() or "{}")
    if init.get("config_path"):  # the server's configuration file (load, chunk, embed sections)
        os.environ["JOGAK_CONFIG"] = str(init["config_path"])
    with contextlib.suppress(OSError):
        os.nice(int(init.get("nice", 10)))
    try:
        embedder = _warm(init)
    except Exception as e:
        ch.send("result", status="failed", error={"error": "worker_error", "message": f"worker start-up failed: "
                f"{type(e).__name__}: {e}", "collection_changed": False})
        return 1
    ch.send("ready", pid=os.getpid())
    line = sys.stdin.readline()
    if not line:
        return 0
    job = json.loads(line)
    threading.Thread(target=_watch_stdin, daemon=True).start()
    _limit(float(init.get("memory_mb") or 0), float(init.get("cpu_s") or 0))
    ch.send("started", pid=os.getpid())
    try:
        result = run_job(init, job, embedder, ch)
    except MemoryError:
        result = {"status": "failed", "error": {"error": "memory_limit", "message": "the job needed more memory "
                  f"than its {init.get('memory_mb')} MB budget (server.job_memory_mb)", "collection_changed": False}}
    except Exception as e:
        result = {"status": "failed", "error": {"error": "internal_error", "message": f"{type(e).__name__}: {e}",
                  "collection_changed": False}}
    ch.send("result", **result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
