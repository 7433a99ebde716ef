"""Clause lookup: a clause or case named in the question ("제8조", "반품교환환불정책 제2조", "Section 4.2",
"2000다11621 판결요지") puts that node's chunks first, ahead of everything the retrievers ranked."""

from __future__ import annotations

from jogak.retrieve import structural
from jogak.retrieve.documents import named_titles
from jogak.retrieve.scope import Entry, Scope


def named_first(scope: Scope, entries: list[Entry], by_row: dict[int, Entry]) -> list[Entry]:
    """``entries`` with the chunks of the clauses the question names moved to the front (at most k per
    clause; a named case section is read from its beginning, a clause in the retrievers' order)."""
    first: list[Entry] = []
    if scope.opts.clause_lookup and scope.n:
        refs = structural.find_clause_refs(scope.query)
        if refs:
            first = _named_rows(scope, refs, entries, by_row)
    first_rows = {e.row for e in first}
    return first + [e for e in entries if e.row not in first_rows]


def _named_rows(scope: Scope, refs: list[structural.ClauseRef], entries: list[Entry],
                by_row: dict[int, Entry]) -> list[Entry]:
    lex = scope.lex
    doc_ids = _named_documents(scope)
    first: list[Entry] = []
    seen: set[int] = set()
    for ref in refs:
        rows = structural.clause_rows(ref, lex, scope.mask, doc_ids)
        if not ref.section:  # a named section is read from its beginning (document order)
            rank = {e.row: j for j, e in enumerate(entries)}
            rows = sorted(rows, key=lambda i: (rank.get(i, len(entries)), ))
        for i in rows[: scope.k]:
            if i in seen:
                continue
            seen.add(i)
            e = by_row.get(i) or Entry(i, lex.rows[i], 0.0, [])
            e.matched = ["clause", *[m for m in e.matched if m != "clause"]]
            first.append(e)
    return first


def _named_documents(scope: Scope) -> set[str] | None:
    """The documents the question names by title ("반품교환환불정책 제2조"), None when it names none."""
    named = named_titles(scope.query, scope.doc_titles)
    if not named:
        return None
    dcol, tcol = scope.lex.column("doc_id"), scope.lex.column("doc_title")
    return {dcol[i] for i in range(scope.n) if tcol[i] in named}
