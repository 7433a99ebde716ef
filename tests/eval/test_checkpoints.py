"""The answer checkpoint "contains": a phrase is found white space normalised, and a table row written as its cells
("흑백 스캔 | 1쪽 | 40원") is found when the answer shows that row with its column names, as the answerer renders rows."""

from __future__ import annotations

from jogak.eval.answers import contains

ROW = "구분: 흑백 스캔, 단위: 1쪽, 요금: 40원, 비고: 1만 쪽을 넘는 분량은 30원 (근거: 위탁약관 · 별표 1)"


def test_plain_phrases_are_matched_with_white_space_normalised() -> None:
    assert contains("30일 이내에  환불", "구매일부터 30일\n이내에 환불한다.")
    assert not contains("30일 이내에 환불", "구매일부터 3일 이내에 환불한다.")


def test_a_table_row_matches_its_rendering_with_column_names() -> None:
    assert contains("흑백 스캔 | 1쪽 | 40원 | 1만 쪽을 넘는 분량은 30원", ROW)
    assert contains("흑백 스캔 | 1쪽 | 40원", ROW)


def test_a_table_row_does_not_match_cells_out_of_order_far_apart_or_on_other_lines() -> None:
    assert not contains("1쪽 | 흑백 스캔 | 40원", ROW)  # out of order
    assert not contains("흑백 스캔 | 80원", ROW)  # a cell that is not there
    far = "구분: 흑백 스캔. " + "이 줄에는 상관없는 설명이 길게 이어지고 또 이어져서 한 행으로 볼 수 없다. " + "요금: 40원"
    assert not contains("흑백 스캔 | 40원", far)
    assert not contains("흑백 스캔 | 40원", "구분: 흑백 스캔\n요금: 40원")
    assert not contains("흑백 스캔 | ", ROW + " |")  # an empty cell is no row
