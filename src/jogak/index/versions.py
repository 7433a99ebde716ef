"""The versions of each work in a collection, in the order they take effect, and which one was in force
on a day.

A document is a version of a work when its chunks carry ``work`` and ``effective_from`` (chunk schema
2.1; ``jogak.structure.versions`` reads the start from the text). A version is in force from its start up
to the next version's start (``effective_to``, exclusive; None for the last). The order is the order of
the starts, not of promulgation: 주택임대차보호법 promulgated on 2020-06-09 takes effect on 2020-12-10, after
the text promulgated on 2020-07-31.

Such a text is *superseded*: a consolidated text (law.go.kr's) holds every amendment promulgated before
it, the pending ones included with their later start (the 2020-07-31 text has 제6조 "<개정 2020.6.9>", in force
from 2020-12-10), while the earlier-promulgated text lacks the later amendment (the 2020-06-09 text has no
제6조의3, in force since 2020-07-31). So a text promulgated before another that takes effect no later than it
is never the text in force (``superseded_by``); the later text answers, clause by clause from the start
each clause carries (``clause_effective_from``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any


@dataclass(frozen=True, slots=True)
class Version:
    work: str
    doc_id: str
    doc_title: str
    effective_from: str  # ISO
    promulgated: str | None = None
    effective_to: str | None = None  # the next version's start (exclusive); None: no later version
    caveat: str | None = None
    superseded_by: str | None = None  # doc id of a later-promulgated text that already holds this one

    def in_force(self, day: str) -> bool:
        if self.superseded_by:
            return False
        return self.effective_from <= day and (self.effective_to is None or day < self.effective_to)

    def to_dict(self, today: str | None = None) -> dict[str, Any]:
        d: dict[str, Any] = {"work": self.work, "doc_id": self.doc_id, "doc_title": self.doc_title,
                             "effective_from": self.effective_from, "effective_to": self.effective_to,
                             "promulgated": self.promulgated}
        if today is not None:
            d["current"] = self.in_force(today)
        if self.caveat:
            d["caveat"] = self.caveat
        if self.superseded_by:
            d["superseded_by"] = self.superseded_by
        return d


Timelines = dict[str, list[Version]]


def today() -> str:
    return date.today().isoformat()


def timelines(rows: Iterable[tuple[Any, Any, Any, Any, Any]]) -> Timelines:
    """Every work's versions in effective order, from (doc_id, doc_title, work, effective_from,
    promulgated) rows (one per chunk is fine: the first row of a document counts)."""
    seen: dict[str, tuple[str, str, str, str | None]] = {}
    for doc_id, title, work, start, promulgated in rows:
        if doc_id and work and start and doc_id not in seen:
            seen[str(doc_id)] = (str(title or ""), str(work), str(start), str(promulgated) if promulgated else None)
    by_work: dict[str, list[tuple[str, str | None, str, str]]] = {}
    for doc_id, (title, work, start, promulgated) in seen.items():
        by_work.setdefault(work, []).append((start, promulgated, doc_id, title))
    out: Timelines = {}
    for work, items in by_work.items():
        items.sort(key=lambda x: (x[0], x[1] or "", x[2]))
        over = {i: _superseding(items, i) for i in range(len(items))}
        chain = [i for i in range(len(items)) if over[i] is None]
        versions: list[Version] = []
        for i, (start, promulgated, doc_id, title) in enumerate(items):
            later = [j for j in chain if j > i]
            nxt = items[later[0]][0] if later and over[i] is None else None
            by = over[i]
            caveat = None
            if by is not None:
                caveat = (f"superseded: the text promulgated on {items[by][1]} (in force from {items[by][0]}) already "
                          f"holds the amendments of this text promulgated on {promulgated}, and amendments this one lacks")
            versions.append(Version(work, doc_id, title, start, promulgated, nxt, caveat,
                                    items[by][2] if by is not None else None))
        out[work] = versions
    return out


def _superseding(items: list[tuple[str, str | None, str, str]], i: int) -> int | None:
    """The text that supersedes text ``i``: promulgated after it and taking effect no later (the latest)."""
    start, promulgated = items[i][0], items[i][1]
    if not promulgated:
        return None
    found = [j for j, (s, p, _, _) in enumerate(items) if j != i and p and p > promulgated and s <= start]
    return max(found, key=lambda j: (items[j][1] or "", items[j][0])) if found else None


def in_force(versions: list[Version], day: str) -> Version | None:
    return next((v for v in versions if v.in_force(day)), None)


def current(versions: list[Version], day: str | None = None) -> Version | None:
    return in_force(versions, day or today())


def pick(versions: list[Version], day: str) -> Version | None:
    """The version a date names for a comparison: one promulgated or taking effect on that day, else the
    one in force then."""
    by_promulgation = [v for v in versions if v.promulgated == day]
    by_start = [v for v in versions if v.effective_from == day and not v.superseded_by]
    exact = by_promulgation or by_start
    return exact[-1] if exact else in_force(versions, day)


def version_of(tl: Timelines, doc_id: str) -> Version | None:
    for versions in tl.values():
        for v in versions:
            if v.doc_id == doc_id:
                return v
    return None


def find_work(tl: Timelines, name: str) -> str | None:
    """A work by name (spacing ignored) or by one of its versions' titles."""
    key = "".join(name.split())
    for work, versions in tl.items():
        if "".join(work.split()) == key or any("".join(v.doc_title.split()) == key for v in versions):
            return work
    return None


def lexical_timelines(lex: Any) -> Timelines:
    """The timelines of the collection a lexical snapshot holds (computed once per snapshot)."""
    def make() -> Timelines:
        cols = lex.columns
        n = len(lex.rows)
        get = [cols.get(k) or [None] * n for k in ("doc_id", "doc_title", "work", "effective_from", "promulgated")]
        return timelines(zip(*get, strict=True))

    return lex.memo("timelines", make)


class VersionError(ValueError):
    """A diff or version look-up that names no work or no version of it (one line for people)."""


def work_versions(store: Any, work: str) -> tuple[str, list[Version]]:
    tl = lexical_timelines(store.lexical())
    found = find_work(tl, work)
    if found is None:
        names = ", ".join(sorted(tl)) or "none"
        raise VersionError(f"no work '{work}' with versions in this collection (works with versions: {names})")
    return found, tl[found]


def diff(store: Any, work: str, from_day: str, to_day: str) -> dict[str, Any]:
    """Articles added, removed and changed between the versions two days name (``pick``: the version
    promulgated or taking effect that day, else the one in force), with the changed sentences."""
    from jogak.structure.compare import compare

    name, versions = work_versions(store, work)
    picked = []
    for day in (from_day, to_day):
        v = pick(versions, day)
        if v is None:
            raise VersionError(f"no version of {name} in the collection was in force on {day} (its versions take "
                               f"effect on {', '.join(x.effective_from for x in versions)})")
        picked.append(v)
    old, new = picked
    trees = [store.tree(v.doc_id, with_text=True, links=False) for v in picked]
    if any(t is None for t in trees):
        raise VersionError("a version was ingested without its clause tree; re-ingest with --strategy structure")
    changes = [c.to_dict() for c in compare(trees[0], trees[1])] if old.doc_id != new.doc_id else []
    now = today()
    return {"work": name, "from": old.to_dict(now), "to": new.to_dict(now),
            "counts": {s: sum(1 for c in changes if c["status"] == s) for s in ("added", "removed", "changed")},
            "articles": changes}
