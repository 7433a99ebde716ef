"""The layering of jogak's packages, read from the source with ``ast``: imports flow down the pipeline.

    grammar → model → load → structure → chunk → index → retrieve → answer → eval / cli / server

lexicon (everyday words → document wording) sits below retrieve and answer, filters (the operator table)
below index and retrieve. Every import counts — top-level, inside functions, under ``TYPE_CHECKING`` — so
a lazy import cannot hide a cycle. A violation names the importing file, its line and the imported module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PKG = SRC / "jogak"
MAX_LINES = 500

TOP = frozenset({"eval", "cli", "server", "api", "integrations"})
# package → the only jogak packages it may import (besides itself)
ALLOWED: dict[str, frozenset[str]] = {
    "grammar": frozenset(),
    "model": frozenset({"grammar"}),
    "config": frozenset(),
    "korean": frozenset(),
    "lexicon": frozenset({"grammar", "korean", "config"}),
    "filters": frozenset({"grammar", "model", "config"}),
}
# package → the jogak packages it must never import
FORBIDDEN: dict[str, frozenset[str]] = {
    "load": frozenset({"index", "retrieve", "answer", *TOP}),
    "structure": frozenset({"index", "retrieve", "answer", *TOP}),
    "chunk": frozenset({"index", "retrieve", "answer", *TOP}),
    "index": frozenset({"retrieve", "answer", *TOP}),
    "retrieve": frozenset({"answer", *TOP}),
    "answer": TOP,
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``source``, the text of ``module``."""
    package = module if is_package else module.rpartition(".")[0]
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:  # relative: "from ..answer import ask" inside jogak.retrieve.x
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                mod = ".".join([*base, mod] if mod else base)
            out.append((node.lineno, mod))
            if mod == "jogak":  # "from jogak import retrieve": the names are the packages
                out.extend((node.lineno, f"jogak.{a.name}") for a in node.names)
    return out


def _package(module: str) -> str | None:
    """The top-level jogak package or module: jogak.index.store → index; None outside jogak."""
    parts = module.split(".")
    return parts[1] if parts[0] == "jogak" and len(parts) > 1 else None


def violations_in(source: str, module: str, is_package: bool = False, where: str = "") -> list[str]:
    own = _package(module)
    out = []
    for line, mod in imports_of(source, module, is_package):
        target = _package(mod)
        if own is None or target is None or target == own:
            continue
        allowed = ALLOWED.get(own)
        if target not in allowed if allowed is not None else target in FORBIDDEN.get(own, ()):
            out.append(f"{where or module}:{line} ({own}) imports {mod} ({target})")
    return out


def _modules() -> list[Path]:
    return sorted(PKG.rglob("*.py"))


def _packages() -> set[str]:
    return {p.stem if p.is_file() else p.name for p in PKG.iterdir()
            if not p.name.startswith(("_", ".")) and (p.suffix == ".py" or p.is_dir())}


def test_imports_flow_down_the_pipeline() -> None:
    found = [v for p in _modules() for v in violations_in(p.read_text(encoding="utf-8"), module_name(p),
                                                          p.name == "__init__.py", str(p.relative_to(SRC)))]
    assert not found, "upward imports:\n" + "\n".join(found)


@pytest.mark.parametrize(("module", "source", "bad"), [
    ("jogak.retrieve.x", "def f():\n    from jogak.answer.ask import ask\n", True),  # function-level
    ("jogak.retrieve.x", "from ..answer import ask\n", True),  # relative
    ("jogak.index.x", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import jogak.retrieve\n", True),
    ("jogak.index.x", "from jogak import retrieve\n", True),
    ("jogak.model", "from jogak.config import load_config\n", True),  # allow-list: only grammar
    ("jogak.lexicon.x", "from jogak.index.lexical import tokenize\n", True),
    ("jogak.retrieve.x", "from jogak.index.lexical import tokenize\nfrom jogak.lexicon import lexicon\n", False),
    ("jogak.answer.x", "from jogak.retrieve import search\nimport numpy\n", False),
])
def test_the_check_catches_what_it_should(module: str, source: str, bad: bool) -> None:
    assert bool(violations_in(source, module)) is bad


def test_every_rule_names_a_real_package() -> None:
    # a misspelt rule would silently check nothing
    assert {*ALLOWED, *FORBIDDEN} <= _packages()


def test_no_module_over_500_lines() -> None:
    long = {str(p.relative_to(SRC)): n for p in _modules()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"
