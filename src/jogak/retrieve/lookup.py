"""Clause lookup: a clause or case named in the question ("제8조", "반품교환환불정책 제2조", "Section 4.2",
"2000다11621 판결요지") puts that node's chunks first, ahead of everything the retrievers ranked; so does a
term the question asks the meaning of ("유전자검사는 어떤 검사예요?") or names as a text uses it ("법에서 말하는
'실종아동'은 몇 살까지예요?") for the chunk whose definitions item defines it (the ``defines`` column, written at
ingest)."""

from __future__ import annotations

from typing import Any

from jogak.grammar.definitions import as_said_terms, asked_terms, restricted_compound
from jogak.grammar.laws import kinds_before_articles, title_kind
from jogak.korean import modifying_verb
from jogak.retrieve import structural
from jogak.retrieve.documents import named_titles
from jogak.retrieve.scope import Entry, Scope


def named_first(scope: Scope, entries: list[Entry], by_row: dict[int, Entry]) -> list[Entry]:
    """``entries`` with the chunks of the clauses the question names moved to the front (at most k per
    clause; a named case section is read from its beginning, a clause in the retrievers' order)."""
    first: list[Entry] = []
    if scope.opts.clause_lookup and scope.n:
        refs = structural.find_clause_refs(scope.query)
        first = _named_rows(scope, refs, entries, by_row) if refs else _defining_rows(scope, entries, by_row)
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
    """The documents the question names by title ("반품교환환불정책 제2조") or, naming none, by the kind of
    document a bare word before the article says ("법 제11조": the Acts; "약관 제17조": the terms); None when
    it names none."""
    named = named_titles(scope.query, scope.doc_titles)
    if not named:
        kinds = kinds_before_articles(scope.query)
        named = {t for t in scope.doc_titles if title_kind(t) in kinds} if kinds else set()
    if not named:
        return None
    dcol, tcol = scope.lex.column("doc_id"), scope.lex.column("doc_title")
    return {dcol[i] for i in range(scope.n) if tcol[i] in named}


def _defining_rows(scope: Scope, entries: list[Entry], by_row: dict[int, Entry], most: int = 3) -> list[Entry]:
    """The chunks that define the term the question asks the meaning of (the longest such term any chunk
    defines), in the documents the question names if it names any, in the retrievers' order."""
    lex = scope.lex
    defined = lex.memo("defined_terms", lambda: _term_rows(lex.column("defines")))
    said = next(((t, law) for t, law in as_said_terms(scope.query) if t in defined), None)
    term = next((t for t in asked_terms(scope.query, modifying_verb) if t in defined), None) \
        or (said[0] if said else None) or restricted_compound(scope.query, defined, modifying_verb)
    if term is None:
        return []
    doc_ids = _named_documents(scope)
    dcol = lex.column("doc_id")
    rows = [i for i in defined[term] if (scope.mask is None or scope.mask[i])
            and (doc_ids is None or dcol[i] in doc_ids)]
    if said and said[0] == term and doc_ids is None:
        # "법에서 말하는 X": the laws' definition of X before the terms' (and the terms' for "약관에서 말하는")
        tcol = lex.column("doc_title")
        said_by = [i for i in rows if (title_kind(tcol[i]) != "other") == said[1]]
        rows = said_by or rows
    rank = {e.row: j for j, e in enumerate(entries)}
    first: list[Entry] = []
    for i in sorted(rows, key=lambda i: rank.get(i, len(entries)))[:most]:
        e = by_row.get(i) or Entry(i, lex.rows[i], 0.0, [])
        e.matched = ["clause", "defines", *[m for m in e.matched if m not in ("clause", "defines")]]
        first.append(e)
    return first


def _term_rows(column: Any) -> dict[str, list[int]]:
    """term → the rows whose chunk defines it."""
    out: dict[str, list[int]] = {}
    for i, terms in enumerate(column):
        for t in terms or ():
            out.setdefault(t, []).append(i)
    return out
