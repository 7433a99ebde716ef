"""The ``jogak`` command: a thin Typer layer over the library. Each stage registers its commands from
its own module; heavy imports happen inside the commands so a cold call stays fast."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="jogak",
    help="Retrieval-augmented answers over structured documents, with exact provenance.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from jogak import __version__

        typer.echo(f"jogak {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True,
                                       help="Print the version and exit.")) -> None:
    """Retrieval-augmented answers over structured documents, with exact provenance."""

_MODULES = ("chunks", "tree", "index", "answer", "versions", "serve", "mcp")


def _register() -> None:
    import importlib

    for name in _MODULES:
        try:
            mod = importlib.import_module(f"jogak.cli.{name}")
        except ModuleNotFoundError as e:  # a stage not built yet
            if e.name != f"jogak.cli.{name}":
                raise
            continue
        mod.register(app)


_register()


def main() -> None:
    app()
