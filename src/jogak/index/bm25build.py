"""A bm25s index built posting list by posting list, in the memory of the index itself.

bm25s builds its term-major (CSC) score matrix by gathering every (document, term) posting, packing the
pairs into int64 keys and argsorting them: ~50 bytes a posting at its peak, 3.5 GB for the 65 M postings
of all Korean statutes (issue 19), where the finished index keeps 8 (a float32 score and an int32 document
number). Here the document frequencies are counted first, so each term's slice of the matrix is known and
every document's scores are written straight into place: two passes over the token ids, no sort.

The arrays are the ones bm25s itself builds (its own idf and tf scoring functions, the same dtypes and
order: terms, then documents ascending), so a saved index loads and scores exactly as before;
``tests/index/test_bm25build.py`` compares the two builds array for array.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any

import numpy as np


def _as_array(row: Sequence[int]) -> np.ndarray:
    if isinstance(row, array) and row.itemsize == 4:
        return np.frombuffer(row, dtype=np.int32)
    return np.asarray(row, dtype=np.int64)


def build_bm25(ids: Sequence[Sequence[int]], vocab: dict[str, int], k1: float = 1.2, b: float = 0.75) -> Any:
    """A ``bm25s.BM25`` (its default "lucene" method) over documents given as token ids into ``vocab``
    (token → id, ids ``0 … len(vocab) - 1``). Like ``bm25s.BM25.index((ids, vocab))``, adds the empty token
    to ``vocab`` when it is missing."""
    import bm25s
    from bm25s.scoring import _select_idf_scorer, _select_tfc_scorer

    bm25 = bm25s.BM25(k1=k1, b=b)
    if bm25.method in bm25.methods_requiring_nonoccurrence:  # not the default; keep bm25s's own build
        bm25.index((ids, vocab), show_progress=False)
        return bm25
    n_docs, n_vocab = len(ids), len(vocab)
    dtype, int_dtype = np.dtype(bm25.dtype), np.dtype(bm25.int_dtype)

    # pass 1: document frequencies and the mean length
    df = np.zeros(n_vocab, dtype=np.int64)
    total = 0
    for row in ids:
        a = _as_array(row)
        total += len(a)
        df[np.unique(a)] += 1
    avg_len = np.float64(total) / n_docs  # bm25s's np.mean: a numpy float64 (its type sets tfc's dtype)
    idf_fn = _select_idf_scorer(bm25.idf_method)
    idf = np.zeros(n_vocab, dtype=dtype)
    for t in np.flatnonzero(df):  # scalar calls, as bm25s makes them (the same float rounding)
        idf[t] = idf_fn(int(df[t]), N=n_docs)

    # pass 2: each document's scores into its terms' slices
    indptr = np.zeros(n_vocab + 1, dtype=np.int64)
    np.cumsum(df, out=indptr[1:])
    nnz = int(indptr[-1])
    data = np.empty(nnz, dtype=dtype)
    indices = np.empty(nnz, dtype=int_dtype)
    cursor = indptr[:-1].copy()
    del df
    tfc_fn = _select_tfc_scorer(bm25.method)
    for d, row in enumerate(ids):
        a = _as_array(row)
        terms, counts = np.unique(a, return_counts=True)
        tfc = tfc_fn(tf_array=counts.astype(dtype), l_d=len(a), l_avg=avg_len, k1=k1, b=b, delta=bm25.delta)
        pos = cursor[terms]
        data[pos] = idf[terms] * tfc
        indices[pos] = d
        cursor[terms] += 1

    bm25.scores = {"data": data, "indices": indices, "indptr": indptr, "num_docs": n_docs}
    if "" not in vocab:
        vocab[""] = max(vocab.values()) + 1 if vocab else 0
    bm25.vocab_dict = vocab
    bm25.unique_token_ids_set = set(vocab.values())
    bm25.nonoccurrence_array = None
    return bm25
