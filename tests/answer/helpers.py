"""Test scaffolding for the answer stage: hand-made structure chunks and a tiny lexical retriever.

``haru_chunks()`` cuts the two Haru Market policies (a snapshot of the sample sources, in ./fixtures) into
one chunk per article with the metadata the structure chunker provides — ``block_type``, ``path``,
``article``, ``segments`` with document offsets, ``refs`` — so the answer stage can be tested without
depending on the chunker or the index. ``TinyRetriever`` ranks them by Kiwi-lemma overlap and follows a
pointer chunk's ``refs`` to its target (``hit.via``), the way the real retriever does.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path

from jogak.answer.morph import content_terms
from jogak.answer.text import CIRCLED
from jogak.answer.units import split_units
from jogak.model import Chunk, ChunkMetadata, Document, Hit, Segment

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@lru_cache(maxsize=1)
def haru_documents() -> tuple[Document, ...]:
    from jogak.load import load

    return tuple(load(p) for p in sorted(FIXTURES.glob("하루마켓_*.md")))


def _article_spans(doc: Document):
    units = split_units(doc.text)
    heads = [u for u in units if u.kind == "heading"]
    appendix = ""
    out = []
    for i, h in enumerate(heads):
        end = heads[i + 1].start if i + 1 < len(heads) else len(doc.text)
        name = h.heading
        if name.startswith("부록") and " 제" not in name:
            appendix = name.split(" ")[0]
            continue
        if appendix:
            label = name.split(" ")[1] if name.startswith("부록") else name.split(" ")[0]
            out.append(("appendix", f"{appendix}/{label}", name, h.start, end))
        elif name.startswith("부칙"):
            out.append(("addenda", "부칙", name, h.start, end))
        elif name.startswith("자주"):
            out.append(("body", "본문/자주 묻는 질문", name, h.start, end))
        else:
            out.append(("body", f"본문/{name.split(' ')[0]}", name, h.start, end))
    return out


def haru_chunks(with_segments: bool = True, cite_labels: bool = True) -> list[Chunk]:
    chunks: list[Chunk] = []
    for doc in haru_documents():
        for no, (bt, path, article, s, e) in enumerate(_article_spans(doc)):
            text = doc.text[s:e].rstrip("\n")
            e = s + len(text)
            segs = []
            if with_segments:
                for u in split_units(text):
                    if u.kind == "heading":
                        continue
                    seg_path = path
                    cite = article
                    if u.marker and u.marker in CIRCLED:
                        k = CIRCLED.index(u.marker) + 1
                        seg_path = f"{path}/제{k}항"
                        cite = f"{article} {u.marker}"
                    if u.kind == "item" and u.item:
                        num = re.match(r"\d+", u.item)
                        if num:
                            seg_path = f"{seg_path}/제{num.group()}호"
                            cite = f"{cite} 제{num.group()}호"
                    seg = {"path": seg_path, "start": s + u.start, "end": s + u.end}
                    if cite_labels:
                        seg["cite"] = cite
                    # Merge consecutive units of one paragraph into one leaf segment.
                    if segs and segs[-1]["path"] == seg_path:
                        segs[-1]["end"] = seg["end"]
                    else:
                        segs.append(seg)
            refs = ["부록A/제1조"] if "부록A 참조" in text else []
            md = ChunkMetadata(
                source=doc.source, doc_title=doc.doc_title, chunk_no=no, article=article,
                page_start=1, page_end=1, char_start=s, char_end=e, strategy="structure",
                doc_id=doc.doc_title, block_type=bt, path=path, refs=refs,
                segments=[Segment(g["path"], g.get("cite", ""), g["start"], g["end"]) for g in segs],
            )
            chunks.append(Chunk(id=f"{doc.doc_title}-{no:03d}", text=text, metadata=md,
                                embed_text=f"{doc.doc_title} > {article}\n{text}"))
    return chunks


class TinyRetriever:
    """BM25 over Kiwi lemmas of ``embed_text`` + pointer following (targets get ``via``)."""

    def __init__(self, chunks: list[Chunk]) -> None:
        self.chunks = chunks
        self.docs = [list(content_terms(c.embed_text)) for c in chunks]
        self.avg = sum(len(d) for d in self.docs) / max(1, len(self.docs))
        self.df: dict[str, int] = {}
        for d in self.docs:
            for t in set(d):
                self.df[t] = self.df.get(t, 0) + 1

    def search(self, question: str, k: int = 6) -> list[Hit]:
        q = set(content_terms(question))
        n = len(self.docs)
        scored = []
        for i, d in enumerate(self.docs):
            s = 0.0
            for t in q:
                tf = d.count(t)
                if not tf:
                    continue
                idf = math.log(1 + (n - self.df[t] + 0.5) / (self.df[t] + 0.5))
                s += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len(d) / self.avg))
            scored.append((s, i))
        scored.sort(key=lambda x: (-x[0], x[1]))
        hits: list[Hit] = []
        for s, i in scored[:k]:
            c = self.chunks[i]
            hits.append(Hit(chunk=c, score=s, rank=len(hits), matched=["bm25"]))
            for ref in c.metadata.refs:
                for t in self.chunks:
                    if t.metadata.path and t.metadata.path.startswith(ref) and t.metadata.source == c.metadata.source \
                            and all(h.chunk.id != t.id for h in hits):
                        hits.append(Hit(chunk=t, score=s, rank=len(hits), matched=["xref"], via=c.id))
        return hits


def clause_hit(doc: str, n: int, article: str, path: str, text: str, score: float = 1.0, block: str = "body",
               source_ext: str = "txt", chunk_id: str | None = None) -> Hit:
    """One hand-made hit: a chunk of ``doc`` holding one clause (``article`` at ``path``) whose text is ``text``,
    ranked ``n`` with ``score`` — the metadata the structure chunker gives such a chunk."""
    md = ChunkMetadata(source=f"{doc}.{source_ext}", doc_title=doc, chunk_no=0, article=article, page_start=None,
                       page_end=None, char_start=0, char_end=len(text), block_type=block, path=path, doc_id=doc,
                       segments=[Segment(path, article, 0, len(text))])
    return Hit(Chunk(id=chunk_id or f"{doc}-{n}", text=text, metadata=md), score, n)
