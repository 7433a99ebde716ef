"""The retrieval tests' shared scaffolding (law_stores.py) is imported as a top-level module, like tests/server's."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
