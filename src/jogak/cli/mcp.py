"""``jogak mcp`` (issue 17): the store as an MCP server for agents, over stdio or streamable HTTP."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from jogak.cli.common import error, note
from jogak.cli.stores import STATE_HELP


def register(app: typer.Typer) -> None:
    app.command("mcp")(mcp_cmd)


def mcp_cmd(
    store: Annotated[str, typer.Option("--store", help="Store directory, or http://HOST:PORT of a Chroma server.")]
    = "./jogak_db",
    collection: Annotated[str | None, typer.Option(
        "--collection", help="Default collection of the tools (default: server.default_collection, 'default').")]
    = None,
    transport: Annotated[str, typer.Option(
        "--transport", help="stdio (an agent spawns this command) or http (streamable HTTP, endpoint /mcp).")]
    = "stdio",
    host: Annotated[str, typer.Option("--host", help="Address to bind (http). Non-loopback addresses need API keys.")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port (http).")] = 8765,
    config: Annotated[Path | None, typer.Option(
        "--config", help="Configuration file (API keys in section 'server'). Default: $JOGAK_CONFIG or ./jogak.yaml.")]
    = None,
    state: Annotated[str | None, typer.Option(
        "--state", envvar="JOGAK_STATE", help=STATE_HELP)] = None,
    warm_up: Annotated[bool, typer.Option(
        "--warm-up/--no-warm-up", help="Load models in the background at start-up.")] = True,
) -> None:
    """Serve the tools search, ask, get_clause, tree and list_documents to MCP clients (agents, IDEs).

    Over stdio nothing but the protocol is written to stdout. Over HTTP the API keys of the 'server'
    configuration apply as in `jogak serve` (a key reaches only its collections); without keys only
    loopback addresses may be bound."""
    if transport not in ("stdio", "http"):
        raise typer.BadParameter(f"unknown transport '{transport}' (stdio or http)")
    try:
        from jogak.integrations.mcp import JogakMCP
    except ImportError as e:
        error(str(e))
        raise typer.Exit(2) from None
    from jogak.server.settings import ServerSettings, SettingsError, bind_refusal

    if config is not None and not config.is_file():
        error(f"config file not found: {config}")
        raise typer.Exit(2)
    if config is not None:
        os.environ["JOGAK_CONFIG"] = str(config.resolve())  # every stage reads the same file
        from jogak.config import reset_config_cache

        reset_config_cache()
    try:
        settings = ServerSettings.from_config(store, config, state_dir=str(state) if state else None)
    except (SettingsError, ValueError, OSError) as e:
        error(str(e))
        raise typer.Exit(2) from None
    if not settings.remote and not Path(store).exists():
        error(f"no store at {store}: build one with `jogak ingest PATH --store {store}`")
        raise typer.Exit(2)
    refusal = bind_refusal(settings, host) if transport == "http" else None
    if refusal:
        error(refusal)
        raise typer.Exit(2)
    mcp = JogakMCP(settings, collection)
    if transport == "stdio":
        note(f"jogak mcp: {store} over stdio (default collection '{mcp.backend.default}')")
        mcp.run_stdio(warm_up=warm_up)
        return
    if settings.keyed:
        note(f"API keys: {len(settings.keys)} configured; every request needs one")
    else:
        note("local mode: no API keys configured; serving loopback only")
    shown = f"[{host}]" if ":" in host else host
    note(f"jogak mcp: {store} → http://{shown}:{port}/mcp (default collection '{mcp.backend.default}')")
    mcp.run_http(host, port, warm_up=warm_up)
