"""Server settings: section ``server`` of jogak.yaml plus the command-line options of ``jogak serve``.

    server:
      keys:                              # API key → collections it may read and write
        "k-3f9a…": [haru, contracts]     # plain key (better: a hash)
        "sha256:5e88…": [haru]           # sha256 hex of the key; "*" grants every collection
      default_collection: default        # used when a request names none
      max_upload_mb: 50                  # per upload request, enforced while the body streams in
      max_files: 20                      # files per upload request
      max_docx_inflated_mb: 200          # zip-bomb guard: bytes a DOCX or HWPX may inflate to
      cors_origins: []                   # CORS is off unless origins are listed
      max_k: 50                          # largest k a request may ask for
      max_question_chars: 2000           # /v1/ask question and /v1/search query (422 beyond)
      max_request_kb: 64                 # JSON request bodies (413 beyond; uploads have max_upload_mb)
      job_workers: 2                     # ingest/removal jobs running at once, each in its own process
      job_timeout_s: 600                 # a job running longer is killed (status failed, error timeout)
      job_memory_mb: 2048                # a worker using more resident memory is killed (memory_limit)
      job_nice: 10                       # CPU priority of workers below the API's (0 = same)
      job_threads: 1                     # compute threads per worker (embedding); more = faster ingest, busier cores
      sample_questions: {haru: ["반품 배송비는 얼마인가요?"]}   # landing page (default: from clause titles)

No ``keys`` = local mode: every request is allowed, and ``jogak serve`` only binds loopback addresses.
"""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jogak.index.names import COLLECTION_RE, collection_problem  # noqa: F401  (the store's rule, re-exported)

_HEX64 = re.compile(r"^[0-9a-fA-F]{64}$")


class SettingsError(ValueError):
    """The server configuration is unusable; the message says which setting and why."""


@dataclass
class ServerSettings:
    store: str = "./jogak_db"
    state_dir: str | None = None  # local state when ``store`` is a Chroma server URL
    config_path: str | None = None
    keys: dict[str, list[str]] = field(default_factory=dict)
    default_collection: str = "default"
    max_upload_mb: float = 50.0
    max_files: int = 20
    max_docx_inflated_mb: float = 200.0
    cors_origins: list[str] = field(default_factory=list)
    max_k: int = 50
    max_question_chars: int = 2000
    max_request_kb: float = 64.0
    job_workers: int = 2
    job_timeout_s: float = 600.0
    job_memory_mb: float = 2048.0
    job_nice: int = 10
    job_threads: int = 1
    job_spare: bool = True  # keep one warm worker process once the first job has run
    sample_questions: Any = None  # landing page: a list, or {collection: [questions]}; default from titles
    work_dir: str | None = None  # jobs and upload staging; default <state>/server
    embedder: Any = None  # None: from the ``embed`` config; False: lexical-only; or an Embedder (tests)
    warm_up: bool = True  # load Kiwi, the embedder and Chroma in the background at start-up
    generator: Any = None  # a zero-argument factory returning a Generator (tests); default from config
    config: dict[str, Any] = field(default_factory=dict)  # the whole configuration (all sections)

    @classmethod
    def from_config(cls, store: str, config_path: str | os.PathLike[str] | None = None,
                    state_dir: str | None = None, **overrides: Any) -> ServerSettings:
        """Settings from the configuration file's ``server`` section; ``overrides`` win."""
        from jogak.config import load_config

        cfg = load_config(config_path)
        section = cfg.section("server")
        s = cls(store=str(store), state_dir=state_dir,
                config_path=str(cfg.path) if cfg.path else None, config=dict(cfg.raw))
        known = {f for f in cls.__dataclass_fields__ if f not in ("store", "state_dir", "config_path", "config")}
        unknown = sorted(set(section) - known)
        if unknown:
            raise SettingsError(f"unknown setting(s) in section 'server': {', '.join(unknown)} "
                                f"(known: {', '.join(sorted(known - {'embedder', 'generator', 'warm_up', 'job_spare'}))})")
        for k, v in {**section, **overrides}.items():
            setattr(s, k, v)
        s.validate()
        return s

    def validate(self) -> None:
        self.keys = normalise_keys(self.keys)
        why = collection_problem(str(self.default_collection or ""))
        if why:
            raise SettingsError(f"server.default_collection '{self.default_collection}': {why}")
        for name, lo in (("max_upload_mb", 0.001), ("max_docx_inflated_mb", 0.001), ("max_request_kb", 1.0),
                         ("job_timeout_s", 0.0), ("job_memory_mb", 0.0)):
            try:
                v = float(getattr(self, name))
            except (TypeError, ValueError):
                raise SettingsError(f"server.{name} must be a number") from None
            if v < lo:
                raise SettingsError(f"server.{name} must be at least {lo:g}" if lo else f"server.{name} must "
                                    "not be negative (0 = no limit)")
            setattr(self, name, v)
        try:
            self.job_nice = max(0, min(19, int(self.job_nice)))
        except (TypeError, ValueError):
            raise SettingsError("server.job_nice must be an integer from 0 to 19") from None
        for name in ("max_files", "max_k", "max_question_chars", "job_workers", "job_threads"):
            try:
                v = int(getattr(self, name))
            except (TypeError, ValueError):
                raise SettingsError(f"server.{name} must be an integer") from None
            if v < 1:
                raise SettingsError(f"server.{name} must be at least 1")
            setattr(self, name, v)
        origins = self.cors_origins or []
        if isinstance(origins, str):
            origins = [origins]
        if not isinstance(origins, list) or not all(isinstance(o, str) for o in origins):
            raise SettingsError("server.cors_origins must be a list of origins like https://example.org")
        self.cors_origins = origins

    # ── derived ──
    @property
    def remote(self) -> bool:
        return self.store.startswith(("http://", "https://"))

    @property
    def shared(self) -> bool:
        """Collection state in PostgreSQL (``state_dir`` is a postgresql:// URL): replicas share it."""
        return str(self.state_dir or "").startswith(("postgresql://", "postgres://"))

    @property
    def state_path(self) -> Path:
        """Where the store keeps its manifests (the store directory unless Chroma is a server); with a
        shared state, this machine's cache of it."""
        if self.shared:
            from jogak.index.shared import local_cache

            return local_cache(str(self.state_dir))
        if self.remote:
            from jogak.index.store import DEFAULT_STATE

            return Path(self.state_dir or DEFAULT_STATE)
        return Path(self.state_dir) if self.state_dir else Path(self.store)

    @property
    def work_path(self) -> Path:
        return Path(self.work_dir) if self.work_dir else self.state_path / "server"

    @property
    def max_upload_bytes(self) -> int:
        return int(self.max_upload_mb * 1024 * 1024)

    @property
    def max_request_bytes(self) -> int:
        return int(self.max_request_kb * 1024)

    @property
    def keyed(self) -> bool:
        return bool(self.keys)

    def section(self, name: str) -> dict[str, Any]:
        v = self.config.get(name) or {}
        return v if isinstance(v, dict) else {}


def normalise_keys(keys: Any) -> dict[str, list[str]]:
    """``{key: [collections]}`` with every collection name checked; a single name may be a string."""
    if keys is None:
        return {}
    if not isinstance(keys, dict):
        raise SettingsError("server.keys must map each API key to a list of collections")
    out: dict[str, list[str]] = {}
    for key, colls in keys.items():
        k = str(key).strip()
        if not k:
            raise SettingsError("server.keys has an empty key")
        if k.lower().startswith("sha256:") and not _HEX64.match(k[7:]):
            raise SettingsError(f"server.keys: '{k[:20]}…' is not sha256: followed by 64 hex digits")
        if isinstance(colls, str):
            colls = [colls]
        if not isinstance(colls, list | tuple) or not colls:
            raise SettingsError(f"server.keys: key {key_label(k)} must list at least one collection")
        names = []
        for c in colls:
            c = str(c)
            if c != "*" and collection_problem(c):
                raise SettingsError(f"server.keys: key {key_label(k)} names an invalid collection '{c}'")
            names.append(c)
        out[k] = names
    return out


def key_label(key: str) -> str:
    """How a configured key is named in messages and logs: never the key itself."""
    import hashlib

    if key.lower().startswith("sha256:"):
        return f"sha256:{key[7:15].lower()}…"
    return f"sha256:{hashlib.sha256(key.encode()).hexdigest()[:8]}…"


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and ``localhost``; every other address or name is treated as public."""
    h = (host or "").strip().strip("[]")
    if h.lower() in ("localhost", "localhost.", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(h).is_loopback
    except ValueError:
        return False


def bind_refusal(settings: ServerSettings, host: str) -> str | None:
    """Why ``serve`` must not bind ``host`` with these settings (None when it may)."""
    if settings.keyed or is_loopback(host):
        return None
    where = settings.config_path or "jogak.yaml"
    return (f"refusing to bind {host}: no API keys are configured (local mode), so anyone who can reach "
            f"this address could read and change every collection. Bind 127.0.0.1 (the default), or add "
            f"keys to the 'server' section of {where}:\n"
            "  server:\n    keys:\n      \"<a long random key>\": [default]")

