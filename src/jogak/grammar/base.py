"""``Grammar``: everything the structure stage knows about one language's documents, as frozen data.

ko.py and en.py each build one instance (``KO``, ``EN``); the parser, the candidate reader, the path
builder and the cross-reference resolver read its typed fields — nothing is looked up by name. Regex
fields are kept as written (they document the grammar) and compiled once, next to them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from jogak.grammar.scheme import BlockWord, Scheme

_NEVER = r"(?!x)x"  # a pattern that matches nothing: the grammar has no such construct


@dataclass(frozen=True, eq=False)
class Grammar:
    lang: str  # "ko" | "en"
    schemes: tuple[Scheme, ...]  # numbering styles, outermost first
    block_words: tuple[BlockWord, ...]  # words that open an appendix, the addenda or an FAQ
    labels: Mapping[str, str]  # block labels and path prefixes: body, parties, signatures, table …
    # Numbered sections added only on evidence (parser chooses them per document)
    section_schemes: tuple[Scheme, ...] = ()
    # Unnumbered heading lines ("개인정보의 처리 목적" alone on a line over its content), added only on evidence:
    # the scheme their nodes record, and how many such lines a document needs
    title_line: Scheme | None = None
    title_lines_min: int = 2
    section_title_max: int = 40  # a whole-line section title is at most this long …
    section_title_not_end: tuple[str, ...] = ()  # … and does not end like a list item
    not_titles: tuple[str, ...] = ()  # what follows "제10조" alone on a line but is no title ("생략")
    appendix_id_suffixes: tuple[str, ...] = ()  # "[별지 제1호 서식]": words after an appendix id
    # Words after a label that make the line running text ("제3조 및 제4조", "Section 4 of")
    continuations: tuple[str, ...] = ()
    sentence_end: tuple[str, ...] = ()  # a "title" ending like this is body text
    party_cues: tuple[str, ...] = ()  # words of a parties table row
    party_patterns: tuple[str, ...] = ()  # lines that name the parties
    inline_split: str = _NEVER  # where a new clause may start mid-line
    inline_first: str = _NEVER  # where a heading's first numbered child starts on the heading's line
    toc_words: tuple[str, ...] = ()  # "목차", "TABLE OF CONTENTS"
    faq_question: str = _NEVER
    faq_answer: str = _NEVER
    signature_start: tuple[str, ...] = ()  # the execution statement opening the signature block
    deleted: str = _NEVER  # a clause kept only for its number ("삭제 <2023. 6. 1.>", "[Reserved]")
    recitals_start: tuple[str, ...] = ()  # where the recitals start in the front matter
    # Top-level heading styles to count when choosing the document's article scheme: (scheme name, pattern)
    heading_probes: tuple[tuple[str, str], ...] = ()
    # Reference phrases (xref.py): (name, pattern); a name starting with "_skip" consumes text only
    ref_patterns: tuple[tuple[str, str], ...] = ()
    pointer_after: str = _NEVER  # after a reference: the sentence only points there ("참조")
    pointer_after_attached: str = _NEVER  # the same, written attached to the reference ("에 따른다")
    pointer_before: str = _NEVER  # before a reference: "as set forth in"

    # compiled forms
    inline_split_re: re.Pattern[str] = field(init=False, repr=False)
    inline_first_re: re.Pattern[str] = field(init=False, repr=False)
    deleted_re: re.Pattern[str] = field(init=False, repr=False)
    faq_question_re: re.Pattern[str] = field(init=False, repr=False)
    signature_res: tuple[re.Pattern[str], ...] = field(init=False, repr=False)
    recitals_res: tuple[re.Pattern[str], ...] = field(init=False, repr=False)
    party_res: tuple[re.Pattern[str], ...] = field(init=False, repr=False)
    heading_probe_res: tuple[tuple[str, re.Pattern[str]], ...] = field(init=False, repr=False)
    ref_res: tuple[tuple[str, re.Pattern[str]], ...] = field(init=False, repr=False)
    pointer_after_re: re.Pattern[str] = field(init=False, repr=False)
    pointer_after_attached_re: re.Pattern[str] = field(init=False, repr=False)
    pointer_before_re: re.Pattern[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        def put(name: str, value: object) -> None:
            object.__setattr__(self, name, value)

        put("labels", MappingProxyType(dict(self.labels)))
        put("inline_split_re", re.compile(self.inline_split))
        put("inline_first_re", re.compile(self.inline_first))
        put("deleted_re", re.compile(self.deleted))
        put("faq_question_re", re.compile(self.faq_question))
        put("signature_res", tuple(re.compile(p) for p in self.signature_start))
        put("recitals_res", tuple(re.compile(p) for p in self.recitals_start))
        put("party_res", tuple(re.compile(p, re.MULTILINE) for p in self.party_patterns))
        put("heading_probe_res", tuple((n, re.compile(p)) for n, p in self.heading_probes))
        put("ref_res", tuple((n, re.compile(p)) for n, p in self.ref_patterns))
        put("pointer_after_re", re.compile(self.pointer_after))
        put("pointer_after_attached_re", re.compile(self.pointer_after_attached))
        put("pointer_before_re", re.compile(self.pointer_before))

    def scheme(self, name: str) -> Scheme:
        """The scheme called ``name`` (main or section schemes)."""
        return next(s for s in self.all_schemes() if s.name == name)

    def all_schemes(self) -> tuple[Scheme, ...]:
        """Every scheme the grammar knows: main, section and title-line schemes."""
        return (*self.schemes, *self.section_schemes, *((self.title_line,) if self.title_line else ()))
