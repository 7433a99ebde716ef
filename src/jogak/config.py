"""Configuration: one YAML file, one section per pipeline stage.

Looked up in this order: an explicit path (``--config``), ``$JOGAK_CONFIG``, ``./jogak.yaml``. Each stage
reads its own section (``load``, ``chunk``, ``embed``, ``llm``, ``retrieve``, ``answer``, ``server``) so
adding a setting never touches another stage's code. ``answer`` holds the ask options (``k``,
``context_tokens``, ``lexicon``, …) and, under ``extractive``, every weight and threshold of the offline
answerer (``jogak.answer.generators.weights.ExtractiveWeights``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Config:
    raw: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None

    def section(self, name: str) -> dict[str, Any]:
        value = self.raw.get(name) or {}
        if not isinstance(value, dict):
            raise ValueError(f"config section '{name}' must be a mapping (in {self.path})")
        return value


_cached: dict[str | None, Config] = {}


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """Read the configuration; a missing default file means an empty configuration."""
    key = str(path) if path is not None else None
    if key in _cached:
        return _cached[key]
    candidate: Path | None = None
    if path is not None:
        candidate = Path(path)
        if not candidate.is_file():
            raise FileNotFoundError(f"config file not found: {candidate}")
    elif os.environ.get("JOGAK_CONFIG"):
        candidate = Path(os.environ["JOGAK_CONFIG"])
        if not candidate.is_file():
            raise FileNotFoundError(f"JOGAK_CONFIG points at a missing file: {candidate}")
    elif Path("jogak.yaml").is_file():
        candidate = Path("jogak.yaml")
    raw: dict[str, Any] = {}
    if candidate is not None:
        import yaml

        with candidate.open(encoding="utf-8") as fh:
            raw = yaml.safe_load(fh) or {}
        if not isinstance(raw, dict):
            raise ValueError(f"config file {candidate} must hold a mapping")
    cfg = Config(raw=raw, path=candidate)
    _cached[key] = cfg
    return cfg


def reset_config_cache() -> None:
    _cached.clear()
