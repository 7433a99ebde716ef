"""Numbering systems: each label reads back to its number and each formatter writes the style's label."""

from __future__ import annotations

import pytest

from jogak.grammar import numbering as nb


@pytest.mark.parametrize(("n", "lower"), [(1, "i"), (4, "iv"), (9, "ix"), (14, "xiv"), (40, "xl"), (1994, "mcmxciv")])
def test_roman_round_trip(n: int, lower: str) -> None:
    assert nb.int_to_roman(n) == lower
    assert nb.int_to_roman(n, upper=True) == lower.upper()
    assert nb.roman_to_int(lower) == n
    assert nb.roman_to_int(lower.upper()) == n


@pytest.mark.parametrize("bad", ["", "iiii", "vx", "abc", "IC"])
def test_malformed_roman_is_no_number(bad: str) -> None:
    assert nb.roman_to_int(bad) is None


def test_roman_any_reads_full_width_and_upper_case_only() -> None:
    assert nb.roman_any("Ⅲ") == 3
    assert nb.roman_any("Ⅻ") == 12
    assert nb.roman_any("IV") == 4
    assert nb.roman_any("iv") is None  # lower case is a (iv) list item, not a chapter
    assert nb.int_to_roman(0) == ""


def test_ganada_and_chosung_cycle() -> None:
    assert [nb.ganada(i) for i in (1, 2, 14, 15)] == ["가", "나", "하", "가"]
    assert nb.ganada(0) == ""
    assert nb.ganada_ordinal("다") == 3
    assert nb.ganada_ordinal("거") is None  # in the 가-하 range but not a list letter
    assert nb.chosung(3) == "ㄷ"


def test_circled_numbers_cover_three_unicode_blocks() -> None:
    assert nb.circled(1) == "①"
    assert nb.circled(21) == "㉑"
    assert nb.circled(36) == "㊱"
    assert nb.circled(50) == "㊿"
    assert nb.circled(51) == ""
    assert nb.circled(21, limit=20) == ""
    for n in (1, 20, 21, 35, 36, 50):
        assert nb.circled_ordinal(nb.circled(n)) == n
    assert nb.circled_ordinal("⑶") == 3


def test_letter_styles_differ_after_z() -> None:
    assert nb.letters_repeated(27) == "aa" and nb.letters_repeated(28) == "bb"  # Word
    assert nb.letters_bijective(27) == "aa" and nb.letters_bijective(28) == "ab"  # CSS
    assert nb.letter_ordinal("c") == 3 and nb.letter_ordinal("C") == 3


def test_number_words_and_sino_korean() -> None:
    assert nb.words_to_int("Twenty-Three") == 23
    assert nb.words_to_int("eleven") == 11
    assert nb.words_to_int("fifty") is None
    assert nb.any_int("XII") == 12 and nb.any_int("7") == 7 and nb.any_int("nine") == 9
    assert nb.sino_korean(12) == "십이"
    assert nb.sino_korean(305, ideographic=True) == "三百五"
    assert nb.korean_counting(3) == "셋" and nb.korean_counting(11) == ""
