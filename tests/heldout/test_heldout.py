"""The held-out question sets (tests/fixtures/heldout): documents the extractive answerer was not first
tuned on. Each test asserts floors a little under what the pipeline reaches (benchmarks/heldout.py prints
the full table), so a regression fails. The "_b" files are the second, blind batches."""

from __future__ import annotations

from pathlib import Path

import pytest

from jogak.eval.answers import load_questions

HELDOUT = Path(__file__).resolve().parents[1] / "fixtures" / "heldout"

pytestmark = [pytest.mark.slow, pytest.mark.corpus]

SETS = ["statutes_ko.yaml", "precedents_ko.yaml", "contracts.yaml", "statutes_ko_b.yaml",
        "precedents_ko_b.yaml", "contracts_b.yaml"]
# name → (minimum checkpoint pass rate, minimum unanswerable questions declined, maximum answerable questions
# left without the clauses: outcome "none" — since issue 13 an unsure answerer shows the related clauses
# ("related") instead of declining, and a related outcome fails the question's "answers" checkpoint)
FLOORS = {
    "statutes_ko.yaml": (0.64, 3, 9),
    # session 8's confidence re-fit asserts less: 40 → 39 of 45 checkpoints here, answer citations on a gold
    # article 68 → 88 % (precedents_ko_b: 18 → 19 of 20, 78 → 88 %); session 14's reranker default with its
    # confidence model: 39 → 38 of 45 (one more related outcome), for +17 questions on the used a13–a20
    "precedents_ko.yaml": (0.84, 2, 1),
    "contracts.yaml": (0.72, 2, 7),
    "statutes_ko_b.yaml": (0.35, 2, 9),
    "precedents_ko_b.yaml": (0.90, 2, 1),
    "contracts_b.yaml": (0.30, 1, 9),
}


@pytest.mark.parametrize("name", SETS)
def test_heldout_set_shape(name):
    qs = load_questions(HELDOUT / name)
    assert sum(1 for q in qs if not q.get("answerable", True)) >= 2
    for q in qs:
        if q.get("answerable", True):
            assert q["gold"] and q.get("must_contain") and q.get("cite"), q["id"]
            assert all(g.get("doc_title") and g.get("path") for g in q["gold"]), q["id"]
        else:
            assert not q["gold"], q["id"]


@pytest.mark.parametrize("name", SETS)
def test_heldout_set_floor(run_heldout, name):
    s = run_heldout(name)["summary"]
    rate, declined, false_abst = FLOORS[name]
    assert s["checkpoint_pass_rate"] >= rate, s
    assert s["abstained_on_unanswerable"] >= declined, s
    assert s["answerable_none"] <= false_abst, s
    # every statement cites an excerpt, and the judge accepts it
    assert s["citation_recall"] is None or s["citation_recall"] >= 0.95, s
    assert s["citation_precision"] is None or s["citation_precision"] >= 0.95, s
