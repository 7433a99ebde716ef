"""Article heads ("big" granularity): every clause of the collection is also matched densely by its head —
the document title, the clause's heading and the opening of its text, one vector per clause — and ranks
its chunks (``article_dense``). A chunk's own vector blends whatever the chunk holds (several short
articles packed together, or one paragraph deep inside a long article); the head says what the clause is
about, which is what an everyday question names.

The head vectors are read once per snapshot from the store's embedding cache, where the writer put them at
ingest (``jogak.index.heads``; on by default). A clause whose head is not there (a collection ingested
without heads) is embedded at that first search — up to EMBED_AT_SEARCH_MAX of them; more, and the list is skipped with a warning to re-ingest. A
snapshot of more than HEADS_MAX_ROWS rows is not ranked by heads (the head matrix would be read whole)."""

from __future__ import annotations

from typing import Any

from jogak.index.heads import HEAD_CHARS, HEADS_MAX_ROWS, clause_heads, missing
from jogak.retrieve.scope import Scope

Ranked = list[tuple[str, float]]

__all__ = ["EMBED_AT_SEARCH_MAX", "HEADS_MAX_ROWS", "HEAD_CHARS", "article_list"]

# heads a search may embed itself (about a minute with multilingual-e5-small on two cores: 4 heads a second);
# a collection missing more is searched without them until it is ingested again
EMBED_AT_SEARCH_MAX = 256


def article_list(scope: Scope, qvec: Any) -> Ranked:
    """Chunk rows ranked by their clause's head (the clause's chunks in document order at its score)."""
    if qvec is None or not scope.opts.article_dense or not scope.n:
        return []
    if scope.n > HEADS_MAX_ROWS:  # by design (no heads are embedded for it either): nothing to warn about
        return []
    heads = scope.lex.memo("article_heads", lambda: _heads(scope))
    if isinstance(heads, str):
        scope.warnings.append(heads)
        return []
    if heads is None:
        return []
    import numpy as np

    matrix, members = heads
    q = np.asarray(qvec, dtype=np.float32)
    sims = matrix @ (q / (float(np.linalg.norm(q)) or 1.0))
    rows, mask, n = scope.lex.rows, scope.mask, scope.n_candidates
    out: Ranked = []
    for a in np.argsort(-sims, kind="stable"):
        for i in members[a]:
            if mask is None or mask[i]:
                out.append((rows[i], float(sims[a])))
        if len(out) >= n:
            break
    return out[:n]


def _heads(scope: Scope) -> tuple[Any, list[list[int]]] | str | None:
    """(unit vectors of the clause heads, per head its rows in chunk order); None without an embedder or a
    clause; a warning when too many heads were not embedded at ingest."""
    import numpy as np

    embedder = scope.store.embedder
    if embedder is None:
        return None
    members, texts = clause_heads(scope.store, scope.lex)
    if not texts:
        return None
    if (n := missing(embedder, texts)) > EMBED_AT_SEARCH_MAX:
        return (f"article heads skipped: {n:,} clause heads were not embedded at ingest; set "
                "index.article_heads: true (or retrieve.article_dense: true) and run `jogak ingest` again")
    return np.asarray(embedder.embed_passages(texts), dtype=np.float32), members
