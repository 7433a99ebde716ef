"""YAML front matter (``---`` … ``---``/``...`` at the very top) → metadata, excluded from the text.

``yaml.safe_load`` semantics, through libyaml's C loader when PyYAML was built with it (the pure-Python
loader was ~8 % of parsing a statute whose front matter lists its amendment history); dates become ISO strings so metadata stays JSON-safe; a mapping is merged into the
metadata, any other value is kept as ``front_matter``; invalid YAML is a warning.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

import yaml

# Same tag set as SafeLoader (safe constructors only), ~10× faster.
_Loader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _json_safe(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _json_safe(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_json_safe(x) for x in v]
    if isinstance(v, _dt.date | _dt.datetime | _dt.time):
        return v.isoformat()
    if v is None or isinstance(v, str | int | float | bool):
        return v
    return str(v)


def split_front_matter(text: str) -> tuple[str | None, int]:
    """``(yaml_text, body_offset)`` when the text starts with a front-matter block."""
    if not text.startswith("---\n") and text.strip() != "---":
        return None, 0
    pos = 4
    while pos <= len(text):
        nl = text.find("\n", pos)
        line = text[pos: nl if nl >= 0 else len(text)]
        if line.rstrip() in ("---", "..."):
            return text[4:pos], (nl + 1 if nl >= 0 else len(text))
        if nl < 0:
            break
        pos = nl + 1
    return None, 0


def read_front_matter(text: str, metadata: dict[str, Any], warnings: list[str]) -> int:
    """Parse the front matter of ``text`` into ``metadata``; return where the body starts."""
    fm, body_off = split_front_matter(text)
    if fm is not None:
        try:
            meta = yaml.load(fm, Loader=_Loader) if fm.strip() else None
        except yaml.YAMLError as e:
            warnings.append(f"front matter is not valid YAML: {' '.join(str(e).split())[:120]}")
            meta = None
        if isinstance(meta, dict):
            metadata.update(_json_safe(meta))
        elif meta is not None:
            metadata["front_matter"] = _json_safe(meta)
    return body_off
