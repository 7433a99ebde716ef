"""The law behind a company's rule: in a collection of laws and other documents (terms, a policy, a contract), a
question answered first by the other document's clause ("주말에 강아지랑 같이 가도 돼요?" → the park's 제9조
(반려동물)) often has a law clause that states the same rule ("동물을 데리고 입장하는 행위"), which the question's
everyday words alone rank far below the company's other clauses. When none of the first ``companion_at`` hits is a
law clause, the law clause that reads most like both the question and the leading clause's best leaf (their
dense vectors summed: the leading leaf says in the documents' own words what the question asks) goes to place
``companion_at``. Only candidates the first ranking already holds are moved (re-ordering, not a new search), and
clause lookups keep their place.
"""

from __future__ import annotations

from typing import Any

from jogak.grammar.laws import title_kind
from jogak.retrieve.scope import Entry, Scope


def law_companion(scope: Scope, entries: list[Entry], qvec: Any) -> list[Entry]:
    """``entries`` with the law clause nearest the question and the leading clause placed at ``companion_at``
    when the first ``companion_at`` hits hold no law clause and the leading one belongs to another document."""
    at = int(scope.opts.companion_at)
    if at <= 0 or qvec is None or len(entries) <= at or not scope.opts.documents:
        return entries
    law = scope.lex.memo("row_is_law", lambda: [title_kind(t or "") != "other" for t in scope.lex.column("doc_title")])
    if law[entries[0].row] or any(law[e.row] for e in entries[:at]) or "clause" in entries[0].matched:
        return entries
    rest = [e for e in entries[at:] if law[e.row]]
    if not rest:
        return entries
    import numpy as np

    q = np.asarray(qvec, dtype=np.float32)
    li = scope.lex.leaves()
    if li is not None and li.vectors is not None and len(li):
        by_row = scope.lex.memo("leaves_by_row", lambda: _leaves_by_row(li))
        lead = _lead_vector(li, by_row, entries[0], q)
        scored = [(e, float((li.vectors[by_row[e.row]] @ (q + lead)).max())) for e in rest
                  if lead is not None and e.row in by_row]
    else:  # no leaf vectors (the default index): the clauses' own chunk vectors
        vecs = scope.store.dense_vectors([entries[0].key] + [e.key for e in rest])
        if vecs is None:
            return entries
        probe = q + vecs[0]
        scored = [(e, float(v @ probe)) for e, v in zip(rest, vecs[1:], strict=True)]
    best, best_score = max(scored, key=lambda t: t[1], default=(None, 0.0))
    if best is None:
        return entries
    best.scores["companion"] = round(best_score, 4)
    out = [e for e in entries if e is not best]
    out.insert(at - 1, best)
    return out


def _leaves_by_row(li: Any) -> dict[int, Any]:
    import numpy as np

    order = np.argsort(li.row, kind="stable")
    rows = li.row[order]
    cuts = np.flatnonzero(np.diff(rows)) + 1
    return {int(g[0]): order[s:e] for g, s, e in zip(np.split(rows, cuts), [0, *cuts], [*cuts, len(rows)], strict=True)}


def _lead_vector(li: Any, by_row: dict[int, Any], lead: Entry, qvec: Any) -> Any:
    """The vector of the leading clause's best leaf: the one the leaf lists matched, else the leaf nearest the
    question."""
    idx = by_row.get(lead.row)
    if idx is None:
        return None
    if lead.leaf:
        hit = [j for j in idx if li.paths[j] == lead.leaf]
        if hit:
            return li.vectors[hit[0]]
    return li.vectors[idx[int((li.vectors[idx] @ qvec).argmax())]]
