"""Structure-aware chunking (seed 004, layers 1 and 4): chunks follow the clause tree.

A chunk never crosses a document, a block type, or a clause unit (an article, an appendix clause, a
footnote, the parties block, an FAQ block, a court decision's holding). Inside a unit, small siblings are
packed up to ``size``; deeper levels than ``max_depth`` are folded into their parent for cutting only (the
tree and ``segments`` keep full precision); a node longer than ``size`` is split on sentence boundaries
with ``overlap``.

Metadata consolidation policy when pieces merge into one chunk (cf. Unstructured): ``article`` is the
unit's citation label (one clause, by construction); ``path`` the deepest node containing the whole chunk;
``paths``/``segments`` the union of covered nodes in order; ``refs`` and ``footnotes`` the union of those
whose phrase/mark lies inside the chunk; ``page_start``/``page_end`` min/max; ``sibling_order`` of the
node at ``path``; ``case`` inherited from the nearest ancestor carrying one; ``clause`` the unit's path,
shared by every chunk cut from that unit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from jogak.chunk.base import BaseChunker, doc_id_for
from jogak.chunk.recursive import RecursiveSplitter
from jogak.chunk.versions import clause_version, document_version
from jogak.model import CaseInfo, Chunk, Document, Node, Segment
from jogak.structure import parse

# Kinds whose presence among a node's children makes that node a container of clause units.
_UNIT_KINDS = {"chapter", "article", "section", "case", "holding", "appendix", "addenda"}
_ALWAYS_CONTAINER = {"document", "chapter", "case"}
# … except a chapter over nothing but a list (a part headed by a title alone, then its items): one unit
_LIST_KINDS = {"item", "subitem", "table"}
_SENTENCE_END = re.compile(r"(?:(?<=[.?!。])|(?<=다\.)|(?<=[.?!]['\"”’)]))\s+|\n+")


@dataclass(slots=True)
class _Piece:
    start: int
    end: int
    node: Node
    atomic: bool = True


class HierarchicalChunker(BaseChunker):
    strategy = "structure"

    def __init__(self, size: int = 500, overlap: int = 100, max_depth: int = 3) -> None:
        if size <= 0:
            raise ValueError("size must be positive")
        if not 0 <= overlap < size:
            raise ValueError(f"overlap ({overlap}) must be >= 0 and < size ({size})")
        if max_depth < 1:
            raise ValueError("max_depth must be >= 1")
        self.size = size
        self.overlap = overlap
        self.max_depth = max_depth

    # ── public ──────────────────────────────────────────────────────────────────────────────────
    def chunk_document(self, doc: Document, tree=None) -> Iterator[Chunk]:
        tree = tree if tree is not None else parse(doc)
        self._doc = doc
        self._parents = tree.parent_map()
        self._lang = tree.language
        self._version = document_version(doc, tree.root)
        self._doc_id = doc_id_for(doc)  # once per document: it hashes the law identity read from the metadata
        no = 0
        for unit, span in self._units(tree.root):
            for s, e in self._cut(unit, span):
                yield self._make(doc, no, s, e, unit)
                no += 1

    # ── units ───────────────────────────────────────────────────────────────────────────────────
    def _is_container(self, n: Node) -> bool:
        if n.kind in _ALWAYS_CONTAINER:
            return bool(n.children) and not (n.kind == "chapter" and all(c.kind in _LIST_KINDS for c in n.children))
        return any(c.kind in _UNIT_KINDS for c in n.children)

    def _units(self, node: Node) -> Iterator[tuple[Node, tuple[int, int] | None]]:
        """(unit node, explicit span or None for the node's whole span)."""
        if not self._is_container(node):
            if self._has_content(node.char_start, node.char_end, node):
                yield node, None
            return
        text = self._doc.text
        # The container's own text before its first child: a unit only when it says more than its heading.
        first = node.children[0].char_start
        own_start = node.body_start if node.body_start is not None else node.char_start
        title_only = node.kind == "document" and _is_title_only(text[node.char_start : first])
        # a chapter's own text is usually its heading (a title on the next line, an amendment note), but a
        # report's "Ⅰ. 총칙" may open with a sentence before its first section — that must not be lost
        heading_only = node.kind == "chapter" and not _has_sentence(text[own_start:first])
        if text[own_start:first].strip() and not title_only and not heading_only:
            yield node, (node.char_start, _rstrip(text, node.char_start, first))
        for c in node.children:
            yield from self._units(c)

    def _has_content(self, s: int, e: int, node: Node) -> bool:
        return bool(self._doc.text[s:e].strip())

    # ── cutting inside a unit ───────────────────────────────────────────────────────────────────
    def _cut(self, unit: Node, span: tuple[int, int] | None) -> list[tuple[int, int]]:
        if span is not None:
            pieces = [_Piece(span[0], span[1], unit)]
        else:
            pieces = self._pieces(unit, 1)
            # A heading alone says nothing: it travels with the first piece of its content.
            body = unit.body_start if unit.body_start is not None else unit.char_start
            if len(pieces) > 1 and pieces[0].node is unit and not self._doc.text[body : pieces[0].end].strip():
                pieces[1] = _Piece(pieces[0].start, pieces[1].end, pieces[1].node)
                del pieces[0]
        out: list[tuple[int, int]] = []
        cur: tuple[int, int] | None = None
        for p in pieces:
            if p.end - p.start > self.size:
                if cur:
                    out.append(cur)
                    cur = None
                out.extend(self._split_long(p.start, p.end))
                continue
            if cur is None:
                cur = (p.start, p.end)
            elif p.end - cur[0] <= self.size:
                cur = (cur[0], p.end)
            else:
                out.append(cur)
                cur = (p.start, p.end)
        if cur:
            out.append(cur)
        text = self._doc.text
        trimmed = []
        for s, e in out:
            while s < e and text[s].isspace():
                s += 1
            e = _rstrip(text, s, e)
            if e > s:
                trimmed.append((s, e))
        return trimmed

    def _pieces(self, node: Node, depth: int) -> list[_Piece]:
        if node.char_end - node.char_start <= self.size or depth >= self.max_depth or not node.children:
            return [_Piece(node.char_start, node.char_end, node)]
        text = self._doc.text
        out: list[_Piece] = []
        pos = node.char_start
        for c in node.children:
            if c.char_start > pos and text[pos : c.char_start].strip():
                out.append(_Piece(pos, _rstrip(text, pos, c.char_start), node))
            out.extend(self._pieces(c, depth + 1))
            pos = max(pos, c.char_end)
        if node.char_end > pos and text[pos : node.char_end].strip():
            out.append(_Piece(pos, node.char_end, node))
        return out

    def _split_long(self, start: int, end: int) -> list[tuple[int, int]]:
        """Sentence-boundary split with overlap; a single over-long sentence falls back to the
        recursive splitter (spaces, then characters)."""
        text = self._doc.text
        sents: list[tuple[int, int]] = []
        pos = start
        for m in _SENTENCE_END.finditer(text, start, end):
            if m.start() > pos:
                sents.append((pos, m.start()))
            pos = m.end()
        if pos < end:
            sents.append((pos, end))
        fine: list[tuple[int, int]] = []
        splitter = RecursiveSplitter(self.size, min(self.overlap, self.size // 2))
        for s, e in sents:
            if e - s > self.size:
                fine.extend(splitter.split_spans(text, s, e))
            else:
                fine.append((s, e))
        out: list[tuple[int, int]] = []
        i = 0
        while i < len(fine):
            s = fine[i][0]
            j = i
            while j + 1 < len(fine) and fine[j + 1][1] - s <= self.size:
                j += 1
            out.append((s, fine[j][1]))
            if j + 1 >= len(fine):
                break
            # next chunk starts with the trailing sentences that fit in the overlap
            k = j + 1
            while k - 1 > i and fine[j][1] - fine[k - 1][0] <= self.overlap:
                k -= 1
            i = k if k > i else j + 1
        return out

    # ── metadata ────────────────────────────────────────────────────────────────────────────────
    def _make(self, doc: Document, no: int, s: int, e: int, unit: Node) -> Chunk:
        segments = self._segments(unit, s, e)
        deepest = self._deepest(unit, s, e)
        refs: list[str] = []
        for n in unit.walk():
            for r in n.refs:
                if s <= r.start < e and r.target_path and r.target_path not in refs:
                    refs.append(r.target_path)
        fns: list[str] = []
        for fn in doc.footnotes:
            if any(s <= m.offset < e for m in fn.marks) and fn.label not in fns:
                fns.append(fn.label)
        chain = [unit, *self._ancestors(unit)]
        case = next((n.attrs["case"] for n in chain if n.attrs.get("case")), None)
        article = self.cite_label(unit)
        return self.make_chunk(
            doc, no, s, e,
            article=article,
            block_type=unit.block_type,
            path=deepest.path,
            paths=list(dict.fromkeys(seg.path for seg in segments)),
            sibling_order=deepest.sibling_order,
            breadcrumb=self._breadcrumb(doc, unit, article),
            refs=refs,
            footnotes=fns,
            segments=segments,
            case=CaseInfo.from_attrs(case),
            doc_id=self._doc_id,
            clause=unit.path or "/",  # every chunk of this unit shares it (the root's own text: "/")
            **self._version,
            **clause_version(chain, (n for n in unit.walk() if n.char_start < e and s < n.char_end)),
        )

    def _ancestors(self, n: Node) -> Iterator[Node]:
        cur = self._parents.get(id(n))
        while cur is not None:
            yield cur
            cur = self._parents.get(id(cur))

    def _deepest(self, unit: Node, s: int, e: int) -> Node:
        node = unit
        while True:
            for c in node.children:
                if c.char_start <= s and e <= c.char_end:
                    node = c
                    break
            else:
                return node

    def _segments(self, unit: Node, s: int, e: int) -> list[Segment]:
        text = self._doc.text
        out: list[Segment] = []
        unit_cite = self.cite_label(unit)

        def visit(n: Node, trail: list[str]) -> None:
            pos = n.char_start
            spans = []
            for c in n.children:
                if c.char_start > pos:
                    spans.append((pos, c.char_start))
                pos = max(pos, c.char_end)
            if n.char_end > pos:
                spans.append((pos, n.char_end))
            for a, b in spans:
                a2, b2 = max(a, s), min(b, e)
                if b2 > a2 and text[a2:b2].strip():
                    cite = " ".join([unit_cite, *trail]).strip()
                    out.append(Segment(path=n.path, cite=cite, start=a2, end=b2))
            for c in n.children:
                if c.char_end > s and c.char_start < e:
                    visit(c, [*trail, _short(c, self._lang)])

        visit(unit, [])
        out.sort(key=lambda seg: seg.start)
        return out

    def cite_label(self, unit: Node) -> str:
        """How a citation names the clause: "제5조 (환불 처리 기간)", "부록A 제2조 (위약금 산정)", "부칙 제1조",
        "각주 3", "당사자", "판결요지 [2]"."""
        if unit.attrs.get("cite"):
            return str(unit.attrs["cite"])
        ko = self._lang == "ko"
        if unit.kind == "footnote":
            return f"{'각주' if ko else 'Footnote'} {unit.label}"
        if unit.kind in ("parties", "text", "document"):
            if unit.kind == "document":
                return unit.title or self._doc.doc_title
            return unit.label
        if unit.kind == "faq":
            return unit.title or unit.label
        block = self._block(unit)
        head = heading(unit)
        parent = self._parents.get(id(unit))
        if parent is not None and parent.kind == "chapter" and parent.path and unit.path.startswith(parent.path + "/"):
            # numbering restarts in each chapter ("Ⅱ. …" / "1. …"): the chapter keeps the citation unique
            # (a chapter named only by its title — "개인정보의 처리 목적" — by that title)
            head = f"{parent.label or parent.title} {head}"
        if block is not None and block is not unit:
            prefix = block.label if block.kind == "appendix" else (
                block.label if block.kind == "addenda" else "")
            return f"{prefix} {head}".strip()
        if unit.kind in ("appendix", "addenda"):
            return unit.heading
        return head

    def _block(self, n: Node) -> Node | None:
        # the innermost block: a dated 부칙 inside the bare "## 부칙" that groups a statute's history
        for a in [n, *self._ancestors(n)]:
            if a.kind in ("appendix", "addenda") and self._parents.get(id(a)) is not None and \
                    self._parents[id(a)].kind in ("document", "addenda"):
                return a
        return None

    def _breadcrumb(self, doc: Document, unit: Node, article: str) -> str:
        parts = [doc.doc_title]
        for a in reversed(list(self._ancestors(unit))):
            if a.kind == "chapter":
                parts.append(heading(a) if a.title else a.label)
                name = a.label or a.title
                if article.startswith(f"{name} ") and a is self._parents.get(id(unit)):
                    article = article[len(name) + 1 :]  # "Ⅱ. 관리 체계 > 1. …", not "… > Ⅱ. 1. …"
            elif a.kind == "case":
                parts.append(a.title or a.label)
        parts.append(article)
        return " > ".join(p for p in parts if p)


def heading(n: Node) -> str:
    """How a citation names a node (``Node.heading``: "제5조 (환불 처리 기간)", "1. 개인정보의 처리 목적")."""
    return n.heading


def _short(n: Node, lang: str) -> str:
    """The sub-clause label a citation appends: 제2항, 제3호, 가목, 4.2, (a), Q2."""
    last = n.path.rsplit("/", 1)[-1] if n.path else n.label
    return last.split("#")[0]


def _rstrip(text: str, s: int, e: int) -> int:
    while e > s and text[e - 1].isspace():
        e -= 1
    return e


def _has_sentence(s: str) -> bool:
    lines = [ln.strip() for ln in s.splitlines() if ln.strip()]
    return len(lines) > 1 or any(len(ln) > 80 or ln.endswith((".", "다", "。")) for ln in lines)


# What a title line never holds: "label: value" ("공고: 2025년 0월 0일", "Effective Date: …") or a date
_NOT_TITLE = re.compile(r"[:：]\s*\S|(?:19|20)\d{2}\s*[년.\-/]\s*\d{1,2}|\b\d{1,2}\s*[./]\s*\d{1,2}\s*[./]\s*\d{2}(?:\d{2})?\b")


def _is_title_only(s: str) -> bool:
    """The document's own text before its first clause is only its title: one short line that reads as a
    title — not "공고: 2025년 0월 0일", a date or a sentence (content: it is kept in a chunk)."""
    lines = [ln.strip() for ln in s.splitlines() if ln.strip()]
    if len(lines) > 1 or len(s.strip()) > 80:
        return False
    return not lines or not (_NOT_TITLE.search(lines[0]) or lines[0].endswith(("다.", "다", "요.")))
