"""Article heads ("big" granularity): every clause of the collection is also matched densely by its head —
the document title, the clause's heading and the opening of its text, one vector per clause — and ranks
its chunks (``article_dense``). A chunk's own vector blends whatever the chunk holds (several short
articles packed together, or one paragraph deep inside a long article); the head says what the clause is
about, which is what an everyday question names.

The head vectors are computed once per snapshot, through the store's embedder and its cache."""

from __future__ import annotations

from typing import Any

from jogak.retrieve.scope import Scope

Ranked = list[tuple[str, float]]

HEAD_CHARS = 300  # how much of the clause's opening text its head carries


def article_list(scope: Scope, qvec: Any) -> Ranked:
    """Chunk rows ranked by their clause's head (the clause's chunks in document order at its score)."""
    if qvec is None or not scope.opts.article_dense or not scope.n:
        return []
    heads = scope.lex.memo("article_heads", lambda: _heads(scope))
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


def _heads(scope: Scope) -> tuple[Any, list[list[int]]] | None:
    """(unit vectors of the clause heads, per head its rows in chunk order); None without an embedder."""
    import numpy as np

    embedder = scope.store.embedder
    if embedder is None:
        return None
    lex = scope.lex
    clause, doc, title, no = (lex.column("clause"), lex.column("doc_id"), lex.column("doc_title"),
                              lex.column("chunk_no"))
    groups: dict[tuple[str, str], list[int]] = {}
    for i in range(scope.n):
        if clause[i] and doc[i]:
            groups.setdefault((doc[i], clause[i]), []).append(i)
    members = [sorted(rows, key=lambda i: no[i] or 0) for rows in groups.values()]
    first = [lex.rows[m[0]] for m in members]
    chunks = scope.store.chunk_map(first)
    texts = []
    for m, key in zip(members, first, strict=True):
        c = chunks.get(key)
        body = " ".join((c.text if c else "").split())[:HEAD_CHARS]
        texts.append(f"{title[m[0]] or ''}\n{body}")
    if not texts:
        return None
    return np.asarray(embedder.embed_passages(texts), dtype=np.float32), members
