"""The rerank stage: the top ``rerank_top`` clause hits re-scored by a second opinion, fused with the
first ranking by RRF (``rerank_weight`` for the reranker's list), the rest left in place.

Backends (``SearchOptions.rerank``, a name or a mapping ``{backend, model, url, top, weight, timeout}``):

- ``leaf`` — offline, on what ships: the cosine between the question's e5 vector and every leaf vector of
  the clause's matching chunks (computed at ingest, ``jogak.index.leaves``), the best one; nothing is
  embedded at query time;
- ``learned`` — offline, on what ships: a linear score over clause-level evidence (the first ranking's
  numbers, how much of the question the clause's title and text hold, the kind of document, a quantity
  for a how-much question, the e5 cosine), fitted on gold clauses (``jogak.retrieve.learned``); the hits
  are ordered by it alone, the weights file given as ``model`` or the shipped one; ``auto`` is the same
  where the weights fit the store's embedding model and the question's language (the file's ``languages``:
  the shipped weights were fitted on Korean questions) and nothing (silently) elsewhere;
- ``cross-encoder`` — a sentence-transformers ``CrossEncoder`` from a local model path (extra ``st``);
- ``http`` — a rerank server (TEI, Jina, Cohere-compatible: ``POST /rerank`` or ``/v1/rerank``);
  ``jogak.retrieve.rerankers`` speaks the protocol.

A reranker that fails leaves the order as it was and says so in the result's warnings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jogak.retrieve.candidates import EXACT_ALL_MAX
from jogak.retrieve.leaves import entry_leaves
from jogak.retrieve.scope import Entry, Scope

BACKENDS = ("auto", "learned", "leaf", "cross-encoder", "http")


@dataclass(frozen=True, slots=True)
class RerankSpec:
    backend: str
    model: str | None = None
    url: str | None = None
    top: int = 20
    weight: float = 1.0
    timeout: float = 10.0
    api_key_env: str | None = None  # the environment variable holding the server's key

    @classmethod
    def of(cls, value: Any) -> RerankSpec | None:
        """None/""/"none"/False → no reranking; a backend name; or a mapping with ``backend``."""
        if not value or value == "none":
            return None
        if isinstance(value, str):
            value = {"backend": value}
        if not isinstance(value, dict):
            raise ValueError(f"rerank: expected a backend name or a mapping, not {value!r}")
        d = dict(value)
        backend = str(d.pop("backend", "leaf"))
        if backend not in BACKENDS:
            raise ValueError(f"rerank: unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")
        unknown = set(d) - {"model", "url", "top", "weight", "timeout", "api_key_env"}
        if unknown:
            raise ValueError(f"rerank: unknown key(s) {', '.join(sorted(unknown))}")
        return cls(backend, **d)


def rerank(scope: Scope, entries: list[Entry], qvec: Any) -> list[Entry]:
    """``entries`` with the head re-ordered by the reranker (fused with the first ranking)."""
    spec = RerankSpec.of(scope.opts.rerank)
    if spec is None or len(entries) < 2:
        return entries
    fixed = [e for e in entries if "clause" in e.matched]  # a clause the question names stays first
    rest = [e for e in entries if "clause" not in e.matched]
    head, tail = rest[: spec.top], rest[spec.top :]
    try:
        scores = _scores(scope, spec, head, qvec)
    except Exception as e:  # a reranker is a second opinion: without it the first one stands
        scope.warnings.append(f"rerank ({spec.backend}) failed ({type(e).__name__}: {e}); first ranking kept")
        return entries
    if scores is None:
        return entries
    if spec.backend in ("auto", "learned"):  # the score holds the first ranking's evidence: it orders alone
        for j, e in enumerate(head):
            e.scores["rerank"] = e.scores["learned"] = round(float(scores[j]), 6)  # "learned": the answerer's cue
        order = sorted(range(len(head)), key=lambda j: (-scores[j], j))
        return fixed + [head[j] for j in order] + tail
    order = sorted(range(len(head)), key=lambda j: -scores[j])
    rr_rank = {j: r for r, j in enumerate(order, start=1)}
    k = scope.opts.rrf_k
    fused = []
    for j, e in enumerate(head):
        e.scores["rerank"] = round(float(scores[j]), 6)
        fused.append((1.0 / (k + j + 1) + spec.weight / (k + rr_rank[j]), -j, e))
    fused.sort(key=lambda t: (-t[0], -t[1]))
    return fixed + [e for _, _, e in fused] + tail


def _scores(scope: Scope, spec: RerankSpec, head: list[Entry], qvec: Any) -> list[float] | None:
    if spec.backend == "leaf":
        return leaf_scores(scope, head, qvec)
    if spec.backend in ("auto", "learned"):
        return learned_scores(scope, head, qvec, spec.model, quiet=spec.backend == "auto")
    from jogak.retrieve import rerankers  # HTTP client / sentence-transformers: only when configured

    texts = _texts(scope, head)
    if spec.backend == "cross-encoder":
        return rerankers.cross_encoder_scores(spec, scope.query, texts)
    return rerankers.http_scores(spec, scope.query, texts)


def leaf_scores(scope: Scope, head: list[Entry], qvec: Any) -> list[float] | None:
    """Per entry, the best cosine between the question and a leaf of its chunks (None without vectors)."""
    li = scope.lex.leaves()
    if li is None or li.vectors is None or qvec is None:
        # asked for by name, a no-op must say so: the default ingest builds no leaf vectors
        why = "the question has no vector" if qvec is None else "the store has no leaf vectors (ingest with index.leaves: true)"
        scope.warnings.append(f"rerank (leaf) skipped: {why}; first ranking kept")
        return None
    import numpy as np

    q = np.asarray(qvec, dtype=np.float32).reshape(-1)
    if q.shape[0] != li.vectors.shape[1]:
        scope.warnings.append("rerank (leaf) skipped: leaf vectors come from another embedding model; "
                              "first ranking kept")
        return None
    out: list[float] = []
    for e in head:
        idx = entry_leaves(scope, li, e)
        out.append(float((li.vectors[idx] @ q).max()) if idx else float(e.scores.get("dense", 0.0)))
    return out


def learned_scores(scope: Scope, head: list[Entry], qvec: Any, path: str | None = None,
                   quiet: bool = False) -> list[float] | None:
    """Per entry, the learned linear score (None when the weights were fitted with another embedding
    model than the store's, or the store has no vectors: said in the warnings unless ``quiet``, as for
    ``auto``, the default, which applies the weights where they fit and stays silent elsewhere)."""
    from jogak.retrieve import learned

    model, w = learned.weights(path or str(learned.WEIGHTS))
    langs = learned.languages(path or str(learned.WEIGHTS))
    if quiet and langs and learned.question_language(scope.query) not in langs:
        return None  # "auto": weights fitted on Korean questions say nothing about an English one (CUAD)
    name = getattr(scope.store.embedder, "name", None)
    if qvec is None or name != model:
        if quiet:
            return None
        scope.warnings.append(f"rerank (learned): weights are for {model}, not {name or 'a store without vectors'}; "
                              "first ranking kept")
        return None
    rows = learned_rows(scope, head, qvec)
    return None if rows is None else learned.score_rows(rows, w)


def learned_rows(scope: Scope, head: list[Entry], qvec: Any) -> list[list[float]] | None:
    """The learned reranker's features of each entry (``jogak.retrieve.learned.FEATURES``); None when a
    chunk vanished under a concurrent write."""
    import numpy as np

    from jogak.retrieve import learned

    keys = [[e.key, *e.also] for e in head]
    flat = [k for ks in keys for k in ks]
    chunks = scope.store.chunk_map(flat)
    q = np.asarray(qvec, dtype=np.float32).reshape(-1)
    q = q / (float(np.linalg.norm(q)) or 1.0)
    m = scope.store.dense_matrix(scope.snap) if scope.n <= EXACT_ALL_MAX else None  # fetched once a snapshot
    row_of = scope.row_of
    vecs = m[[row_of[k] for k in flat]] if m is not None else scope.store.dense_vectors(flat)
    sims = vecs @ q if vecs is not None and vecs.shape[1] == q.shape[0] else np.zeros(len(flat))
    meta, texts, cos, i = [], [], [], 0
    for ks, e in zip(keys, head, strict=True):
        c = chunks.get(e.key)
        if c is None:
            return None  # a concurrent writer removed it: keep the first ranking
        meta.append(c.metadata)
        texts.append("\n".join(chunks[k].text for k in ks if k in chunks))
        cos.append(float(sims[i : i + len(ks)].max()))
        i += len(ks)
    return learned.clause_features(scope.rq, [e.scores for e in head], [e.score for e in head], meta, texts,
                                   [len(ks) for ks in keys], cos)


def _texts(scope: Scope, head: list[Entry]) -> list[str]:
    """What an external reranker reads per clause: its best chunk's context line and text."""
    from jogak.chunk.contextualize import embed_text

    chunks = scope.store.chunk_map([e.key for e in head])
    return [embed_text(chunks[e.key]) if e.key in chunks else "" for e in head]
