"""The context builder: retrieved hits → numbered, tiered excerpts → the prompt a model reads.

Three texts stay separate (docling's habit): ``chunk.text`` is the raw document text, ``chunk.embed_text``
is what the retriever embedded, and the *prompt text* is ``chunk.text`` under a header (seed 003):
``[발췌 1] (반품교환환불정책 · 제5조 (환불 처리 기간))`` — all three made by ``jogak.chunk.contextualize``.

Excerpts are grouped under the evidence tiers of seed 004, written into the prompt so that the weighting
reaches the model's wording: 주요 증거 (body, 부칙, parties) / 보충 증거 (appendix) / 보조 참고 (footnote).
A pointer excerpt ("… 부록A 참조") and the target the retriever followed (``hit.via``) stay adjacent: the
target is placed right after its pointer, its header still saying its own tier.

A token budget is respected by dropping the lowest-ranked excerpts whole — an excerpt is never cut.
Tokens are counted with ``estimate_tokens``, a deliberately pessimistic estimator (see there).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from jogak.answer.text import detect_lang
from jogak.answer.units import Carry, Unit, chunk_end, chunk_units, in_clauses
from jogak.chunk.base import neighbour_id
from jogak.chunk.contextualize import prompt_header, prompt_text
from jogak.model import Chunk, Hit

TIER_OF_BLOCK = {
    None: "primary",
    "body": "primary",
    "addenda": "primary",
    "parties": "primary",
    "appendix": "supplementary",
    "footnote": "background",
}
TIER_ORDER = ("primary", "supplementary", "background")

LABELS: dict[str, dict[str, str]] = {
    "ko": {
        "excerpt": "발췌",
        "primary": "주요 증거 (본문)",
        "supplementary": "보충 증거 (부록)",
        "background": "보조 참고 (각주)",
        "primary_short": "주요 증거",
        "supplementary_short": "보충 증거",
        "background_short": "보조 참고",
        "unknown_article": "조항 미상",
        "pointer_target": "발췌 {n}의 참조 대상",
        "context_head": "[정책 발췌]",
        "question_head": "[고객 문의]",
        "source": "근거",
        "case_source": "참고 판례",
        "abstain": "제공된 문서에서 근거를 찾지 못했습니다.",
        "related": "질문에 답하는 조항이라고 확신하지 못했습니다. 관련 조항을 직접 확인해 주세요:",
        "related_pointer": "물으신 내용은 {where}에서 정하도록 되어 있는데, 찾은 문서에는 그 내용이 없습니다. 관련 조항을 "
                           "직접 확인해 주세요:",
        "other_same": "{doc}에도 같은 취지의 규정이 있습니다: \"{quote}\"",
        "other_differs": "{doc}에는 다르게 정해져 있습니다: \"{quote}\"",
        "other_related": "{doc}에도 관련 규정이 있습니다: \"{quote}\"",
        "according_to": "{where}에 따르면 ",
        "footnote_where": "각주",
        "appendix_where": "부록",
        "body_wins": "다만 {appendix}에는 \"{quote}\"라고 달리 적혀 있으나, 본문 규정({body})이 우선합니다.",
        "unsupported": "(주의: 이 답변을 뒷받침하는 발췌를 확인하지 못했습니다.)",
    },
    "en": {
        "excerpt": "Excerpt",
        "primary": "Primary evidence (main body)",
        "supplementary": "Supplementary evidence (appendix / schedule)",
        "background": "Background note (footnote)",
        "primary_short": "Primary evidence",
        "supplementary_short": "Supplementary evidence",
        "background_short": "Background note",
        "unknown_article": "section unknown",
        "pointer_target": "target of Excerpt {n}",
        "context_head": "[Document excerpts]",
        "question_head": "[Question]",
        "source": "Source",
        "case_source": "Case",
        "abstain": "The provided documents do not contain the answer.",
        "related": "I am not sure these clauses answer the question. Related clauses, to check yourself:",
        "related_pointer": "The clause leaves what you ask to {where}, which the retrieved documents do not hold. "
                           "Related clauses, to check yourself:",
        "other_same": "{doc} says the same: \"{quote}\"",
        "other_differs": "{doc} says otherwise: \"{quote}\"",
        "other_related": "{doc} also addresses this: \"{quote}\"",
        "according_to": "According to {where}, ",
        "footnote_where": "the footnote",
        "appendix_where": "the appendix",
        "body_wins": "Note: {appendix} states otherwise (\"{quote}\"), but the main body ({body}) prevails.",
        "unsupported": "(Caution: no excerpt could be confirmed to support this answer.)",
    },
}

SYSTEM_PROMPT = {
    "ko": """당신은 제공된 문서 발췌만으로 답하는 상담원입니다.

[응대 원칙]
- [정책 발췌]에 적힌 내용만으로 답하세요. 발췌에 없는 내용은 추측하거나 일반 상식으로 보충하지 마세요.
- 발췌에 답이 없으면 answer에 "제공된 문서에서 근거를 찾지 못했습니다."라고만 쓰고 evidence_ids는 빈 목록으로 두세요.
- 발췌는 근거 등급별로 묶여 있습니다: 주요 증거(본문) > 보충 증거(부록) > 보조 참고(각주). 본문과 부록·각주의 내용이 다르면 본문을 따르고, 다르다는 사실을 답변에 밝히세요.
- 부록이나 각주에서 온 내용은 "부록A에 따르면 …", "각주에 따르면 …"처럼 출처 등급을 밝혀 말하세요.
- "부록A 참조"처럼 다른 곳을 가리키기만 하는 문장은 근거가 아닙니다. 그 문장이 가리키는 발췌의 내용으로 답하고, 그 발췌 번호를 고르세요.
- 조항 이름, 문서 이름, 발췌 번호를 답변 문장에 직접 쓰지 마세요. 출처 표기는 시스템이 evidence_ids로 붙입니다.

[형식]
- JSON 객체 하나만 출력하세요: {"answer": "답변", "evidence_ids": [답변에 실제로 사용한 발췌 번호, ...]}
""",
    "en": """You answer strictly from the document excerpts you are given.

[Rules]
- Use only what the [Document excerpts] say. Do not guess or fill gaps with general knowledge.
- If the excerpts do not contain the answer, set answer to "The provided documents do not contain the answer." and evidence_ids to [].
- Excerpts are grouped by evidence tier: Primary evidence (main body) > Supplementary evidence (appendix / schedule) > Background note (footnote). When the body and an appendix or footnote disagree, follow the body and say that they differ.
- Attribute appendix or footnote content in the sentence ("According to Schedule A, ...").
- A sentence that only points elsewhere ("see Schedule A") is not evidence: answer from the excerpt it points to and cite that excerpt.
- Do not write section names, document names or excerpt numbers in the answer; the system adds citations from evidence_ids.

[Format]
- Output exactly one JSON object: {"answer": "...", "evidence_ids": [numbers of the excerpts actually used, ...]}
""",
}


_HANGUL_OR_CJK = re.compile(r"[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u9fff\uac00-\ud7a3\uf900-\ufaff]")
_WORD = re.compile(r"[A-Za-z0-9]+")


def estimate_tokens(text: str) -> int:
    """A simple, pessimistic token estimate for budget checks (no tokenizer download).

    Every Hangul/CJK character counts one token (BPE tokenizers such as cl100k/o200k spend roughly
    0.5–1.0 token per Hangul syllable), every run of ASCII letters/digits counts ``ceil(len / 4)``, and
    every other non-space character (punctuation, symbols) counts one. It over-counts rather than
    under-counts, so a context that fits by this estimate fits the model.
    """
    n = len(_HANGUL_OR_CJK.findall(text))
    rest = _HANGUL_OR_CJK.sub(" ", text)
    for m in _WORD.finditer(rest):
        n += math.ceil(len(m.group()) / 4)
    rest = _WORD.sub(" ", rest)
    n += sum(1 for c in rest if not c.isspace())
    return n


def tier_of(chunk: Chunk) -> str:
    return TIER_OF_BLOCK.get(chunk.metadata.block_type, "primary")


@dataclass(slots=True)
class Excerpt:
    """One numbered excerpt of the prompt. ``n`` is the number the model cites (1-based, in prompt order);
    it is not the chunk id (seed 003 §4)."""

    n: int
    hit: Hit
    tier: str
    rank: int  # position in the retrieval result (0 = best)
    via: int | None = None  # the excerpt number of the pointer that led here
    tokens: int = 0
    header: str = ""
    # what is open where the chunk starts (heading, paragraph, list lead), when it continues a clause
    carry: Carry | None = None

    @property
    def chunk(self) -> Chunk:
        return self.hit.chunk

    def units(self) -> list[Unit]:
        """The chunk's answer units, read under the clause it continues (``carry``)."""
        return chunk_units(self.chunk, self.carry)

    @property
    def text(self) -> str:
        return self.hit.chunk.text

    def to_dict(self) -> dict[str, Any]:
        md = self.chunk.metadata
        d: dict[str, Any] = {
            "n": self.n,
            "chunk_id": self.chunk.id,
            "tier": self.tier,
            "label": self.header,
            "doc_title": md.doc_title,
            "article": md.article,
            "path": md.path,
            "block_type": md.block_type,
            "page_start": md.page_start,
            "page_end": md.page_end,
            "score": round(float(self.hit.score), 6),
            "rank": self.rank,
            "via": self.via,
            "tokens": self.tokens,
            "text": self.text,
        }
        return d


@dataclass(slots=True)
class Context:
    excerpts: list[Excerpt]
    lang: str
    text: str  # the excerpt block, tier headings included
    budget: int
    tokens: int
    dropped: list[Hit] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def labels(self) -> dict[str, str]:
        return LABELS[self.lang]

    def by_n(self, n: int) -> Excerpt | None:
        if 1 <= n <= len(self.excerpts):
            return self.excerpts[n - 1]
        return None

    def prompt(self, question: str) -> str:
        """Seed 003's final prompt: ``[정책 발췌]\\n{context}\\n\\n[고객 문의]\\n{question}``."""
        lab = self.labels
        return f"{lab['context_head']}\n{self.text}\n\n{lab['question_head']}\n{question}"

    def system_prompt(self) -> str:
        return SYSTEM_PROMPT[self.lang]

    def messages(self, question: str) -> list[dict[str, str]]:
        return [
            {"role": "system", "content": self.system_prompt()},
            {"role": "user", "content": self.prompt(question)},
        ]


def build_context(
    hits: list[Hit],
    budget: int = 4000,
    lang: str | None = None,
    question: str = "",
) -> Context:
    """Number, tier and order the hits; drop the lowest-ranked whole excerpts until the block fits.

    ``lang`` defaults to the excerpts' language ("en" labels for English documents).
    """
    seen: set[str] = set()
    ranked: list[tuple[int, Hit]] = []
    for i, h in enumerate(hits):
        if h.chunk.id in seen:
            continue
        seen.add(h.chunk.id)
        ranked.append((i, h))
    if lang is None:
        sample = " ".join(h.chunk.text[:400] for _, h in ranked[:6]) or question
        lang = detect_lang(sample)
    warnings: list[str] = []
    kept = list(ranked)
    dropped: list[Hit] = []
    while True:
        excerpts, text = _layout(kept, lang)
        tokens = estimate_tokens(text)
        if tokens <= budget or len(kept) <= 1:
            break
        # Drop the lowest-ranked excerpt (last in retrieval order), whole.
        worst = max(range(len(kept)), key=lambda j: kept[j][0])
        dropped.append(kept.pop(worst)[1])
    _carry(excerpts, [h for _, h in ranked])
    if tokens > budget and kept:
        warnings.append(f"the best excerpt alone needs ~{tokens} tokens, over the budget of {budget}; "
                        "kept whole (excerpts are never cut)")
    if dropped:
        warnings.append(f"dropped {len(dropped)} lowest-ranked excerpt(s) to fit the {budget}-token budget")
    return Context(excerpts, lang, text, budget, tokens, dropped, warnings)


def _carry(excerpts: list[Excerpt], hits: list[Hit]) -> None:
    """Each excerpt's ``carry``: the end of the chunk before it in its clause when a hit holds that chunk
    (``jogak.answer.continuation`` fetches it for a chunk that starts inside a list), else none."""
    by_id = {h.chunk.id: h.chunk for h in hits}
    memo: dict[str, Carry] = {}

    def carry(chunk: Chunk, depth: int = 0) -> Carry | None:
        if not in_clauses(chunk):
            return None
        if chunk.id not in memo:
            md = chunk.metadata
            prev_id = neighbour_id(chunk, -1)
            prev = by_id.get(prev_id) if prev_id else None
            if prev is None or prev.metadata.clause != md.clause or depth >= 8:
                return None
            memo[chunk.id] = chunk_end(prev, carry(prev, depth + 1))
        return memo[chunk.id]

    for e in excerpts:
        e.carry = carry(e.chunk)


def _layout(ranked: list[tuple[int, Hit]], lang: str) -> tuple[list[Excerpt], str]:
    lab = LABELS[lang]
    by_id = {h.chunk.id: (r, h) for r, h in ranked}
    # Targets follow their pointer when the pointer is present.
    followers: dict[str, list[tuple[int, Hit]]] = {}
    attached: set[str] = set()
    for r, h in ranked:
        if h.via and h.via in by_id and h.via != h.chunk.id:
            followers.setdefault(h.via, []).append((r, h))
            attached.add(h.chunk.id)
    groups: dict[str, list[tuple[int, Hit]]] = {t: [] for t in TIER_ORDER}
    for r, h in ranked:
        if h.chunk.id in attached:
            continue
        groups[tier_of(h.chunk)].append((r, h))
    excerpts: list[Excerpt] = []
    lines: list[str] = []
    for tier in TIER_ORDER:
        members = sorted(groups[tier], key=lambda x: x[0])
        if not members:
            continue
        if lines:
            lines.append("")
        lines.append(f"■ {lab[tier]}")
        for r, h in members:
            _emit(excerpts, lines, r, h, tier, None, lab)
            ptr_n = excerpts[-1].n
            for r2, h2 in sorted(followers.get(h.chunk.id, []), key=lambda x: x[0]):
                _emit(excerpts, lines, r2, h2, tier_of(h2.chunk), ptr_n, lab)
    return excerpts, "\n".join(lines)


def _emit(excerpts: list[Excerpt], lines: list[str], rank: int, hit: Hit, tier: str, via: int | None,
          lab: dict[str, str]) -> None:
    n = len(excerpts) + 1
    head = prompt_header(hit.chunk, n, lab, tier, via)
    block = prompt_text(head, hit.chunk)
    if len(lines) > 1 and lines[-1] != f"■ {lab[tier]}" and not lines[-1].startswith("■"):
        lines.append("")
    lines.append(block)
    excerpts.append(Excerpt(n=n, hit=hit, tier=tier, rank=rank, via=via, tokens=estimate_tokens(block),
                            header=head))
