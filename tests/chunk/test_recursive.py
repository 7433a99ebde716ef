"""Seed 001's recursive splitter: LangChain parity, offsets, coverage."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jogak.chunk.recursive import SEPARATORS, RecursiveSplitter

KO = (
    "제1조 (목적)\n이 약관은 회사와 회원의 권리와 의무를 정한다.\n\n제2조 (정의)\n① 회원이란 약관에 동의한 자를 말한다. "
    "② 포인트란 구매확정 후 적립되는 금액을 말한다.\n제3조 (하루포인트 적립)\n① 하루포인트는 구매확정 다음 날 적립된다. "
    * 6
)


@pytest.mark.parametrize(("size", "overlap"), [(200, 0), (500, 100), (1500, 200), (60, 10)])
def test_matches_langchain(size: int, overlap: int) -> None:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    lc = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap, separators=list(SEPARATORS),
                                        keep_separator="end")
    ours = RecursiveSplitter(size, overlap).split_text(KO)
    assert ours == lc.split_text(KO)


def test_spans_are_exact_slices() -> None:
    sp = RecursiveSplitter(120, 30)
    for s, e in sp.split_spans(KO):
        assert 0 <= s < e <= len(KO)
        assert KO[s:e] == KO[s:e].strip()


def test_bad_parameters() -> None:
    with pytest.raises(ValueError):
        RecursiveSplitter(100, 100)
    with pytest.raises(ValueError):
        RecursiveSplitter(0, 0)


@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("가나다 라마.\n①②제1조()abc ")), max_size=800),
       size=st.integers(20, 300), data=st.data())
def test_cover_whole_text_in_order(text: str, size: int, data) -> None:
    overlap = data.draw(st.integers(0, size - 1))
    spans = RecursiveSplitter(size, overlap).split_spans(text)
    # in order, and every non-whitespace character is inside some chunk
    starts = [s for s, _ in spans]
    assert starts == sorted(starts)
    covered = [False] * len(text)
    for s, e in spans:
        assert e - s <= size
        for i in range(s, e):
            covered[i] = True
    assert all(covered[i] or text[i].isspace() for i in range(len(text)))


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("가나다 라.\n①ab ")), max_size=600), size=st.integers(30, 200))
def test_parity_property(text: str, size: int) -> None:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    overlap = size // 4
    lc = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap, separators=list(SEPARATORS),
                                        keep_separator="end")
    assert RecursiveSplitter(size, overlap).split_text(text) == lc.split_text(text)
