"""RRF, clause references in questions, routing rules, and structural lookups over hand-built chunks."""

from __future__ import annotations

import numpy as np

from jogak.filters import COLUMNS, Filter, filter_columns, to_mask
from jogak.index.lexical import LexicalIndex
from jogak.model import Chunk, ChunkMetadata
from jogak.retrieve import hybrid, routing, structural


def test_rrf_weights_and_ties() -> None:
    fused = hybrid.rrf({"dense": [("a", 0.9), ("b", 0.8)], "bm25": [("b", 5.0), ("c", 4.0)]}, k=60)
    assert [f.key for f in fused] == ["b", "a", "c"]
    assert fused[0].ranks == {"dense": 2, "bm25": 1}
    fused = hybrid.rrf({"dense": [("a", 0.9), ("b", 0.8)], "bm25": [("b", 5.0)]}, {"bm25": 0.0})
    assert [f.key for f in fused] == ["a", "b"]


def test_find_clause_refs() -> None:
    refs = structural.find_clause_refs("반품교환환불정책 제2조 내용")
    assert [(r.article, r.part) for r in refs] == [("제2조", None)]
    r = structural.find_clause_refs("부록A 제2조에서 정한 산정 방법")[0]
    assert (r.part, r.article) == ("부록A", "제2조")
    r = structural.find_clause_refs("제17조의2제1항")[0]
    assert (r.article, r.paragraph) == ("제17조의2", "제1항")
    assert structural.find_clause_refs("What does Section 4.2 say?")[0].article == "4.2"
    assert structural.find_clause_refs("Schedule 1 pricing")[0].part == "Schedule 1"
    assert structural.find_clause_refs("2000다11621 판결 요지")[0].case_number == "2000다11621"
    assert not [r for r in structural.find_clause_refs("2010년 3월 이후 7일 이내") if r.case_number]


def test_routing_rules() -> None:
    rules = routing.load_rules()
    prefer, w, terms = routing.route("이 계약의 위약금은 어떻게 계산하나요?", rules)
    assert prefer[0] == "appendix" and w > 0 and "위약금" in terms
    assert routing.route("What are the liquidated damages?", rules)[0] == ["appendix"]
    assert routing.route("배송비는 얼마인가요?", rules)[0] == []


def _chunk(no, text, path, block="body", paths=None, doc="계약서", article=""):
    md = ChunkMetadata(source=f"{doc}.txt", doc_title=doc, chunk_no=no, article=article, page_start=None,
                       page_end=None, char_start=no * 100, char_end=no * 100 + len(text), strategy="structure",
                       doc_id=f"{doc}-x", block_type=block, path=path, paths=paths or [path])
    return Chunk(id=f"{doc}-x-{no:03d}", text=text, metadata=md)


CHUNKS = [
    _chunk(0, "제7조 (위약금) ② 산정 방법은 부록A 제2조에 따른다.", "본문/제7조"),
    _chunk(1, "제8조 (분쟁) 관할 법원", "본문/제8조"),
    _chunk(2, "제1조 (적용 범위)", "부록A/제1조", "appendix"),
    _chunk(3, "제2조 (위약금 산정) ① 1천분의 1.5", "부록A/제2조/제1항", "appendix",
           ["부록A/제2조/제1항"]),
    _chunk(4, "② 총액 한도 100분의 10", "부록A/제2조/제2항", "appendix"),
    _chunk(0, "제2조 (반품 배송비)", "본문/제2조", doc="반품정책"),
]


def _lex():
    cols = {c: [] for c in COLUMNS}
    for ch in CHUNKS:
        fc = {**filter_columns(ch), "pointers": ["부록A/제2조"] if ch.id.endswith("000") and ch.metadata.doc_title == "계약서" else None}
        for c in COLUMNS:
            cols[c].append(fc.get(c))
    return LexicalIndex([f"{c.id}@1" for c in CHUNKS], cols)


def test_clause_rows_body_first_and_appendix_by_part() -> None:
    lex = _lex()
    ref = structural.find_clause_refs("제2조")[0]
    # a bare 제2조 prefers body clauses (반품정책 본문/제2조) over appendix articles with the same number
    assert structural.clause_rows(ref, lex, None, None) == [5]
    ref = structural.find_clause_refs("부록A 제2조")[0]
    assert structural.clause_rows(ref, lex, None, None) == [3, 4]
    ref = structural.find_clause_refs("계약서 제2조")[0]
    # restricted to one document, the only 제2조 is the appendix one
    assert structural.clause_rows(ref, lex, None, {"계약서-x"}) == [3, 4]
    mask = to_mask([Filter("block_type", "eq", "body")], lex.column, len(lex))
    assert structural.clause_rows(ref, lex, mask, {"계약서-x"}) == []


def test_target_and_neighbour_rows() -> None:
    lex = _lex()
    assert structural.target_rows(lex, "계약서-x", "부록A/제2조", None) == [3, 4]
    assert structural.target_rows(lex, "계약서-x", "부록A", None) == [2, 3, 4]
    assert structural.target_rows(lex, "반품정책-x", "부록A", None) == []
    assert structural.neighbour_rows(lex, 3, "neighbours", None) == [2, 4]
    assert structural.neighbour_rows(lex, 3, "parent", np.array([True] * 6)) == [4]


def test_a_question_naming_an_inserted_appendix_names_it_not_its_neighbour() -> None:
    from jogak.retrieve.structural import find_clause_refs

    assert [r.part for r in find_clause_refs("별표 1의2에 있는 처분 기준은?")] == ["별표1의2"]
    assert [r.part for r in find_clause_refs("별표 1 기준은?")] == ["별표1"]
