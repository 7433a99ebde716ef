"""Retrieval: dense + BM25 fused by RRF, filters inside both, and structure-aware recall on top.

``search(store, query, k, filters, options)`` runs, in order:

1. filters: explicit ones plus those read from the question (``query_filters``), echoed in the result;
2. candidates: dense (Chroma, filtered in the query) and BM25 (bm25s over Kiwi morphemes, filtered by a
   mask), plus a *route* list when a routing rule names the question's entity (the same two retrievers
   restricted to the preferred block types); fused by weighted reciprocal rank fusion;
3. clause lookup: a clause or case named in the question ("제8조", "반품교환환불정책 제2조", "Section 4.2",
   "2000다11621") puts that node's chunks first;
4. cross-reference following: a hit whose chunk points elsewhere ("부록A 참조") is followed by the
   target node's chunks (``via`` = the pointer's id), inside the top k — also when the target was found
   directly — and a pointer is never returned without its target;
5. optional neighbour/parent expansion (extra hits after each hit, not counted in k).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jogak.filters import FIELDS, Filter, coerce_filters, to_chroma, to_mask
from jogak.model import Hit
from jogak.retrieve.wording import lexicon_expansion, vocabulary

__all__ = ["Filter", "SearchOptions", "SearchResult", "search"]


@dataclass
class SearchOptions:
    n_candidates: int = 50  # per retriever
    dense: bool = True
    bm25: bool = True
    weights: dict[str, float] = field(default_factory=lambda: {"dense": 1.0, "bm25": 1.0, "route": 1.0})
    rrf_k: int = 60
    query_filters: bool = True
    clause_lookup: bool = True
    xref: bool = True
    xref_depth: int = 2
    xref_per_target: int = 2  # chunks taken from one target node
    xref_max: int = 4  # target chunks added per search
    routing: bool = True
    routing_rules: str | None = None  # YAML path; default jogak/retrieve/routing.yaml
    # Everyday words in the question also search for the documents' wording (the answer stage's lexicon:
    # "월급" → 임금, "잘리다" → 해고, "ship" → deliver), in BM25 only; dense retrieval sees the question.
    lexicon: bool = True
    # ... and when the question's word never occurs in the collection ("자르다" in a statute), the dense
    # query carries the document wording too, in parentheses: "… 자르려면 … (해고)".
    lexicon_dense: bool = True
    expand: str | None = None  # None | "neighbours" | "parent"
    # Authority prior (seed 004: the binding clause outranks text that restates or explains it): the fused
    # score of a chunk is multiplied by the weight of its node kind / block type. An FAQ answer or a
    # footnote that says the same as an article ranks just below it; it still wins when it alone matches.
    # Addenda (부칙) say when and how amendments apply; a statute's long amendment history must not crowd
    # out the articles, so they rank lower unless the question is about application or transition (the
    # "transition" routing rule prefers them then, and this factor is not applied).
    authority: dict[str, float] = field(default_factory=lambda: {"faq": 0.975, "footnote": 0.95,
                                                                 "addenda": 0.9})

    @classmethod
    def from_config(cls, section: dict[str, Any] | None = None, **overrides: Any) -> SearchOptions:
        if section is None:
            from jogak.config import load_config

            section = load_config().section("retrieve")
        o = cls()
        for k, v in {**(section or {}), **overrides}.items():
            if k in ("weights", "authority") and isinstance(v, dict):
                setattr(o, k, {**getattr(o, k), **{str(a): float(b) for a, b in v.items()}})
            elif hasattr(o, k):
                setattr(o, k, v)
        return o

    @classmethod
    def baseline(cls) -> SearchOptions:
        """Seed 001's pipeline: dense only, nothing structural."""
        return cls(bm25=False, query_filters=False, clause_lookup=False, xref=False, routing=False, authority={},
                   lexicon=False)

    @classmethod
    def plain_hybrid(cls) -> SearchOptions:
        """The plain hybrid pipeline (the bar to beat): dense + BM25 fused by RRF, nothing structural, no
        lexicon, no question filters."""
        return cls(query_filters=False, clause_lookup=False, xref=False, routing=False, authority={},
                   lexicon=False, lexicon_dense=False)


@dataclass
class SearchResult:
    query: str
    filters: list[Filter]
    hits: list[Hit]
    warnings: list[str] = field(default_factory=list)
    retrieval_query: str = ""  # the text the retrievers saw (question minus filter phrases)
    routed: list[str] = field(default_factory=list)  # block types preferred by a routing rule

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "query": self.query,
            "filters": [f.to_dict() for f in self.filters],
            "hits": [h.to_dict() for h in self.hits],
        }
        if self.warnings:
            d["warnings"] = self.warnings
        return d


@dataclass
class _Entry:
    row: int  # index into the lexical snapshot
    key: str  # store row key ("chunk_id@gen")
    score: float
    matched: list[str]
    via: str | None = None
    scores: dict[str, float] = field(default_factory=dict)


def search(store: Any, query: str, k: int = 5, filters: Any = None,
           options: SearchOptions | None = None) -> SearchResult:
    from jogak.index.lexical import tokenize
    from jogak.retrieve import hybrid, structural
    from jogak.retrieve.query_filters import extract

    opts = options or SearchOptions.from_config()
    k = max(1, int(k))
    explicit = coerce_filters(filters)
    warnings: list[str] = []
    snap = store.snapshot()
    lex = store.lexical(snap)
    if opts.bm25 and getattr(store, "tokenizer_stale", lambda: False)():
        warnings.append("the BM25 index was built by an older tokenizer; run `jogak ingest` again to rebuild it")
    doc_titles = _derived(lex, "doc_titles", lambda: sorted({t for t in lex.columns.get("doc_title", []) if t}))
    from_q: list[Filter] = []
    rq = query
    if opts.query_filters:
        from_q, rq = extract(query, doc_titles)
        # a question filter on a key the caller already fixed is dropped: explicit wins
        fixed = {f.key for f in explicit}
        from_q = [f for f in from_q if f.key not in fixed and _has_values(lex, f.key)]
    all_filters = [*explicit, *from_q]
    n = len(lex)
    mask = to_mask(all_filters, lex.column, n)
    row_of = _derived(lex, "row_of", lambda: {key: i for i, key in enumerate(lex.rows)})
    n_cand = max(int(opts.n_candidates), 4 * k)

    # ── candidates ──
    lists: dict[str, list[tuple[str, float]]] = {}
    qtoks = tokenize(rq) if opts.bm25 and n else []
    extra, unseen = lexicon_expansion(rq, vocabulary(lex)) if opts.lexicon and n else ("", "")
    if qtoks and extra:
        qtoks = [*qtoks, *tokenize(extra)]
    if opts.bm25 and n:
        lists["bm25"] = [(lex.rows[i], s) for i, s in lex.search(qtoks, n_cand, mask)]
    use_dense = False
    qvec = None
    if opts.dense and n:
        use_dense, why = store.dense_info(snap)
        if not use_dense and why:
            warnings.append(why)
    where = None
    if use_dense:
        try:
            qvec = store.embedder.embed_query(f"{rq} ({unseen})" if unseen and opts.lexicon_dense else rq)
            where = to_chroma(all_filters, store.distinct)
            lists["dense"] = [(r, s) for r, s in store.dense_search(qvec, n_cand, where, snap) if r in row_of]
        except Exception as e:  # a broken vector store must not take lexical search down with it
            warnings.append(f"dense retrieval failed ({type(e).__name__}: {e}); lexical-only")
            use_dense = False
    routed: list[str] = []
    if opts.routing and n:
        prefer, w, _terms = structural.route(query, structural.load_rules(opts.routing_rules))
        if prefer:
            routed = prefer
            rf = [*all_filters, Filter("block_type", "in", prefer)]
            rmask = to_mask(rf, lex.column, n)
            sub: dict[str, list[tuple[str, float]]] = {}
            if opts.bm25:
                sub["bm25"] = [(lex.rows[i], s) for i, s in lex.search(qtoks, n_cand, rmask)]
            if use_dense and qvec is not None:
                try:
                    rwhere = to_chroma(rf, store.distinct)
                    sub["dense"] = [(r, s) for r, s in store.dense_search(qvec, n_cand, rwhere, snap)
                                    if r in row_of]
                except Exception:
                    pass
            fused_route = hybrid.rrf(sub, opts.weights, opts.rrf_k)
            lists["route"] = [(f.key, f.score) for f in fused_route]
            weights = {**opts.weights, "route": opts.weights.get("route", 1.0) * w}
        else:
            weights = opts.weights
    else:
        weights = opts.weights
    fused = hybrid.rrf(lists, weights, opts.rrf_k)
    if opts.authority and fused:
        kinds, blocks = lex.column("kind"), lex.column("block_type")
        authority = {b: w for b, w in opts.authority.items() if b not in routed}
        for f in fused:
            i = row_of.get(f.key)
            if i is not None:
                f.score *= authority.get(kinds[i] or "", authority.get(blocks[i] or "", 1.0))
        fused.sort(key=lambda f: -f.score)
    entries: list[_Entry] = []
    for f in fused:
        i = row_of.get(f.key)
        if i is None:
            continue
        e = _Entry(i, f.key, f.score, [m for m in ("dense", "bm25", "route") if m in f.ranks])
        e.scores = {"rrf": round(f.score, 6), **{f"{m}_rank": r for m, r in f.ranks.items()},
                    **{m: round(v, 6) for m, v in f.raw.items()}}
        entries.append(e)
    by_row = {e.row: e for e in entries}

    # ── clause lookup: named clauses/cases first ──
    first: list[_Entry] = []
    if opts.clause_lookup and n:
        refs = structural.find_clause_refs(query)
        if refs:
            named = structural.titles_in(query, doc_titles)
            doc_ids = None
            if named:
                dcol, tcol = lex.column("doc_id"), lex.column("doc_title")
                doc_ids = {dcol[i] for i in range(n) if tcol[i] in named}
            seen: set[int] = set()
            for ref in refs:
                rows = structural.clause_rows(ref, lex, mask, doc_ids)
                if not ref.section:  # a named section is read from its beginning (document order)
                    rank = {e.row: j for j, e in enumerate(entries)}
                    rows = sorted(rows, key=lambda i: (rank.get(i, len(entries)), ))
                for i in rows[:k]:
                    if i in seen:
                        continue
                    seen.add(i)
                    e = by_row.get(i) or _Entry(i, lex.rows[i], 0.0, [])
                    e.matched = ["clause", *[m for m in e.matched if m != "clause"]]
                    first.append(e)
    first_rows = {e.row for e in first}
    ordered = first + [e for e in entries if e.row not in first_rows]

    # ── assemble top k, pairing pointers with their targets ──
    pointers = lex.column("pointers")
    doc_col = lex.column("doc_id")
    rank_of = {e.row: j for j, e in enumerate(ordered)}
    final: list[_Entry] = []
    placed: set[int] = set()
    budget = [int(opts.xref_max)]

    def targets_of(p: _Entry, depth: int, seen: set[int]) -> list[_Entry]:
        """Chunks of the nodes ``p``'s pointer sentences point at, breadth first (direct targets, then
        what those point at), best-ranked first within a target, depth- and count-limited, deduplicated."""
        out: list[_Entry] = []
        frontier = [p]
        for _ in range(max(0, depth) if opts.xref else 0):
            nxt: list[_Entry] = []
            for src in frontier:
                pid = _id(src.key)
                for target in pointers[src.row] or []:
                    rows = structural.target_rows(lex, doc_col[src.row], target, mask)
                    rows = sorted(rows, key=lambda i: rank_of.get(i, len(ordered)))
                    taken = 0
                    for i in rows:
                        if taken >= opts.xref_per_target or budget[0] <= 0:
                            break
                        if i in seen or i in placed:
                            continue
                        seen.add(i)
                        base = by_row.get(i)
                        t = _Entry(i, lex.rows[i], base.score if base else src.score,
                                   [*(base.matched if base else []), "xref"], via=pid,
                                   scores=dict(base.scores) if base else {})
                        budget[0] -= 1
                        taken += 1
                        nxt.append(t)
            out.extend(nxt)
            frontier = nxt
            if not frontier:
                break
        return out

    # which retrieved pointer points at a row (so a target found directly is shown with its pointer)
    pointer_of: dict[int, _Entry] = {}
    if opts.xref:
        for e in ordered[: max(3 * k, 20)]:
            for target in pointers[e.row] or []:
                for i in structural.target_rows(lex, doc_col[e.row], target, mask):
                    pointer_of.setdefault(i, e)

    def place(group: list[_Entry]) -> None:
        room = k - len(final)
        if room <= 0:
            return
        if room < len(group) and room == 1:
            # no room for a pointer and its target together: the target is the answer, not the pointer
            group = [g for g in group if not pointers[g.row]][:1] or group[:1]
        for g in group[:room]:
            final.append(g)
            placed.add(g.row)

    for e in ordered:
        if len(final) >= k:
            break
        if e.row in placed:
            continue
        p = pointer_of.get(e.row)
        if pointers[e.row] or p is None or p.row in placed:
            # a pointer (or a plain hit): its targets follow it
            place([e, *targets_of(e, opts.xref_depth, {e.row})])
            continue
        # a target ranked above its pointer: it keeps its place and the pointer follows it, so the
        # answer and the clause that refers to it arrive together (via = the pointer, as for any xref hit)
        t = _Entry(e.row, e.key, e.score, [*e.matched, "xref"], via=_id(p.key), scores=e.scores)
        seen = {e.row, p.row}
        place([t, p, *targets_of(p, opts.xref_depth, seen)])

    # ── optional expansion (extra context, not counted in k) ──
    extra: dict[int, list[_Entry]] = {}
    if opts.expand in ("neighbours", "neighbors", "parent"):
        mode = "parent" if opts.expand == "parent" else "neighbours"
        for e in final:
            for i in structural.neighbour_rows(lex, e.row, mode, mask):
                if i in placed:
                    continue
                placed.add(i)
                extra.setdefault(e.row, []).append(_Entry(i, lex.rows[i], 0.0, ["neighbour"], via=_id(e.key)))
    out_entries: list[_Entry] = []
    for e in final:
        out_entries.append(e)
        out_entries.extend(extra.get(e.row, []))

    chunks = store.chunk_map([e.key for e in out_entries])  # rows a concurrent writer deleted are absent
    hits: list[Hit] = []
    for e in out_entries:
        c = chunks.get(e.key)
        if c is None:
            continue
        hits.append(Hit(chunk=c, score=round(e.score, 6), rank=len(hits) + 1, matched=e.matched, via=e.via,
                        scores=e.scores))
    return SearchResult(query=query, filters=all_filters, hits=hits, warnings=warnings, retrieval_query=rq,
                        routed=routed)


def _derived(lex: Any, name: str, make: Any) -> Any:
    """Per-snapshot derived data (row index, title list), computed once per loaded lexical index."""
    cache = lex.__dict__.setdefault("_derived", {})
    if name not in cache:
        cache[name] = make()
    return cache[name]


def _has_values(lex: Any, key: str) -> bool:
    """A filter read from the question applies only when the collection has that field at all: "2025년
    이후" in a question about store policies must not filter every policy chunk out by decision date."""
    return _derived(lex, f"has:{key}", lambda: any(v not in (None, []) for v in
                                                   (lex.columns.get(FIELDS[key].column) or [])))


def _id(key: str) -> str:
    return key.rsplit("@", 1)[0]
