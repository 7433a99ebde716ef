"""A chunk's share of its document's versions (chunk schema 2.1): the work and the version's start for
every chunk of a dated document, and from the clause tree the chunk's own later start, amendment notes and
transitional links (``jogak.structure.versions`` sets them on the nodes)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from jogak.load.identity import work_of
from jogak.model import Document, Node


def document_version(doc: Document, root: Node) -> dict[str, Any]:
    """The fields every chunk of the document carries: work, effective_from, promulgated (none when the
    document has no date: it is not versioned)."""
    version = root.attrs.get("version") or {}
    if not version.get("effective_from"):
        return {}
    return {"work": work_of(doc), "effective_from": version["effective_from"],
            "promulgated": version.get("promulgated")}


def clause_version(chain: Iterable[Node], covered: Iterable[Node]) -> dict[str, Any]:
    """The chunk's own fields: from its unit and ancestors (``chain``, nearest first) and the nodes it covers
    (``covered``) the later start, the end (유효기간), transitional links and amendment notes."""
    chain, covered = list(chain), list(covered)
    # the latest start among the chunk's article and the clauses it holds: a chunk with any wording not yet
    # in force on a day is not that day's text
    starts = [str(n.attrs["effective_from"]) for n in [*chain, *covered] if n.attrs.get("effective_from")]
    own_start = max(starts) if starts else None
    # … and the earliest end (유효기간): a chunk with any wording that has lapsed on a day is not that day's text
    ends = [str(n.attrs["effective_to"]) for n in [*chain, *covered] if n.attrs.get("effective_to")]
    # a chunk inside an article takes the article's links; a packed chunk ("부칙" with ① and ②) its parts'
    transitional = _union(chain, "transitional", first=True) or _union(covered, "transitional")
    modifies = _union(chain, "transitional_for", first=True) or _union(covered, "transitional_for")
    notes = _union(covered, "amendments")
    return {"clause_effective_from": own_start, "clause_effective_to": min(ends) if ends else None,
            "amendments": notes, "transitional": transitional,
            "transitional_for": modifies}


def _union(nodes: list[Node], key: str, first: bool = False) -> list[str]:
    out: list[str] = []
    for n in nodes:
        vals = n.attrs.get(key) or ()
        out.extend(x for x in vals if x not in out)
        if first and out:
            break
    return out
