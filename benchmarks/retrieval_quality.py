"""Retrieval quality side by side (issue 12): the plain hybrid baseline, jogak as shipped, and ablations —
each stage of the retriever switched off (or on) in turn — on the same questions and documents.

    .venv/bin/python benchmarks/retrieval_quality.py                     # the tuning sets, every variant
    .venv/bin/python benchmarks/retrieval_quality.py --sets tune haru --variants jogak no-leaves
    .venv/bin/python benchmarks/retrieval_quality.py --sets r1           # the first blind batch (measure only)
    .venv/bin/python benchmarks/retrieval_quality.py --sets r2           # the untouched batch: once, at the end
    .venv/bin/python benchmarks/retrieval_quality.py --stores /tmp/rq    # keep the stores between runs

Metrics are those of ``jogak eval-retrieval`` (the same span judgement, gold clauses, k = 10): recall@1/5/10,
MRR, nDCG@10, clause-P@1, and the p50/p95 search latency of each variant in this run. The baseline row is
``hybrid`` (recursive 500/100 chunks, the same e5-small, Kiwi-BM25, RRF). The blind sets (r1, r2) are
never used to choose anything: run them to measure, never to tune (tests/fixtures/blind/README.md).

Never part of ``make test``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
os.chdir(ROOT)
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

HELDOUT = ROOT / "tests" / "fixtures" / "heldout"
BLIND = ROOT / "tests" / "fixtures" / "blind"
SETS = {
    "tune": BLIND / "answers_tune.yaml",  # everyday questions over a mixed collection (issue 13's tuning set)
    "haru": ROOT / "examples" / "haru-market" / "questions.yaml",
    "statutes": HELDOUT / "statutes_ko.yaml",
    "statutes_b": HELDOUT / "statutes_ko_b.yaml",
    "contracts": HELDOUT / "contracts.yaml",
    "contracts_b": HELDOUT / "contracts_b.yaml",
    "precedents": HELDOUT / "precedents_ko.yaml",
    "precedents_b": HELDOUT / "precedents_ko_b.yaml",
    "r1": BLIND / "mixed_r1.yaml",  # blind: measure only
    "r2": BLIND / "mixed_r2.yaml",  # blind, run once at the end of issue 12's first round (session 3)
    "report": BLIND / "answers_report.yaml",  # issue 13's report set (run once in session 3)
    "r3": BLIND / "mixed_r3.yaml",  # blind, untouched (session 4): once, at the end
    "a3": BLIND / "answers_r3.yaml",  # issue 13's second report set, untouched (session 4): once, at the end
    "r4": BLIND / "mixed_r4.yaml",  # blind, untouched (session 5): once, at the end
    "a4": BLIND / "answers_r4.yaml",  # issue 13's third report set, untouched (session 5): once, at the end
    "r5": BLIND / "mixed_r5.yaml",  # blind, untouched (session 6): once, at the end
    "a5": BLIND / "answers_r5.yaml",  # issue 13's fourth report set, untouched (session 6): once, at the end
    "r6": BLIND / "mixed_r6.yaml",  # blind (session 7, first round): run once, now used
    "a6": BLIND / "answers_r6.yaml",  # issue 13's fifth report set (session 7, first round): used
    "r7": BLIND / "mixed_r7.yaml",  # blind, untouched (session 7, second round): once, at the end
    "a7": BLIND / "answers_r7.yaml",  # issue 13's sixth report set, untouched (session 7, second round)
    "r8": BLIND / "mixed_r8.yaml",  # blind, untouched (session 7, third round): once, at the end
    "a8": BLIND / "answers_r8.yaml",  # issue 13's seventh report set, untouched (session 7, third round)
    "r9": BLIND / "mixed_r9.yaml",  # blind, untouched (session 8, first round): once, at the round's end
    "a9": BLIND / "answers_r9.yaml",  # issue 13's eighth report set, untouched (session 8, first round)
    "r10": BLIND / "mixed_r10.yaml",  # blind, untouched (session 8, second round): once, at its end
    "a10": BLIND / "answers_r10.yaml",  # issue 13's ninth report set, untouched (session 8, second round)
    "r11": BLIND / "mixed_r11.yaml",  # blind, untouched (session 8, third round): once, at its end
    "a11": BLIND / "answers_r11.yaml",  # issue 13's tenth report set, untouched (session 8, third round)
    "r12": BLIND / "mixed_r12.yaml",  # blind, untouched (session 9): once, at the session's round end
    "a12": BLIND / "answers_r12.yaml",  # issue 13's eleventh report set, untouched (session 9)
    "r13": BLIND / "mixed_r13.yaml",  # blind (session 10): run at its round's end, now used
    "a13": BLIND / "answers_r13.yaml",  # issue 13's twelfth report set (session 10): now used
    "r14": BLIND / "mixed_r14.yaml",  # blind (session 11): run at its round's end, now used
    "a14": BLIND / "answers_r14.yaml",  # issue 13's thirteenth report set (session 11): now used
    "r15": BLIND / "mixed_r15.yaml",  # blind, used (written at the end of session 11, run at the start of session 12)
    "a15": BLIND / "answers_r15.yaml",  # issue 13's fourteenth report set, used (session 12)
    "r16": BLIND / "mixed_r16.yaml",  # blind, used (written at the start of session 12, run at its end)
    "a16": BLIND / "answers_r16.yaml",  # issue 13's fifteenth report set, used (session 12)
    "r17": BLIND / "mixed_r17.yaml",  # blind, used (written in session 12, run at its end)
    "a17": BLIND / "answers_r17.yaml",  # issue 13's sixteenth report set, used (session 12)
    "r18": BLIND / "mixed_r18.yaml",  # written in session 12, run once at the start of session 13: now used
    "a18": BLIND / "answers_r18.yaml",  # issue 13, written in session 12, run at the start of session 13: now used
    "r19": BLIND / "mixed_r19.yaml",  # written at the start of session 13, run once at its end: now used
    "a19": BLIND / "answers_r19.yaml",  # issue 13, written at the start of session 13, run at its end: now used
    "r20": BLIND / "mixed_r20.yaml",  # written at the end of session 13, run at the start of session 14: now used
    "a20": BLIND / "answers_r20.yaml",  # issue 13, written at the end of session 13, run at the start of 14: now used
    "r21": BLIND / "mixed_r21.yaml",  # written at the start of session 14, run once at its end: now used
    "a21": BLIND / "answers_r21.yaml",  # issue 13, written at the start of session 14, run at its end: now used
    "r22": BLIND / "mixed_r22.yaml",  # written at the end of session 14, run at the start of session 15: now used
    "a22": BLIND / "answers_r22.yaml",  # issue 13, written at the end of session 14, run at the start of session 15: now used
    "r23": BLIND / "mixed_r23.yaml",  # written at the start of session 15, run once at its end: now used
    "a23": BLIND / "answers_r23.yaml",  # issue 13, written at the start of session 15, run at its end: now used
    "r24": BLIND / "mixed_r24.yaml",  # written at the end of session 15, run at the start of session 16: now used
    "a24": BLIND / "answers_r24.yaml",  # issue 13, written at the end of session 15, run at the start of session 16: now used
    "r25": BLIND / "mixed_r25.yaml",  # written at the start of session 16, run once at its end: now used
    "a25": BLIND / "answers_r25.yaml",  # issue 13, written at the start of session 16, run once at its end: now used
    "r26": BLIND / "mixed_r26.yaml",  # blind, written at the end of session 16, run at the start of session 17: now used
    "a26": BLIND / "answers_r26.yaml",  # issue 13, written at the end of session 16, run at the start of session 17: now used
    "r27": BLIND / "mixed_r27.yaml",  # written at the start of session 17, run once at its end: now used
    "a27": BLIND / "answers_r27.yaml",  # issue 13, written at the start of session 17, run once at its end: now used
    "r28": BLIND / "mixed_r28.yaml",  # written at the end of session 17, run at the start of session 18: now used
    "a28": BLIND / "answers_r28.yaml",  # issue 13, written at the end of session 17, run at the start of session 18: now used
    "r29": BLIND / "mixed_r29.yaml",  # written at the start of session 18, run once at its end: now used
    "a29": BLIND / "answers_r29.yaml",  # issue 13, written at the start of session 18, run once at its end: now used
    "r30": BLIND / "mixed_r30.yaml",  # blind, written at the end of session 18, run at the start of session 19: now used
    "a30": BLIND / "answers_r30.yaml",  # issue 13, written at the end of session 18, run at the start of session 19: now used
    "r31": BLIND / "mixed_r31.yaml",  # blind, written at the start of session 19, run once at its end: now used
    "a31": BLIND / "answers_r31.yaml",  # issue 13, written at the start of session 19, run once at its end: now used
    "r32": BLIND / "mixed_r32.yaml",  # blind, written at the start of session 20, run once at its end: now used
    "a32": BLIND / "answers_r32.yaml",  # issue 13, written at the start of session 20, run once at its end: now used
    "r33": BLIND / "mixed_r33.yaml",  # blind, written at the end of session 20, run once at the end of session 21: now used
    "a33": BLIND / "answers_r33.yaml",  # issue 13, written at the end of session 20, run once at the end of session 21: now used
    "r34": BLIND / "mixed_r34.yaml",  # blind, written at the start of session 21, run once in session 22 (its redo): now used
    "a34": BLIND / "answers_r34.yaml",  # issue 13, written at the start of session 21, run once in session 22 (its redo): now used
    "r35": BLIND / "mixed_r35.yaml",  # blind, written at the start of session 22, run once at the end of session 23: now used
    "a35": BLIND / "answers_r35.yaml",  # issue 13, written at the start of session 22, run once at the end of session 23: now used
    "r36": BLIND / "mixed_r36.yaml",  # blind, written at the start of session 23, run once at the end of session 24: now used
    "a36": BLIND / "answers_r36.yaml",  # issue 13, written at the start of session 23, run once at the end of session 24: now used
    "r37": BLIND / "mixed_r37.yaml",  # blind, used: written at the start of session 24, run once at the end of session 25 (b47dc1f)
    "a37": BLIND / "answers_r37.yaml",  # issue 13, used: written at the start of session 24, run once at the end of session 25 (b47dc1f)
    "r38": BLIND / "mixed_r38.yaml",  # blind, untouched: written at the start of session 25, run once at the end of session 26
    "a38": BLIND / "answers_r38.yaml",  # issue 13, untouched: written at the start of session 25, run once at the end of session 26
    "r39": BLIND / "mixed_r39.yaml",  # blind, used: written at the start of session 26, run once at the end of session 27 (680e1fb)
    "a39": BLIND / "answers_r39.yaml",  # issue 13, used: written at the start of session 26, run once at the end of session 27 (680e1fb)
    "r40": BLIND / "mixed_r40.yaml",  # blind: written at the start of session 27, run once at the end of session 28 (aa09222), now used
    "a40": BLIND / "answers_r40.yaml",  # issue 13: written at the start of session 27, run once at the end of session 28 (aa09222), now used
    "r41": BLIND / "mixed_r41.yaml",  # blind: written at the start of session 28, run once at the end of session 29 (06e1083), now used
    "a41": BLIND / "answers_r41.yaml",  # issue 13: written at the start of session 28, run once at the end of session 29, now used
    "r42": BLIND / "mixed_r42.yaml",  # blind: written in session 28 after its first round (9ecbb8f), run once at its end (db68d61), now used
    "a42": BLIND / "answers_r42.yaml",  # issue 13: written in session 28 after its first round (9ecbb8f), run once at its end (db68d61), now used
    "a43": BLIND / "answers_r43.yaml",  # issue 13: written in session 28 after its second round (ca884d9), run once at its end (e7e60a7), now used
    "r44": BLIND / "mixed_r44.yaml",  # blind: written at the start of session 29 (f0d4336), run once after its first round (8247924), now used
    "a44": BLIND / "answers_r44.yaml",  # issue 13: written at the start of session 29 (f0d4336), run once after its first round, now used
    "r45": BLIND / "mixed_r45.yaml",  # blind: written in session 29 (aaf288d), run once at its end (06e1083), now used
    "a45": BLIND / "answers_r45.yaml",  # issue 13: written in session 29 (aaf288d), run once at its end, now used
    "r46": BLIND / "mixed_r46.yaml",  # blind: written at the end of session 29 (a7d8a0f), run once at the end of session 30 (849f6f0), now used
    "a46": BLIND / "answers_r46.yaml",  # issue 13: written at the end of session 29 (a7d8a0f), run once at the end of session 30 (849f6f0), now used
    "r47": BLIND / "mixed_r47.yaml",  # blind: written at the start of session 30 (76ae562), run once at its end (849f6f0), now used
    "a47": BLIND / "answers_r47.yaml",  # issue 13: written at the start of session 30 (76ae562), run once at its end (849f6f0), now used
    "r48": BLIND / "mixed_r48.yaml",  # blind: written at the end of session 30 (849f6f0), run once at the end of session 31 (bc164ab), now used
    "a48": BLIND / "answers_r48.yaml",  # issue 13: written at the end of session 30 (849f6f0), run once at the end of session 31 (bc164ab), now used
    "r49": BLIND / "mixed_r49.yaml",  # blind: written at the start of session 31 (c0cebe5), run once at its end (bc164ab), now used
    "a49": BLIND / "answers_r49.yaml",  # issue 13: written at the start of session 31 (c0cebe5), run once at its end (bc164ab), now used
    "r50": BLIND / "mixed_r50.yaml",  # blind: written at the end of session 31 (bc164ab), run once at the end of session 32: now used
    "a50": BLIND / "answers_r50.yaml",  # issue 13: written at the end of session 31 (bc164ab), run once at the end of session 32: now used
    "r51": BLIND / "mixed_r51.yaml",  # blind: written at the start of session 32 (b9ea4c5), run once at its end: now used
    "a51": BLIND / "answers_r51.yaml",  # issue 13: written at the start of session 32 (b9ea4c5), run once at its end: now used
    "r52": BLIND / "mixed_r52.yaml",  # blind: written at the end of session 32 (3f897e1), run once at the end of session 33: now used
    "a52": BLIND / "answers_r52.yaml",  # issue 13: written at the end of session 32 (3f897e1), run once at the end of session 33: now used
    "r53": BLIND / "mixed_r53.yaml",  # blind: written at the start of session 33 (ba95492), run once at the end of session 34: now used
    "a53": BLIND / "answers_r53.yaml",  # issue 13: written at the start of session 33 (ba95492), run once at the end of session 34: now used
    "r54": BLIND / "mixed_r54.yaml",  # blind: written at the start of session 34 (e0258ce), run once at the end of session 35: now used
    "a54": BLIND / "answers_r54.yaml",  # issue 13: written at the start of session 34 (e0258ce), run once at the end of session 35: now used
    "r55": BLIND / "mixed_r55.yaml",  # blind: written at the start of session 35 (1b0425a), run once at the end of session 36: now used
    "a55": BLIND / "answers_r55.yaml",  # issue 13: written at the start of session 35 (1b0425a), run once at the end of session 36: now used
    "r56": BLIND / "mixed_r56.yaml",  # blind: written at the start of session 36 (7138650), run once at the end of session 37: now used
    "a56": BLIND / "answers_r56.yaml",  # issue 13: written at the start of session 36 (7138650), run once at the end of session 37: now used
    "r57": BLIND / "mixed_r57.yaml",  # blind: written at the start of session 37 (adea882), run once at the end of session 38: now used
    "a57": BLIND / "answers_r57.yaml",  # issue 13: written at the start of session 37 (adea882), run once at the end of session 38: now used
    "r58": BLIND / "mixed_r58.yaml",  # blind: written at the start of session 38 (8e7d329), run once at the end of session 39: now used
    "a58": BLIND / "answers_r58.yaml",  # issue 13: written at the start of session 38 (8e7d329), run once at the end of session 39: now used
    "r59": BLIND / "mixed_r59.yaml",  # blind: written at the start of session 39 (1390395), run once at the end of session 40: now used
    "a59": BLIND / "answers_r59.yaml",  # issue 13: written at the start of session 39 (1390395), run once at the end of session 40: now used
    "r60": BLIND / "mixed_r60.yaml",  # blind: written at the start of session 40 (e46ded1), run once at the end of session 41: now used
    "a60": BLIND / "answers_r60.yaml",  # issue 13: written at the start of session 40 (e46ded1), run once at the end of session 41: now used
    "r61": BLIND / "mixed_r61.yaml",  # blind: written at the start of session 41 (f638d17), run once at the end of session 42 (708065c): now used
    "a61": BLIND / "answers_r61.yaml",  # issue 13: written at the start of session 41 (f638d17), run once at the end of session 42 (708065c): now used
    "r62": BLIND / "mixed_r62.yaml",  # blind: written at the start of session 42 (5e192a0), run once at the end of session 43 (e277e9e): now used
    "a62": BLIND / "answers_r62.yaml",  # issue 13: written at the start of session 42 (5e192a0), run once at the end of session 43 (e277e9e): now used
    "r63": BLIND / "mixed_r63.yaml",  # blind: written at the start of session 43 (e44da0d), run once at the end of session 44 (e53da52): now used
    "a63": BLIND / "answers_r63.yaml",  # issue 13: written at the start of session 43 (e44da0d), run once at the end of session 44 (e53da52): now used
    "r64": BLIND / "mixed_r64.yaml",  # blind: written at the start of session 44 (2ad5524), run once at the end of session 45 (3aa8c4a): now used
    "a64": BLIND / "answers_r64.yaml",  # issue 13: written at the start of session 44 (2ad5524), run once at the end of session 45 (3aa8c4a): now used
    "r65": BLIND / "mixed_r65.yaml",  # blind: written at the start of session 45 (fc8cc41), run once at the end of session 46 (bf909f4): now used
    "a65": BLIND / "answers_r65.yaml",  # issue 13: written at the start of session 45 (fc8cc41), run once at the end of session 46 (bf909f4): now used
    "r66": BLIND / "mixed_r66.yaml",  # blind: written at the start of session 46 (3ca1407), run once at the end of session 47 (e713fd9): now used
    "a66": BLIND / "answers_r66.yaml",  # issue 13: written at the start of session 46 (3ca1407), run once at the end of session 47 (e713fd9): now used
    "r67": BLIND / "mixed_r67.yaml",  # blind: written at the start of session 47 (b6897fc), run once at the end of session 48 (c21e722): now used
    "a67": BLIND / "answers_r67.yaml",  # issue 13: written at the start of session 47 (b6897fc), run once at the end of session 48 (c21e722): now used
    "r68": BLIND / "mixed_r68.yaml",  # blind, written at the start of session 48 (7a494ae), run once at the end of session 49 (fa98cb5): now used
    "r69": BLIND / "mixed_r69.yaml",  # blind, untouched: written at the start of session 49 (0edf03c), run once at the end of session 50
    "a68": BLIND / "answers_r68.yaml",  # issue 13, written at the start of session 48 (7a494ae), run once at the end of session 49 (fa98cb5): now used
    "a69": BLIND / "answers_r69.yaml",  # issue 13, untouched: written at the start of session 49 (0edf03c), run once at the end of session 50
}
DEFAULT_SETS = ("tune", "haru", "statutes", "statutes_b", "contracts", "contracts_b")

# name → SearchOptions overrides of the shipped defaults ("hybrid" and "dense" are the baselines)
VARIANTS: dict[str, dict[str, Any]] = {
    "jogak": {},  # as shipped: the store's leaves are used when it has them (index.leaves, off by default)
    "no-leaves": {"leaves": False},  # = the shipped default on a store ingested without index.leaves
    "leaves-max": {"leaf_mode": "max"},
    "leaves-half": {"weights": {"leaf_dense": 0.5, "leaf_bm25": 0.5}},
    "leaves-dense": {"weights": {"leaf_bm25": 0.0}},
    "leaves-bm25": {"weights": {"leaf_dense": 0.0}},
    "leaves-paragraph": {"leaf_granularity": "paragraph"},
    "leaves-item": {"leaf_granularity": "item"},
    "no-collapse": {"collapse": False},
    "prefer-named": {"title_filter": False},  # a named document is preferred (routing), not a filter
    # pseudo-relevance feedback, opt-in (its default size is 2 clauses × 5 words since session 5)
    "feedback": {"feedback": True},
    "feedback-3x8": {"feedback": True, "feedback_docs": 3, "feedback_terms": 8},
    "feedback-half": {"feedback": True, "weights": {"feedback": 0.5}},
    "no-leaves-feedback": {"leaves": False, "feedback": True},
    "no-leaves-feedback-3x8": {"leaves": False, "feedback": True, "feedback_docs": 3, "feedback_terms": 8},
    "no-purpose": {"authority": {"purpose": 1.0}},
    "purpose-0.6": {"authority": {"purpose": 0.6}},
    "purpose-0.9": {"authority": {"purpose": 0.9}},
    # a definitions article ("제2조 (정의)") discounted unless the question asks what a word means (session 12,
    # shipped at 0.9); without leaves, as shipped, so each compares with "no-leaves" on a leaf store
    "no-definition": {"leaves": False, "authority": {"definition": 1.0}},
    "definition-0.8": {"leaves": False, "authority": {"definition": 0.8}},
    "definition-0.7": {"leaves": False, "authority": {"definition": 0.7}},
    "addenda-0.8": {"authority": {"addenda": 0.8}},
    "addenda-0.7": {"authority": {"addenda": 0.7}},
    "addenda-0.5": {"authority": {"addenda": 0.5}},
    "no-xref": {"xref": False},
    "xref-1": {"xref_per_target": 1},
    "no-documents": {"documents": False},
    "spread-0.1": {"document_spread": 0.1},
    "spread-0.2": {"document_spread": 0.2},
    "no-rerank": {"rerank": None},
    # session 36: documents other than laws, for a question about regulation or a public body (0.9 = jogak)
    "no-regulation": {"regulation_prior": 1.0},
    "regulation-0.8": {"regulation_prior": 0.8},
    "no-delegation": {"delegation_top": 0},  # session 29: an Act clause that delegates followed by its decree's
    "no-sanction": {"sanction_top": 0},  # session 32: the penalty article citing a leading duty clause as breached
    "no-sanction-laws": {"sanction_laws_first": 0},  # session 45: a state-sanction question ranks the laws first
    "no-disqualification": {"disqualification_top": 0},
    # session 46: the law clause behind a leading company rule placed 5th when the first 5 hold no law clause
    "no-companion": {"companion_at": 0},
    "companion-3": {"companion_at": 3},  # session 33: the 결격사유 article of a leading hit's law
    "delegation-1": {"delegation_top": 1},
    "delegation-5": {"delegation_top": 5},
    # each clause also ranked by its head (document title + opening text; retrieve/articles.py, session 25)
    "articles": {"article_dense": True},  # = jogak since session 26 (article heads on by default)
    "no-articles": {"article_dense": False},
    "rerank-leaf": {"rerank": "leaf"},
    "rerank-learned": {"rerank": "learned"},  # the learned reranker (jogak.retrieve.learned), shipped weights
    "rerank-auto": {"rerank": "auto"},  # the learned reranker on Korean questions only (its weights were fitted on them)
    "no-lexicon": {"lexicon": False, "lexicon_dense": False},
    "issue-11": {"leaves": False, "collapse": False, "documents": False, "rerank": None, "feedback": False},
}
KEYS = ("recall@1", "recall@5", "recall@10", "mrr", "ndcg@10", "clause_p@1")


def stores_for(path: Path, where: Path, leaves: bool = True, heads: bool = False) -> tuple[Any, Any] | None:
    """(our store, the baseline's recursive store) over the set's corpus, reused when ``where`` has them."""
    from jogak.eval.corpus import build_store, resolve_corpus
    from jogak.eval.retrieval import BASELINE_CHUNKS
    from jogak.index import open_store

    corpus = resolve_corpus(path)
    if not corpus.ok:
        print(f"[{path.name}] skipped: {corpus.reason()}", file=sys.stderr)
        return None
    key = store_key(corpus)
    # leaves indexed (index.leaves) so the variants with and without leaf matching run on one store;
    # --no-leaf-store skips them (embedding every leaf triples the embedding time) for no-leaves variants
    name = "jogak" if leaves or (where / key / "jogak").exists() else "jogak-noleaves"  # a leaf store serves both
    # heads: the clause heads embedded (into the cache) for article_dense variants, also on a reused store
    index = {"leaves": leaves, **({"article_heads": True} if heads else {})}
    ours, _ = build_store(corpus, where / key / name, index=index)  # unchanged files: skipped
    base = open_store(where / key / "base", "default", create=True, config=dict(ours.config))
    base.ingest([str(p) for p in corpus.paths], **BASELINE_CHUNKS)
    return ours, base


def store_key(corpus: Any) -> str:
    """A stable folder name for a corpus's stores (str hash() changes with every process, which rebuilt the
    stores on every run), the same in every checkout (a git worktree benchmarking one commit while main moves on)."""
    digest = hashlib.sha1("\n".join(sorted(map(_portable, corpus.paths))).encode()).hexdigest()[:8]
    return "_".join(sorted(p.name for p in corpus.paths))[:40] + f"-{digest}"


def _portable(p: Path) -> str:
    """A corpus path relative to the checkout (or to the shared corpora beside it), else whole."""
    p = Path(p).resolve()
    for base in (ROOT, ROOT.parent / "shared"):
        if p.is_relative_to(base):
            return str(p.relative_to(base))
    if "shared" in p.parts:  # ../shared of another checkout
        return str(Path(*p.parts[p.parts.index("shared") + 1 :]))
    return str(p)


def run_variant(store: Any, path: Path, options: Any, resolver: Any) -> dict[str, Any]:
    from jogak.eval.retrieval import load_questions, run_pipeline

    t0 = time.perf_counter()
    rep = run_pipeline(store, load_questions(path), 10, options, resolver)
    rep["metrics"]["wall_s"] = time.perf_counter() - t0
    return rep


def options_for(name: str) -> Any:
    from jogak.retrieve import SearchOptions

    if name == "hybrid":
        return SearchOptions.plain_hybrid()
    if name == "dense":
        return SearchOptions.baseline()
    return SearchOptions.from_config(**VARIANTS[name])


def fmt_row(set_name: str, variant: str, m: dict[str, Any]) -> str:
    cells = [f"{m.get(k, 0):.3f}" for k in KEYS]
    lat = f"{m.get('latency_ms_p50', 0):.0f}/{m.get('latency_ms_p95', 0):.0f}"
    return f"{set_name:<12} {variant:<17} " + " ".join(f"{c:>7}" for c in cells) + f" {lat:>9}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", nargs="*", default=list(DEFAULT_SETS), choices=list(SETS))
    ap.add_argument("--variants", nargs="*", default=["hybrid", *VARIANTS],
                    choices=["hybrid", "dense", *VARIANTS])
    ap.add_argument("--stores", help="keep the stores here (default: a temporary folder)")
    ap.add_argument("--json", metavar="FILE", help="also write every row's metrics (and each question's first relevant rank) here")
    ap.add_argument("--no-leaf-store", action="store_true",
                    help="ingest without index.leaves (faster; only for variants that set leaves False)")
    a = ap.parse_args(argv)
    from jogak.eval.retrieval import GoldResolver

    where = Path(a.stores) if a.stores else Path(tempfile.mkdtemp(prefix="jogak_rq_"))
    head = f"{'set':<12} {'variant':<17} " + " ".join(f"{k.replace('recall', 'R'):>7}" for k in KEYS) + \
        f" {'ms p50/95':>9}"
    print(head)
    out: list[dict[str, Any]] = []
    for s in a.sets:
        pair = stores_for(SETS[s], where, leaves=not a.no_leaf_store,
                          heads=any(VARIANTS.get(v, {}).get("article_dense") for v in a.variants))
        if pair is None:
            continue
        ours, base = pair
        resolver = GoldResolver(ours)
        for v in a.variants:
            store = base if v in ("hybrid", "dense") else ours
            rep = run_variant(store, SETS[s], options_for(v), resolver)
            m = rep["metrics"]
            print(fmt_row(s, v, m), flush=True)
            out.append({"set": s, "variant": v, "metrics": m, "by_kind": rep["by_kind"],
                        "per_question": rep["per_question"]})
    if a.json:
        Path(a.json).write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
