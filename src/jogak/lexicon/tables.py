"""The lexicon tables: everyday wording → document wording, as content-term lemmas.

Bundled: ``en.yaml`` (everyday English → contract wording), ``ko.yaml`` (customer wording → policy
wording), ``legal_ko.yaml`` (everyday Korean → statute, contract and court wording); a deployment adds
its own with ``answer.lexicon: path/to/extra.yaml`` in jogak.yaml (the key keeps its historical section:
the answerer was the first reader). Tables are read in that order (bundled ones by file name); the values
of a key found in several tables are merged, first table first.
"""

from __future__ import annotations

from pathlib import Path

from jogak.config import load_config

_lexicon: dict[str, tuple[str, ...]] | None = None


def lexicon() -> dict[str, tuple[str, ...]]:
    """Everyday wording → document wording (the bundled tables + ``answer.lexicon`` from config; loaded
    once per process)."""
    global _lexicon
    if _lexicon is None:
        import yaml

        table: dict[str, tuple[str, ...]] = {}
        paths = sorted(Path(__file__).parent.glob("*.yaml"))
        try:
            extra = load_config().section("answer").get("lexicon")
            if extra:
                paths.append(Path(extra))
        except Exception:  # a broken config must not break answering; the CLI reports config errors
            pass
        for p in paths:
            if not p.is_file():
                continue
            data = yaml.safe_load(p.read_text(encoding="utf-8")) or {}
            for k, vs in data.items():
                vals = [str(v) for v in (vs if isinstance(vs, list) else [vs])]
                table[str(k)] = tuple(dict.fromkeys([*table.get(str(k), ()), *vals]))
        _lexicon = table
    return _lexicon
