"""Every text a chunk becomes, in one place (docling-core's ``contextualize()`` idea).

A chunk has one *raw* text and several derived ones; each is made here and nowhere else:

- raw: ``chunk.text``, an exact slice of the document (``document.text[char_start:char_end]``) — what
  citations quote and the answerer cuts into units;
- embed: context line + newline + raw (``embed_text``), computed once at cut time and stored as
  ``chunk.embed_text`` — what the embedder sees;
- lexical: breadcrumb + newline + raw (``lexical_text``) — what BM25 tokenizes;
- prompt: a header "[발췌 n] (문서 · 조항)" + newline + raw (``prompt_header``, ``prompt_text``) — what a
  model reads.

The *context line* is the chunk's breadcrumb ("반품교환환불정책 > 제2조 (반품 배송비)") when the chunker
recorded one (the structure strategy always does, possibly empty); a chunker that records none (the
recursive strategy, seed 001) gets "document > first clause tag" for the embedder only — its lexical text
stays the raw text, as it always was, so BM25 scores of recursive stores do not move.

The raw text is never changed by any of these: context travels beside it, never inside it.
"""

from __future__ import annotations

from collections.abc import Mapping

from jogak.model import Chunk, ChunkMetadata

CRUMB_SEP = " > "


def context_line(md: ChunkMetadata) -> str:
    """What situates a chunk for the embedder: the breadcrumb, or "document > first clause tag" for a
    chunker that records no breadcrumb (``None``; an empty breadcrumb is kept empty)."""
    if md.breadcrumb is not None:
        return md.breadcrumb
    first_article = md.article.split(", ")[0]
    return CRUMB_SEP.join(x for x in (md.doc_title, first_article) if x)


def embed_text(chunk: Chunk) -> str:
    """The text the embedder sees: context line + raw text (the raw text alone without context)."""
    crumb = context_line(chunk.metadata)
    return f"{crumb}\n{chunk.text}" if crumb else chunk.text


def lexical_text(chunk: Chunk) -> str:
    """The text BM25 tokenizes: the recorded breadcrumb + raw text (raw text alone without one)."""
    crumb = chunk.metadata.breadcrumb
    return f"{crumb}\n{chunk.text}" if crumb else chunk.text


def excerpt_article(chunk: Chunk, unknown: str = "") -> str:
    """How an excerpt header names the clause: "제5조 (환불 처리 기간)"; a decision's chunks lead with the
    case ("대법원 … 판결 · 판결요지 [1]"); ``unknown`` when the chunk has no clause tag."""
    md = chunk.metadata
    name = (md.case.full_case_name or md.case.case_number) if md.case else None
    if name:
        return f"{name} · {md.article}" if md.article else str(name)
    return md.article or unknown


def prompt_header(chunk: Chunk, n: int, labels: Mapping[str, str], tier: str | None = None,
                  via: int | None = None) -> str:
    """The line above excerpt ``n`` in a prompt: "[발췌 1] (반품교환환불정책 · 제5조 (환불 처리 기간))".

    A pointer's target (``via`` = the pointer's excerpt number) also names its evidence tier, since it is
    laid out under its pointer's tier heading: "[발췌 2] (보충 증거 · 문서 · 부록A) ← 발췌 1의 참조 대상".
    ``labels`` are the answer stage's words for one language (``excerpt``, ``unknown_article``,
    ``pointer_target``, ``<tier>_short``)."""
    md = chunk.metadata
    where = f"{md.doc_title} · {excerpt_article(chunk, labels['unknown_article'])}"
    if via is None:
        return f"[{labels['excerpt']} {n}] ({where})"
    return (f"[{labels['excerpt']} {n}] ({labels[f'{tier}_short']} · {where}) ← "
            f"{labels['pointer_target'].format(n=via)}")


def prompt_text(header: str, chunk: Chunk) -> str:
    """One excerpt as the model reads it: its header, then the raw text (outer white space trimmed)."""
    return f"{header}\n{chunk.text.strip()}"


# ─── leaves: every 항/호/목 or numbered sub-clause of a chunk, matched on its own ────────────────────

MIN_LEAF_CHARS = 12  # a leaf shorter than this (a bare heading "제2조(정의)") says nothing of its own


def leaf_context(chunk: Chunk, cite: str) -> str:
    """A leaf's context line: the chunk's context line plus the leaf's own label ("… > 제17조 (…) 제2항")."""
    crumb = context_line(chunk.metadata)
    article = chunk.metadata.article
    suffix = cite[len(article):].strip() if article and cite.startswith(article) else ""
    return f"{crumb} {suffix}".strip() if suffix else crumb


def leaves(chunk: Chunk) -> list[tuple[str, str]]:
    """(leaf path, embed text) for each leaf segment of a chunk, in document order — the texts
    multi-granularity matching embeds and tokenizes ("small-to-big": a long article is found through
    the one paragraph that answers). A chunk that is one leaf gives exactly its own embed text (so the
    embedding cache answers it). Chunks without segments (recursive) have no leaves."""
    md = chunk.metadata
    out: list[tuple[str, str]] = []
    for seg in md.segments:
        raw = chunk.text[max(0, seg.start - md.char_start): max(0, seg.end - md.char_start)].strip()
        if len(raw) < MIN_LEAF_CHARS and len(md.segments) > 1:
            continue
        if len(md.segments) == 1 and raw == chunk.text.strip():
            out.append((seg.path, embed_text(chunk)))
            continue
        ctx = leaf_context(chunk, seg.cite)
        out.append((seg.path, f"{ctx}\n{raw}" if ctx else raw))
    return out
