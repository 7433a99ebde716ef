"""Lexical retrieval: BM25 (bm25s) over Kiwi morphemes for Korean, Snowball-stemmed words for English
("governs", "governed", "governing" → "govern": a question rarely uses the contract's inflection).

One ``Kiwi`` instance per process, created lazily (its load is the slowest part of a cold search, so the
typo and multi-word dictionaries are left out; the same settings are used for indexing and queries).
An index is a directory written once into a temporary name and renamed into place, so a reader never
sees a half-written index; the store's state database points at the active directory.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from jogak.index.leaves import LeafIndex, LeafRows
from jogak.korean import analysis_form, kiwi

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T")

TOKENIZER_VERSION = "kiwi-content-4+snowball-en"  # 4: NFC before analysis (korean.analysis_form)

_HANGUL = re.compile(r"[\uac00-\ud7a3\u3131-\u318e]")
_WORD = re.compile(r"[A-Za-z0-9]+(?:[.'’\-][A-Za-z0-9]+)*")
# Compound labels kept whole besides their morphemes, so "제8조" or a case number matches as one token.
_COMPOUND = re.compile(r"제\s?\d+\s?조(?:\s?의\s?\d+)?|\d{2,4}\s?[가-힣]{1,3}\s?\d{2,6}(?=\D|$)")
# Morpheme tags that carry content (nouns, numerals, verb/adjective stems, roots, foreign words, hanja).
_KEEP_TAGS = ("NNG", "NNP", "NNB", "NR", "VV", "VA", "XR", "SL", "SN", "SH", "MAG")
EN_STOPWORDS = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "for", "from", "has", "have", "if", "in", "into", "is", "it", "its", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was", "were", "will", "with", "shall", "any", "all", "other", "which", "who", "whom", "what", "when", "where", "how", "does", "do", "did", "not", "no", "nor", "may", "can", "could", "would", "should", "than", "so", "per"]
)


@functools.lru_cache(maxsize=1)
def _stemmer() -> Any:
    import snowballstemmer  # pure Python, BSD-3-Clause; imported on first English text only

    return snowballstemmer.stemmer("english")


@functools.lru_cache(maxsize=50_000)
def stem(word: str) -> str:
    """English stem of a lower-cased word ("party's" → "parti"); numbers and mixed tokens ("4.2", "b2b")
    stay as written."""
    if word.endswith(("'s", "’s")):
        word = word[:-2]
    return _stemmer().stemWord(word) if word.isalpha() and word.isascii() else word


def _compounds(text: str) -> list[str]:
    return [re.sub(r"\s+", "", m.group(0)) for m in _COMPOUND.finditer(text)]


@functools.lru_cache(maxsize=20_000)
def _decompound(form: str) -> tuple[str, ...]:
    """Parts of a long noun that Kiwi keeps whole in isolation ("대전지방법원" alone is one token, but
    "대전/지방/법원" inside a sentence): re-read it in a carrier phrase so both spellings meet."""
    parts = [t.form for t in kiwi().tokenize(form + "에 대해") if t.tag in ("NNG", "NNP", "NNB", "NR", "SL", "SN")]
    return tuple(parts) if len(parts) > 1 and "".join(parts) == form else ()


def tokenize(text: str) -> list[str]:
    """Content tokens of one text: Kiwi morphemes when it has Hangul, lower-cased words otherwise."""
    text = analysis_form(text)
    if _HANGUL.search(text):
        toks = []
        for t in kiwi().tokenize(text):
            if t.tag in _KEEP_TAGS:
                form = t.form.lower() if t.tag == "SL" else t.form
                if t.tag == "SL":
                    if form in EN_STOPWORDS:
                        continue
                    form = stem(form)
                if t.tag in ("NNG", "NNP") and len(form) >= 4:
                    parts = _decompound(form)
                    if parts:
                        toks.extend(parts)
                        continue
                toks.append(form)
        toks.extend(_compounds(text))
        return toks
    return [stem(w) for w in (m.group(0).lower() for m in _WORD.finditer(text)) if w not in EN_STOPWORDS]


def lexical_text(chunk: Any) -> str:
    """The text BM25 indexes for a chunk: its breadcrumb (document title and clause path) over its text,
    so a question naming the document or the clause's heading finds it."""
    md = chunk.metadata
    return f"{md.breadcrumb}\n{chunk.text}" if md.breadcrumb else chunk.text


def tokenize_many(texts: Sequence[str]) -> list[list[str]]:
    return [tokenize(t) for t in texts]


class LexicalIndex:
    """BM25 over a fixed list of rows. ``rows[i]`` is the store's row key for document ``i``; ``columns``
    holds the filterable metadata per row (used to build a numpy mask, so filters apply inside BM25)."""

    FILE = "rows.json"

    def __init__(self, rows: list[str], columns: dict[str, list[Any]], bm25: Any = None,
                 path: Path | None = None, leaf_index: LeafIndex | None = None) -> None:
        self.rows = rows
        self.columns = columns
        self.bm25 = bm25
        self.path = path
        self._leaves = leaf_index  # built in memory; a loaded index reads its leaves on first use
        self._arrays: dict[str, np.ndarray] = {}
        self._memo: dict[str, Any] = {}

    def __len__(self) -> int:
        return len(self.rows)

    @classmethod
    def build(cls, rows: list[str], tokens: list[list[str]], columns: dict[str, list[Any]],
              leaves: LeafRows | None = None) -> LexicalIndex:
        bm25 = None
        if rows:
            import bm25s

            bm25 = bm25s.BM25(k1=1.2, b=0.75)
            bm25.index([t if t else [""] for t in tokens], show_progress=False)
        leaf_index = LeafIndex.build(rows, leaves) if leaves else None
        return cls(rows, columns, bm25, leaf_index=leaf_index)

    def leaves(self) -> LeafIndex | None:
        """The snapshot's leaves (``jogak.index.leaves``), None when it has none."""
        if self._leaves is None and self.path is not None:
            path = self.path
            return self.memo("leaves", lambda: LeafIndex.load(path))
        return self._leaves

    @classmethod
    def build_from_ids(cls, rows: list[str], ids: Sequence[Sequence[int]], vocab: dict[str, int],
                       columns: dict[str, list[Any]], leaves: LeafRows | None = None) -> LexicalIndex:
        """The same index as ``build`` from token ids (``vocab``: token → id; an empty row holds ``""``)."""
        from jogak.index.bm25build import build_bm25  # bm25s's arrays without its sort's 6× peak memory

        bm25 = build_bm25(ids, vocab, k1=1.2, b=0.75) if rows else None
        return cls(rows, columns, bm25, leaf_index=LeafIndex.build(rows, leaves) if leaves else None)

    def save(self, parent: Path) -> str:
        """Write into ``parent/<new id>`` atomically (temp dir + rename); returns the new id."""
        parent.mkdir(parents=True, exist_ok=True)
        name = uuid.uuid4().hex[:16]
        tmp = parent / f".tmp-{name}"
        tmp.mkdir()
        try:
            if self.bm25 is not None:
                self.bm25.save(str(tmp), show_progress=False)
            if self._leaves is not None:
                self._leaves.save(tmp)
            with (tmp / self.FILE).open("w", encoding="utf-8") as fh:
                json.dump({"tokenizer": TOKENIZER_VERSION, "rows": self.rows, "columns": self.columns},
                          fh, ensure_ascii=False)
                fh.flush()
                os.fsync(fh.fileno())
            os.rename(tmp, parent / name)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        _fsync_dir(parent)
        return name

    @classmethod
    def load(cls, path: Path) -> LexicalIndex:
        with (path / cls.FILE).open(encoding="utf-8") as fh:
            d = json.load(fh)
        bm25 = None
        if d["rows"]:
            import bm25s

            bm25 = bm25s.BM25.load(str(path), show_progress=False, verbosity=0)
        return cls(d["rows"], d["columns"], bm25, path)

    def column(self, name: str) -> np.ndarray:
        if name not in self._arrays:
            import numpy as np  # heavy: imported on first search, not by the store's light paths

            vals = self.columns.get(name) or [None] * len(self.rows)
            arr = np.empty(len(vals), dtype=object)
            arr[:] = vals
            self._arrays[name] = arr
        return self._arrays[name]

    def codes(self, name: str) -> tuple[np.ndarray, list[Any]]:
        """The column factorized (``jogak.filters.factorize``), once per loaded index: filter masks use it."""
        from jogak.filters import factorize

        return self.memo(f"codes:{name}", lambda: factorize(self.columns.get(name) or [None] * len(self.rows)))

    def memo(self, name: str, make: Callable[[], T]) -> T:
        """Data derived from this index (a row lookup, the document titles), computed once: it lives as long
        as the loaded index, so it always matches the snapshot being read."""
        if name not in self._memo:
            self._memo[name] = make()
        return self._memo[name]

    def search(self, query_tokens: list[str], k: int, mask: np.ndarray | None = None) -> list[tuple[int, float]]:
        """Top ``k`` (row index, score) with positive score among rows where ``mask`` is True."""
        if self.bm25 is None or not query_tokens:
            return []
        import numpy as np

        scores = np.asarray(self.bm25.get_scores(query_tokens), dtype=np.float32)
        if mask is not None:
            scores = np.where(mask, scores, 0.0)
        n_pos = int((scores > 0).sum())
        if n_pos == 0:
            return []
        k = min(k, n_pos)
        idx = np.argpartition(-scores, k - 1)[:k]
        idx = idx[np.argsort(-scores[idx], kind="stable")]
        return [(int(i), float(scores[i])) for i in idx]


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(str(path), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
