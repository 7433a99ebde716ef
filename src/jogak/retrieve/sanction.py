"""The penalty provision followed from the duty it punishes: a question asking what the sanction is ("…하면 과태료가
얼마예요?", "…하면 어떤 처벌을 받아요?") describes a breach in its own words; they match the duty clause ("…반환 등의 조치를
하여야 한다", 제28조④), while the 벌칙 or 과태료 article that answers names that clause only by number ("제28조제4항을
위반하여 …한 자"). For each of the first ``sanction_top`` hits that is a statute's duty clause, the same law's penalty
article citing it as breached goes right before it — a candidate moved up, or the article's chunk added (a structural
link, like a cross-reference's target; the law's few penalty articles are read, not searched).
"""

from __future__ import annotations

from jogak.grammar.laws import (
    PENALTY_HEADING_RE,
    article_number,
    asks_the_sanction,
    sanctions_asked,
    title_kind,
    violated_clauses,
)
from jogak.retrieve.scope import Entry, Scope
from jogak.retrieve.structural import doc_rows


def _cites(text: str, art: tuple[int, int], para: int | None) -> bool:
    for label, p in violated_clauses(text):
        if article_number(label) == art and (para is None or p is None or p == para):
            return True
    return False


def follow_sanctions(scope: Scope, ordered: list[Entry]) -> list[Entry]:
    """``ordered`` with the penalty article punishing the breach of each leading duty clause placed before it."""
    top = int(getattr(scope.opts, "sanction_top", 0))
    if top <= 0 or not ordered or not asks_the_sanction(scope.query):
        return ordered
    titles, docs, arts = scope.lex.column("doc_title"), scope.lex.column("doc_id"), scope.lex.column("article")
    paths = scope.lex.column("path")
    lead = [e for e in ordered[:top] if title_kind(titles[e.row] or "") == "statute"
            and not PENALTY_HEADING_RE.search(str(arts[e.row] or ""))]
    kinds = sanctions_asked(scope.query)  # the kinds asked for, preferred first
    first = PENALTY_HEADING_RE.search(str(arts[ordered[0].row] or ""))
    if first and first.group("kind") == "양벌":
        return ordered  # the 양벌규정 already leads
    if kinds[:1] == ("양벌",):
        # the first leading statute clause — a duty or its law's 벌칙 — whose law has a 양벌규정; else as usual
        for e in (e for e in ordered[:top] if title_kind(titles[e.row] or "") == "statute"):
            if (placed := _employer_provision(scope, ordered, e)) is not None:
                return placed
    if not lead or first:
        return ordered  # the first hit already is a penalty provision
    wanted = {docs[e.row] for e in lead}
    rank: dict[int, int] = {}
    for i in (i for doc in wanted for i in doc_rows(scope.lex, doc)):
        if (scope.mask is None or scope.mask[i]) and (m := PENALTY_HEADING_RE.search(str(arts[i] or ""))) \
                and m.group("kind") in kinds:
            rank[i] = kinds.index(m.group("kind"))
    rows = sorted(rank, key=lambda i: (rank[i], i))
    if not rows:
        return ordered
    chunks = scope.store.chunk_map([scope.lex.rows[i] for i in rows])
    by_row = {e.row: e for e in ordered}
    out = list(ordered)
    moved: set[int] = set()
    for e in lead:
        art = article_number(str(arts[e.row] or ""))
        if art is None:
            continue
        para = _paragraph(str(paths[e.row] or ""))
        hit = next((i for i in rows if i not in moved and docs[i] == docs[e.row]
                    and (c := chunks.get(scope.lex.rows[i])) is not None and _cites(c.text, art, para)), None)
        if hit is None:
            continue
        key = scope.lex.rows[hit]
        # the candidate holding that chunk: itself, or the hit its clause's chunks collapsed into
        entry = by_row.get(hit) or next((x for x in out if key in x.also), None)
        if entry is not None:
            if entry in out[:out.index(e)]:
                continue  # already above the duty clause
            out.remove(entry)
        else:
            entry = Entry(hit, key, e.score, [], via=None)
        entry.matched = [*entry.matched, "sanction"]
        out.insert(out.index(e), entry)
        moved.add(entry.row)
    return out


def _employer_provision(scope: Scope, ordered: list[Entry], lead: Entry) -> list[Entry] | None:
    """``ordered`` with the 양벌규정 of the leading duty clause's law placed before it (None when that law has
    none): whether the business is punished too for what its staff did is that article's alone to say (it cites
    the 벌칙 articles, not the duty)."""
    arts = scope.lex.column("article")
    rows = [i for i in doc_rows(scope.lex, scope.lex.column("doc_id")[lead.row])
            if (scope.mask is None or scope.mask[i]) and (m := PENALTY_HEADING_RE.search(str(arts[i] or "")))
            and m.group("kind") == "양벌"]
    if not rows:
        return None
    key = scope.lex.rows[rows[0]]
    docs = scope.lex.column("doc_id")
    # before the law's duty clause, or its 벌칙 or 과태료 article if one comes first
    at = next(x for x in ordered if x is lead or (docs[x.row] == docs[lead.row]
                                                  and PENALTY_HEADING_RE.search(str(arts[x.row] or ""))))
    out = list(ordered)
    entry = next((x for x in out if x.row == rows[0] or key in x.also), None)
    if entry is not None:
        if out.index(entry) < out.index(at):
            return ordered
        out.remove(entry)
    else:
        entry = Entry(rows[0], key, lead.score, [], via=None)
    entry.matched = [*entry.matched, "sanction"]
    out.insert(out.index(at), entry)
    return out


def _paragraph(path: str) -> int | None:
    """The paragraph number of a clause path ("본문/제28조/제4항" → 4), None for a whole article."""
    last = path.rsplit("/", 1)[-1]
    return int(last[1:-1]) if last.startswith("제") and last.endswith("항") and last[1:-1].isdigit() else None
