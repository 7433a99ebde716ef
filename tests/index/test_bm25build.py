"""``jogak.index.bm25build`` builds the arrays bm25s builds, exactly, from token ids."""

from __future__ import annotations

import random
from array import array

import bm25s
import numpy as np
import pytest
from tests.sample_texts import KO_TERMS

from jogak.index.bm25build import build_bm25
from jogak.index.lexical import LexicalIndex, tokenize


def _reference(ids: list, vocab: dict[str, int]) -> bm25s.BM25:
    ref = bm25s.BM25(k1=1.2, b=0.75)
    ref.index(([list(r) for r in ids], vocab), show_progress=False)
    return ref


def _ids_of(token_lists: list[list[str]]) -> tuple[list[array], dict[str, int]]:
    vocab: dict[str, int] = {}
    ids = [array("i", [vocab.setdefault(t, len(vocab)) for t in (toks or [""])]) for toks in token_lists]
    return ids, vocab


def _assert_same(ours: bm25s.BM25, ref: bm25s.BM25) -> None:
    for key in ("data", "indices", "indptr"):
        a, b = ours.scores[key], ref.scores[key]
        assert a.dtype == b.dtype, key
        assert np.array_equal(a, b), key
    assert ours.scores["num_docs"] == ref.scores["num_docs"]
    assert ours.vocab_dict == ref.vocab_dict


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_corpus_matches_bm25s(seed: int) -> None:
    rng = random.Random(seed)
    n_vocab = rng.choice([5, 50, 400])
    token_lists = [[f"t{rng.randrange(n_vocab)}" for _ in range(rng.randrange(0, 60))] for _ in range(300)]
    ids, vocab = _ids_of(token_lists)
    ours = build_bm25(ids, dict(vocab))
    ref = _reference(ids, dict(vocab))
    _assert_same(ours, ref)
    for q in (["t1", "t2"], ["t3"], ["none-such", "t0", "t0"]):
        assert np.array_equal(ours.get_scores(q), ref.get_scores(q))


def test_korean_text_and_plain_lists_match_bm25s() -> None:
    paras = [p for p in KO_TERMS.split("\n") if p.strip()] + [""]
    ids, vocab = _ids_of([tokenize(p) for p in paras])
    _assert_same(build_bm25([list(r) for r in ids], dict(vocab)), _reference(ids, dict(vocab)))


def test_saved_index_loads_and_searches_like_before(tmp_path) -> None:
    paras = [p for p in KO_TERMS.split("\n") if p.strip()]
    token_lists = [tokenize(p) for p in paras]
    ids, vocab = _ids_of(token_lists)
    rows = [f"r{i}" for i in range(len(paras))]
    built = LexicalIndex.build_from_ids(rows, ids, dict(vocab), {})
    name = built.save(tmp_path)
    loaded = LexicalIndex.load(tmp_path / name)
    reference = LexicalIndex.build(rows, token_lists, {})
    q = tokenize("회원이 계약을 해지하려면 어떻게 하나요")
    assert loaded.search(q, 5) == reference.search(q, 5)
    assert loaded.search(q, 5)
