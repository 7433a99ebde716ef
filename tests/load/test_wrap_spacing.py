"""Re-joining wrapped lines in PDFs: spaces at line breaks, measured against the source text.

The fixtures (``scripts/fixtures/make_wrap_fixtures.py``) set the paragraphs of ``source_ko.txt`` /
``source_mixed.txt`` with word (어절) wrapping — justified, left-aligned, and word-by-word positioned with
no space glyphs, the way HWP and Word export — and with character wrapping (reportlab CJK, and glyph-by-
glyph positioned with letter-spacing justification). Spacing errors = word boundaries of the source
that came out joined (missing) + spaces that came out inside a word (extra).

Before the per-document wrap detection (joining Hangul+Hangul unless the line stopped well short of the
margin; a fixed 0.22 em gap for a space inside a line): ko_word_shrink 122 missing (of 297 word
boundaries — its shrunk spaces inside lines were lost too), ko_word_justify 18, ko_word_positioned 15,
ko_word_left 12, mixed_word_justify 8, ko_char 5, ko_char_positioned 5, mixed_char 3 (extra 0 everywhere).
"""

from __future__ import annotations

import pytest

from jogak.load import load

from .helpers import FIX

WRAP = FIX / "wrap"

# fixture → (wrap mode detected, missing spaces, extra spaces) after the fix
EXPECTED = {
    "ko_word_justify.pdf": ("word", 0, 0),
    "ko_word_left.pdf": ("word", 0, 0),
    "ko_word_positioned.pdf": ("word", 0, 0),
    "ko_word_shrink.pdf": ("word", 0, 0),
    "ko_char.pdf": ("char", 0, 0),
    "ko_char_positioned.pdf": ("char", 0, 0),
    "mixed_word_justify.pdf": ("word", 0, 0),
    # "브라우저" + "설정에서" stays joined: a Korean noun next to a noun is never split
    "mixed_char.pdf": ("char", 1, 0),
}


def spacing_errors(source: str, got: str) -> tuple[list[str], list[str], int]:
    """(missing, extra, word boundaries in the source): compares where whitespace falls between the
    same non-space characters (which must be identical)."""

    def split(s: str) -> tuple[str, list[bool]]:
        chars: list[str] = []
        spaced: list[bool] = []
        pending = False
        for ch in s:
            if ch.isspace():
                pending = True
                continue
            if chars:
                spaced.append(pending)
            chars.append(ch)
            pending = False
        return "".join(chars), spaced

    a, sa = split(source)
    b, sb = split(got)
    assert a == b, "the characters differ, not only the spacing"

    def ctx(i: int, mark: str) -> str:
        return a[max(0, i - 5): i + 1] + mark + a[i + 1: i + 6]

    missing = [ctx(i, "_") for i, (x, y) in enumerate(zip(sa, sb, strict=True)) if x and not y]
    extra = [ctx(i, "^") for i, (x, y) in enumerate(zip(sa, sb, strict=True)) if y and not x]
    return missing, extra, sum(sa)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_spacing_at_line_breaks(name: str) -> None:
    source = (WRAP / ("source_mixed.txt" if name.startswith("mixed") else "source_ko.txt")).read_text(
        encoding="utf-8")
    doc = load(WRAP / name)
    mode, n_missing, n_extra = EXPECTED[name]
    assert doc.metadata["wrap"]["mode"] == mode
    assert doc.metadata["wrap"]["breaks"] >= 7  # the fixtures do wrap
    missing, extra, _ = spacing_errors(source, doc.text)
    assert len(extra) <= n_extra, extra
    assert len(missing) <= n_missing, missing
    # one paragraph per source line: wrapped lines were re-joined, paragraphs were not
    assert doc.text.count("\n") == source.strip().count("\n")


def test_word_wrapped_reported_sample_sentence() -> None:
    doc = load(WRAP / "ko_word_justify.pdf")
    assert "이용함에 있어" in doc.text and "의사표시를 함으로써" in doc.text
    assert "수있" not in doc.text


def test_character_wrapped_breaks_inside_words_stay_joined() -> None:
    doc = load(WRAP / "ko_char.pdf")
    # reportlab broke these inside the word; no space may appear there
    for word in ("이용함에", "의사표시를", "거래가", "통지하고", "사유로", "청약철회를", "목적이", "분명하지"):
        assert word in doc.text, word


@pytest.mark.parametrize(("left", "right", "spaced"), [
    ("사유가 발생한 그", "날부터 7일 이내에", False),  # "그날": one word, though Kiwi reads 그 + 날
    ("그", "동안의 이용료를", False),
    ("그", "밖에 필요한 사항", True),  # "그 밖": two words
    ("그", "기간에 한정하여", True),
])
def test_a_determiner_and_its_noun_written_as_one_word(left: str, right: str, spaced: bool) -> None:
    from jogak.load.spacing import space_at_break

    assert space_at_break(left, right) is spaced
