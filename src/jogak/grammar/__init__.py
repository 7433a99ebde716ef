"""The grammar layer: what jogak knows about how legal documents are written, as data.

The bottom of the pipeline — it imports nothing else of jogak, and every stage (load, structure, chunk,
index, retrieve, answer) reads grammar from here only:

- ``numbering``: 가나다, circled numbers, Roman numerals (incl. full-width Ⅰ), letters, number words;
- ``patterns``: named patterns — article labels (제N조의M), 사건번호, amendment tags, TOC leaders;
- ``scheme``: ``Scheme`` (one numbering style) and ``BlockWord``, the machinery the parser runs;
- ``ko`` / ``en``: the Korean and English ``Grammar`` instances (``KO``, ``EN``);
- ``case``: the grammar of Korean court decisions (courts, 사건부호, sections, citations, dates).
"""

from __future__ import annotations

from jogak.grammar.base import Grammar
from jogak.grammar.en import EN
from jogak.grammar.ko import KO
from jogak.grammar.scheme import BlockWord, Scheme, is_first, successor

__all__ = ["EN", "KO", "BlockWord", "Grammar", "Scheme", "all_schemes", "for_language", "is_first", "successor"]


def for_language(lang: str) -> Grammar:
    """The grammar of a document language: Korean for "ko", English otherwise."""
    return KO if lang == "ko" else EN


def all_schemes() -> dict[str, Scheme]:
    """Every numbering scheme of every grammar, by name (node attrs record the scheme's name)."""
    return {s.name: s for g in (KO, EN) for s in g.all_schemes()}
