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
