"""Re-joining visual line wraps: what goes between the end of one line and the start of the next.

Rules (shared by the PDF loader and table-cell rendering):

* Hangul/CJK + Hangul/CJK → nothing ("않는" + "다" → "않는다") by default: character wrapping breaks
  anywhere inside a word. Whether the source had a space there is the caller's decision
  (:func:`needs_decision` says which breaks are ambiguous): the PDF loader decides per document whether
  lines wrap by word or by character and per break from the geometry and the words on both sides
  (``jogak.load.pdf.wrap.WrapAnalysis``, ``jogak.load.spacing``) and passes ``space_in_source=True``; then
  exactly one space is kept.
* An opening bracket/quote at the end (「 ( [ “) or a closing one at the start (」 ) ] ” , .) → nothing.
* A soft hyphen at a Latin break ("con-" + "tract") is removed only when it is clearly a soft break:
  lowercase letters on both sides and the hyphenated fragment is not a known compound prefix
  ("non-", "self-", "co-", ...). Otherwise the hyphen stays and nothing is inserted ("pre-" + "emption"
  keeps "pre-emption").
* Everything else (Latin words, digits, mixed scripts) → one space.

Characters are never rewritten: ①–⑳, ·, 「」 and full-width punctuation pass through untouched (the one
exception, ``compose_hangul``, composes decomposed Hangul into the syllables every reader expects).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

# Compound prefixes that keep their hyphen across a line break.
_KEEP_HYPHEN_PREFIXES = frozenset(
    ["non", "self", "co", "pre", "post", "re", "anti", "multi", "sub", "inter", "intra", "cross", "well", "ex", "semi", "quasi", "counter", "mid", "so", "third", "first", "second", "long", "short", "high", "low", "full", "part"]
)

_OPEN = set("「『（(［[｛{〈《【〔“‘\"'")
_CLOSE = set("」』）)］]｝}〉》】〕”’,.，。、：:;；!！?？%％")


def is_cjk(ch: str) -> bool:
    """Hangul syllables/jamo, CJK ideographs, kana, full-width forms, CJK symbols and enclosed marks."""
    if not ch:
        return False
    o = ord(ch)
    return (
        0xAC00 <= o <= 0xD7A3  # Hangul syllables
        or 0x1100 <= o <= 0x11FF  # Hangul jamo
        or 0x3130 <= o <= 0x318F  # compatibility jamo
        or 0xA960 <= o <= 0xA97F
        or 0xD7B0 <= o <= 0xD7FF
        or 0x4E00 <= o <= 0x9FFF  # CJK unified
        or 0x3400 <= o <= 0x4DBF
        or 0xF900 <= o <= 0xFAFF
        or 0x3000 <= o <= 0x303F  # CJK symbols and punctuation (「」 etc.)
        or 0x3040 <= o <= 0x30FF  # kana
        or 0xFF00 <= o <= 0xFFEF  # full-width forms
        or 0x2460 <= o <= 0x24FF  # enclosed alphanumerics ①
        or 0x3200 <= o <= 0x32FF  # enclosed CJK ㉠ ㈜
        or o == 0x00B7  # middle dot ·
        or o == 0x318D
    )


def is_hangul(ch: str) -> bool:
    o = ord(ch) if ch else 0
    return 0xAC00 <= o <= 0xD7A3 or 0x1100 <= o <= 0x11FF or 0x3130 <= o <= 0x318F


def wrap_separator(prev: str, nxt: str, *, space_in_source: bool = False,
                   tight: bool = False) -> tuple[str, int]:
    """What to put between ``prev`` (a line, trailing whitespace already stripped) and ``nxt``.

    ``tight``: the previous line was filled to the margin by character wrapping (no space at the break
    in the source), so a Hangul/CJK character on either side means the break fell inside a word
    ("제" + "5조", "30" + "일"). Returns ``(separator, n_chars_to_drop_from_prev_end)``; the drop is 1 for a removed soft hyphen.
    """
    if not prev or not nxt:
        return "", 0
    a, b = prev[-1], nxt[0]
    if space_in_source:
        return " ", 0
    if a == "-" and len(prev) >= 2 and prev[-2].isalpha() and prev[-2].islower() and b.islower():
        m = re.search(r"([A-Za-z]+)-$", prev)
        frag = m.group(1).lower() if m else ""
        if frag in _KEEP_HYPHEN_PREFIXES or len(frag) <= 1:
            return "", 0
        return "", 1
    if a in "-‐/" and not a.isspace():
        return "", 0
    if is_cjk(a) and is_cjk(b):
        return "", 0
    if tight and (is_cjk(a) or is_cjk(b)) and not b.isspace():
        return "", 0
    if a in _OPEN or b in _CLOSE:
        return "", 0
    return " ", 0


def needs_decision(prev: str, nxt: str) -> bool:
    """Is this a break the default rule would close up only because of Hangul/CJK next to it?

    Those breaks are ambiguous — a word-wrapped document had a space there, a character-wrapped one
    usually did not — and are decided by the caller (layout, then words: ``jogak.load.spacing``).
    Brackets, hyphens, slashes and middle dots keep the default (nothing inserted)."""
    if not prev or not nxt:
        return False
    a, b = prev[-1], nxt[0]
    if a.isspace() or b.isspace() or a in _OPEN or b in _CLOSE or a in "-‐/·ㆍ" or b in "·ㆍ":
        return False
    return is_cjk(a) or is_cjk(b)


def join_wrapped(lines: list[str], space: Callable[[str, str], bool] | None = None) -> str:
    """Join visual lines of one paragraph with :func:`wrap_separator` (used for table cells).

    ``space(joined_so_far, next_line)`` says whether the source had a space at an ambiguous break
    (:func:`needs_decision`); without it such breaks are closed up."""
    out = ""
    for ln in lines:
        ln = ln.strip()
        if not ln:
            continue
        if not out:
            out = ln
            continue
        in_source = space is not None and needs_decision(out, ln) and space(out, ln)
        sep, drop = wrap_separator(out, ln, space_in_source=in_source)
        out = (out[:-drop] if drop else out) + sep + ln
    return out


def display_width(s: str, tab: int = 4) -> int:
    """Width of leading whitespace: tab = ``tab`` columns, full-width space = 2."""
    w = 0
    for ch in s:
        if ch == "\t":
            w += tab
        elif ch == "\u3000":
            w += 2
        elif ch.isspace():
            w += 1
        else:
            break
    return w


def leading_ws(s: str) -> str:
    i = 0
    while i < len(s) and s[i] in " \t\u3000\u00a0":
        i += 1
    return s[:i]


# Unicode category Cc (C0, DEL, C1) minus the whitespace controls: what is_control accepts, for counting
# over a whole text without a Python call per character.
CONTROL_RE = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")


def is_control(ch: str) -> bool:
    return unicodedata.category(ch) == "Cc" and ch not in "\t\n\r\f"


# Conjoining jamo (Hangul Jamo, Extended-A, Extended-B): decomposed syllables, as macOS file names, some
# PDF producers and NFD-normalising tools write Korean. Kiwi and the structure grammar ("제3조") read only
# composed syllables, so such text would parse as one preamble of unknown words.
_CONJOINING_JAMO = re.compile("[\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff]")


# CJK compatibility ideographs: law.go.kr's statutes write some hanja with them (年 U+F98E in "年", 臨 U+F9F6),
# which a reader typing the character (U+5E74) never matches; each has a canonical (NFC) equivalent of one
# character, so unifying them keeps every offset. ①, 「」 and full-width punctuation are not touched (no NFKC).
_COMPAT_IDEOGRAPH = re.compile("[\uf900-\ufaff]")


def compose_hangul(text: str) -> str:
    """``text`` with decomposed Hangul composed into syllables and compatibility ideographs unified (NFC);
    unchanged (the same object) when it has neither, so Latin text keeps its exact characters and offsets."""
    if _CONJOINING_JAMO.search(text):
        return unicodedata.normalize("NFC", text)
    if _COMPAT_IDEOGRAPH.search(text):
        return _COMPAT_IDEOGRAPH.sub(lambda m: unicodedata.normalize("NFC", m.group()), text)
    return text


def composed_offset(text: str, offset: int) -> int:
    """Where ``offset`` in ``text`` lands in ``compose_hangul(text)``."""
    return len(compose_hangul(text[:offset]))
