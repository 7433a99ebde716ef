"""Delegation followed within a law family: an Act's clause that leaves the details to its decree or rule
("… 대통령령으로 정한다", "… 보건복지부령으로 정하는 서류") is followed by the clause of that decree or rule which fills
them in ("법 제12조제1항에 따른 … 은 다음 각 호와 같다"), when that clause is among the candidates; a decree's clause
that leaves them to its rule, by the rule's clause naming it ("영 제5조").

An everyday question asks the detail ("며칠 안에", "무슨 서류"); the Act's clause, which names the topic, often
ranks first and the decree's, which has the answer, far below it. Only candidates the first ranking already
holds are moved (this is re-ordering by structure, not a new search), each to right after the Act clause that
delegates to it, among the first ``delegation_top`` hits.
"""

from __future__ import annotations

import re

from jogak.grammar.laws import article_number, family_of, title_kind
from jogak.grammar.pointers import DELEGATES_RE
from jogak.retrieve.scope import Entry, Scope

# the Act's (or the decree's) article a decree or rule clause names: "법 제12조", "법 제12조의2제1항", "영 제5조"
_NAMED_RE = {q: re.compile(rf"(?<![가-힣]){q}\s*제\s*(\d+)\s*조(?:\s*의\s*(\d+))?") for q in ("법", "영")}


def follow_delegation(scope: Scope, ordered: list[Entry]) -> list[Entry]:
    """``ordered`` with each delegating Act clause among the first ``delegation_top`` followed by the best
    candidate clause of its decree or rule that names it."""
    top = int(scope.opts.delegation_top)
    if top <= 0 or len(ordered) < 2:
        return ordered
    titles = scope.lex.column("doc_title")
    kinds = {e.row: title_kind(titles[e.row] or "") for e in ordered}
    heads = {e.row for e in ordered[:top] if kinds[e.row] in ("statute", "decree")}
    if not heads or not any(k in ("decree", "rule") for k in kinds.values()):
        return ordered
    # only the texts that can matter: the leading Act and decree clauses, and the decree and rule candidates
    chunks = scope.store.chunk_map([e.key for e in ordered if e.row in heads or kinds[e.row] in ("decree", "rule")])
    out = list(ordered)
    moved: set[int] = set()
    for e in ordered[:top]:
        c = chunks.get(e.key)
        if c is None or kinds[e.row] not in ("statute", "decree") or e.row in moved:
            continue
        m = DELEGATES_RE.search(c.text)
        if m is None:
            continue
        # an Act delegates to its decree ("대통령령") or rule (a 부령), which name it "법 제N조"; a decree to its rule,
        # which names it "영 제N조"
        wanted = ("decree",) if m.group(0).startswith("대통령령") else ("rule",)
        if kinds[e.row] == "decree" and wanted != ("rule",):
            continue
        qualifier = "법" if kinds[e.row] == "statute" else "영"
        art = article_number(c.metadata.article or "")
        family = family_of(titles[e.row] or "")
        if art is None:
            continue
        follower = next((x for x in out[out.index(e) + 1:]
                         if x.row not in moved and kinds[x.row] in wanted
                         and family_of(titles[x.row] or "") == family
                         and (xc := chunks.get(x.key)) is not None and art in _named(qualifier, xc.text)), None)
        if follower is None:
            continue
        out.remove(follower)
        out.insert(out.index(e) + 1, follower)
        follower.matched = [*follower.matched, "delegation"]
        moved.add(follower.row)
    return out



def _named(qualifier: str, text: str) -> set[tuple[int, int]]:
    return {(int(a), int(b or 0)) for a, b in _NAMED_RE[qualifier].findall(text)}
