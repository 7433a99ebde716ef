"""``jogak eval``: answer the standard questions and check them (seed 000's checkpoints, ALCE metrics).

Per question (``questions.yaml``: ``id, question, gold [{doc_title, article_label, path}], must_contain,
cite, answerable, kind``):

- **checkpoints** — every ``must_contain`` phrase is in the answer (white space normalised), the
  required citation (``cite``: "반품교환환불정책 · 제2조", or a list of alternatives) appears in a rendered
  source note, and for an unanswerable question the answerer abstains; the question passes when all of
  its checkpoints pass;
- **retrieval recall** — share of gold clauses (same document, path equal or nested) among the hits;
- **citation recall / precision** (ALCE, Gao et al. 2023, with our offline judge in place of NLI):
  a statement is *supported* when the concatenation of its cited clauses supports it (recall); a
  citation is *relevant* when it supports the statement alone, or when the others without it no longer
  do (precision). Notes written by the system (body-over-appendix) are not statements.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jogak.answer.ask import AskOptions, Composed, ask_composed
from jogak.answer.verify import MorphemeOverlapJudge


def load_questions(path: str | Path) -> list[dict[str, Any]]:
    import yaml

    with Path(path).open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    if isinstance(data, dict):
        data = data.get("questions")
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a list of questions (or a mapping with 'questions')")
    out = []
    for i, q in enumerate(data):
        if not isinstance(q, dict) or not q.get("question"):
            raise ValueError(f"{path}: entry {i} has no 'question'")
        q = dict(q)
        q.setdefault("id", f"q{i + 1:02d}")
        q.setdefault("answerable", True)
        q.setdefault("gold", [])
        q.setdefault("must_contain", [])
        out.append(q)
    return out


def _norm(s: str) -> str:
    return " ".join(s.split())


_CELL_GAP = 30  # the most text between two cells of a table row as an answer shows it (", 단위: ")


def contains(phrase: str, text: str) -> bool:
    """``phrase`` (white space normalised) is in ``text``. A table row written as its cells ("흑백 스캔 | 1쪽 | 40원")
    is also there when the answer shows the row with its column names ("구분: 흑백 스캔, 단위: 1쪽, 요금: 40원"):
    every cell, in order, with at most ``_CELL_GAP`` characters and no line break between two of them."""
    phrase = _norm(phrase)
    if phrase in _norm(text):
        return True
    cells = [c.strip() for c in phrase.split("|")]
    if len(cells) < 2 or not all(cells):
        return False
    pattern = rf"[^\n]{{0,{_CELL_GAP}}}?".join(re.escape(c).replace(r"\ ", r"\s+") for c in cells)
    return re.search(pattern, text) is not None


def _gold_hit(gold: dict[str, Any], hit_md: Any) -> bool:
    if gold.get("doc_title") and gold["doc_title"] != hit_md.doc_title:
        return False
    gp = gold.get("path")
    if gp:
        paths = [hit_md.path or "", *(hit_md.paths or []), *[s.path for s in hit_md.segments]]
        return any(p and (p == gp or p.startswith(gp + "/") or gp.startswith(p + "/")) for p in paths)
    label = gold.get("article_label")
    return bool(label) and label.split(" (")[0] in (hit_md.article or "")


def check_question(q: dict[str, Any], composed: Composed) -> dict[str, Any]:
    """Checkpoints of one answer. A ``related`` outcome asserts nothing: its "answers" checkpoint fails,
    while the phrases and the citation are checked against the related clauses it shows."""
    ans = composed.answer
    abstained = ans.outcome != "answer"
    checks: list[dict[str, Any]] = []
    if q.get("answerable", True):
        for phrase in q.get("must_contain") or []:
            checks.append({"check": f"contains “{phrase}”", "ok": contains(str(phrase), ans.answer)})
        cite = q.get("cite")
        if cite:
            alts = cite if isinstance(cite, list) else [cite]
            ok = any(cite_matches(str(a), c) for a in alts for c in ans.citations)
            checks.append({"check": f"cites {' | '.join(map(str, alts))}", "ok": ok})
        checks.append({"check": "answers (does not abstain)", "ok": not abstained})
    else:
        checks.append({"check": "abstains", "ok": abstained})
    return {"checks": checks, "abstained": abstained, "passed": all(c["ok"] for c in checks)}


def cite_matches(required: str, c: Any) -> bool:
    """"반품교환환불정책 · 제2조" is satisfied by a citation of that document whose clause label is that
    clause or inside it ("제2조 (반품 배송비) ②"); "… · FAQ" by "자주 묻는 질문 (FAQ) Q2". A case-law
    requirement may name the case number instead."""
    doc, _, clause = (x.strip() for x in required.partition("·"))
    if not clause:
        doc, clause = "", doc
    if doc and doc != c.doc_title:
        return False
    art = _norm(c.article or "")
    clause = _norm(clause)
    if art == clause or art.startswith(clause + " ") or f"({clause})" in art:
        return True
    return bool(c.case) and clause in " ".join(str(v) for v in c.case_fields().values())


def _article(path: str) -> str:
    """A clause path up to its article ("본문/제17조/제1항" → "본문/제17조"); other paths whole."""
    parts = path.split("/")
    for i, p in enumerate(parts):
        if re.match(r"^제\s*\d+\s*조(?:의\s*\d+)?$", p.strip()):
            return "/".join(parts[: i + 1])
    return path


def citation_is_gold(q: dict[str, Any], c: Any) -> bool:
    """Whether a citation names a gold clause's article (same document; paths nested, or the same 조)."""
    for g in q.get("gold") or []:
        if g.get("doc_title") and g["doc_title"] != c.doc_title:
            continue
        gp, cp = g.get("path") or "", c.path or ""
        if not gp:
            if g.get("article_label") and g["article_label"].split(" (")[0] in (c.article or ""):
                return True
            continue
        if cp and (cp == gp or cp.startswith(gp + "/") or gp.startswith(cp + "/") or _article(cp) == _article(gp)):
            return True
    return False


def retrieval_recall(q: dict[str, Any], composed: Composed) -> float | None:
    gold = q.get("gold") or []
    if not gold:
        return None
    hits_md = [e.chunk.metadata for e in composed.context.excerpts] + [h.chunk.metadata for h in
                                                                       composed.context.dropped]
    found = sum(1 for g in gold if any(_gold_hit(g, md) for md in hits_md))
    return found / len(gold)


def alce(composed: Composed, judge: MorphemeOverlapJudge) -> dict[str, Any]:
    """ALCE citation recall and precision for one answer (statements and their cited clauses)."""
    n_stmt = n_supported = n_cit = n_relevant = 0
    for st in composed.statements:
        if st.note:
            continue
        n_stmt += 1
        cits = st.citations
        if not cits:
            continue
        claim = _strip_attr(st.text)

        def ev(cs: list[Any]) -> str:
            return " ".join(c.quote for c in cs)

        union_ok = judge.supports(claim, ev(cits))
        n_supported += int(union_ok)
        for i, c in enumerate(cits):
            n_cit += 1
            alone = judge.supports(claim, c.quote)
            others = cits[:i] + cits[i + 1:]
            needed = union_ok and (not others or not judge.supports(claim, ev(others)))
            n_relevant += int(alone or needed)
    return {"statements": n_stmt, "supported": n_supported, "citations": n_cit, "relevant": n_relevant}


def _strip_attr(text: str) -> str:
    from jogak.answer.ask import _ATTRIBUTION

    return _ATTRIBUTION.sub("", text, count=1)


def evaluate_answers(
    questions: list[dict[str, Any]],
    store: Any,
    generator: Any = None,
    options: AskOptions | None = None,
    judge: MorphemeOverlapJudge | None = None,
    progress: Callable[[int, str, bool], None] | None = None,
    answer_fn: Callable[[str], Composed] | None = None,
) -> dict[str, Any]:
    """Answer every question and score it. ``answer_fn`` replaces retrieval+answering (tests)."""
    options = options or AskOptions()
    judge = judge or MorphemeOverlapJudge(threshold=options.support_threshold)
    rows: list[dict[str, Any]] = []
    t0 = time.monotonic()
    gen_name = getattr(generator, "name", None)
    for i, q in enumerate(questions, 1):
        if answer_fn is not None:
            composed = answer_fn(q["question"])
        else:
            composed = ask_composed(store, q["question"], k=options.k, generator=generator, options=options)
        gen_name = composed.answer.generator
        rows.append(question_row(q, composed, judge))
        if progress is not None:
            progress(i, q["id"], rows[-1]["passed"])
    summary = {
        **answer_summary(rows),
        **outcome_summary(rows),
        "generator": gen_name,
        "judge": judge.description,
        "support_threshold": judge.threshold,
        "seconds": round(time.monotonic() - t0, 2),
    }
    return {"summary": summary, "questions": rows}


def question_row(q: dict[str, Any], composed: Composed, judge: MorphemeOverlapJudge) -> dict[str, Any]:
    """One question's checks, outcome, citations and ALCE counts (``alce``), as the report lists it."""
    res = check_question(q, composed)
    a = alce(composed, judge)
    ans = composed.answer
    gold_cits = [citation_is_gold(q, c) for c in ans.citations]
    return {
        "id": q["id"],
        "kind": q.get("kind"),
        "question": q["question"],
        "answerable": q.get("answerable", True),
        "outcome": ans.outcome,
        "confidence": ans.confidence,
        "gold_citations": sum(gold_cits),
        "passed": res["passed"],
        "abstained": res["abstained"],
        "checks": res["checks"],
        "retrieval_recall": retrieval_recall(q, composed),
        "alce": a,
        "citation_recall": (a["supported"] / a["statements"]) if a["statements"] else None,
        "citation_precision": (a["relevant"] / a["citations"]) if a["citations"] else None,
        "answer": ans.answer,
        "supported": ans.supported,
        "citations": [{"ref": c.ref, "n": c.n, "source": f"{c.doc_title} · {c.article}",
                       "support": c.support, "relevance": c.relevance, "gold": g}
                      for c, g in zip(ans.citations, gold_cits, strict=True)],
        "score": composed.draft.info.get("best_score"),
        "coverage": composed.draft.info.get("coverage"),
        "best_lexical": composed.draft.info.get("best_lexical"),
        "features": composed.draft.info.get("features"),
    }


def answer_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Checkpoint pass rates, context recall, ALCE citation recall/precision (micro and macro), abstentions."""
    tot = {key: sum(r["alce"][key] for r in rows) for key in ("statements", "supported", "citations", "relevant")}
    n_checks = sum(len(r["checks"]) for r in rows)
    n_checks_ok = sum(1 for r in rows for c in r["checks"] if c["ok"])
    unans = [r for r in rows if not r["answerable"]]
    ans_rows = [r for r in rows if r["answerable"]]
    return {
        "questions": len(rows),
        "passed": sum(1 for r in rows if r["passed"]),
        "pass_rate": _ratio(sum(1 for r in rows if r["passed"]), len(rows)),
        "checkpoints": n_checks,
        "checkpoints_passed": n_checks_ok,
        "checkpoint_pass_rate": _ratio(n_checks_ok, n_checks),
        "retrieval_recall": _mean([r["retrieval_recall"] for r in ans_rows if r["retrieval_recall"] is not None]),
        "citation_recall": _ratio(tot["supported"], tot["statements"]),
        "citation_precision": _ratio(tot["relevant"], tot["citations"]),
        "citation_recall_macro": _mean([r["citation_recall"] for r in rows if r["citation_recall"] is not None]),
        "citation_precision_macro": _mean([r["citation_precision"] for r in rows
                                           if r["citation_precision"] is not None]),
        "unanswerable": len(unans),
        "abstained_on_unanswerable": sum(1 for r in unans if r["abstained"]),
        "false_abstentions": sum(1 for r in ans_rows if r["abstained"]),
    }


def outcome_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Issue 13's numbers: outcome counts; of ``answer`` outcomes, the share of citations naming a gold
    clause's article (an answer to an unanswerable question: every citation wrong) and how many answers
    cite no gold clause at all; of ``related`` outcomes on answerable questions whose gold clause the
    answerer saw, the share that show it; a strict checkpoint rate counting a related outcome as no
    answer; and how well confidence ranks right answers (mean confidence of passed / failed answers)."""
    outcomes = {o: sum(1 for r in rows if r.get("outcome") == o) for o in ("answer", "related", "none")}
    answered = [r for r in rows if r.get("outcome") == "answer"]
    n_cit = sum(len(r["citations"]) for r in answered)
    n_gold = sum(r["gold_citations"] if r["answerable"] else 0 for r in answered)
    related = [r for r in rows if r.get("outcome") == "related" and r["answerable"]
               and (r.get("retrieval_recall") or 0) > 0]
    strict_checks = strict_ok = 0
    for r in rows:
        strict_checks += len(r["checks"])
        if r.get("outcome") == "answer" or not r["answerable"]:
            strict_ok += sum(1 for c in r["checks"] if c["ok"])
    right = [r["confidence"] for r in answered if r["passed"]]
    wrong = [r["confidence"] for r in answered if not r["passed"]]
    return {
        "outcomes": outcomes,
        "answer_citation_precision": _ratio(n_gold, n_cit),
        "answers_without_gold_citation": sum(1 for r in answered if not r["answerable"] or not r["gold_citations"]),
        "unanswerable_answered": sum(1 for r in answered if not r["answerable"]),
        "answerable_related": sum(1 for r in rows if r.get("outcome") == "related" and r["answerable"]),
        "answerable_none": sum(1 for r in rows if r.get("outcome") == "none" and r["answerable"]),
        "related_with_gold_in_context": len(related),
        "related_contains_gold": _ratio(sum(1 for r in related if r["gold_citations"]), len(related)),
        "checkpoint_pass_rate_strict": _ratio(strict_ok, strict_checks),
        "confidence_right_wrong": [_mean(right), _mean(wrong)],
    }


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def _mean(xs: list[float]) -> float | None:
    return round(sum(xs) / len(xs), 4) if xs else None


def render_report(rep: dict[str, Any]) -> str:
    s = rep["summary"]
    lines = []
    for r in rep["questions"]:
        mark = "PASS" if r["passed"] else "FAIL"
        lines.append(f"{mark}  {r['id']:<6} [{r.get('kind') or '-'}] {r.get('outcome', '-')} "
                     f"{r.get('confidence') or 0:.2f}  {r['question']}")
        for c in r["checks"]:
            if not c["ok"]:
                lines.append(f"        ✗ {c['check']}")
        if not r["passed"]:
            lines.append(f"        answer: {' '.join(r['answer'].split())[:300]}")
    def pct(x: float | None) -> str:
        return "n/a" if x is None else f"{100 * x:.1f}%"
    lines += [
        "",
        f"questions passed        {s['passed']}/{s['questions']} ({pct(s['pass_rate'])})",
        f"checkpoints passed      {s['checkpoints_passed']}/{s['checkpoints']} ({pct(s['checkpoint_pass_rate'])})",
        f"retrieval recall        {pct(s['retrieval_recall'])}",
        f"citation recall (ALCE)  {pct(s['citation_recall'])}",
        f"citation precision      {pct(s['citation_precision'])}",
        f"abstained on unanswerable {s['abstained_on_unanswerable']}/{s['unanswerable']}; "
        f"false abstentions {s['false_abstentions']}",
        f"outcomes                answer {s['outcomes']['answer']}, related {s['outcomes']['related']}, "
        f"none {s['outcomes']['none']}; unanswerable answered {s['unanswerable_answered']}",
        f"answer citations gold   {pct(s['answer_citation_precision'])} "
        f"(answers citing no gold clause: {s['answers_without_gold_citation']})",
        f"related shows gold      {pct(s['related_contains_gold'])} of {s['related_with_gold_in_context']} "
        "related outcomes whose gold clause was retrieved",
        f"checkpoints, strict     {pct(s['checkpoint_pass_rate_strict'])} (a related outcome counts as no answer)",
        f"generator {s['generator']}; judge {s['judge']} (threshold {s['support_threshold']}); {s['seconds']} s",
    ]
    return "\n".join(lines)
