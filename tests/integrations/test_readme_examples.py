"""The README's integration examples run as written, and print what their comments say they print."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

pytestmark = pytest.mark.usefixtures("no_network")  # in-process; the MCP example's server is a child process

SECTION = re.compile(r"^## Integrations$(.*?)^## ", re.S | re.M)


def _examples() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    m = SECTION.search(readme)
    assert m, "README has no '## Integrations' section"
    return re.findall(r"```python\n(.*?)```", m.group(1), re.S)


def _expected(code: str) -> list[str]:
    """Comments on a print line, or on the line right after one, are the output it shows ('…' elides)."""
    out: list[str] = []
    lines = code.splitlines()
    for i, line in enumerate(lines):
        printed = "print(" in line or (i > 0 and "print(" in lines[i - 1] and line.lstrip().startswith("#"))
        if printed and "#" in line:
            comment = line.split("#", 1)[1].strip()
            if not comment.startswith(("or:", "or ")):
                out.extend(p.strip() for p in comment.split("…") if p.strip())
    return out


def test_readme_has_one_example_per_integration() -> None:
    blocks = _examples()
    for lib in ("jogak.integrations.langchain", "jogak.integrations.llamaindex", "from mcp "):
        assert any(lib in b for b in blocks), lib


@pytest.mark.parametrize("index", range(3))
def test_readme_example_runs(index: int, integration_store: Path, tmp_path: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    code = _examples()[index]
    expected = _expected(code)
    assert expected, "an example should show what it prints"
    (tmp_path / "jogak_db").symlink_to(integration_store, target_is_directory=True)
    shutil.copy(ROOT / "jogak.yaml", tmp_path / "jogak.yaml")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    from jogak.config import reset_config_cache

    reset_config_cache()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(code, f"README example {index + 1}", "exec"), {"__name__": "__readme__"})
    printed = buf.getvalue()
    for part in expected:
        assert part in printed, f"{part!r} not in the example's output:\n{printed}"
