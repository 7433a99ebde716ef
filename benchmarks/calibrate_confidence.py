"""Fit the extractive answerer's confidence model (issue 13) on the tune set and Haru Market.

    .venv/bin/python benchmarks/calibrate_confidence.py            # tune + haru (the calibration sets)
    .venv/bin/python benchmarks/calibrate_confidence.py --sets tune

Each set gets a fresh store from its ``corpus:``; every question is answered with the abstention gates off
(``threshold``, ``min_coverage``, ``answer_confidence`` 0), so each records the features of the answer the
answerer would give; a logistic regression (IRLS, ridge 0.5, no ridge on the bias) of "the question
passed" on those features gives ``ExtractiveWeights.confidence_model``. Prints the coefficients, a
reliability table and, per cut-off, how many answers would remain and how many of them are right.
Never run it on tests/fixtures/blind/answers_report.yaml, an answer set still untouched (a37, …) or the held-out
"_b"/"_c" batches: those sets are reported, not tuned on. ``--retrieve rerank=learned`` fits the model for answers
drawn from another retrieval.
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
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

SETS = {"tune": ROOT / "tests/fixtures/blind/answers_tune.yaml",
        "haru": ROOT / "examples/haru-market/questions.yaml",
        # the held-out first batches (their failures prompted answerer changes before: tuning sets now);
        # never the "_b"/"_c" batches or the report set
        "statutes": ROOT / "tests/fixtures/heldout/statutes_ko.yaml",
        "contracts": ROOT / "tests/fixtures/heldout/contracts.yaml",
        "precedents": ROOT / "tests/fixtures/heldout/precedents_ko.yaml",
        # the answer sets already run once and reported (sessions 4–7): used, so they may calibrate now;
        # (a3–a68, through session 49); never an untouched one still to be reported (a69, …)
        **{f"a{i}": ROOT / f"tests/fixtures/blind/answers_r{i}.yaml" for i in range(3, 69)}}
DEFAULT_SETS = ("tune", "haru")
KEYS = ("bias", "score", "coverage", "typed", "margin", "named", "unit_coverage", "semantic", "first")


def set_store(name: str, work: Path) -> Any:
    """A fresh store of the set's ``corpus:`` under ``work`` (None, said on stderr, when the corpus is absent)."""
    from jogak.eval.corpus import build_store, resolve_corpus

    corpus = resolve_corpus(SETS[name])
    if not corpus.ok:
        print(f"[{name}] skipped: {corpus.reason()}", file=sys.stderr)
        return None
    return build_store(corpus, work / name)[0]


def rows(name: str, work: Path, retrieve: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    from jogak.answer.ask import AskOptions
    from jogak.answer.generators.extractive import ExtractiveAnswerer
    from jogak.eval.answers import evaluate_answers, load_questions

    store = set_store(name, work)
    if store is None:
        return []
    gen = ExtractiveAnswerer(threshold=0.0, min_coverage=0.0, answer_confidence=0.0)
    options = AskOptions()
    options.retrieve_options = dict(retrieve or {})
    rep = evaluate_answers(load_questions(SETS[name]), store, generator=gen, options=options)
    store.close()
    out = []
    for r in rep["questions"]:
        f = r.get("features")
        if f:
            ok = r["passed"] and r["outcome"] == "answer" and r["answerable"]
            out.append({"id": r["id"], "f": {k: float(v) for k, v in f.items()}, "y": 1.0 if ok else 0.0})
    return out


def matrix(per_set: list[dict[str, Any]], keys: tuple[str, ...]) -> list[tuple[list[float], float]]:
    """The dumped rows as (features in ``keys`` order, label) pairs."""
    return [([r["f"].get(k, 0.0) for k in keys], r["y"]) for r in per_set]


def fit(data: list[tuple[list[float], float]], ridge: float = 0.5):
    import numpy as np

    x = np.array([d[0] for d in data])
    y = np.array([d[1] for d in data])
    w = np.zeros(x.shape[1])
    pen = np.r_[0.0, np.ones(len(w) - 1)] * ridge
    for _ in range(100):
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (p - y) + pen * w
        hess = x.T @ (x * (p * (1 - p))[:, None]) + np.diag(pen)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w, 1 / (1 + np.exp(-x @ w)), y


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", nargs="+", default=list(DEFAULT_SETS), choices=list(SETS))
    ap.add_argument("--holdout", nargs="*", default=[], choices=list(SETS),
                    help="also fit without these sets and print how the cut-offs do on them")
    ap.add_argument("--dump", metavar="FILE", help="write every set's feature rows here (JSON) …")
    ap.add_argument("--load", metavar="FILE", help="… and read them back instead of answering again")
    ap.add_argument("--keys", nargs="+", default=list(KEYS),
                    help="the features to fit (any the answerer reports; 'bias' is always first)")
    ap.add_argument("--retrieve", nargs="*", default=[], metavar="KEY=VALUE",
                    help="retrieval options the answers are drawn with (RetrieveOptions fields), e.g. rerank=learned")
    args = ap.parse_args()
    import yaml

    retrieve = {k: yaml.safe_load(v) for k, v in (x.split("=", 1) for x in args.retrieve)}
    keys = tuple(dict.fromkeys(["bias", *args.keys]))
    if args.load:
        per = json.loads(Path(args.load).read_text(encoding="utf-8"))
    else:
        with tempfile.TemporaryDirectory(prefix="jogak_calib_") as tmp:
            per = {name: rows(name, Path(tmp), retrieve) for name in dict.fromkeys([*args.sets, *args.holdout])}
    if args.dump:
        Path(args.dump).write_text(json.dumps(per), encoding="utf-8")
    if args.holdout:
        import numpy as np

        w, _, _ = fit([r for n in args.sets if n not in args.holdout for r in matrix(per[n], keys)])
        held = [r for n in args.holdout for r in matrix(per[n], keys)]
        x, y = np.array([d[0] for d in held]), np.array([d[1] for d in held])
        p = 1 / (1 + np.exp(-x @ w))
        print(f"held out {', '.join(args.holdout)} ({len(y)} questions, {int(y.sum())} right), model fit on the rest:")
        _cuts(p, y)
        from jogak.answer.generators.weights import _CONFIDENCE_MODEL

        shipped = np.array([_CONFIDENCE_MODEL.get(k, 0.0) for k in keys])
        print("… and with the shipped model:")
        _cuts(1 / (1 + np.exp(-x @ shipped)), y)
    data = [r for name in args.sets for r in matrix(per[name], keys)]
    w, p, y = fit(data)
    print("confidence_model:", {k: round(float(v), 3) for k, v in zip(keys, w, strict=True)})
    print(f"{len(y)} questions, {int(y.sum())} right; Brier {float(((p - y) ** 2).mean()):.4f}")
    for lo, hi in ((0, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 1.01)):
        m = (p >= lo) & (p < hi)
        if m.any():
            print(f"  predicted {lo:.1f}–{min(hi, 1):.1f}: n={int(m.sum())}, mean {p[m].mean():.2f}, right {y[m].mean():.2f}")
    _cuts(p, y)


def _cuts(p: Any, y: Any) -> None:
    for cut in (0.4, 0.5, 0.6, 0.7, 0.8):
        m = p >= cut
        print(f"  answer from {cut}: {int(m.sum())} answers, {int(y[m].sum())} right"
              f" ({(y[m].mean() if m.any() else 0):.0%})")


if __name__ == "__main__":
    main()
