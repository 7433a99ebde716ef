"""Shared test fixtures: paths to the bundled examples and the shared corpora."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests explore new random examples on every local run (that is how they find bugs); CI replays a
# fixed set (JOGAK_HYPOTHESIS_PROFILE=ci in .ci/run) so a submission never fails on a draw no change caused.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("JOGAK_HYPOTHESIS_PROFILE", "default"))

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
