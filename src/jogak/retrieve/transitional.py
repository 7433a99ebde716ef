"""The last stage for versioned documents: each hit says which version it is, and a clause comes with the
transitional provision (경과조치, 적용례) that says how its change applies.

* When the collection holds more than one version of the work, a hit whose article has transitional links
  (chunk metadata ``transitional``, most recent first) is followed by that 부칙 clause (``matched:
  ["transitional"]``, ``via``: the article's chunk); it takes the place of the last plain hit, so a search
  returns as many hits as it would without it.
* When the search is about a day before the version in force today took effect (an event before the
  change: "2024년에 적립한 포인트"), the current version's transitional provision for the same article is
  added too — it is the rule that says whether the old text still governs that event (멤버십정책 부칙 ②).
* Every hit of a versioned document carries ``version`` (effective_from, effective_to, current).
"""

from __future__ import annotations

from jogak.index.versions import Version, current, today, version_of
from jogak.model import Hit
from jogak.retrieve.scope import Scope

_MAX_ADDED = 2  # transitional clauses added per search


def with_versions(scope: Scope, hits: list[Hit]) -> list[Hit]:
    tl = scope.timelines
    if not tl or not hits:
        return hits
    hits = _in_force_clauses(scope, hits)
    out: list[Hit] = []
    added = 0
    by_id = {h.chunk.id: h for h in hits}
    placed: set[str] = set()
    for h in hits:
        if h.chunk.id in placed:
            continue
        out.append(h)
        placed.add(h.chunk.id)
        if added >= _MAX_ADDED or "transitional" in h.matched:
            continue
        for extra in _transitional_for(scope, h):
            existing = by_id.get(extra.chunk.id)
            if existing is not None:  # already a hit further down: it moves up to the clause it modifies
                if existing.chunk.id in placed:
                    continue
                existing.matched = [*existing.matched, "transitional"]
                existing.via = existing.via or h.chunk.id
                extra = existing
            if added < _MAX_ADDED:
                out.append(extra)
                placed.add(extra.chunk.id)
                added += 1
    out = _trim(out, len(hits))
    now = today()
    for i, h in enumerate(out):
        h.rank = i + 1
        v = version_of(tl, h.chunk.metadata.doc_id)
        if v is not None:  # with how many versions of the work the collection holds
            h.version = {**v.to_dict(now), "versions": len(tl.get(v.work, []))}
    return out


def _trim(out: list[Hit], limit: int) -> list[Hit]:
    """As many hits as before: a transitional clause takes the place of the last plain hit (never of the
    article it comes with); with no room at all it is dropped."""
    out = list(out)
    while len(out) > limit:
        anchors = {h.via for h in out if "transitional" in h.matched}
        plain = [i for i, h in enumerate(out) if "transitional" not in h.matched and h.chunk.id not in anchors]
        trans = [i for i, h in enumerate(out) if "transitional" in h.matched]
        out.pop(plain[-1] if plain else trans[-1])
    return out


def _in_force_clauses(scope: Scope, hits: list[Hit]) -> list[Hit]:
    """Hits whose clause, as the text has it, takes effect only after the day asked about are left out:
    the wording in force that day is not in the collection (the search says so). A clause whose 유효기간
    ended before the day stays, with a notice that its wording has lapsed."""
    day = scope.as_of.day if scope.as_of is not None else None
    if day is None:
        return hits
    assert scope.as_of is not None
    asked = scope.as_of.filter is not None and scope.as_of.filter.origin != "default"
    kept: list[Hit] = []
    for h in hits:
        md = h.chunk.metadata
        if md.clause_effective_to and md.clause_effective_to < day:
            # a 유효기간 clause ended this wording: kept (it is all the collection says), with the notice
            note = (f"{md.doc_title} {md.article or md.path}: its 부칙 gives this wording effect until "
                    f"{md.clause_effective_to}; on {day} it has lapsed")
            if note not in scope.warnings:
                scope.warnings.append(note)
        later = md.clause_effective_from
        if later and later > day:
            v = version_of(scope.timelines, md.doc_id)
            if not asked and (v is None or len(scope.timelines.get(v.work, [])) < 2):
                # The work's only text, asked about today: dropping the clause would hide the rule altogether
                # (a consolidated 근로기준법 holds 제60조 as amended from 2027-06-10, and 연차 questions found
                # nothing). It stays, and the answer carries the notice.
                note = (f"{md.doc_title} {md.article or md.path}: the text the collection holds takes effect on "
                        f"{later}, after {day}; the wording in force on {day} is not in the collection, so this "
                        "is the coming wording")
                if note not in scope.warnings:
                    scope.warnings.append(note)
                kept.append(h)
                continue
            note = (f"{md.doc_title} {md.article or md.path}: the text the collection holds takes effect on {later}, "
                    f"after {day}; the wording in force on {day} is not in the collection")
            if note not in scope.warnings:
                scope.warnings.append(note)
            continue
        kept.append(h)
    return kept


def _article_path(path: str | None) -> str | None:
    """"본문/제6조의3/제1항" → "본문/제6조의3" (the article level of a body path)."""
    if not path:
        return None
    parts = path.split("/")
    for i, p in enumerate(parts):
        if (p.startswith("제") and p.endswith("조")) or "조의" in p:
            return "/".join(parts[: i + 1])
    return None


def _transitional_for(scope: Scope, h: Hit) -> list[Hit]:
    md = h.chunk.metadata
    found: list[Hit] = []
    v = version_of(scope.timelines, md.doc_id)
    if v is None or len(scope.timelines.get(v.work, [])) < 2:
        return found  # one version: no old and new rules meet in this collection
    if md.transitional:
        found.extend(_rows(scope, md.doc_id, md.transitional[0], h))
    day = scope.as_of.day if scope.as_of is not None else None
    if day is not None and not v.in_force(today()):
        now = current(scope.timelines.get(v.work, []))
        if now is not None and now.effective_from > day:
            found.extend(_later_rule(scope, now, _article_path(md.path), h))
    return found


def _later_rule(scope: Scope, now: Version, article: str | None, h: Hit) -> list[Hit]:
    """The transitional provision of the version in force today for ``article``."""
    if article is None:
        return []
    rows = _row_keys(scope, now.doc_id, article)
    chunks = scope.store.chunk_map(rows)
    links = next((c.metadata.transitional for c in chunks.values() if c.metadata.transitional), [])
    if not links:
        return []
    found = _rows(scope, now.doc_id, links[0], h)
    # a 부칙 the old version already has (a statute carries every earlier 부칙) is no later rule
    old = {c.text for c in scope.store.chunk_map(_row_keys(scope, h.chunk.metadata.doc_id, links[0])).values()}
    return [x for x in found if x.chunk.text not in old]


def _row_keys(scope: Scope, doc_id: str, path: str) -> list[str]:
    """The rows of a document that cover ``path`` (a packed chunk "부칙" covers "부칙/제2항")."""
    lex = scope.lex
    docs, prefixes = lex.column("doc_id"), lex.column("path_prefixes")
    return [lex.rows[i] for i in range(len(lex)) if docs[i] == doc_id and path in (prefixes[i] or ())]


def _rows(scope: Scope, doc_id: str, path: str, via: Hit) -> list[Hit]:
    keys = _row_keys(scope, doc_id, path)[:1]
    chunks = scope.store.chunk_map(keys)
    return [Hit(chunk=chunks[k], score=via.score, matched=["transitional"], via=via.chunk.id)
            for k in keys if k in chunks]
