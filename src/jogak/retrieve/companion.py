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

from jogak.retrieve.documents import law_documents
from jogak.retrieve.leaves import entry_leaves
from jogak.retrieve.scope import Entry, Scope


def law_companion(scope: Scope, entries: list[Entry], qvec: Any) -> list[Entry]:
    """``entries`` with the law clause nearest the question and the leading clause placed at ``companion_at``
    when the first ``companion_at`` hits hold no law clause and the leading one belongs to another document."""
    at = int(scope.opts.companion_at)
    if at <= 0 or qvec is None or len(entries) <= at or not scope.opts.documents:
        return entries
    laws, dcol = law_documents(scope), scope.lex.column("doc_id")
    if any(laws.get(dcol[e.row], False) for e in entries[:at]) or "clause" in entries[0].matched:
        return entries
    rest = [e for e in entries[at:] if laws.get(dcol[e.row], False)]
    if not rest:
        return entries
    import numpy as np

    q = np.asarray(qvec, dtype=np.float32)
    li = scope.lex.leaves()
    if li is not None and li.vectors is not None and len(li):
        lead = _lead_vector(scope, li, entries[0], q)
        if lead is None:
            return entries
        scored = [(e, float((li.vectors[idx] @ (q + lead)).max())) for e in rest if (idx := entry_leaves(scope, li, e))]
    else:  # no leaf vectors (the default index): the clauses' own chunk vectors
        vecs = scope.store.dense_vectors([entries[0].key] + [e.key for e in rest])
        if vecs is None:
            return entries
        scored = [(e, float(v @ (q + vecs[0]))) for e, v in zip(rest, vecs[1:], strict=True)]
    if not scored:
        return entries
    best, best_score = max(scored, key=lambda t: t[1])
    best.scores["companion"] = round(best_score, 4)
    out = [e for e in entries if e is not best]
    out.insert(at - 1, best)
    return out


def _lead_vector(scope: Scope, li: Any, lead: Entry, q: Any) -> Any:
    """The vector of the leading clause's best leaf: the one the leaf lists matched, else the leaf nearest the
    question; None when the clause has no leaves."""
    idx = entry_leaves(scope, li, lead)
    if not idx:
        return None
    hit = [j for j in idx if lead.leaf and li.paths[j] == lead.leaf]
    return li.vectors[hit[0] if hit else idx[int((li.vectors[idx] @ q).argmax())]]
