"""Jobs (ingest an upload, remove a document): a queue in SQLite, run in worker processes.

A job goes ``queued`` → ``running`` (stages ``starting``, ``validate``, then the store's ``load``/
``tokenize``/``embed``/``index``/``commit``) → ``succeeded``, ``failed`` or ``cancelled``. Each job runs in
its own worker process (``jogak.server.workers``) with a time and a memory limit; ``job_workers`` jobs run at
once, removals before uploads. Jobs ``queued`` when the server stops (or is killed) stay queued and run
after the restart; a job ``running`` at that moment becomes ``interrupted``.

The collection is only changed by the store's commit, which is atomic (see ``jogak.index.store``):

* ``validate`` loads every uploaded file before the store is touched; one bad file fails the whole job
  and nothing is written;
* the files are then ingested as one batch (``commit_every`` larger than the batch), so the manifest
  flips once for the upload — a worker killed before the flip leaves the collection as it was, and the
  next writer removes the orphaned rows.
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

from jogak.server.workers import Limits, Worker, WorkerGone, WorkerPool, memory_guard

log = logging.getLogger("jogak.server")

ACTIVE = ("queued", "running")
CANCELLED = {"error": "cancelled", "message": "cancelled on request; the collection was left as it was"}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class Job:
    id: str
    collection: str
    kind: str = "ingest"
    status: str = "queued"  # queued | running | succeeded | failed | cancelled | interrupted
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
    doc_id: str | None = None  # kind "remove"

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
    """Queue jobs and run them in worker processes, ``workers`` at a time."""

    def __init__(self, work_dir: Path, init: dict[str, Any], limits: Limits | None = None, workers: int = 2,
                 spare: bool = True) -> None:
        self.work_dir = work_dir
        self.uploads = work_dir / "uploads"
        self.uploads.mkdir(parents=True, exist_ok=True)
        self.records = JobStore(work_dir / "jobs.sqlite")
        self.limits = limits or Limits()
        self.pool = WorkerPool(init, self.limits, spare=spare)
        self.n_workers = max(1, int(workers))
        self._live: dict[str, Job] = {}
        self._cancel: set[str] = set()
        self._q: queue.PriorityQueue[tuple[int, int, str | None]] = queue.PriorityQueue()
        self._seq = 0
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self.recover()

    # ── lifecycle ──
    def recover(self) -> None:
        """Jobs a previous process left running are interrupted; queued ones are queued again (their staged
        files are still there); staging directories of no queued job are removed."""
        keep: set[str] = set()
        for job in sorted(self.records.all_active(), key=lambda j: (j.created_at, j.id)):
            staged = all(Path(f.get("path", "")).is_file() for f in job.files)
            if job.status == "queued" and staged:
                keep.add(job.id)
                with self._lock:
                    self._live[job.id] = job
                self._enqueue(job)
                log.info("job %s (%s) queued again after a restart", job.id, job.collection)
                continue
            job.status = "interrupted"
            job.finished_at = _now()
            job.error = {"error": "interrupted", "message": "the server stopped while this job was "
                         f"{job.stage or 'queued'}; the collection was left as it was before the job"}
            self.records.put(job)
            log.warning("job %s (%s) was interrupted by a restart", job.id, job.collection)
        for d in self.uploads.iterdir():
            if d.name not in keep:
                shutil.rmtree(d, ignore_errors=True)

    def start(self) -> None:
        if self._threads:
            return
        for i in range(self.n_workers):
            t = threading.Thread(target=self._run, name=f"jogak-jobs-{i}", daemon=True)
            t.start()
            self._threads.append(t)

    def stop(self, timeout: float = 10.0) -> None:
        """Kill running workers (their jobs become ``interrupted``); queued jobs stay queued for the next start."""
        self._stopping.set()
        self.pool.close()
        for _ in self._threads:
            self._q.put((-1, -1, None))
        deadline = time.monotonic() + timeout
        for t in self._threads:
            t.join(max(0.1, deadline - time.monotonic()))
        self._threads = []

    # ── API ──
    def staging_dir(self, job_id: str) -> Path:
        return self.uploads / job_id

    @staticmethod
    def new_id() -> str:
        return uuid.uuid4().hex

    def _enqueue(self, job: Job) -> None:
        with self._lock:
            self._seq += 1
            seq = self._seq
        self._q.put((0 if job.kind == "remove" else 1, seq, job.id))

    def submit(self, job: Job) -> Job:
        with self._lock:
            self._live[job.id] = job
        self.records.put(job)
        self._enqueue(job)
        return job

    def cancel(self, job_id: str) -> Job | None:
        """Cancel a queued or running job (a running worker is killed); None when the job is not active."""
        with self._lock:
            job = self._live.get(job_id)
            if job is None or job.status not in ACTIVE:
                return None
            self._cancel.add(job_id)
            if job.status == "queued":
                self._finish_cancelled(job)
        if job.status == "cancelled":
            self.records.put(job)
        return job

    def _finish_cancelled(self, job: Job) -> None:
        job.status = "cancelled"
        job.finished_at = _now()
        job.error = {**CANCELLED, "collection_changed": False}

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

    # ── dispatch ──
    def _run(self) -> None:
        while True:
            _, _, job_id = self._q.get()
            if job_id is None or self._stopping.is_set():
                return
            with self._lock:
                job = self._live.get(job_id)
                if job is None or job.status != "queued":  # cancelled while queued
                    self._live.pop(job_id, None)
                    continue
                job.status, job.stage, job.started_at = "running", "starting", _now()
            self.records.put(job)
            outcome: dict[str, Any] = {}
            try:
                self._execute(job, outcome)
            except Exception as e:  # never let a dispatcher die
                log.exception("job %s crashed", job.id)
                outcome.update(status="failed", error={"error": "internal_error", "message": f"{type(e).__name__}: {e}"})
            finally:
                self._done(job, outcome)

    def _done(self, job: Job, outcome: dict[str, Any]) -> None:
        """Clean up, then publish the outcome (a client that sees the final status sees no staged file)."""
        if job.kind == "ingest":
            shutil.rmtree(self.staging_dir(job.id), ignore_errors=True)
        if self._stopping.is_set() and outcome.get("status") in (None, "running"):
            outcome = {"status": "interrupted", "error": {
                "error": "interrupted", "message": "the server stopped while this job was "
                f"{job.stage or 'starting'}; the collection was left as it was before the job"}}
        with self._lock:
            job.status = outcome.get("status") or "failed"
            job.report = outcome.get("report", job.report)
            job.error = outcome.get("error", job.error)
            job.finished_at = _now()
        self.records.put(job)
        with self._lock:
            self._live.pop(job.id, None)
            self._cancel.discard(job.id)
        if not self._stopping.is_set():
            with contextlib.suppress(Exception):
                self.pool.refill()

    def _check(self, job: Job, worker: Worker, started: list[float]) -> Callable[[], None]:
        mem = memory_guard(worker, self.limits.memory_mb)

        def check() -> None:
            if self._stopping.is_set():
                raise WorkerGone("interrupted", "the server is stopping")
            if job.id in self._cancel:
                raise WorkerGone("cancelled", "cancelled on request")
            if started[0] and self.limits.timeout_s > 0 and time.monotonic() - started[0] > self.limits.timeout_s:
                raise WorkerGone("timeout", f"the job ran longer than {self.limits.timeout_s:g} s "
                                            "(server.job_timeout_s)")
            mem()

        return check

    def _execute(self, job: Job, outcome: dict[str, Any]) -> None:
        started = [0.0]
        last_put = [0.0]
        worker: Worker | None = None
        try:
            worker = self.pool.take()
            check = self._check(job, worker, started)
            worker.wait_ready(check)
            worker.send({"kind": job.kind, "collection": job.collection, "strategy": job.strategy,
                         "files": job.files, "doc_id": job.doc_id})
            for ev in worker.events(check):
                kind = ev.get("event")
                if kind == "started":
                    started[0] = time.monotonic()
                elif kind == "progress":
                    job.stage, job.done, job.total = ev.get("stage"), int(ev.get("done", 0)), int(ev.get("total", 0))
                    job.note = str(ev.get("note") or "")[:120]
                    now = time.monotonic()
                    if now - last_put[0] > 0.5:
                        last_put[0] = now
                        self.records.put(job)
                elif kind == "result":
                    outcome.update(status=ev.get("status", "failed"), report=ev.get("report"), error=ev.get("error"))
        except WorkerGone as e:
            self._gone(job, e, outcome)
        finally:
            if worker is not None:
                worker.kill()

    def _gone(self, job: Job, e: WorkerGone, outcome: dict[str, Any]) -> None:
        if e.code == "interrupted":
            return  # _done marks it
        changed = job.stage == "commit"  # the manifest flip had happened
        if e.code == "cancelled":
            msg = "cancelled on request after the commit: the upload is in the collection" if changed else None
            outcome.update(status="cancelled", error={**CANCELLED, "collection_changed": changed,
                                                      **({"message": msg} if msg else {})})
            return
        outcome.update(status="failed", error={"error": e.code, "message": e.message, "collection_changed": changed})
        log.warning("job %s (%s) failed: %s", job.id, job.collection, e.message)
