"""Inline Markdown → plain text: emphasis markers, escapes, code spans, links, autolinks, entities and known
HTML tags removed; ``[^n]`` footnote marks removed and recorded as (offset, label); bold tracked per
character so a line's leading bold run (``**①** …``) can be measured.

A rule table keyed by the character that can open a construct (markdown-it's inline rule idea); each rule
returns the index after what it consumed, or None when the character is ordinary text there. Emphasis is
deliberately simpler than CommonMark's flanking rules: ``**제1조(목적)**이`` closes after punctuation before
Hangul, which CommonMark leaves as literal asterisks.
"""

from __future__ import annotations

import html as _html
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from jogak.load.markdown.syntax import (
    ASCII_PUNCT,
    AUTOLINK,
    ENTITY,
    HTML_TAGS,
    INLINE_TAG,
    LINK,
)


@dataclass
class Rendered:
    text: str
    bold_prefix: int = 0
    marks: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class _Out:
    """Rendered text as runs; only the leading bold run is measured, so bold is not kept per character."""

    parts: list[str] = field(default_factory=list)
    n: int = 0  # characters emitted so far
    lead_bold: int = 0  # characters of the leading bold run
    plain_seen: bool = False  # a non-bold character was emitted: the leading run is over
    marks: list[tuple[int, str]] = field(default_factory=list)
    bold: bool = False

    def emit(self, chunk: str) -> None:
        if not chunk:
            return
        self.parts.append(chunk)
        self.n += len(chunk)
        if not self.plain_seen:
            if self.bold:
                self.lead_bold += len(chunk)
            else:
                self.plain_seen = True


def render_inline(s: str, refs: dict[str, str] | None = None) -> Rendered:
    o = _Out()
    _render_into(s, o, refs or {})
    text = "".join(o.parts)
    bp = o.lead_bold
    # do not count trailing spaces of the bold run
    while bp > 0 and text[bp - 1].isspace():
        bp -= 1
    return Rendered(text=text, bold_prefix=bp, marks=o.marks)


_Closers = list[tuple[str, int]]  # pending emphasis closers (delim, index in s)
_Rule = Callable[[str, int, _Out, dict[str, str], _Closers], int | None]


def _render_into(s: str, o: _Out, refs: dict[str, str]) -> None:
    i = 0
    n = len(s)
    closers: _Closers = []
    while i < n:
        c = s[i]
        if closers and s.startswith(closers[-1][0], i) and i == closers[-1][1]:
            delim, _ = closers.pop()
            if len(delim) == 2:
                o.bold = not o.bold
            i += len(delim)
            continue
        rule = _RULES.get(c)
        if rule is None:  # a run of ordinary text up to the next character that may open a construct
            m = _PLAIN.match(s, i)
            assert m
            o.emit(m.group(0))
            i = m.end()
            continue
        j = rule(s, i, o, refs, closers)
        if j is not None:
            i = j
            continue
        o.emit(c)
        i += 1
    if closers:  # unmatched (crossed) closers: nothing to undo for em; reset bold
        o.bold = False


def _escape(s: str, i: int, o: _Out, refs: dict[str, str], closers: _Closers) -> int | None:
    if i + 1 < len(s) and s[i + 1] in ASCII_PUNCT:
        o.emit(s[i + 1])
        return i + 2
    return None


def _code_span(s: str, i: int, o: _Out, refs: dict[str, str], closers: _Closers) -> int | None:
    n = len(s)
    m = re.match(r"`+", s[i:])
    assert m
    tick = m.group(0)
    j = s.find(tick, i + len(tick))
    while j >= 0 and (j + len(tick) < n and s[j + len(tick)] == "`"):
        j = s.find(tick, j + len(tick) + 1)
    if j >= 0:
        code = s[i + len(tick): j]
        if len(code) >= 2 and code[0] == " " and code[-1] == " " and code.strip():
            code = code[1:-1]
        o.emit(code)
        return j + len(tick)
    o.emit(tick)
    return i + len(tick)


def _bracket(s: str, i: int, o: _Out, refs: dict[str, str], closers: _Closers) -> int | None:
    """``[^n]`` footnote marks; links and images (their text / alt text)."""
    c = s[i]
    if c == "[" and s.startswith("[^", i):
        j = s.find("]", i + 2)
        if j > i + 2 and not re.search(r"\s", s[i + 2: j]):
            o.marks.append((o.n, s[i + 2: j]))
            return j + 1
    m = LINK.match(s, i)
    if m and (c == "[" or s.startswith("![", i)):
        label = m.group(1)
        # CommonMark: [text][ref] is a link only when "ref" is defined ("[1][2]" in a court
        # decision is literal text); [text] alone only when "text" is a defined label.
        ref = m.group(3)
        is_link = m.group(2) is not None or (
            (ref or label).lower() in refs if ref is not None else label.lower() in refs)
        if is_link:
            _render_into(label, o, refs)
            return m.end()
    return None


def _angle(s: str, i: int, o: _Out, refs: dict[str, str], closers: _Closers) -> int | None:
    """Autolinks (the URL), HTML comments and known HTML tags (dropped); ``<개정 …>`` stays text."""
    m = AUTOLINK.match(s, i)
    if m:
        o.emit(m.group(1))
        return m.end()
    if s.startswith("<!--", i):
        j = s.find("-->", i + 4)
        return (j + 3) if j >= 0 else len(s)
    m = INLINE_TAG.match(s, i)
    if m and m.group(1).lower() in HTML_TAGS:
        return m.end()
    return None


def _entity(s: str, i: int, o: _Out, refs: dict[str, str], closers: _Closers) -> int | None:
    m = ENTITY.match(s, i)
    if m:
        dec = _html.unescape(m.group(0))
        if dec != m.group(0):
            o.emit(dec)
            return m.end()
    return None


def _emphasis(s: str, i: int, o: _Out, refs: dict[str, str], closers: _Closers) -> int | None:
    """An opening ``*``/``_`` (em) or ``**``/``__`` (bold) with a closer later in ``s``: the closer is
    remembered, the markers are not text."""
    c = s[i]
    n = len(s)
    run = 2 if s.startswith(c * 2, i) else 1
    delim = c * run
    nxt = s[i + run] if i + run < n else ""
    prev = s[i - 1] if i > 0 else ""
    opens = nxt and not nxt.isspace() and not (c == "_" and prev.isalnum())
    if opens:
        j = _find_closing(s, i + run, delim)
        if j >= 0:
            closers.append((delim, j))
            if run == 2:
                o.bold = not o.bold
            return i + run
    return None


def _find_closing(s: str, i: int, delim: str) -> int:
    """Index of a closing ``delim`` after position ``i`` that is preceded by a non-space, or -1."""
    j = i
    while True:
        j = s.find(delim, j)
        if j < 0:
            return -1
        if j > i and not s[j - 1].isspace() and s[j - 1] != "\\":
            if delim[0] == "_" and j + len(delim) < len(s) and s[j + len(delim)].isalnum():
                j += 1
                continue
            return j
        j += 1


_RULES: dict[str, _Rule] = {
    "\\": _escape,
    "`": _code_span,
    "[": _bracket,
    "!": _bracket,
    "<": _angle,
    "&": _entity,
    "*": _emphasis,
    "_": _emphasis,
}
_PLAIN = re.compile("[^" + re.escape("".join(_RULES)) + "]+")
