"""`jogak serve` on the command line: local mode refuses non-loopback binds at once, bad configuration
exits non-zero with a message; the settings behind it."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
import yaml
from serverkit import JOGAK, ROOT, base_env, free_port

from jogak.server.settings import ServerSettings, SettingsError, bind_refusal, is_loopback, normalise_keys


def _serve(args: list[str], timeout: float = 30) -> tuple[int, str]:
    p = subprocess.run([JOGAK, "serve", *args], cwd=ROOT, env=base_env(), capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout + p.stderr


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.10", "example.com"])
def test_local_mode_refuses_public_bind(tmp_path: Path, host: str) -> None:
    rc, out = _serve(["--store", str(tmp_path / "s"), "--host", host, "--port", str(free_port())])
    assert rc == 2, out
    assert f"refusing to bind {host}" in out and "no API keys are configured" in out
    assert "127.0.0.1" in out and "keys:" in out
    assert not (tmp_path / "s").exists()  # refused before any store (or model, or socket) is touched


def test_bad_config_exits_with_a_message(tmp_path: Path) -> None:
    cases = [
        ({"server": {"keys": ["just-a-list"]}}, "server.keys must map each API key"),
        ({"server": {"keys": {"k-0123456789abcdef": ["../etc"]}}}, "invalid collection '../etc'"),
        ({"server": {"keys": {"sha256:1234": ["a"]}}}, "64 hex digits"),
        ({"server": {"max_upload_mb": "lots"}}, "server.max_upload_mb must be a number"),
        ({"server": {"colors": True}}, "unknown setting(s) in section 'server': colors"),
    ]
    for cfg, words in cases:
        path = tmp_path / "jogak.yaml"
        path.write_text(yaml.safe_dump(cfg), encoding="utf-8")
        rc, out = _serve(["--store", str(tmp_path / "s"), "--config", str(path)])
        assert rc == 2 and words in out, (cfg, out)
        assert "Traceback" not in out
    rc, out = _serve(["--store", str(tmp_path / "s"), "--config", str(tmp_path / "missing.yaml")])
    assert rc == 2 and "config file not found" in out


def test_help_lists_the_options() -> None:
    p = subprocess.run([JOGAK, "serve", "--help"], cwd=ROOT, env={**base_env(), "COLUMNS": "200"},
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 0
    for opt in ("--store", "--host", "--port", "--config"):
        assert opt in p.stdout


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("127.8.9.10", True), ("localhost", True), ("::1", True), ("[::1]", True),
    ("0.0.0.0", False), ("::", False), ("10.0.0.1", False), ("192.168.1.5", False), ("example.com", False),
    ("", False),
])
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_keys_allow_public_bind_and_hashes() -> None:
    keyed = ServerSettings(keys={"k-0123456789abcdef": ["a"]})
    keyed.validate()
    assert bind_refusal(keyed, "0.0.0.0") is None
    local = ServerSettings()
    local.validate()
    assert bind_refusal(local, "127.0.0.1") is None
    assert "refusing to bind 0.0.0.0" in (bind_refusal(local, "0.0.0.0") or "")
    assert normalise_keys({"k": "one"}) == {"k": ["one"]}
    assert normalise_keys({"sha256:" + "ab" * 32: ["*"]}) == {"sha256:" + "ab" * 32: ["*"]}
    with pytest.raises(SettingsError):
        normalise_keys({"k": []})


def test_keyring_resolves_plain_and_hashed_keys() -> None:
    import hashlib

    from jogak.server.auth import KeyRing

    ring = KeyRing(normalise_keys({
        "plain-key-0123456789": ["a", "b"],
        "sha256:" + hashlib.sha256(b"hashed-key-0123456789").hexdigest(): ["c"],
        "admin-key-0123456789": ["*"],
    }))
    assert ring.resolve("plain-key-0123456789").collections == frozenset({"a", "b"})
    assert ring.resolve("hashed-key-0123456789").collections == frozenset({"c"})
    admin = ring.resolve("admin-key-0123456789")
    assert admin.collections is None and admin.allows("anything")
    assert ring.resolve("plain-key-012345678") is None
    assert ring.resolve(hashlib.sha256(b"hashed-key-0123456789").hexdigest()) is None
    assert "0123456789" not in repr(ring.resolve("plain-key-0123456789"))  # labels, never keys


def test_busy_port_is_a_clear_message(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        rc, out = _serve(["--store", str(tmp_path / "s"), "--port", str(port)])
    assert rc == 2, out
    assert f"port {port} on 127.0.0.1 is already in use" in out and "--port" in out
    assert "Traceback" not in out and "Errno" not in out


def _children(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(d.name))
    return out


def test_sigterm_stops_the_server_and_its_workers(tmp_path: Path) -> None:
    import os

    from serverkit import ServerProcess, wait_job

    srv = ServerProcess(tmp_path / "store", None, tmp_path / "server.log", extra=["--no-warm-up"]).start()
    try:
        with srv.client(timeout=120) as c:
            r = c.post("/v1/collections/default/documents",
                       files={"file": ("메모.md", "# 메모\n\n제1조 (메모)\n짧은 메모.\n".encode(), "text/markdown")})
            assert wait_job(c, r.json()["id"])["status"] == "succeeded"
        assert srv.proc is not None
        workers = _children(srv.proc.pid)
        assert workers  # the warm spare worker
        srv.proc.terminate()
        assert srv.proc.wait(60) in (0, -15), srv.log()  # uvicorn re-raises the signal once shut down
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(Path(f"/proc/{p}").exists() for p in workers):
            time.sleep(0.2)
        alive = [p for p in workers if Path(f"/proc/{p}").exists()]
        for p in alive:
            os.kill(p, 9)
        assert alive == []
    finally:
        srv.stop()
