"""The core never imports the integration libraries, and the integrations import offline."""

from __future__ import annotations

import json
import subprocess
import sys

from .conftest import ROOT, env

HEAVY = ("langchain", "langchain_core", "langsmith", "llama_index", "mcp", "mcp_types", "nltk", "tiktoken")


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env(), capture_output=True, text=True,
                          timeout=180)


def test_core_and_cli_import_no_integration_library() -> None:
    code = f"""
import json, sys
import jogak
import jogak.index, jogak.retrieve, jogak.answer.ask, jogak.cli, jogak.server.app
from jogak.index import open_store
from jogak.retrieve import SearchOptions, search
from jogak.answer import ask
import jogak.integrations, jogak.integrations.provenance, jogak.integrations.clauses
print(json.dumps(sorted({{m for m in sys.modules if m.split(".")[0] in {HEAVY!r}}})))
"""
    r = _python(code)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == []


def test_integrations_import_and_use_bundled_data_without_network() -> None:
    # Any connection or name lookup beyond loopback raises and is recorded — including at import time, and
    # in llama-index's lazily loaded tokenizer and nltk data (which it would otherwise try to download).
    code = """
import json, socket
tried = []
def refuse(*a, **k):
    tried.append(repr(a[1:] or a)[:80])
    raise OSError("network disabled")
socket.socket.connect = refuse
socket.getaddrinfo = refuse
import jogak.integrations.langchain, jogak.integrations.llamaindex, jogak.integrations.mcp
from llama_index.core import Settings
from llama_index.core.utils import globals_helper
tokens = Settings.tokenizer("반품 배송비는 고객이 부담한다")
stopwords = globals_helper.stopwords
print(json.dumps({"tried": tried, "tokens": len(tokens), "stopwords": len(stopwords)}))
"""
    r = _python(code)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["tried"] == [] and out["tokens"] > 0 and out["stopwords"] > 100
