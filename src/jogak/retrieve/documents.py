"""Document routing in mixed collections: a question that names or implies a document prefers it; a
question that fits several documents gets the best clause of each rather than five from one.

A document is *named* by its title or a part of it (``structural.titles_in``: "개인정보보호법상", "다온마켓
약관"), by the usual short name of a law ("정보통신망 이용촉진 및 정보보호 등에 관한 법률" → 정보통신망법:
its first word + 법), by the kind of document it is ("약관", "처리방침", "시행령" when the title says so),
or by a name its opening line alone carries (a company, a party: "누리북스는 …"). Those documents'
candidates are lifted by ``document_boost``. Without a named document, each later clause of a document
already shown is discounted by ``document_spread`` per clause, so the documents that fit take turns.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from jogak.index.lexical import tokenize
from jogak.retrieve import structural
from jogak.retrieve.scope import Entry, Scope

if TYPE_CHECKING:
    from jogak.retrieve.searchable import SearchableStore

# what a question calls a kind of document → a word its title then holds
KIND_WORDS = {"약관": "약관", "처리방침": "처리방침", "방침": "방침", "시행령": "시행령", "시행규칙": "시행규칙",
              "계약서": "계약", "정책": "정책"}
_LAW_TAIL = re.compile(r"(?:에\s*관한\s*법률|법률)$")
_PARTICLE_TAIL = re.compile(r"(?:에서의|의|등)$")


def named_documents(scope: Scope) -> set[str]:
    """doc_ids of the documents the question names or implies (empty: none, or every one)."""
    titles = scope.doc_titles
    if len(titles) < 2:
        return set()
    q = re.sub(r"\s+", "", scope.query)
    named = set(structural.titles_in(scope.query, titles))
    shorts = scope.lex.memo("law_short_names", lambda: [(law_short_name(t), t) for t in titles])
    named.update(t for short, t in shorts if short and short in q)
    if not named:
        kinds = [w for k, w in KIND_WORDS.items() if k in q]
        named = {t for t in titles for w in kinds if w in re.sub(r"[\s_]+", "", t)}
    docs = _docs_by_title(scope, named) | _docs_by_name(scope)
    return docs if len(docs) < len(_all_docs(scope)) else set()


def law_short_name(title: str) -> str | None:
    """The usual short name of a long law title: its first word + 법 ("전자상거래 등에서의 소비자보호에 관한
    법률" → 전자상거래법; "약관의 규제에 관한 법률" → 약관법); None for a title that is not a long law name."""
    words = title.split()
    if len(words) < 3 or not _LAW_TAIL.search(title):
        return None
    first = _PARTICLE_TAIL.sub("", words[0])
    return f"{first}법" if len(first) >= 2 else None


def _all_docs(scope: Scope) -> set[str]:
    return scope.lex.memo("doc_ids", lambda: {d for d in scope.lex.column("doc_id") if d})


def _docs_by_title(scope: Scope, titles: set[str]) -> set[str]:
    if not titles:
        return set()
    by_title = scope.lex.memo("docs_by_title", lambda: _title_docs(scope))
    return {d for t in titles for d in by_title.get(t, ())}


def _title_docs(scope: Scope) -> dict[str, set[str]]:
    dcol, tcol = scope.lex.column("doc_id"), scope.lex.column("doc_title")
    out: dict[str, set[str]] = {}
    for d, t in zip(dcol, tcol, strict=True):
        if d and t:
            out.setdefault(t, set()).add(d)
    return out


def _docs_by_name(scope: Scope) -> set[str]:
    """Documents whose opening line alone (among all documents' opening lines) holds a word of the question
    that no other document uses anywhere — a company's or a party's name, not a topic ("반품")."""
    names = scope.lex.memo("doc_names", lambda: _opening_words(scope.store, scope))
    qtoks = {t for t in tokenize(scope.query) if len(t) >= 2}
    return {doc for doc, words in names.items() if any(_only_in(scope, t, doc) for t in qtoks & words)}


def _only_in(scope: Scope, token: str, doc: str) -> bool:
    """Does ``token`` occur in no other document's chunks than ``doc``'s (by the BM25 index)? (A title line
    is not always a chunk, so the name may occur in none.)"""
    bm25 = scope.lex.bm25
    if bm25 is None:
        return False
    import numpy as np

    rows = np.nonzero(np.asarray(bm25.get_scores([token])) > 0)[0]
    dcol = scope.lex.column("doc_id")
    return all(dcol[i] == doc for i in rows)


def _opening_words(store: SearchableStore, scope: Scope) -> dict[str, set[str]]:
    """Per document, the words of its opening line (its title line, read from the document's text when the
    store keeps it, else its first chunk's) that no other document's opening line has."""
    first: dict[str, str] = {}
    dcol, nocol = scope.lex.column("doc_id"), scope.lex.column("chunk_no")
    for i in range(scope.n):
        d = dcol[i]
        if d and (d not in first or (nocol[i] or 0) < (nocol[scope.row_of[first[d]]] or 0)):
            first[d] = scope.lex.rows[i]
    doc_text = getattr(store, "document_text", None)
    chunks = store.chunk_map(list(first.values()))
    words: dict[str, set[str]] = {}
    for d, key in first.items():
        text = (doc_text(d) if callable(doc_text) else None) or ""
        c = chunks.get(key)
        text = text[:300] or (c.text if c else "")
        line = next((ln for ln in text.splitlines() if ln.strip()), "")
        words[d] = {t for t in tokenize(line[:120]) if len(t) >= 2 and not t.isdigit()}
    count: dict[str, int] = {}
    for ws in words.values():
        for w in ws:
            count[w] = count.get(w, 0) + 1
    return {d: {w for w in ws if count[w] == 1} for d, ws in words.items()}


def prefer(scope: Scope, entries: list[Entry]) -> tuple[list[Entry], set[str]]:
    """Entries with those of the named documents lifted by ``document_boost``, best first; and the named
    documents."""
    if not scope.opts.documents or not entries:
        return entries, set()
    named = named_documents(scope)
    if not named:
        return entries, named
    dcol = scope.lex.column("doc_id")
    boost = float(scope.opts.document_boost)
    for e in entries:
        if dcol[e.row] in named:
            e.score *= boost
            e.scores["document"] = boost
    entries.sort(key=lambda e: -e.score)
    return entries, named


def spread(scope: Scope, entries: list[Entry], named: set[str]) -> list[Entry]:
    """Without a named document: each clause of a document after its first is discounted by
    ``document_spread`` per clause of that document ranked above it, so several fitting documents take
    turns at the top instead of one filling it. Clause lookups ("제8조") keep their place."""
    d = float(scope.opts.document_spread)
    if not scope.opts.documents or named or d <= 0 or len(_all_docs(scope)) < 2:
        return entries
    dcol = scope.lex.column("doc_id")
    fixed = [e for e in entries if "clause" in e.matched]
    rest = [e for e in entries if "clause" not in e.matched]
    seen: dict[str, int] = {}
    keyed = []
    for j, e in enumerate(rest):
        doc = dcol[e.row]
        n = seen.get(doc, 0)
        seen[doc] = n + 1
        keyed.append((e.score * (1.0 - d) ** n, -j, e))
    keyed.sort(key=lambda t: (-t[0], -t[1]))
    return fixed + [e for _, _, e in keyed]
