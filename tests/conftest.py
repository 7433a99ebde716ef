"""Shared test fixtures: paths to the bundled examples and the shared corpora."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
CORPORA = Path(os.environ.get("JOGAK_CORPORA", ROOT.parent / "shared" / "corpora"))

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    return EXAMPLES


@pytest.fixture(scope="session")
def corpora_dir() -> Path:
    if not CORPORA.is_dir():
        pytest.skip(f"shared corpora not found at {CORPORA} (set JOGAK_CORPORA to run corpus tests)")
    return CORPORA


@pytest.fixture(autouse=True)
def _isolated_config(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests run from the repo root so ./jogak.yaml applies; the config cache is reset per test."""
    from jogak.config import reset_config_cache

    monkeypatch.chdir(ROOT)
    reset_config_cache()
