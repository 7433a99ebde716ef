"""Text before the first clause: the title, then a parties block (often a table) or a preamble, then the
recitals ("RECITALS", "WHEREAS …", "BACKGROUND" up to "NOW, THEREFORE …" or "AGREED TERMS").

Numbered lines there ("(1) Harbour Foods Limited …", "(A) The Supplier …") are not clauses when the document
has articles after them: they become children of the block they sit in.
"""

from __future__ import annotations

from jogak.grammar import Grammar
from jogak.model import Line, Node
from jogak.structure.layout import Body
from jogak.structure.state import TreeState


def front_blocks(state: TreeState, body: Body, g: Grammar) -> None:
    """Put the front matter into parties / preamble / recitals nodes at the top of the root."""
    kids = state.root.children
    has_clause = any(c.kind in ("article", "chapter") for c in kids)
    k = 0
    while k < len(kids) and (kids[k].kind == "table" or (
            has_clause and kids[k].kind in ("paragraph", "item", "subitem"))):
        k += 1  # tables (and, before articles, enumerations) belong to the parties block or preamble
    first = kids[k].char_start if k < len(kids) else body.body_end
    lead = kids[:k]
    parts, recitals = _front_parts(body, g, lead, first)
    made = [n for pi, part in enumerate(parts)
            if (n := _block(body, g, part, first, lead if pi == 0 else [],
                            recitals and pi == len(parts) - 1)) is not None]
    if made:
        _absorb(state, made, lead)


def _front_parts(body: Body, g: Grammar, lead: list[Node], first: int) -> tuple[list[list[Line]], bool]:
    """The front matter's lines without the document title, cut where the recitals start (if they do)."""
    lines = [ln for ln in body.lines if ln.start < first and body.raw(ln).strip()]
    if not lines:
        return [], False
    t0 = body.raw(lines[0]).strip()
    first_is_node = bool(lead) and lead[0].char_start <= lines[0].start
    if not first_is_node and ((len(t0) <= 80 and not t0.endswith(("다.", "."))) or lines[0].heading_level == 1):
        lines = lines[1:]  # the document title stays with the root
    if not lines:
        return [], False
    split = next((i for i, ln in enumerate(lines)
                  if any(r.match(body.raw(ln).strip()) for r in g.recitals_res)), None)
    return ([lines], split is not None) if not split else ([lines[:split], lines[split:]], True)


def _block(body: Body, g: Grammar, part: list[Line], first: int, lead: list[Node], recitals: bool
           ) -> Node | None:
    text = body.text
    start = part[0].start + body.lead(part[0])
    end = min(part[-1].end, first)  # a clause may start mid-line (run-together text)
    while end > start and text[end - 1].isspace():
        end -= 1
    if end <= start:
        return None
    if recitals:
        kind, bt, label = "text", "body", g.labels["recitals"]
    elif any(_is_party(body, g, ln) for ln in part):
        kind, bt, label = "parties", "parties", g.labels["parties"]
    else:
        kind, bt, label = "text", "body", g.labels["preamble"]
    start = min([start, *(t.char_start for t in lead if t.char_end > start)])
    return Node(kind=kind, block_type=bt, label=label, title="", path="", sibling_order=1,
                char_start=start, char_end=end, body_start=start)


def _is_party(body: Body, g: Grammar, ln: Line) -> bool:
    s = body.raw(ln).strip()
    if any(r.search(s) for r in g.party_res):
        return True
    return ln.role == "table_row" and any(c in s for c in g.party_cues if len(c) > 1)


def _absorb(state: TreeState, made: list[Node], lead: list[Node]) -> None:
    """Move the nodes already built in the front matter (tables, enumerations) under the block holding them,
    and put the blocks first among the root's children."""
    root = state.root
    kids = root.children

    def holder_of(n: Node) -> Node:
        return next((h for h in reversed(made) if n.char_start >= h.char_start), made[0])

    absorbed = [d for t in lead if t.char_end > made[0].char_start for d in t.walk()]
    keep = {id(d) for d in absorbed}
    for d in absorbed:
        d.children = [c for c in d.children if holder_of(c) is holder_of(d)]
    for d in absorbed:
        h = holder_of(d)
        d.block_type = h.block_type
        d.char_end = min(d.char_end, h.char_end) if h is not made[-1] else d.char_end
        parent = state.parents.get(id(d))
        if parent is root or parent is None or id(parent) not in keep or holder_of(parent) is not h:
            h.children.append(d)
    for h in made:
        h.char_end = max([h.char_end, *(c.char_end for c in h.children)])
    taken = {id(d) for d in absorbed}
    root.children[:] = [*made, *[c for c in kids if id(c) not in taken]]
    for i, ch in enumerate(root.children):
        ch.sibling_order = i + 1
