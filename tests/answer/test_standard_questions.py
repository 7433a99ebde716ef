"""End to end on the sample corpus: ingest examples/haru-market into a temporary store, answer the
standard questions with the offline extractive answerer, assert the pass rate, and check the CLI contract
of ``jogak ask`` / ``jogak eval``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = ROOT / "examples" / "haru-market" / "questions.yaml"
CORPUS = ROOT / "examples" / "haru-market"

pytestmark = pytest.mark.slow
JOGAK = [sys.executable, "-c", "import sys; from jogak.cli import main; sys.argv[0] = 'jogak'; main()"]


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory) -> Path:
    if not any(CORPUS.glob("*.pdf")):
        pytest.skip("sample corpus not built")
    from jogak.config import reset_config_cache
    from jogak.index import open_store

    reset_config_cache()
    d = tmp_path_factory.mktemp("haru_store")
    st = open_store(d, create=True)
    rep = st.ingest([str(CORPUS)])
    assert rep.ok
    return d


@pytest.fixture(scope="module")
def report(store_dir) -> dict:
    from jogak.eval.answers import evaluate_answers, load_questions
    from jogak.index import open_store

    qs = load_questions(QUESTIONS)
    rep = evaluate_answers(qs, open_store(store_dir, create=False))
    s = rep["summary"]
    # The numbers the report and the calibration comment in generators/extractive.py quote.
    print("\nstandard questions:", json.dumps(s, ensure_ascii=False))
    for r in rep["questions"]:
        print(f"  {r['id']} {'PASS' if r['passed'] else 'FAIL'} score={r['score']}")
    return rep


def test_standard_question_set_shape():
    from jogak.eval.answers import load_questions

    qs = load_questions(QUESTIONS)
    assert len(qs) >= 20
    kinds = {q.get("kind") for q in qs}
    assert {"faq", "table", "appendix", "unanswerable"} <= kinds
    assert sum(1 for q in qs if not q.get("answerable", True)) >= 2
    for q in qs:
        if q.get("answerable", True):
            assert q.get("must_contain") and q.get("cite"), q["id"]


def test_extractive_pass_rate(report):
    s = report["summary"]
    assert s["checkpoint_pass_rate"] >= 0.90, s
    assert s["pass_rate"] >= 0.85, s
    assert s["abstained_on_unanswerable"] == s["unanswerable"] == 2
    # 3 since the corpus holds two 멤버십정책 versions: BM25 counts the version not in force in its document
    # frequencies, so q25 (골드 등급) ranks the return policy first and is answered as "related" (issue 15);
    # 4 since session 6's 8 excerpts: q17 (지연 보상 포인트 언제·언제까지), answered before without its
    # "3영업일 이내" half (a failed checkpoint), now shows both halves as related clauses (a closer rival)
    assert s["false_abstentions"] <= 4
    assert s["citation_recall"] >= 0.95 and s["citation_precision"] >= 0.95


def test_defective_item_question_says_company_pays_citing_article_2(report):
    q02 = next(r for r in report["questions"] if r["id"] == "q02")
    assert q02["passed"], q02
    assert "회사 전액 부담" in q02["answer"] and "(근거: 반품교환환불정책 · 제2조 (반품 배송비) ②)" in q02["answer"]


def test_cli_ask_json_contract(store_dir):
    r = subprocess.run([*JOGAK, "ask", "단순 변심인데 반품 배송비 얼마예요?", "--store",
                        str(store_dir), "--json"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)  # exactly one JSON document on stdout
    assert set(doc) >= {"question", "outcome", "confidence", "answer", "supported", "citations", "excerpts",
                        "filters", "answer_parts"}
    assert doc["supported"] is True and doc["outcome"] == "answer" and 0.6 <= doc["confidence"] <= 1.0
    assert "(근거: 반품교환환불정책 · 제2조 (반품 배송비) ①)" in doc["answer"]
    c = doc["citations"][0]
    assert set(c) >= {"n", "ref", "chunk_id", "source", "doc_title", "article", "path", "block_type",
                      "page_start", "page_end", "quote", "support", "relevance", "relevance_label"}
    # numbered as the CLI and the web page number them: refs 1… in order, the answer_parts name them
    assert [x["ref"] for x in doc["citations"]] == list(range(1, len(doc["citations"]) + 1))
    assert {r for p in doc["answer_parts"] if "cite" in p for r in p["cite"]} == {x["ref"] for x in doc["citations"]}
    assert c["relevance_label"] in ("높음", "보통", "낮음")
    assert c["source"].endswith(".pdf") and c["page_start"] >= 1 and c["path"] == "본문/제2조/제1항"


def test_cli_ask_text_and_eval(store_dir):
    r = subprocess.run([*JOGAK, "ask", "배송이 7일 늦어지면 보상은 얼마인가요?",
                        "--store", str(store_dir)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("[답변 · 신뢰도 ") and lines[0].endswith("%]")  # the outcome, distinctly
    # the answer's markers and the sources list carry the same numbers (as the JSON's ref, the page's [n])
    ref = next(x for x in lines if x.startswith("부록A에 따르면")).rsplit("[", 1)[1].rstrip("]")
    source = next(x for x in lines if x.startswith(f"[{ref}] 반품교환환불정책 · 부록A 제1조 (보상 기준)"))
    assert "관련도 " in source and "support" not in r.stdout  # relevance as a word, never a bare score
    r = subprocess.run([*JOGAK, "ask", "질문", "--store", str(store_dir / "nope")],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 2 and "no store" in r.stderr and r.stdout == ""
