"""Retrieval metrics against values worked out by hand: every reported number depends on these.

A ranking is judged as ``covered[r]`` = the gold items the hit at rank r supports (see eval/metrics.py).
log2(3) = 1.5849625, so a gain at rank 2 is worth 0.6309298; at rank 3, 0.5; at rank 4, 0.4306766.
"""

from __future__ import annotations

import pytest

from jogak.eval.metrics import ndcg_at, recall_at, reciprocal_rank, span_precision_recall, summarize

R2 = 0.6309297535714575  # 1 / log2(3)


def test_recall_counts_gold_items_found_in_the_top_k() -> None:
    covered = [set(), {0}, {1}, set()]
    assert [recall_at(covered, 2, k) for k in (1, 2, 3, 10)] == [0.0, 0.5, 1.0, 1.0]


def test_recall_edge_cases() -> None:
    assert recall_at([{0}], 0, 5) == 0.0  # no gold: nothing to find (summarize leaves the row out)
    assert recall_at([], 2, 5) == 0.0  # no hits
    assert recall_at([{0}, {0}, {0}], 2, 3) == 0.5  # duplicates of one gold item count once
    assert recall_at([{0, 1}], 2, 1) == 1.0  # one hit supporting both gold items (a tie at rank 1)
    assert recall_at([{0}, {1}], 3, 2) == pytest.approx(2 / 3)


def test_reciprocal_rank_uses_the_first_supporting_hit() -> None:
    assert reciprocal_rank([set(), set(), {1}]) == pytest.approx(1 / 3)
    assert reciprocal_rank([{0}, {0}]) == 1.0
    assert reciprocal_rank([set(), {0}, {1}]) == 0.5  # later hits do not add
    assert reciprocal_rank([]) == 0.0
    assert reciprocal_rank([set(), set(), {0}], k=2) == 0.0  # cut at k
    assert reciprocal_rank([set(), {0}], k=None) == 0.5


def test_ndcg_by_hand() -> None:
    assert ndcg_at([{0}], 1) == 1.0
    assert ndcg_at([set(), {0}], 1) == pytest.approx(R2)
    assert ndcg_at([{0}, {1}], 2) == pytest.approx(1.0)
    assert ndcg_at([{1}, {0}], 2) == pytest.approx(1.0)  # the order among gold items does not matter
    # duplicates gain nothing: 1 + 0 + 1/log2(4) against the ideal 1 + 1/log2(3)
    assert ndcg_at([{0}, {0}, {1}], 2) == pytest.approx(1.5 / (1 + R2))
    # a tie — one hit supporting both gold items — is one gain against an ideal of two hits
    assert ndcg_at([{0, 1}], 2) == pytest.approx(1 / (1 + R2))
    # more gold than k: the ideal has k gains
    assert ndcg_at([{0}, {1}], 3, k=2) == pytest.approx(1.0)
    assert ndcg_at([set(), set(), {0}], 1, k=2) == 0.0  # outside the cut


def test_ndcg_edge_cases() -> None:
    assert ndcg_at([{0}], 0) == 0.0  # no gold
    assert ndcg_at([], 2) == 0.0  # no hits
    assert ndcg_at([set(), set()], 1) == 0.0  # nothing relevant


def test_summarize_averages_over_questions_with_gold() -> None:
    rows = [([{0}], 1), ([set(), {0}], 1), ([{0}], 0)]
    s = summarize(rows, ks=(1, 3))
    assert s == pytest.approx({"n": 2.0, "recall@1": 0.5, "recall@3": 1.0, "mrr": 0.75,
                               "ndcg@10": (1 + R2) / 2})
    assert summarize([([{0}], 0)]) == {"n": 0.0}


def test_span_precision_recall_merges_overlaps_per_file() -> None:
    # retrieved a:0-10 and a:5-15 merge to a:0-15; gold a:10-20 → 5 shared characters
    p, r = span_precision_recall([("a", 0, 10), ("a", 5, 15)], [("a", 10, 20)])
    assert (p, r) == (pytest.approx(5 / 15), 0.5)
    assert span_precision_recall([("b", 10, 20)], [("a", 10, 20)]) == (0.0, 0.0)  # another file
    assert span_precision_recall([], [("a", 0, 5)]) == (0.0, 0.0)
    assert span_precision_recall([("a", 0, 5)], []) == (0.0, 0.0)
    assert span_precision_recall([("a", 3, 3)], [("a", 0, 5)]) == (0.0, 0.0)  # empty span ignored
