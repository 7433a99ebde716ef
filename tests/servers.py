"""Real servers for tests: a throwaway PostgreSQL cluster and a ``chroma run`` server, each in a temp folder
on a free port of 127.0.0.1, stopped at the end.

PostgreSQL refuses to run as root; as root (CI, this machine) the cluster is initialised and started as the
``postgres`` user that Debian's package creates. Without the server binaries the caller skips with a message
naming the package (``.ci/run`` installs it).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

PG_PACKAGE = "postgresql (Debian: apt-get install postgresql)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pg_bindir() -> Path | None:
    """The directory of ``initdb`` and ``pg_ctl`` (Debian keeps them off PATH, per major version)."""
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True):
        if os.access(os.path.join(d, "initdb"), os.X_OK):
            return Path(d)
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def pg_missing() -> str | None:
    """Why a PostgreSQL cluster cannot be started here (None when it can)."""
    if pg_bindir() is None:
        return f"PostgreSQL server binaries not found (install {PG_PACKAGE})"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install 'jogak[postgres]')"
    if os.geteuid() == 0:
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run the server as"
    return None


def _as_server_user(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@contextlib.contextmanager
def postgres() -> Iterator[str]:
    """A fresh cluster; yields ``postgresql://jogak@127.0.0.1:PORT/jogak``."""
    bindir = pg_bindir()
    assert bindir is not None
    # a folder of its own under the system temp dir: pytest's is private to root, and the server runs as
    # 'postgres' when we are root
    root = Path(tempfile.mkdtemp(prefix="jogak-pg-"))
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
    data, port = root / "data", free_port()
    subprocess.run(_as_server_user([str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "jogak",
                                    "-E", "UTF8", "--no-sync"]), check=True, capture_output=True)
    opts = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
    subprocess.run(_as_server_user([str(bindir / "pg_ctl"), "-D", str(data), "-o", opts, "-l",
                                    str(root / "log"), "-w", "start"]), check=True, capture_output=True)
    try:
        import psycopg

        with psycopg.connect(f"postgresql://jogak@127.0.0.1:{port}/postgres", autocommit=True) as c:
            c.execute("CREATE DATABASE jogak")
        yield f"postgresql://jogak@127.0.0.1:{port}/jogak"
    finally:
        subprocess.run(_as_server_user([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
                       capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def chroma(tmp: Path) -> Iterator[str]:
    """``chroma run`` on a free port; yields ``http://127.0.0.1:PORT``."""
    exe = Path(sys.executable).parent / "chroma"
    port = free_port()
    log = (tmp / "chroma.log").open("w")
    proc = subprocess.Popen([str(exe), "run", "--path", str(tmp / "chroma"), "--host", "127.0.0.1", "--port",
                             str(port)], stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_http(f"http://127.0.0.1:{port}/api/v2/heartbeat", 60, proc)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def wait_http(url: str, timeout: float, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited with {proc.returncode} before {url} answered")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer within {timeout:.0f} s")
