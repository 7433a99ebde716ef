"""Pointers into another law followed at search time: "법 제34조제1항 각 호의 사항" in a decree brings the
Act's 제34조제1항 when the collection holds the Act.

The index keeps such a pointer as the law's name and clause (``jogak.grammar.laws.law_pointer``), not as a
document id, so the link appears when the Act is ingested after its decree and goes away when it is removed
(resolution at read time; no document's rows are rewritten for another's sake). The law's document is found
by title, compared without spacing; when the collection holds the law in several versions, none is followed
here (the rows carry no dates to pick the one in force — a wrong version is worse than no link).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jogak.grammar.laws import name_key
from jogak.retrieve import structural

if TYPE_CHECKING:
    import numpy as np

    from jogak.index.lexical import LexicalIndex

BODY = "본문"


def law_target_rows(lex: LexicalIndex, from_doc: str, law: str, clause: str, allowed: np.ndarray | None
                    ) -> list[int]:
    """Rows of the chunks under ``clause`` of ``law``'s document (never ``from_doc``), the most precise
    clause that has chunks first: "본문/제34조/제1항", else "본문/제34조"."""

    def index() -> dict[str, list[str]]:
        docs: dict[str, list[str]] = {}
        for d, t in zip(lex.column("doc_id"), lex.column("doc_title"), strict=True):
            ids = docs.setdefault(name_key(t or ""), [])
            if d not in ids:
                ids.append(d)
        return docs

    found = [d for d in lex.memo("docs_by_law_name", index).get(name_key(law), []) if d != from_doc]
    if len(found) != 1:
        return []
    parts = clause.split("/")
    lowest = 2 if parts[0] == BODY else 1  # "본문" alone is no clause
    for k in range(len(parts), lowest - 1, -1):
        rows = structural.target_rows(lex, found[0], "/".join(parts[:k]), allowed)
        if rows:
            return rows
    return []
