"""Which unit should the offline answerer pick? A first look at learning its unit ranking from gold paths.

    .venv/bin/python benchmarks/unit_ranking.py --train a3 a4 a5 a6 a7 a8 --test a9 a10 a11 a12
    .venv/bin/python benchmarks/unit_ranking.py --load rows.json --train … --test …   # no answering again

Session 9 found that the answerer's first clause and the retriever's first clause agree on nearly every
question, and that 13–24 questions a set have their gold clause among the excerpts but first in neither
(NOTES-answer-calibration.md). This asks whether the unit features the answerer already computes can pick
better when weighed by a model fitted on gold paths instead of by hand.

For every answerable question of a set (a fresh store from its ``corpus:``; embeddings from the persistent
cache), the excerpts the answerer sees are scored by the shipped ``ExtractiveAnswerer``; each answer candidate
gets its features and a label (its chunk lies in a gold clause, or holds it). A logistic regression (IRLS,
ridge 1.0) fitted on the train sets' candidates re-ranks the test sets' candidates; printed per test set:
the share of questions whose top unit is gold under the shipped score and under the fitted model, and how
many have any gold unit at all (the ceiling). Never part of ``make test``; used sets only.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
os.chdir(ROOT)
os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(ROOT / "benchmarks"))

from calibrate_confidence import SETS, fit, set_store  # noqa: E402  (the same sets, stores and IRLS)

KEYS = ("bias", "score", "lexical", "focus", "bigram", "semantic", "prior", "coverage", "title", "pointed",
        "item", "table_row", "faq", "appendix", "first_clause")


def _features(c: Any, scored: Any, question: str, first_clause: tuple) -> dict[str, float]:
    from jogak.answer.generators.selection import clause_key
    from jogak.lexicon import content_terms

    title = set(content_terms(c.unit.heading or ""))
    return {"bias": 1.0, "score": c.score, "lexical": c.lexical, "focus": c.focus, "bigram": c.bigram,
            "semantic": c.semantic or 0.0, "prior": 1.0 - min(c.excerpt.rank, 8) / 8, "coverage": c.noun_coverage,
            "title": len(title & set(content_terms(question))) / len(title) if title else 0.0,
            "pointed": scored.doc_scores.get(c.excerpt.chunk.metadata.doc_title, 0.0),
            "item": 1.0 if c.unit.kind == "item" else 0.0, "table_row": 1.0 if c.unit.kind == "table_row" else 0.0,
            "faq": 1.0 if c.unit.kind == "faq_a" else 0.0,
            "appendix": 1.0 if c.excerpt.tier == "supplementary" else 0.0,
            "first_clause": 1.0 if clause_key(c) == first_clause else 0.0}


def rows(name: str, work: Path) -> list[dict[str, Any]]:
    """One row per answerable question: its candidates' features and gold labels, in the shipped order."""
    from jogak.answer.ask import ask_composed
    from jogak.answer.generators.extractive import ExtractiveAnswerer
    from jogak.answer.generators.selection import clause_key
    from jogak.eval.answers import _gold_hit, load_questions

    store = set_store(name, work)
    if store is None:
        return []
    gen = ExtractiveAnswerer()
    out = []
    for q in load_questions(SETS[name]):
        if not q.get("answerable", True) or not q.get("gold"):
            continue
        composed = ask_composed(store, q["question"], generator=gen)
        scored = gen.score(q["question"], composed.context)
        cands = [c for c in scored.candidates if c.unit.answerable]
        if not cands:
            continue
        first = next((c for c in cands if c.excerpt.rank == 0), cands[0])
        out.append({"id": q["id"], "units": [
            {"f": _features(c, scored, q["question"], clause_key(first)),
             "y": 1.0 if any(_gold_hit(g, c.excerpt.chunk.metadata) for g in q["gold"]) else 0.0}
            for c in cands]})
        print(f"\r[{name}] {len(out)} questions", end="", file=sys.stderr)
    print(file=sys.stderr)
    store.close()
    return out


def top_is_gold(qrows: list[dict[str, Any]], weights: Any = None) -> tuple[int, int, int]:
    """(questions whose top unit is gold, questions with any gold unit, questions)."""
    import numpy as np

    hit = ceiling = 0
    for r in qrows:
        ys = [u["y"] for u in r["units"]]
        ceiling += any(ys)
        if weights is None:
            best = 0  # the shipped order
        else:
            x = np.array([[u["f"].get(k, 0.0) for k in KEYS] for u in r["units"]])
            best = int(np.argmax(x @ weights))
        hit += ys[best] > 0
    return hit, ceiling, len(qrows)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", nargs="+", required=True, choices=list(SETS))
    ap.add_argument("--test", nargs="+", required=True, choices=list(SETS))
    ap.add_argument("--dump", metavar="FILE")
    ap.add_argument("--load", metavar="FILE")
    args = ap.parse_args()
    names = list(dict.fromkeys([*args.train, *args.test]))
    if args.load:
        per = json.loads(Path(args.load).read_text(encoding="utf-8"))
    else:
        with tempfile.TemporaryDirectory(prefix="jogak_units_") as tmp:
            per = {n: rows(n, Path(tmp)) for n in names}
    if args.dump:
        Path(args.dump).write_text(json.dumps(per), encoding="utf-8")
    data = [([u["f"].get(k, 0.0) for k in KEYS], u["y"]) for n in args.train for r in per[n] for u in r["units"]]
    w, _, _ = fit(data, ridge=1.0)
    print("unit model:", {k: round(float(v), 3) for k, v in zip(KEYS, w, strict=True)})
    print(f"{'set':<6} {'questions':>9} {'any gold':>9} {'shipped top':>12} {'fitted top':>11}")
    for n in args.test:
        s_hit, ceil, total = top_is_gold(per[n])
        f_hit, _, _ = top_is_gold(per[n], w)
        print(f"{n:<6} {total:>9} {ceil:>9} {s_hit:>12} {f_hit:>11}")


if __name__ == "__main__":
    main()
