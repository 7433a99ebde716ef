"""Which document a Korean reference points into: this one, or another law.

A reference names its law before the article ("법 제34조", "영 제5조", "「민법」 제750조", "같은 법 제3조",
"이 영 제6조"), or inherits it from the reference it continues ("법 제24조의2부터 제24조의12까지": both the Act's).
Inside a decree "법" is its Act, inside a rule "영" is its decree — by convention, and by the definitions the
text makes ("「상호저축은행법」(이하 "법"이라 한다)"). A reference into another law is never resolved inside
this document; the collection resolves it (``jogak.structure.family``).

Two kinds of text hold references that are no links at all: the wording of an amendment in a 부칙
("② 경비업법 일부를 다음과 같이 개정한다. 제6조제2항 중 …": the amended law's articles as they were) and
provisions kept only as "생략" ("제2조부터 제4조까지 생략").
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from jogak.grammar.laws import (
    ALIAS_RE,
    AMENDED_LAW_RE,
    AMENDMENT_RE,
    INSTRUMENT_OF,
    OMITTED_RE,
    RENUMBER_NOTE_RE,
    SAME_LAW_WORDS,
    SELF_WORDS,
    name_key,
    split_instrument,
)
from jogak.load.identity import law_identity
from jogak.model import Document, Node

# What a provision's label looks like at the start of an amending line ("②", "<706>", "제10조(…)").
_LEADING_LABEL = re.compile(r"^.*(?:[)>\]]|[①-⑳㉑-㉟㊱-㊿])\s*")


@dataclass(frozen=True, slots=True)
class Scope:
    """Where a reference points: this document (``law`` None, no reason), another law (``law``), or a law
    the text does not let us name (``reason``)."""

    law: str | None = None
    reason: str | None = None

    @property
    def is_self(self) -> bool:
        return self.law is None and self.reason is None


SELF = Scope()


class LawContext:
    """The document's place in its law family, and the short names its text defines."""

    def __init__(self, doc: Document) -> None:
        ident = law_identity(doc.metadata)
        title = ident.title if ident is not None else (doc.doc_title or "")
        act, named_rank = split_instrument(title)
        rank = ident.rank if ident is not None else named_rank
        self.rank = rank if (ident is not None or named_rank != "act") else None  # None: not known to be a law
        self.own = name_key(title)
        # the family's Act is known for an Act and for "… 시행령/시행규칙"; a 규칙 or 규정 named otherwise has none
        self.act = act if self.rank == "act" or named_rank != "act" else None
        self.aliases: dict[str, str] = {}
        for m in ALIAS_RE.finditer(doc.text):
            self.aliases.setdefault(name_key(m.group("short")), " ".join(m.group("name").split()))

    def member(self, rank: str) -> str | None:
        """The title of a member of this document's family: the Act, its decree, its rule."""
        if self.act is None:
            return None
        return {"act": self.act, "decree": f"{self.act} 시행령", "rule": f"{self.act} 시행규칙"}[rank]

    def named(self, name: str) -> Scope:
        """A law named in full ("「민법」", "근로기준법"): this document when it is its own name."""
        name = " ".join(name.split())
        return SELF if name_key(name) == self.own else Scope(law=name)

    def qualifier(self, written: str, last_law: str | None) -> Scope:
        """The scope of a reference's qualifier as written before the article ("법", "이 영", "같은 법")."""
        q = name_key(written)
        if q in self.aliases:  # a short name the text defines: "법", "법 시행령"
            return self.named(self.aliases[q])
        for word, rank in INSTRUMENT_OF.items():  # "같은 법 시행령", "이 법 시행규칙", "법 시행령"
            if q.endswith(word) and q[: -len(word)] in (*SAME_LAW_WORDS, "이법", "동법", "법"):
                if q[: -len(word)] == "법":  # the Act "법" names here (a defined short name, else the family's)
                    act = self.aliases.get("법") or self.act
                else:
                    act = self.act if q.startswith("이") else last_law
                if act is None:
                    return Scope(reason=f"'{written.strip()}' names no law here")
                title = f"{split_instrument(act)[0]} {word}"
                return SELF if rank == self.rank and name_key(title) == self.own else Scope(law=title)
        if q.startswith(("이", "동")) and q[1:] in SELF_WORDS and q not in SAME_LAW_WORDS:
            return SELF
        if q in SAME_LAW_WORDS:
            return Scope(law=last_law) if last_law else Scope(reason="같은 법 follows no law")
        if q in self.aliases:
            return self.named(self.aliases[q])
        family = {"법": "act", "영": "decree", "시행령": "decree", "시행규칙": "rule"}.get(q)
        if family is not None:
            if family == self.rank:
                return SELF
            member = self.member(family)
            return Scope(law=member) if member else Scope(reason=f"'{written.strip()}' names no law here")
        return self.named(written)


class NoLinkSpans:
    """Stretches of text whose references are not links: amendment wording, omitted provisions and renumbering
    notes."""

    def __init__(self, root: Node, text: str) -> None:
        self.spans: list[tuple[int, int, str, str | None]] = []  # (start, end, reason, amended law)
        for n in root.walk():
            if n.block_type == "addenda":
                self._scan(n, text)
        self.spans.extend((m.start(), m.end(), "renumbering note", None) for m in RENUMBER_NOTE_RE.finditer(text))
        self.spans.sort()
        self._starts = [s for s, _, _, _ in self.spans]

    def _scan(self, n: Node, text: str) -> None:
        """The node's own text: an amending sentence makes the rest of the node (children included) the
        amended law's wording; a line ending in "생략" is an omitted provision."""
        lo = n.body_start if n.body_start is not None else n.char_start
        hi = n.children[0].char_start if n.children else n.char_end
        for m in AMENDMENT_RE.finditer(text, lo, hi):
            line_start = text.rfind("\n", lo, m.start()) + 1
            prefix = _LEADING_LABEL.sub("", text[max(line_start, lo) : m.start()])
            lm = AMENDED_LAW_RE.search(prefix)
            law = " ".join((lm.group("bracketed") or lm.group("plain")).split()) if lm else None
            self.spans.append((m.end(), n.char_end, "amendment text", law))
        pos = lo
        for line in text[lo:hi].split("\n"):
            if OMITTED_RE.search(line):
                self.spans.append((pos, pos + len(line), "omitted text (생략)", None))
            pos += len(line) + 1

    def at(self, offset: int) -> tuple[str, str | None] | None:
        """(reason, amended law) when ``offset`` lies in such a stretch."""
        i = bisect.bisect_right(self._starts, offset)
        # stretches nest at most a node deep: the ones that can hold ``offset`` start shortly before it
        hits = [sp for sp in self.spans[max(0, i - 200) : i] if sp[0] <= offset < sp[1]]
        if not hits:
            return None
        _, _, reason, law = max(hits)  # the innermost (latest-starting) stretch
        return reason, law
