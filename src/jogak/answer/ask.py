"""``ask``: retrieve → context → generate → check evidence → cite.

    answer = ask(store, "단순 변심인데 반품 배송비 얼마예요?")
    print(answer.answer)   # … 고객이 부담한다. (근거: 반품교환환불정책 · 제2조 (반품 배송비) ①)

The pipeline after generation is the same for every generator (``finalize``):

1. evidence ids outside the excerpt range are dropped with a warning;
2. the answer is split into statements; each statement is matched, inside the excerpts the generator
   cited, to the unit that supports it best (extractive drafts already know theirs) — a pointer
   sentence is never that unit; its target excerpt is used instead when the retriever followed it;
3. each citation is narrowed to the clause holding that unit and scored by the support judge;
4. a statement from an appendix is attributed ("부록A에 따르면 …"); when body and appendix disagree
   the body wins and the answer says so;
5. citations are rendered after their statements by code; ``supported`` is true only when every
   statement has a citation the judge accepts. Citations only ever point at excerpts the generator
   cited — none is invented.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from jogak.answer.citations import case_of, locate, render_sources
from jogak.answer.context import LABELS, Context, build_context
from jogak.answer.continuation import follow_lists
from jogak.answer.generators.base import Draft, DraftStatement, Generator, Quote
from jogak.answer.relevance import relevance
from jogak.answer.text import normalise_ws, split_sentences
from jogak.answer.verify import MorphemeOverlapJudge, disagree, validate_ids
from jogak.answer.versions import annotate as annotate_versions
from jogak.answer.versions import version_notices
from jogak.model import Answer, Citation, Hit

# "부록A에 따르면 " / "According to Schedule A, " — attribution added by us, not part of the claim.
_ATTRIBUTION = re.compile(r"^(?:(?:부록|별표|별지|각주)\S*에 따르면\s+|According to [^,]{1,40},\s+)")


@dataclass
class AskOptions:
    # 8 excerpts in 4000 tokens (was 6 in 3000): measured in session 6 on the tune set, checkpoints 56.1 % →
    # 58.7 % (gold among the excerpts 71.6 % → 75.2 %), contracts 80.7 → 86.0 %, precedents 88.9 → 91.1 %,
    # Haru Market unchanged; an LLM's prompt grows by as much
    k: int = 8
    budget: int = 4000  # prompt tokens for the excerpt block (estimate_tokens)
    lang: str | None = None  # labels language; default: the excerpts' language
    support_threshold: float = 0.5
    attach_threshold: float = 0.3  # a model-cited excerpt is attached to a statement at this support
    retrieve_options: dict[str, Any] = field(default_factory=dict)
    # a clause hit brings its other chunks (document order) so a long clause reaches the answerer whole
    whole_clauses: bool = True
    # … and a hit whose chunk cuts through a list brings the chunks that hold the rest of it (continuation.py)
    whole_lists: bool = True

    @classmethod
    def from_config(cls, section: dict[str, Any] | None = None) -> AskOptions:
        s = section or {}
        o = cls()
        for key in ("k", "budget", "support_threshold", "attach_threshold"):
            if key in s:
                setattr(o, key, type(getattr(o, key))(s[key]))
        if "context_tokens" in s:
            o.budget = int(s["context_tokens"])
        if s.get("lang"):
            o.lang = str(s["lang"])
        for key in ("whole_clauses", "whole_lists"):
            if key in s:
                setattr(o, key, bool(s[key]))
        return o


@dataclass
class StatementResult:
    text: str
    citations: list[Citation]
    note: bool = False

    def supported(self, threshold: float) -> bool:
        return any(c.support >= threshold for c in self.citations)


@dataclass
class Composed:
    """An Answer plus what evaluation needs: the statements with their citations and the context."""

    answer: Answer
    statements: list[StatementResult]
    context: Context
    draft: Draft


def ask(
    store: Any,
    question: str,
    k: int = 8,
    filters: dict[str, Any] | None = None,
    generator: Generator | None = None,
    options: AskOptions | None = None,
) -> Answer:
    return ask_composed(store, question, k=k, filters=filters, generator=generator, options=options).answer


def ask_composed(
    store: Any,
    question: str,
    k: int = 8,
    filters: dict[str, Any] | None = None,
    generator: Generator | None = None,
    options: AskOptions | None = None,
) -> Composed:
    from jogak.retrieve import SearchOptions, search

    options = options or AskOptions(k=k)
    ropts = SearchOptions.from_config(**options.retrieve_options) if options.retrieve_options else None
    # one more hit than asked: the law clause retrieval places beside a company's rule (retrieve/companion.py)
    # joins the excerpts instead of pushing the k-th out of them
    result = search(store, question, k=k + 1, filters=filters, options=ropts)
    used_filters = getattr(result, "filters", None) or filters or {}
    found = list(result.hits)
    if not any("companion" in h.scores for h in found):
        found = found[:k]
    hits = whole_hits(store, found, options)
    return answer_hits(question, hits, generator=generator, options=options,
                       filters=used_filters, notices=version_notices(result.warnings))


def whole_hits(store: Any, hits: list[Hit], options: AskOptions) -> list[Hit]:
    """The hits an answer reads: each clause hit with its other chunks (``whole_clauses``) and the chunks
    that finish the lists its chunks cut through (``whole_lists``)."""
    from jogak.retrieve.clauses import unfold

    if options.whole_clauses:
        hits = unfold(store, hits)
    if options.whole_lists:
        hits = follow_lists(store, hits)
    return hits


def answer_hits(
    question: str,
    hits: list[Hit],
    generator: Generator | None = None,
    options: AskOptions | None = None,
    filters: dict[str, Any] | None = None,
    judge: MorphemeOverlapJudge | None = None,
    notices: list[str] | None = None,
) -> Composed:
    """The part of ``ask`` after retrieval — usable with any list of hits. ``notices``: the search's
    warnings about versions (``jogak.answer.versions``)."""
    options = options or AskOptions()
    generator = generator or default_generator()
    judge = judge or MorphemeOverlapJudge(threshold=options.support_threshold)
    ctx = build_context(hits, budget=options.budget, lang=options.lang, question=question)
    if not ctx.excerpts:
        lab = LABELS[ctx.lang if hits else _question_lang(question)]
        draft = Draft(answer=lab["abstain"], abstained=True, outcome="none", confidence=0.0)
    else:
        draft = generator.generate(question, ctx)
    composed = finalize(question, draft, ctx, judge, options)
    composed.answer.filters = _jsonable_filters(filters)
    composed.answer.generator = generator.name
    annotate_versions(composed.answer, hits, notices or [], ctx.lang if hits else _question_lang(question))
    return composed


def default_generator() -> Generator:
    """The OpenAI-compatible generator when ``llm`` is configured (or JOGAK_LLM=openai), else extractive."""
    from jogak.config import load_config

    section = load_config().section("llm")
    provider = (os.environ.get("JOGAK_LLM") or section.get("provider") or "").lower()
    if provider in ("openai", "openai-compatible") and (section.get("model") or os.environ.get("JOGAK_LLM_MODEL")):
        from jogak.answer.generators.openai import OpenAIChatGenerator

        return OpenAIChatGenerator.from_config(section)
    from jogak.answer.generators.extractive import ExtractiveAnswerer

    return ExtractiveAnswerer.from_config(section=load_config().section("answer"))


def _question_lang(question: str) -> str:
    from jogak.answer.text import detect_lang

    return detect_lang(question) if question.strip() else "ko"


def _jsonable_filters(filters: Any) -> Any:
    """The filters retrieval applied (explicit and read from the question), as JSON-ready data."""
    if not filters:
        return {}
    if isinstance(filters, dict):
        return filters
    if isinstance(filters, list | tuple):
        return [f.to_dict() if hasattr(f, "to_dict") else f for f in filters]
    if hasattr(filters, "to_dict"):
        return filters.to_dict()
    return {"filters": str(filters)}


def finalize(question: str, draft: Draft, ctx: Context, judge: MorphemeOverlapJudge,
             options: AskOptions) -> Composed:
    lab = LABELS[ctx.lang]
    warnings = list(ctx.warnings) + list(draft.warnings)
    excerpts_json = [e.to_dict() for e in ctx.excerpts]
    if draft.abstained:
        return _not_answered(question, draft, ctx, judge, warnings, excerpts_json)
    valid, id_warnings = validate_ids(list(draft.evidence_ids), len(ctx.excerpts))
    warnings += id_warnings
    if draft.statements is not None:
        raw_statements = [s for s in draft.statements]
        # Extractive quotes come from excerpts by construction; keep only valid ones all the same.
        for s in raw_statements:
            s.quotes = [q for q in s.quotes if q.n in valid]
    else:
        raw_statements = _match_statements(draft.answer, valid, ctx, judge, options)
    if not valid:
        text = draft.answer.strip()
        warnings.append("the answer cites no valid excerpt: marked unsupported")
        ans = Answer(question, f"{text} {lab['unsupported']}".strip(), False, [], excerpts_json, {}, warnings)
        return Composed(ans, [StatementResult(text, [])], ctx, draft)
    results: list[StatementResult] = []
    for st in raw_statements:
        cits = []
        for q in st.quotes:
            c = _citation(st.text, q, ctx, judge, question)
            if c is not None and not any(_same_clause(c, o) for o in cits):
                cits.append(c)
        results.append(StatementResult(st.text, cits, st.note))
    if draft.statements is None:
        _attribute_appendix(results, ctx)
        note = _conflict_note(results, ctx)
        if note is not None:
            results.append(note)
    used = {c.n for r in results for c in r.citations}
    for n in valid:
        if n not in used:
            warnings.append(f"excerpt {n} was cited but supports no statement; not shown as a source")
    rendered = _render(results, ctx.lang)
    claims = [r for r in results if not r.note]
    supported = bool(claims) and all(r.supported(options.support_threshold) for r in claims)
    if not supported:
        warnings.append("at least one statement has no citation the support judge accepts")
    citations = _numbered(results)
    confidence = draft.confidence if draft.confidence is not None else _estimated_confidence(claims, options)
    ans = Answer(question, rendered, supported, citations, excerpts_json, {}, warnings,
                 outcome="answer", confidence=round(confidence, 4))
    return Composed(ans, results, ctx, draft)


def _numbered(results: list[StatementResult]) -> list[Citation]:
    """The answer's citations, each clause and quote once, numbered 1… in order of appearance (``ref``);
    every statement's copy of a citation carries the same number."""
    citations: list[Citation] = []
    for r in results:
        for c in r.citations:
            same = next((o for o in citations if _same_clause(c, o) and c.quote == o.quote), None)
            if same is None:
                citations.append(c)
                c.ref = len(citations)
            else:
                c.ref = same.ref
    return citations


def _estimated_confidence(claims: list[StatementResult], options: AskOptions) -> float:
    """For generators that give no confidence (a model): the share of statements the judge confirms
    times the best relevance of their citations — an estimate, not calibrated."""
    if not claims:
        return 0.0
    ok = sum(1 for r in claims if r.supported(options.support_threshold)) / len(claims)
    rel = max((c.relevance for r in claims for c in r.citations), default=0.0)
    return ok * rel


def _not_answered(question: str, draft: Draft, ctx: Context, judge: MorphemeOverlapJudge,
                  warnings: list[str], excerpts_json: list[dict[str, Any]]) -> Composed:
    """``related``: the draft's most relevant units, each cited, under a line saying that they may not
    answer the question (no statement is asserted); ``none``: the abstention message alone."""
    lab = LABELS[ctx.lang]
    confidence = round(draft.confidence or 0.0, 4)
    results: list[StatementResult] = []
    last: tuple[int, str] | None = None
    for q in draft.related:  # one line per clause: its units, each clause cited once
        c = _citation(q.unit.display(), q, ctx, judge, question)
        if c is None:
            continue
        key = (q.n, q.unit.heading)
        if results and key == last:
            r = results[-1]
            r.text = f"{r.text} {q.unit.shown()}"
            if not any(_same_clause(c, o) for o in r.citations):
                r.citations.append(c)
        else:
            results.append(StatementResult(q.unit.shown(), [c]))
        last = key
    if not results:
        ans = Answer(question, lab["abstain"], False, [], excerpts_json, {}, warnings, outcome="none",
                     confidence=confidence)
        return Composed(ans, [], ctx, draft)
    where = (draft.info or {}).get("points_to")
    head = lab["related_pointer"].format(where=where) if where else lab["related"]
    lines = [head] + [f"· {r.text} {render_sources(r.citations, ctx.lang)}" for r in results]
    ans = Answer(question, "\n".join(lines), False, _numbered(results), excerpts_json, {}, warnings,
                 outcome="related", confidence=confidence)
    return Composed(ans, [], ctx, draft)


def _same_clause(a: Citation, b: Citation) -> bool:
    return a.chunk_id == b.chunk_id and a.article == b.article


def _citation(statement: str, q: Quote, ctx: Context, judge: MorphemeOverlapJudge,
              question: str = "") -> Citation | None:
    ex = ctx.by_n(q.n)
    if ex is None:
        return None
    u = q.unit
    chunk = ex.chunk
    md = chunk.metadata
    clause = locate(chunk, u.start, u.end, u)
    evidence = normalise_ws(f"{u.context} {u.text}") if u.kind in ("table_row", "item", "faq_a") else u.text
    claim = _ATTRIBUTION.sub("", statement, count=1)
    support = judge.score(claim, evidence, pointer=u.pointer)
    if u.kind == "table_row" and support < 1.0:
        support = max(support, judge.score(claim, u.display(), pointer=False))
    return Citation(
        n=q.n,
        chunk_id=chunk.id,
        source=md.source,
        doc_title=md.doc_title,
        article=clause.article,
        path=clause.path,
        block_type=md.block_type,
        page_start=clause.page_start,
        page_end=clause.page_end,
        quote=u.text,
        support=support,
        case=case_of(chunk),
        relevance=relevance(question, f"{u.context} {u.text}", u.heading or clause.article, md.doc_title)
        if question else 0.0,
    )


def _match_statements(answer: str, valid: list[int], ctx: Context, judge: MorphemeOverlapJudge,
                      options: AskOptions) -> list[DraftStatement]:
    """Model answers: each sentence gets, from each cited excerpt, the unit that supports it best.

    A pointer unit never counts; when the cited excerpt's best match is a pointer and the retriever
    followed it, the target excerpt (``via``) is searched instead — it is the same evidence the model
    saw next to the pointer.
    """
    spans = split_sentences(answer)
    sentences = [answer[s:e] for s, e in spans] or [answer]
    out: list[DraftStatement] = []
    units_of = {n: [u for u in ctx.by_n(n).units() if u.answerable or u.pointer] for n in valid}
    for sent in sentences:
        scored: list[tuple[float, Quote]] = []
        for n in valid:
            best = _best_unit(sent, units_of[n], n, judge)
            if best is None:
                continue
            score, quote = best
            if quote.unit.pointer or score < options.attach_threshold:
                for ex in ctx.excerpts:
                    if ex.via == n and ex.n not in valid:
                        # The pointer's target is not among the model's ids: do not invent a citation,
                        # but note that the model cited a pointer.
                        continue
                    if ex.via == n:
                        tgt = _best_unit(sent, units_of.get(ex.n) or [], ex.n, judge)
                        if tgt is not None and tgt[0] > score:
                            score, quote = tgt
            scored.append((score, quote))
        attached = [q for s, q in sorted(scored, key=lambda x: -x[0]) if s >= options.attach_threshold
                    and not q.unit.pointer]
        if not attached and scored:
            best_any = max(scored, key=lambda x: x[0])[1]
            attached = [best_any]
        out.append(DraftStatement(normalise_ws(sent), attached))
    return out


def _best_unit(sentence: str, units: list, n: int, judge: MorphemeOverlapJudge) -> tuple[float, Quote] | None:
    best: tuple[float, Quote] | None = None
    for u in units:
        evidence = normalise_ws(f"{u.context} {u.text}") if u.kind in ("table_row", "item", "faq_a") else u.text
        s = judge.lexical(sentence, evidence)
        if u.pointer:
            s *= 0.5
        if best is None or s > best[0]:
            best = (s, Quote(n, u))
    return best


def _attribute_appendix(results: list[StatementResult], ctx: Context) -> None:
    """Model statements resting only on appendix/footnote clauses get "부록A에 따르면 …"."""
    from jogak.answer.citations import appendix_name

    lab = LABELS[ctx.lang]
    for r in results:
        if not r.citations:
            continue
        tiers = {ctx.by_n(c.n).tier for c in r.citations if ctx.by_n(c.n)}
        if tiers and "primary" not in tiers:
            if "supplementary" in tiers:
                where = appendix_name(r.citations[0], ctx.lang)
            else:
                where = lab["footnote_where"]
            if where not in r.text and not r.text.startswith(("부록", "각주", "According to")):
                r.text = lab["according_to"].format(where=where) + (
                    r.text if ctx.lang == "ko" else r.text[:1].lower() + r.text[1:])


def _conflict_note(results: list[StatementResult], ctx: Context) -> StatementResult | None:
    """If cited body and appendix clauses disagree and the answer does not say so, say it."""
    cits = [c for r in results for c in r.citations]
    body = [c for c in cits if ctx.by_n(c.n) and ctx.by_n(c.n).tier == "primary"]
    other = [c for c in cits if ctx.by_n(c.n) and ctx.by_n(c.n).tier != "primary"]
    lab = LABELS[ctx.lang]
    for b in body:
        for o in other:
            if b.doc_title == o.doc_title and disagree(b.quote, o.quote):
                text = " ".join(r.text for r in results)
                if "본문" in text or "main body" in text:
                    return None
                from jogak.answer.citations import appendix_name

                note = lab["body_wins"].format(appendix=appendix_name(o, ctx.lang),
                                               quote=normalise_ws(o.quote), body=b.article)
                return StatementResult(note, [o], note=True)
    return None


def _render(results: list[StatementResult], lang: str) -> str:
    """Statements with their sources; consecutive statements citing the same clauses share one note."""
    parts: list[str] = []
    i = 0
    while i < len(results):
        j = i
        key = _cite_key(results[i])
        while j + 1 < len(results) and _cite_key(results[j + 1]) == key and key:
            j += 1
        text = " ".join(r.text for r in results[i : j + 1])
        src = render_sources(results[i].citations, lang) if results[i].citations else ""
        parts.append(f"{text} {src}".strip())
        i = j + 1
    return "\n".join(parts)


def _cite_key(r: StatementResult) -> tuple:
    return tuple(sorted((c.doc_title, c.article) for c in r.citations))
