"""The first ten minutes (issue 18): `make demo` then the README's first example works as printed; the CLI's
errors for common mistakes are one clear line with exit 2; a cold command shows "loading models…" on a
terminal and nothing of it in piped or --json output."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JOGAK = str(Path(sys.executable).parent / "jogak")
CACHE = ROOT / ".pytest_cache" / "jogak" / "embed_cache.sqlite"


def _env() -> dict[str, str]:
    return {**os.environ, "JOGAK_EMBED_CACHE": str(CACHE), "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}


def _demo_commands() -> list[list[str]]:
    """The `make demo` recipe lines that write the store and ask, with the Makefile's variables filled in."""
    mk = (ROOT / "Makefile").read_text(encoding="utf-8")
    var = dict(re.findall(r"^(\w+)\s*\?=\s*(.+)$", mk, re.M))
    recipe = mk.split("\ndemo:", 1)[1].split("\n\n", 1)[0]
    cmds = []
    for line in recipe.splitlines()[1:]:
        line = line.strip()
        if not line.startswith("$(BIN)/jogak") or " experiment " in line or " chunks " in line:
            continue
        line = re.sub(r"\$\((\w+)\)", lambda m: var.get(m.group(1), "BIN" if m.group(1) == "BIN" else ""), line)
        args = shlex.split(line)
        cmds.append([JOGAK, *args[1:]])
    return cmds


def _readme_example() -> tuple[list[str], str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```\n\$ (jogak [^\n]+)\n(.*?)```", text, re.S)
    assert block, "README has no '$ jogak …' example"
    return [JOGAK, *shlex.split(block.group(1))[1:]], block.group(2)


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of what `make demo` reads (the sample corpus, jogak.yaml) where its commands then run."""
    d = tmp_path_factory.mktemp("quickstart")
    shutil.copytree(ROOT / "examples" / "haru-market", d / "examples" / "haru-market")
    shutil.copy(ROOT / "jogak.yaml", d / "jogak.yaml")
    for cmd in _demo_commands():
        r = subprocess.run(cmd, cwd=d, env=_env(), capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, (cmd, r.stderr)
    return d


def test_readme_first_example_works_after_make_demo(demo_dir: Path) -> None:
    cmds = _demo_commands()
    assert any("ingest" in c for c in cmds) and any("ask" in c for c in cmds)
    cmd, printed = _readme_example()
    assert "--store" not in cmd  # the README relies on the default store: the one the demo writes
    r = subprocess.run(cmd, cwd=demo_dir, env=_env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == printed.strip()


@pytest.mark.parametrize(("args", "words"), [
    (["search", ""], "the query is empty"),
    (["search", "   "], "the query is empty"),
    (["ask", " \n "], "the question is empty"),
    (["search", "가" * 2001], "at most 2,000"),
    (["search", "반품", "-k", "0"], "greater than or equal to 1"),
    (["ask", "반품", "-k", "0"], "greater than or equal to 1"),
    (["search", "반품", "--expand", "siblings"], "'neighbours', 'neighbors', 'parent'"),
    (["search", "반품", "--collection", "a..b"], "invalid collection name 'a..b'"),
    (["ingest", "README.md", "--store", "{tmp}/new", "--collection", "alpha\n"], "invalid collection name 'alpha\\n'"),
    (["eval-cuad", "--corpus", "{tmp}/nowhere"], "no CUAD corpus"),
])
def test_mistakes_get_one_clear_line(demo_dir: Path, tmp_path: Path, args: list[str], words: str) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    r = subprocess.run([JOGAK, *args], cwd=demo_dir, env={**_env(), "COLUMNS": "200"}, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2, (args, r.stdout, r.stderr)
    assert words in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""


def test_missing_store_and_collection_messages_agree(demo_dir: Path, tmp_path: Path) -> None:
    for cmd in ("search", "ask", "docs", "rm"):
        args = [JOGAK, cmd] + (["x"] if cmd != "docs" else [])
        r = subprocess.run([*args, "--store", str(tmp_path / "none")], cwd=demo_dir, env=_env(),
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 2 and f"no store at {tmp_path / 'none'}: build one with `jogak ingest" in r.stderr, r.stderr
        r = subprocess.run([*args, "--collection", "nope"], cwd=demo_dir, env=_env(), capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 2 and "no collection 'nope' in store ./jogak_db; it has: default" in r.stderr, r.stderr


def test_version_and_short_help() -> None:
    from jogak import __version__

    r = subprocess.run([JOGAK, "--version"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == f"jogak {__version__}"
    for args in (["-h"], ["search", "-h"], ["serve", "-h"]):
        r = subprocess.run([JOGAK, *args], capture_output=True, text=True, timeout=60, env={**os.environ, "COLUMNS": "120"})
        assert r.returncode == 0 and "Usage: jogak" in r.stdout, args


def test_search_names_hits_as_citations(demo_dir: Path) -> None:
    r = subprocess.run([JOGAK, "search", "배송이 늦으면 보상받나요?", "-k", "3"], cwd=demo_dir, env=_env(),
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    heads = [ln for ln in r.stdout.splitlines() if re.match(r"\d+\. ", ln)]
    assert heads[0].startswith("1. 반품교환환불정책 · 제8조 (배송 지연 보상) · p.2"), heads
    assert "referred to by 1." in r.stdout
    assert not re.search(r"-[0-9a-f]{8}-\d{3}", r.stdout)  # no chunk ids unless --ids
    j = json.loads(subprocess.run([JOGAK, "search", "배송이 늦으면 보상받나요?", "-k", "3", "--json"], cwd=demo_dir,
                                  env=_env(), capture_output=True, text=True, timeout=300).stdout)
    assert j["hits"][0]["chunk_id"]  # ids stay in the JSON


def test_loading_line_on_a_terminal_only(demo_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pty

    cmd = [JOGAK, "search", "반품 배송비", "-k", "1", "--json"]
    out = bytearray()

    def read(fd: int) -> bytes:
        data = os.read(fd, 4096)
        out.extend(data)
        return data

    monkeypatch.chdir(demo_dir)
    monkeypatch.setenv("JOGAK_EMBED_CACHE", str(CACHE))
    monkeypatch.setenv("COLUMNS", "100")
    status = pty.spawn(cmd, read)  # stdout and stderr both on the terminal
    assert os.waitstatus_to_exitcode(status) == 0
    assert "loading models…" in out.decode("utf-8", "replace")
    piped = subprocess.run(cmd, cwd=demo_dir, env=_env(), capture_output=True, text=True, timeout=300)
    assert "loading" not in piped.stderr and "loading" not in piped.stdout
    assert json.loads(piped.stdout)["hits"]
