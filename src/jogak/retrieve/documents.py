"""Document routing in mixed collections: a question that names or implies a document prefers it; a
question that fits several documents gets the best clause of each rather than five from one.

A document is *named* by its title or a part of it (``structural.titles_in``: "개인정보보호법상", "다온마켓
약관"), by a short name of a law ("정보통신망법", "가맹사업법 시행령": ``grammar.laws.laws_named``, which
tells the Act from its decree), by the kind of document it is ("약관", "처리방침", "시행령" when the title says so),
or by a name its opening line alone carries (a company, a party: "누리북스는 …"). Those documents'
candidates are lifted by ``document_boost``. A question naming no document but asking about public regulation
or what a public body does ("과태료", "허가", "구청이 …") prefers the laws: in a collection of laws and other
documents, the others' candidates are discounted by ``regulation_prior`` (a company's terms bind no 구청), and
one asking a state sanction ("어떤 처벌을 받아요?") gets the laws' first clauses before them (``laws_first``). Without a
named document, each later clause of a document already shown is discounted by ``document_spread`` per clause, so
the documents that fit take turns.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from jogak.grammar.laws import (
    asks_a_sanction,
    asks_about_regulation,
    family_of,
    laws_named,
    name_key,
    split_instrument,
    title_kind,
)
from jogak.index.lexical import tokenize
from jogak.retrieve import structural
from jogak.retrieve.scope import Entry, Scope

if TYPE_CHECKING:
    from jogak.retrieve.searchable import SearchableStore

# what a question calls a kind of document → a word its title then holds
KIND_WORDS = {"약관": "약관", "처리방침": "처리방침", "방침": "방침", "시행령": "시행령", "시행규칙": "시행규칙",
              "계약서": "계약", "정책": "정책"}


def named_documents(scope: Scope) -> set[str]:
    """doc_ids of the documents the question names or implies (empty: none, or every one)."""
    titles = scope.doc_titles
    if len(titles) < 2:
        return set()
    q = re.sub(r"\s+", "", scope.query)
    named = named_titles(scope.query, titles)
    if not named:
        kinds = [w for k, w in KIND_WORDS.items() if k in q]
        named = {t for t in titles for w in kinds if w in re.sub(r"[\s_]+", "", t)}
    docs = _docs_by_title(scope, named) | _docs_by_name(scope)
    return docs if len(docs) < len(_all_docs(scope)) else set()


def named_titles(query: str, titles: list[str]) -> set[str]:
    """Titles the question names, by title, alias or a law's short name; an Act named only as part of its
    decree's or rule's name ("개인정보보호법 시행령") is not named itself."""
    by_law = laws_named(query, titles)
    instruments = {family_of(t) for t in by_law if split_instrument(t)[1] != "act"}
    q = name_key(query)
    by_title = {t for t in structural.titles_in(query, titles)
                if (t in by_law or title_kind(t) != "statute" or family_of(t) not in instruments)
                and not _inside_another_name(t, q, by_law)}
    return by_title | by_law


def _inside_another_name(title: str, q: str, by_law: set[str]) -> bool:
    """Is a law's title read only as the tail of a longer law name that names another law ("의료법" in
    "응급의료법 제9조", which names 응급의료에 관한 법률)?"""
    if title in by_law or title_kind(title) == "other" or not (by_law - {title}):
        return False
    starts = [m.start() for m in re.finditer(re.escape(name_key(title)), q)]
    return bool(starts) and all(i > 0 and "가" <= q[i - 1] <= "힣" for i in starts)


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
        words[d] = {t for t in _name_parts(line[:120]) if len(t) >= 2 and not t.isdigit()}
    count: dict[str, int] = {}
    for ws in words.values():
        for w in ws:
            count[w] = count.get(w, 0) + 1
    return {d: {w for w in ws if count[w] == 1} for d, ws in words.items()}


# Company forms before a name ("주식회사 햇잎", "영어조합법인 함초롬", "(주)누리")
_CORPORATE = frozenset({"주식회사", "유한회사", "합자회사", "합명회사", "사단법인", "재단법인", "협동조합", "사회적협동조합",
                        "영농조합법인", "영어조합법인", "농업회사법인", "(주)", "㈜", "(사)", "(재)"})


def _name_parts(line: str) -> list[str]:
    """The tokens of a title line that can name its document: the brand — the line's first word after any
    company form, and the word after a company form anywhere ("이용약관 (주식회사 햇잎)") — and of a compound
    only its first token. The words after the brand say the trade ("은비늘 물고기마을 이용약관", "쪽빛 해양레저 체험
    이용약관"): what every question about that trade says, and read as the document's name it sent such
    questions to the company's terms and switched off the routing rules for laws (r14: "한아름상조"'s "상조";
    session 46: "체험", "물고기")."""
    raw = line.split()
    words = [w.strip("()[]「」『』<>·,") or w for w in raw]
    corporate = [w in _CORPORATE or r in _CORPORATE for w, r in zip(words, raw, strict=True)]
    brands = [w for i, w in enumerate(words) if not corporate[i]
              and (i == corporate.index(False) or (i > 0 and corporate[i - 1]))]
    out: list[str] = []
    for word in brands:
        toks = [t for t in tokenize(word) if len(t) >= 2]
        out.extend(toks[:1])
    return out


def prefer(scope: Scope, entries: list[Entry]) -> tuple[list[Entry], set[str]]:
    """Entries with those of the named documents lifted by ``document_boost``, best first; and the named
    documents."""
    if not scope.opts.documents or not entries:
        return entries, set()
    named = named_documents(scope)
    if not named:
        return _regulation_prior(scope, entries), named
    dcol = scope.lex.column("doc_id")
    boost = float(scope.opts.document_boost)
    for e in entries:
        if dcol[e.row] in named:
            e.score *= boost
            e.scores["document"] = boost
    entries.sort(key=lambda e: -e.score)
    return entries, named


def _regulation_prior(scope: Scope, entries: list[Entry]) -> list[Entry]:
    """A question about public regulation or what a public body does names no document: in a collection of
    laws and other documents, the other documents' candidates are multiplied by ``regulation_prior``."""
    w = float(scope.opts.regulation_prior)
    if w >= 1.0 or not asks_about_regulation(scope.query):
        return entries
    kinds = law_documents(scope)
    if len(set(kinds.values())) < 2:
        return entries
    dcol = scope.lex.column("doc_id")
    for e in entries:
        if not kinds.get(dcol[e.row], False):
            e.score *= w
            e.scores["regulation"] = w
    entries.sort(key=lambda e: -e.score)
    return entries


def law_documents(scope: Scope) -> dict[str, bool]:
    """Per document id: is it a law (an Act, a decree, a rule)? (memoised on the snapshot)"""
    return scope.lex.memo("doc_kinds", lambda: {
        d: title_kind(t or "") != "other"
        for d, t in zip(scope.lex.column("doc_id"), scope.lex.column("doc_title"), strict=True) if d})


def spread(scope: Scope, entries: list[Entry], named: set[str]) -> list[Entry]:
    """Without a named document: each clause of a document after its first is discounted by
    ``document_spread`` per clause of that document ranked above it, so several fitting documents take
    turns at the top instead of one filling it. Clause lookups ("제8조") keep their place."""
    d = float(scope.opts.document_spread)
    if not scope.opts.documents or named or d <= 0 or len(_all_docs(scope)) < 2:
        return entries
    dcol = scope.lex.column("doc_id")
    fixed, rest = _lookups_apart(entries)
    seen: dict[str, int] = {}
    keyed = []
    for j, e in enumerate(rest):
        doc = dcol[e.row]
        n = seen.get(doc, 0)
        seen[doc] = n + 1
        keyed.append((e.score * (1.0 - d) ** n, -j, e))
    keyed.sort(key=lambda t: (-t[0], -t[1]))
    return fixed + [e for _, _, e in keyed]


def laws_first(scope: Scope, entries: list[Entry], named: set[str] | frozenset[str] = frozenset()) -> list[Entry]:
    """A question asking a state sanction (``asks_a_sanction``): the laws' first ``sanction_laws_first`` clauses
    before the other documents' (a company's terms impose no 벌금; the terms' clauses keep their order behind
    them); clause lookups ("제8조") keep their place. A question naming only documents that are no law ("누리마켓은
    제 과태료를 대신 내 줘요?") asks what they say about the sanction: their order stands."""
    most = int(scope.opts.sanction_laws_first)
    if not scope.opts.documents or most <= 0 or not entries or not asks_a_sanction(scope.query):
        return entries
    kinds = law_documents(scope)
    if len(set(kinds.values())) < 2 or (named and not any(kinds.get(d, False) for d in named)):
        return entries
    dcol = scope.lex.column("doc_id")
    fixed, rest = _lookups_apart(entries)
    lead = [e for e in rest if kinds.get(dcol[e.row], False)][:most]
    return fixed + lead + [e for e in rest if e not in lead]


def _lookups_apart(entries: list[Entry]) -> tuple[list[Entry], list[Entry]]:
    """(the clause lookups, which keep their place at the top; the rest, which routing may reorder)."""
    return [e for e in entries if "clause" in e.matched], [e for e in entries if "clause" not in e.matched]
