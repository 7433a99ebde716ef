"""Parse/chunk fan-out (issue 19): N worker processes give the same chunks, in the same order, as one
process — for `jogak chunks --jsonl` (streamed) and for ingest (the same collection, BM25 included); a file
that fails is reported in its place and the others still arrive."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from jogak.chunk.stream import stream_files
from jogak.index import open_store

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = [ROOT / "examples" / "haru-market", ROOT / "examples" / "contracts"]
JOGAK = str(Path(sys.executable).with_name("jogak"))


def _files(tmp: Path) -> list[Path]:
    from jogak.load import expand_paths

    bad = tmp / "깨진.pdf"
    bad.write_bytes(b"%PDF-1.4 not really")
    files = sorted(expand_paths(EXAMPLES).files)
    return [*files[:2], bad, *files[2:]]


def test_stream_with_workers_is_the_single_process_stream(tmp_path: Path) -> None:
    files = _files(tmp_path)
    one = list(stream_files(files, "structure"))
    two = list(stream_files(files, "structure", workers=2))
    assert [r.path for r in two] == [str(f) for f in files]
    assert [r.error is None for r in two] == [r.error is None for r in one] == [True, True, False, *[True] * (len(files) - 3)]
    assert [[c.to_dict() for c in r.chunks] for r in two] == [[c.to_dict() for c in r.chunks] for r in one]
    assert sum(r.n_articles for r in one) > 0


def test_chunks_jsonl_streams_the_same_lines(tmp_path: Path) -> None:
    outs = []
    for w in ("1", "2"):
        out = tmp_path / f"w{w}.jsonl"
        p = subprocess.run([JOGAK, "chunks", *map(str, EXAMPLES), "--strategy", "structure", "--jsonl", str(out),
                            "--workers", w], capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stderr
        outs.append(out.read_text(encoding="utf-8"))
    assert outs[0] == outs[1]
    ids = [json.loads(line)["id"] for line in outs[0].splitlines()]
    assert ids[:2] == ["policy-000", "policy-001"] and len(ids) == len(set(ids))


def test_ingest_with_workers_writes_the_same_collection(tmp_path: Path) -> None:
    files = _files(tmp_path)
    stores = []
    for w in (1, 2):
        st = open_store(tmp_path / f"s{w}", "c", embedder=False)
        rep = st.ingest(files, workers=w, commit_every=2)
        assert [f["source"] for f in rep.failed] == ["깨진.pdf"]
        assert len(rep.added) == len(files) - 1
        stores.append(st)
    a, b = stores
    assert [(c.id, c.text, c.metadata.path) for c in a.chunks()] == [(c.id, c.text, c.metadata.path) for c in b.chunks()]
    assert sorted(a.lexical().rows) == sorted(b.lexical().rows) and a.check()["bm25_consistent"]
    assert b.check()["bm25_consistent"] and b.check()["hidden_generations"] == []


def _noop() -> None:
    return None


def _die_on_b(item: str) -> str:
    if item == "b":
        import os

        os._exit(9)  # a worker killed mid-file (out of memory, a segfault in a C extension)
    return item.upper()


def test_a_dead_worker_fails_its_file_and_the_rest_go_on() -> None:
    from jogak.chunk.stream import ordered_map

    got = list(ordered_map(_die_on_b, ["a", "b", "c", "d", "e"], 2, _noop, ()))
    assert [i for i, _ in got] == ["a", "b", "c", "d", "e"]
    assert dict(got)["b"] is None and [r for i, r in got if i != "b"] == ["A", "C", "D", "E"]
