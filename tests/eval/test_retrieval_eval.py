"""Retrieval evaluation helpers: clause precision of a hit and the baseline selection."""

from __future__ import annotations

import pytest

from jogak.eval.retrieval import baseline_names, clause_precision, ratios
from jogak.model import Chunk, ChunkMetadata


def _chunk(article: str) -> Chunk:
    md = ChunkMetadata(source="a.md", doc_title="a", chunk_no=0, article=article, page_start=None,
                       page_end=None, char_start=0, char_end=10)
    return Chunk(id="a-000", text="x" * 10, metadata=md)


def test_clause_precision_counts_named_clauses() -> None:
    assert clause_precision(_chunk("제2조 (반품 배송비)"), {0}) == 1.0
    assert clause_precision(_chunk("제2조 (반품 배송비), 제3조 (반품 기간), 제4조"), {0}) == pytest.approx(1 / 3)
    assert clause_precision(_chunk("제2조, 제3조"), {0, 1}) == 1.0
    assert clause_precision(_chunk("제2조, 제3조"), set()) == 0.0
    assert clause_precision(_chunk(""), {0}) == 1.0  # an untagged chunk names one span


def test_baseline_names() -> None:
    assert baseline_names(True) == ["hybrid", "dense"]
    assert baseline_names(False) == [] and baseline_names("none") == [] and baseline_names(None) == []
    assert baseline_names("dense") == ["dense"] and baseline_names("hybrid, dense") == ["hybrid", "dense"]
    with pytest.raises(ValueError, match="unknown baseline bm25"):
        baseline_names("bm25")


def test_ratios_skip_zero_baselines() -> None:
    r = ratios({"mrr": 0.8, "recall@5": 0.9, "clause_p@1": 0.5}, {"mrr": 0.4, "recall@5": 0.0})
    assert r == {"mrr": 2.0, "recall@5": None}
