"""doc_title from a file name, by a configurable rule (nothing hard-coded to any corpus).

Default: the file stem, without a version marker ("멤버십정책@2023-01-01" → "멤버십정책"). Config section ``load.doc_title``::

    load:
      doc_title:
        strip_prefixes: ["하루마켓_"]     # removed from the start of the stem, first match wins
        strip_suffixes: ["_final"]
        pattern: "^(?:\\d+[_-])?(?P<title>.+)$"   # optional regex with a 'title' group
        replace_underscores: false
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jogak.load.joining import compose_hangul

VERSION_MARKER_RE = re.compile(r"\s*@[\w.\-]+$")


@dataclass(frozen=True)
class TitleRule:
    strip_prefixes: tuple[str, ...] = ()
    strip_suffixes: tuple[str, ...] = ()
    pattern: str | None = None
    replace_underscores: bool = False
    _compiled: Any = field(default=None, compare=False, repr=False)

    @classmethod
    def from_config(cls, section: dict[str, Any] | None) -> TitleRule:
        section = section or {}
        return cls(
            strip_prefixes=tuple(section.get("strip_prefixes") or ()),
            strip_suffixes=tuple(section.get("strip_suffixes") or ()),
            pattern=section.get("pattern"),
            replace_underscores=bool(section.get("replace_underscores", False)),
        )

    def title_for(self, source: str | Path) -> str:
        # "법률@2020-06-09", "멤버십정책@2023": a version marker after "@" is no part of the title (the
        # document's versions are told apart by their effective dates, see jogak.load.identity.work_of)
        # a macOS file name holds decomposed Hangul: the title is composed, as the text is
        name = compose_hangul(Path(source).stem)
        stem = VERSION_MARKER_RE.sub("", name) or name
        title = stem
        if self.pattern:
            m = re.match(self.pattern, title)
            if m and m.groupdict().get("title"):
                title = m.group("title")
        for p in self.strip_prefixes:
            if p and title.startswith(p) and len(title) > len(p):
                title = title[len(p) :]
                break
        for s in self.strip_suffixes:
            if s and title.endswith(s) and len(title) > len(s):
                title = title[: -len(s)]
                break
        if self.replace_underscores:
            title = title.replace("_", " ")
        return title.strip() or stem
