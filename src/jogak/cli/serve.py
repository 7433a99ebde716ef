"""``jogak serve`` (issue 7): the HTTP service and web page over a store."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from jogak.cli.common import error, note, warn
from jogak.cli.stores import STATE_HELP


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_cmd)


def serve_cmd(
    store: Annotated[str, typer.Option("--store", help="Store directory, or http://HOST:PORT of a Chroma server.")]
    = "./jogak_db",
    host: Annotated[str, typer.Option("--host", help="Address to bind. Non-loopback addresses need API keys.")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port (0 picks a free one).")] = 8000,
    config: Annotated[Path | None, typer.Option(
        "--config", help="Configuration file (section 'server': keys, max_upload_mb, cors_origins, ...). "
                         "Default: $JOGAK_CONFIG or ./jogak.yaml.")] = None,
    state: Annotated[str | None, typer.Option(
        "--state", envvar="JOGAK_STATE", help=STATE_HELP)] = None,
    warm_up: Annotated[bool, typer.Option(
        "--warm-up/--no-warm-up", help="Load models in the background at start-up.")] = True,
    log_level: Annotated[str, typer.Option("--log-level", help="uvicorn log level.")] = "info",
) -> None:
    """Serve /v1/ask, /v1/search, documents, uploads and the web page (FastAPI + uvicorn).

    Without API keys in the configuration the server runs in local mode: no key is asked for, so it
    refuses to bind anything but a loopback address."""
    from jogak.server.settings import ServerSettings, SettingsError, bind_refusal

    if config is not None and not config.is_file():
        error(f"config file not found: {config}")
        raise typer.Exit(2)
    if config is not None:
        # every stage reads the same file (store, retrieval and answer sections included)
        os.environ["JOGAK_CONFIG"] = str(config.resolve())
        from jogak.config import reset_config_cache

        reset_config_cache()
    try:
        settings = ServerSettings.from_config(store, config, state_dir=str(state) if state else None,
                                              warm_up=warm_up)
    except (SettingsError, ValueError, OSError) as e:
        error(str(e))
        raise typer.Exit(2) from None
    refusal = bind_refusal(settings, host)
    if refusal:
        error(refusal)
        raise typer.Exit(2)
    if not settings.remote and not Path(store).exists():
        note(f"no store at {store}: starting with an empty one (upload documents or run `jogak ingest`)")
    if settings.keyed:
        short = [k for k in settings.keys if not k.lower().startswith("sha256:") and len(k) < 16]
        if short:
            warn(f"{len(short)} API key(s) are shorter than 16 characters; use long random keys")
        note(f"API keys: {len(settings.keys)} configured; every /v1 request needs one")
    else:
        note("local mode: no API keys configured; serving loopback only")
    busy = port_problem(host, port)
    if busy:
        error(busy)
        raise typer.Exit(2)
    import uvicorn

    from jogak.server.app import create_app

    app = create_app(settings)
    shown = f"[{host}]" if ":" in host else host
    note(f"jogak {store} → http://{shown}:{port}/  (API docs: /docs)")
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=True, proxy_headers=False,
                server_header=False, timeout_graceful_shutdown=5)
    # uvicorn has stopped (SIGTERM/SIGINT) and the shutdown hooks have run (workers killed, stores closed);
    # a request thread still computing must not keep the process alive
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def port_problem(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be bound (None when it can), checked before anything is loaded."""
    import errno
    import socket

    if port == 0:
        return None
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as e:
        return f"cannot resolve --host {host}: {e.strerror}"
    family, _, _, _, addr = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: TIME_WAIT is no obstacle
        try:
            s.bind(addr)
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                return (f"port {port} on {host} is already in use (another jogak serve?); stop it, or choose "
                        "another port with --port N (--port 0 picks a free one)")
            if e.errno == errno.EACCES:
                return f"no permission to bind port {port} on {host} (ports below 1024 need privileges); use --port 8000"
            return f"cannot bind {host}:{port}: {e.strerror}"
    return None
