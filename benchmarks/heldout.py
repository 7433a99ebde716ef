"""Held-out question sets: answers and retrieval on documents the answerer was never tuned on.

    .venv/bin/python benchmarks/heldout.py                  # all sets, one table
    .venv/bin/python benchmarks/heldout.py --sets statutes contracts
    .venv/bin/python benchmarks/heldout.py --json out.json  # also every question's row
    .venv/bin/python benchmarks/heldout.py --split          # abstention calibration check (see below)

Sets: the Haru Market sample questions (the set the answerer was first calibrated on) and the held-out
sets in tests/fixtures/heldout/ (Korean statutes, Korean Supreme Court decisions, the two sample
contracts): a first batch, whose failures prompted the answerer changes (and on whose union with Haru
Market the abstention thresholds were recalibrated), and a second "_b" batch written afterwards and never
used to change anything — the blind numbers; and a third "_c" batch written before the next round of
answerer changes (semantic question-noun coverage) and never used to tune it. Each corpus gets a fresh store in a temporary folder built
from the set's ``corpus:`` (sets over the same corpus share it; embeddings come from a persistent cache:
``$JOGAK_EMBED_CACHE``, else <tmp>/jogak_eval/embed_cache.sqlite, so only the first run embeds); sets
whose corpus is absent are skipped. Columns:

    Q ok       questions whose every checkpoint passed
    ckpt       checkpoint pass rate (must_contain phrases, required citation, answers / abstains)
    R@5, MRR   retrieval (`jogak eval-retrieval`'s span judgement, our pipeline, k = 10)
    ctx rec    share of gold clauses among the excerpts the answerer saw
    cit R/P    ALCE citation recall / precision (offline judge)
    abst       abstained on unanswerable / unanswerable
    false      false abstentions on answerable questions

``--split`` re-scores the extractive answerer's abstention on the union of all sets with several
thresholds and prints, per set, what each would change (a check that the shipped thresholds generalise).

Never part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
os.chdir(ROOT)  # jogak.yaml (document-title rules) applies
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

HELDOUT = ROOT / "tests" / "fixtures" / "heldout"
BLIND = ROOT / "tests" / "fixtures" / "blind"
SETS = {
    "haru": ROOT / "examples" / "haru-market" / "questions.yaml",
    "statutes": HELDOUT / "statutes_ko.yaml",
    "precedents": HELDOUT / "precedents_ko.yaml",
    "contracts": HELDOUT / "contracts.yaml",
    # second batches: written after the changes the first ones prompted, never used to tune (blind)
    "statutes_b": HELDOUT / "statutes_ko_b.yaml",
    "precedents_b": HELDOUT / "precedents_ko_b.yaml",
    "contracts_b": HELDOUT / "contracts_b.yaml",
    # third batches: written before the semantic-coverage round, never used to tune (blind for it)
    "statutes_c": HELDOUT / "statutes_ko_c.yaml",
    "precedents_c": HELDOUT / "precedents_ko_c.yaml",
    "contracts_c": HELDOUT / "contracts_c.yaml",
    # issue 13's blind answer sets over mixed collections (tests/fixtures/blind/README_answers.md): "tune"
    # may be calibrated on; "report", "a3", "a4" and "a5" are for reporting only
    "tune": BLIND / "answers_tune.yaml",
    "report": BLIND / "answers_report.yaml",
    "a3": BLIND / "answers_r3.yaml",
    "a4": BLIND / "answers_r4.yaml",  # untouched (session 5): once, at the end
    "a5": BLIND / "answers_r5.yaml",  # untouched (session 6): once, at the end
    "a6": BLIND / "answers_r6.yaml",  # session 7, first round: run once, now used
    "a7": BLIND / "answers_r7.yaml",  # untouched (session 7, second round): once, at the end
    "a8": BLIND / "answers_r8.yaml",  # untouched (session 7, third round): once, at the end
    "a9": BLIND / "answers_r9.yaml",  # untouched (session 8, first round): once, at the round's end
    "a10": BLIND / "answers_r10.yaml",  # untouched (session 8, second round): once, at its end
    "a11": BLIND / "answers_r11.yaml",  # untouched (session 8, third round): once, at its end
    "a12": BLIND / "answers_r12.yaml",  # untouched (session 9): once, at the round's end
    "a13": BLIND / "answers_r13.yaml",  # blind (session 10): run at its round's end, now used
    "a14": BLIND / "answers_r14.yaml",  # blind (session 11): run at its round's end, now used
    "a15": BLIND / "answers_r15.yaml",  # used (written at the end of session 11, run at the start of session 12)
    "a16": BLIND / "answers_r16.yaml",  # used (written at the start of session 12, run at its end)
    "a17": BLIND / "answers_r17.yaml",  # used (written in session 12, run at its end)
    "a18": BLIND / "answers_r18.yaml",  # written in session 12, run at the start of session 13: now used
    "a19": BLIND / "answers_r19.yaml",  # written at the start of session 13, run once at its end: now used
    "a20": BLIND / "answers_r20.yaml",  # written at the end of session 13, run at the start of session 14: now used
    "a21": BLIND / "answers_r21.yaml",  # written at the start of session 14, run once at its end: now used
    "a22": BLIND / "answers_r22.yaml",  # written at the end of session 14, run at the start of session 15: now used
    "a23": BLIND / "answers_r23.yaml",  # written at the start of session 15, run once at its end: now used
    "a24": BLIND / "answers_r24.yaml",  # written at the end of session 15, run at the start of session 16: now used
    "a25": BLIND / "answers_r25.yaml",  # written at the start of session 16, run once at its end: now used
    "a26": BLIND / "answers_r26.yaml",  # written at the end of session 16, run at the start of session 17: now used
    "a27": BLIND / "answers_r27.yaml",  # written at the start of session 17, run once at its end: now used
    "a28": BLIND / "answers_r28.yaml",  # written at the end of session 17, run at the start of session 18: now used
    "a29": BLIND / "answers_r29.yaml",  # written at the start of session 18, run once at its end: now used
    "a30": BLIND / "answers_r30.yaml",  # written at the end of session 18, run at the start of session 19: now used
    "a31": BLIND / "answers_r31.yaml",  # written at the start of session 19, run once at its end: now used
    "a32": BLIND / "answers_r32.yaml",  # written at the start of session 20, run once at its end: now used
    "a33": BLIND / "answers_r33.yaml",  # written at the end of session 20, run once at the end of session 21: now used
    "a34": BLIND / "answers_r34.yaml",  # written at the start of session 21, run once in session 22 (its redo): now used
    "a35": BLIND / "answers_r35.yaml",  # written at the start of session 22, run once at the end of session 23: now used
    "a36": BLIND / "answers_r36.yaml",  # written at the start of session 23, run once at the end of session 24: now used
    "a37": BLIND / "answers_r37.yaml",  # used: written at the start of session 24, run once at the end of session 25 (b47dc1f)
    "a38": BLIND / "answers_r38.yaml",  # untouched: written at the start of session 25, run once at the end of session 26
    "a39": BLIND / "answers_r39.yaml",  # used: written at the start of session 26, run once at the end of session 27 (680e1fb)
    "a40": BLIND / "answers_r40.yaml",  # written at the start of session 27, run once at the end of session 28 (aa09222), now used
    "a41": BLIND / "answers_r41.yaml",  # written at the start of session 28, run once at the end of session 29 (06e1083), now used
    "a42": BLIND / "answers_r42.yaml",  # written in session 28 after its first round (9ecbb8f), run once at its end (db68d61), now used
    "a43": BLIND / "answers_r43.yaml",  # written in session 28 after its second round (ca884d9), run once at its end (e7e60a7), now used
    "a44": BLIND / "answers_r44.yaml",  # written at the start of session 29 (f0d4336), run once after its first round (ed85184), now used
    "a45": BLIND / "answers_r45.yaml",  # written in session 29 (aaf288d), run once at its end (06e1083), now used
    "a46": BLIND / "answers_r46.yaml",  # written at the end of session 29 (a7d8a0f), run once at the end of session 30 (849f6f0), now used
    "a47": BLIND / "answers_r47.yaml",  # written at the start of session 30 (76ae562), run once at its end (849f6f0), now used
    "a48": BLIND / "answers_r48.yaml",  # written at the end of session 30 (849f6f0), run once at the end of session 31 (bc164ab), now used
    "a49": BLIND / "answers_r49.yaml",  # written at the start of session 31 (c0cebe5), run once at its end (bc164ab), now used
    "a50": BLIND / "answers_r50.yaml",  # written at the end of session 31 (bc164ab), run once at the end of session 32: now used
    "a51": BLIND / "answers_r51.yaml",  # written at the start of session 32 (b9ea4c5), run once at its end: now used
    "a52": BLIND / "answers_r52.yaml",  # written at the end of session 32 (3f897e1), run once at the end of session 33: now used
    "a53": BLIND / "answers_r53.yaml",  # written at the start of session 33 (ba95492), run once at the end of session 34: now used
    "a54": BLIND / "answers_r54.yaml",  # written at the start of session 34 (e0258ce), run once at the end of session 35: now used
    "a55": BLIND / "answers_r55.yaml",  # written at the start of session 35 (1b0425a), run once at the end of session 36: now used
    "a56": BLIND / "answers_r56.yaml",  # written at the start of session 36 (7138650), run once at the end of session 37: now used
    "a57": BLIND / "answers_r57.yaml",  # written at the start of session 37 (adea882), run once at the end of session 38: now used
    "a58": BLIND / "answers_r58.yaml",  # written at the start of session 38 (8e7d329), run once at the end of session 39: now used
    "a59": BLIND / "answers_r59.yaml",  # written at the start of session 39 (1390395), run once at the end of session 40 (273b9f2): now used
    "a60": BLIND / "answers_r60.yaml",  # written at the start of session 40 (e46ded1), run once at the end of session 41 (dbc5962): now used
    "a61": BLIND / "answers_r61.yaml",  # written at the start of session 41 (f638d17), run once at the end of session 42 (708065c): now used
    "a62": BLIND / "answers_r62.yaml",  # written at the start of session 42 (5e192a0), run once at the end of session 43 (e277e9e): now used
    "a63": BLIND / "answers_r63.yaml",  # written at the start of session 43 (e44da0d), run once at the end of session 44 (e53da52): now used
    "a64": BLIND / "answers_r64.yaml",  # written at the start of session 44 (2ad5524), run once at the end of session 45 (3aa8c4a): now used
    "a65": BLIND / "answers_r65.yaml",  # written at the start of session 45 (fc8cc41), run once at the end of session 46 (bf909f4): now used
    "a66": BLIND / "answers_r66.yaml",  # written at the start of session 46 (3ca1407), run once at the end of session 47 (e713fd9): now used
    "a67": BLIND / "answers_r67.yaml",  # written at the start of session 47 (b6897fc), run once at the end of session 48 (c21e722): now used
    "a68": BLIND / "answers_r68.yaml",  # written at the start of session 48 (7a494ae), run once at the end of session 49 (fa98cb5): now used
    "a69": BLIND / "answers_r69.yaml",  # untouched: written at the start of session 49 (0edf03c), run once at the end of session 50
}
_STORES: dict[tuple[str, ...], Any] = {}


def run_set(name: str, path: Path, work: Path, retrieval: bool = True,
            options: Any = None) -> dict[str, Any] | None:
    from jogak.eval.answers import evaluate_answers, load_questions
    from jogak.eval.corpus import build_store, resolve_corpus

    corpus = resolve_corpus(path)
    if not corpus.ok:
        print(f"[{name}] skipped: {corpus.reason()}", file=sys.stderr)
        return None
    t0 = time.monotonic()
    key = tuple(sorted(str(p) for p in corpus.paths))
    if key not in _STORES:  # sets over the same corpus share one fresh store
        # article heads asked for at search: embedded at ingest, as a collection configured for them would be
        heads = {"article_heads": True} if (getattr(options, "retrieve_options", None) or {}).get("article_dense") else None
        st, ing = build_store(corpus, work / f"store{len(_STORES)}", index=heads)
        if ing.failed:
            print(f"[{name}] ingest failures: {ing.failed}", file=sys.stderr)
        _STORES[key] = st
    st = _STORES[key]
    t_ingest = time.monotonic() - t0
    rep = evaluate_answers(load_questions(path), st, options=options)
    out: dict[str, Any] = {"set": name, "file": str(path.relative_to(ROOT)), "answers": rep,
                           "ingest_seconds": round(t_ingest, 1)}
    if retrieval:
        from jogak.eval.retrieval import evaluate

        out["retrieval"] = evaluate(path, st, k=10, baseline=False)
    return out


def row(r: dict[str, Any]) -> dict[str, str]:
    s = r["answers"]["summary"]
    m = (r.get("retrieval") or {}).get("pipelines", {}).get("jogak", {}).get("metrics", {})

    def pct(x: Any) -> str:
        return "–" if x is None else f"{100 * x:.1f}"

    return {
        "set": r["set"],
        "n": str(s["questions"]),
        "Q ok": f"{s['passed']}/{s['questions']}",
        "ckpt": f"{s['checkpoints_passed']}/{s['checkpoints']} {pct(s['checkpoint_pass_rate'])}%",
        "R@5": f"{m['recall@5']:.3f}" if "recall@5" in m else "–",
        "MRR": f"{m['mrr']:.3f}" if "mrr" in m else "–",
        "ctx rec": pct(s["retrieval_recall"]),
        "cit R/P": f"{pct(s['citation_recall'])}/{pct(s['citation_precision'])}",
        "abst": f"{s['abstained_on_unanswerable']}/{s['unanswerable']}",
        "false": str(s["false_abstentions"]),
        # issue 13: outcomes answer/related/none, precision of `answer` citations, related ⊇ gold
        "a/r/n": "/".join(str((s.get("outcomes") or {}).get(o, 0)) for o in ("answer", "related", "none")),
        "ans citP": pct(s.get("answer_citation_precision")),
        "rel⊇gold": pct(s.get("related_contains_gold")),
    }


def table(rows: list[dict[str, str]]) -> str:
    if not rows:
        return "(no sets ran)"
    cols = list(rows[0])
    w = {c: max(len(c), *(len(r[c]) for r in rows)) for c in cols}
    lines = ["  ".join(c.ljust(w[c]) for c in cols), "  ".join("-" * w[c] for c in cols)]
    lines += ["  ".join(r[c].ljust(w[c]) for c in cols) for r in rows]
    return "\n".join(lines)


def split_report(results: list[dict[str, Any]]) -> str:
    """What other abstention cut-offs would do on each set (answerable questions answered vs
    unanswerable ones declined), from the scores each answer recorded."""
    lines = ["abstention cut-offs (coverage ≥ c): per set, answerable kept / unanswerable declined"]
    cuts = [0.45, 0.50, 0.55, 0.58, 0.62, 0.66]
    lines.append("set".ljust(12) + "".join(f"c={c:<8}" for c in cuts))
    for r in results:
        qs = r["answers"]["questions"]
        cells = []
        for c in cuts:
            kept = sum(1 for q in qs if q["answerable"] and (q.get("coverage") or 0) >= c)
            decl = sum(1 for q in qs if not q["answerable"] and (q.get("coverage") or 0) < c)
            cells.append(f"{kept}/{sum(q['answerable'] for q in qs)} {decl}/{sum(not q['answerable'] for q in qs)}")
        lines.append(r["set"].ljust(12) + "".join(f"{x:<10}" for x in cells))
    return "\n".join(lines)


def _value(text: str) -> Any:
    """A command-line value as YAML reads it (true/false, numbers, strings)."""
    import yaml

    return yaml.safe_load(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", nargs="*", default=list(SETS), choices=list(SETS))
    ap.add_argument("--json", metavar="FILE", help="write every set's full report (all questions) here")
    ap.add_argument("--no-retrieval", action="store_true", help="skip the eval-retrieval pass")
    ap.add_argument("--split", action="store_true", help="print the abstention cut-off table")
    ap.add_argument("--verbose", "-v", action="store_true", help="print failed questions")
    ap.add_argument("--ask", nargs="*", default=[], metavar="KEY=VALUE",
                    help="answer options (the `answer:` section of jogak.yaml), e.g. whole_clauses=false")
    ap.add_argument("--retrieve", nargs="*", default=[], metavar="KEY=VALUE",
                    help="retrieval options (RetrieveOptions fields), e.g. feedback=true")
    a = ap.parse_args(argv)
    from jogak.answer.ask import AskOptions

    options = AskOptions.from_config({k: _value(v) for k, v in (x.split("=", 1) for x in a.ask)})
    options.retrieve_options = {k: _value(v) for k, v in (x.split("=", 1) for x in a.retrieve)}
    work = Path(tempfile.mkdtemp(prefix="jogak_heldout_"))
    results = []
    try:
        for name in a.sets:
            r = run_set(name, SETS[name], work, retrieval=not a.no_retrieval, options=options)
            if r is None:
                continue
            results.append(r)
            if a.verbose:
                from jogak.eval.answers import render_report

                print(f"\n=== {name}", file=sys.stderr)
                print(render_report(r["answers"]), file=sys.stderr)
    finally:
        for st in _STORES.values():
            st.close()
        shutil.rmtree(work, ignore_errors=True)
    print(table([row(r) for r in results]))
    if a.split:
        print()
        print(split_report(results))
    if a.json:
        Path(a.json).write_text(json.dumps(results, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
