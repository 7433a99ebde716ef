"""The chunk schema contract (2.0): typed segments and case fields, checked on read, schema 1 migrated."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path

import pytest

import jogak
from jogak.load import load_bytes
from jogak.model import CHUNK_SCHEMA_VERSION, CaseInfo, Chunk, ChunkSchemaError, Segment
from sample_texts import KO_CONTRACT

FIXTURES = Path(__file__).parent / "fixtures"
# Chunks written by the previous release (jogak 566d3eb, schema "1"): a clause with segments, a recursive
# chunk, a court decision's chunk with its case fields flattened into the metadata.
V1 = json.loads((FIXTURES / "schema" / "chunks_v1.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def chunks() -> list[Chunk]:
    doc = load_bytes(KO_CONTRACT.encode(), "물품매매계약서.txt")
    case_doc = jogak.load(str(FIXTURES / "caselaw" / "민법판례집_sample.txt"))
    return (jogak.chunk([doc], strategy="structure", id_prefix=None)
            + jogak.chunk([doc], strategy="recursive", id_prefix=None)
            + jogak.chunk([case_doc], strategy="structure", id_prefix=None))


def test_round_trip_keeps_every_field(chunks: list[Chunk]) -> None:
    assert CHUNK_SCHEMA_VERSION == "2.3"
    for c in chunks:
        d = c.to_dict()
        back = Chunk.from_dict(json.loads(json.dumps(d, ensure_ascii=False)))
        assert back == c, c.id
        assert back.to_dict() == d
    assert any(c.metadata.segments for c in chunks) and any(c.metadata.case for c in chunks)
    assert all(isinstance(s, Segment) for c in chunks for s in c.metadata.segments)


def test_case_fields_stay_flattened_in_the_json(chunks: list[Chunk]) -> None:
    c = next(c for c in chunks if c.metadata.case)
    d = c.to_dict()["metadata"]
    assert "case" not in d
    assert d["case_number"] == c.metadata.case.case_number == "2001다48781"
    assert set(CaseInfo.field_names()) <= set(d)
    assert d["segments"][0].keys() == {"path", "cite", "start", "end"}


def test_schema_1_is_migrated_field_by_field(chunks: list[Chunk]) -> None:
    now = {c.id: c for c in chunks}
    for name, d in V1.items():
        assert d["schema_version"] == "1"
        c = Chunk.from_dict(copy.deepcopy(d))
        assert c.schema_version == CHUNK_SCHEMA_VERSION, name
        # the same JSON apart from the version: the fields map one to one
        assert {**c.to_dict(), "schema_version": "1"} == d, name
        # and the same chunk this version cuts from the same text, apart from the clause key (2.1), which
        # only the chunker records: a migrated chunk has none
        assert c.metadata.clause is None
        cut = now[c.id]
        assert c == type(cut)(cut.id, cut.text, replace(cut.metadata, clause=None), cut.embed_text,
                              cut.content_hash), name
    case = Chunk.from_dict(V1["case"]).metadata.case
    assert isinstance(case, CaseInfo) and case.court == "대법원" and case.numbers[0] == "2001다48781"


def test_another_major_version_is_rejected_with_a_reingest_hint() -> None:
    d = {**copy.deepcopy(V1["structure"]), "schema_version": "99"}
    with pytest.raises(ChunkSchemaError, match=r"schema version '99'.*re-ingest") as e:
        Chunk.from_dict(d)
    assert "\n" not in str(e.value) and V1["structure"]["id"] in str(e.value)
    assert Chunk.from_dict({**copy.deepcopy(V1["structure"]), "schema_version": "2.3"}).id  # a minor is read


@pytest.mark.parametrize("where", ["chunk", "metadata", "segment"])
def test_unknown_keys_are_rejected_not_guessed(where: str) -> None:
    d = copy.deepcopy(V1["structure"])
    target = {"chunk": d, "metadata": d["metadata"], "segment": d["metadata"]["segments"][0]}[where]
    target["colour"] = "blue"
    with pytest.raises(ChunkSchemaError, match=r"unknown key\(s\) 'colour'.*re-ingest"):
        Chunk.from_dict(d)


def test_a_missing_metadata_key_is_named() -> None:
    d = copy.deepcopy(V1["recursive"])
    del d["metadata"]["char_end"]
    with pytest.raises(ChunkSchemaError, match=r"missing key\(s\) 'char_end'"):
        Chunk.from_dict(d)


def test_trees_use_only_the_declared_node_kinds_and_block_types(chunks: list[Chunk]) -> None:
    from typing import get_args

    from jogak.model import BLOCK_TYPES, NodeKind
    from sample_texts import EN

    docs = [load_bytes(KO_CONTRACT.encode(), "물품매매계약서.txt"), load_bytes(EN.encode(), "agreement.txt"),
            jogak.load(str(FIXTURES / "caselaw" / "민법판례집_sample.txt"))]
    for doc in docs:
        for n in jogak.parse(doc).root.walk():
            assert n.kind in get_args(NodeKind) and n.block_type in BLOCK_TYPES, (doc.source, n.path)
    assert {c.metadata.block_type for c in chunks} - {None} <= set(BLOCK_TYPES)


def test_integration_documents_keep_their_chunk_when_a_pipeline_adds_metadata(chunks: list[Chunk]) -> None:
    from jogak.integrations.provenance import hit_from_metadata, hit_metadata
    from jogak.model import Hit

    c = next(c for c in chunks if c.metadata.case)
    md = {**hit_metadata(Hit(c, 0.5, 2)), "relevance_score": 0.9}  # e.g. a LangChain reranker's key
    back = hit_from_metadata(c.text, md)
    assert back.chunk.metadata == c.metadata and back.rank == 2


def test_an_ocr_chunk_round_trips_with_its_confidence(chunks: list[Chunk]) -> None:
    c = copy.deepcopy(chunks[0])
    c.metadata.ocr_confidence = 71.5
    d = c.to_dict()
    assert (d["metadata"]["ocr"], d["metadata"]["ocr_confidence"]) == (True, 71.5)
    assert Chunk.from_dict(d) == c
    assert "ocr" not in chunks[1].to_dict()["metadata"]  # only OCR'd chunks carry the keys


def test_the_clause_key_is_recorded_at_cut_time(chunks: list[Chunk]) -> None:
    """2.1: every structure chunk names the clause unit it was cut from; the chunks of one unit share it;
    recursive chunks have none and their JSON has no key (as in 2.0)."""
    structure = [c for c in chunks if c.metadata.strategy == "structure"]
    assert structure and all(c.metadata.clause for c in structure)
    for c in structure:
        assert c.metadata.path == c.metadata.clause or c.metadata.path.startswith(c.metadata.clause + "/") \
            or c.metadata.clause == "/", c.id
    recursive = [c for c in chunks if c.metadata.strategy == "recursive"]
    assert all(c.metadata.clause is None and "clause" not in c.to_dict()["metadata"] for c in recursive)
    old = {**copy.deepcopy(V1["structure"]), "schema_version": "2.0"}
    assert Chunk.from_dict(old).metadata.clause is None  # a 2.0 chunk reads without one
