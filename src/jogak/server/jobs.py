"""Ingest jobs: one background worker thread, job records in SQLite, staging directories cleaned up.

A job goes ``queued`` → ``running`` (stages ``validate``, then the store's ``load``/``tokenize``/``embed``/
``index``/``commit``) → ``succeeded`` or ``failed``. Jobs found ``queued``/``running`` when the server
starts were cut off by a crash or a kill: they become ``interrupted`` and their staging directories are
removed.

The collection is only changed by the store's commit, which is atomic (see ``jogak.index.store``):

* ``validate`` loads every uploaded file before the store is touched; one bad file fails the whole job
  and nothing is written;
* the files are then ingested as one batch (``commit_every`` larger than the batch), so the manifest
  flips once for the upload — a kill before the flip leaves the collection as it was, and the next
  writer removes the orphaned rows.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import shutil
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

log = logging.getLogger("jogak.server")

ACTIVE = ("queued", "running")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class Job:
    id: str
    collection: str
    kind: str = "ingest"
    status: str = "queued"  # queued | running | succeeded | failed | interrupted
    created_at: str = field(default_factory=_now)
    started_at: str | None = None
    finished_at: str | None = None
    files: list[dict[str, Any]] = field(default_factory=list)
    strategy: str = "structure"
    stage: str | None = None
    done: int = 0
    total: int = 0
    note: str = ""
    report: dict[str, Any] | None = None
    error: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Job:
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in d.items() if k in known})


class JobStore:
    """Job records (one JSON document per job) in ``<work>/jobs.sqlite``."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, collection TEXT NOT NULL, "
                         "created_at TEXT NOT NULL, data TEXT NOT NULL)")
        self._lock = threading.Lock()

    def put(self, job: Job) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO jobs VALUES (?, ?, ?, ?)",
                             (job.id, job.collection, job.created_at, json.dumps(job.to_dict(), ensure_ascii=False)))

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            r = self._db.execute("SELECT data FROM jobs WHERE id=?", (job_id,)).fetchone()
        return Job.from_dict(json.loads(r[0])) if r else None

    def list(self, collections: set[str] | None, limit: int = 50) -> list[Job]:
        with self._lock:
            rows = self._db.execute("SELECT collection, data FROM jobs ORDER BY created_at DESC, id DESC").fetchall()
        out = [Job.from_dict(json.loads(d)) for c, d in rows if collections is None or c in collections]
        return out[:limit]

    def all_active(self) -> list[Job]:
        with self._lock:
            rows = self._db.execute("SELECT data FROM jobs").fetchall()
        return [j for j in (Job.from_dict(json.loads(r[0])) for r in rows) if j.status in ACTIVE]

    def close(self) -> None:
        with self._lock:
            self._db.close()


class JobManager:
    """Queue and run ingest jobs one at a time in a daemon thread."""

    def __init__(self, work_dir: Path, open_writer: Callable[[str], Any],
                 on_change: Callable[[str], None] | None = None) -> None:
        self.work_dir = work_dir
        self.uploads = work_dir / "uploads"
        self.uploads.mkdir(parents=True, exist_ok=True)
        self.records = JobStore(work_dir / "jobs.sqlite")
        self.open_writer = open_writer
        self.on_change = on_change or (lambda c: None)
        self._live: dict[str, Job] = {}
        self._q: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.recover()

    # ── lifecycle ──
    def recover(self) -> None:
        """Mark jobs a previous process left active as interrupted; remove stale staging directories."""
        for job in self.records.all_active():
            job.status = "interrupted"
            job.finished_at = _now()
            job.error = {"error": "interrupted", "message": "the server stopped while this job was "
                         f"{job.stage or 'queued'}; the collection was left as it was before the job"}
            self.records.put(job)
            log.warning("job %s (%s) was interrupted by a restart", job.id, job.collection)
        for d in self.uploads.iterdir():
            shutil.rmtree(d, ignore_errors=True)

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="jogak-jobs", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        if self._thread is not None:
            self._q.put(None)
            self._thread.join(timeout)
            self._thread = None

    # ── API ──
    def staging_dir(self, job_id: str) -> Path:
        return self.uploads / job_id

    @staticmethod
    def new_id() -> str:
        return uuid.uuid4().hex

    def submit(self, job: Job) -> Job:
        with self._lock:
            self._live[job.id] = job
        self.records.put(job)
        self._q.put(job.id)
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            live = self._live.get(job_id)
        if live is not None:
            return Job.from_dict(live.to_dict())  # a snapshot: the worker keeps mutating the live one
        return self.records.get(job_id)

    def list(self, collections: set[str] | None) -> list[Job]:
        jobs = {j.id: j for j in self.records.list(collections)}
        with self._lock:
            for j in self._live.values():
                if collections is None or j.collection in collections:
                    jobs[j.id] = Job.from_dict(j.to_dict())
        return sorted(jobs.values(), key=lambda j: (j.created_at, j.id), reverse=True)

    def queued_ahead(self, job_id: str) -> int:
        with self._lock:
            return sum(1 for j in self._live.values() if j.status in ACTIVE and j.id != job_id)

    # ── worker ──
    def _run(self) -> None:
        while True:
            job_id = self._q.get()
            if job_id is None:
                return
            with self._lock:
                job = self._live.get(job_id)
            if job is None:
                continue
            try:
                self._execute(job)
            except Exception as e:  # never let the worker die
                log.exception("job %s crashed", job.id)
                job.status = "failed"
                job.error = {"error": "internal_error", "message": f"{type(e).__name__}: {e}"}
            finally:
                job.finished_at = job.finished_at or _now()
                self.records.put(job)
                with self._lock:
                    self._live.pop(job.id, None)
                shutil.rmtree(self.staging_dir(job.id), ignore_errors=True)

    def _progress(self, job: Job) -> Callable[[str, int, int, str], None]:
        last = [0.0]

        def cb(stage: str, done: int, total: int, note: str = "") -> None:
            job.stage, job.done, job.total, job.note = stage, int(done), int(total), (note or "")[:120]
            now = time.monotonic()
            if now - last[0] > 0.5:
                last[0] = now
                self.records.put(job)

        return cb

    def _execute(self, job: Job) -> None:
        from jogak.index.store import StoreError
        from jogak.load import LoadError, load

        job.status = "running"
        job.started_at = _now()
        self.records.put(job)
        paths = [Path(f["path"]) for f in job.files]
        progress = self._progress(job)
        # 1. validate: every file must load before the collection is touched
        errors = []
        for i, p in enumerate(paths):
            progress("validate", i, len(paths), p.name)
            try:
                load(p)
            except LoadError as e:
                errors.append(e.to_dict())
            except Exception as e:  # a loader bug: still this file's fault, not the collection's
                errors.append({"source": p.name, "error": "load_error", "message": f"{type(e).__name__}: {e}"})
        progress("validate", len(paths), len(paths), "")
        if errors:
            job.status = "failed"
            first = errors[0]
            job.error = {"error": first["error"], "message": f"{first['source']}: {first['message']}",
                         "files": errors, "collection_changed": False}
            return
        # 2. ingest as one batch: one atomic manifest flip for the whole upload
        store = self.open_writer(job.collection)
        try:
            rep = store.ingest([str(p) for p in paths], strategy=job.strategy, progress=progress,
                               commit_every=len(paths) + 1)
        except StoreError as e:
            job.status = "failed"
            job.error = {"error": "store_error", "message": str(e), "collection_changed": False}
            return
        finally:
            with contextlib.suppress(Exception):
                store.close()
        report = rep.to_dict()
        job.report = report
        self.on_change(job.collection)
        if rep.ok:
            job.status = "succeeded"
        else:
            job.status = "failed"
            fails = rep.failed or [{"source": m, "error": "missing"} for m in rep.missing]
            job.error = {"error": "ingest_failed", "message": "; ".join(f["error"] for f in fails)[:500],
                         "files": fails, "collection_changed": bool(rep.added or rep.updated)}
