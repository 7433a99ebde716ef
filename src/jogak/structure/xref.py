"""Cross-references: phrases in running text resolved to target nodes of the same document, in scope.

A bare "제2항" or "paragraph 1.2" resolves inside the current article or appendix first; "제2조" written
inside 부록A means 부록A's 제2조 when it exists, the body's otherwise; "본문 제7조" always means the body.
References to other laws ("「민법」 제750조", "같은 법 제3조") are kept with a reason, never resolved here.
The phrase patterns are data (``ref_patterns`` of the grammars in jogak.grammar.ko / en).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from jogak.grammar import Grammar, for_language
from jogak.grammar.numbering import any_int
from jogak.model import Document, Node, Ref
from jogak.structure.candidates import block_label
from jogak.structure.footnotes import deepest_at


class _Index:
    def __init__(self, root: Node) -> None:
        self.by_path: dict[str, Node] = {}
        self.parent: dict[int, Node] = {}
        for n in root.walk():
            self.by_path.setdefault(n.path, n)
            for c in n.children:
                self.parent[id(c)] = n
        self.root = root

    def ancestors(self, n: Node):
        cur = self.parent.get(id(n))
        while cur is not None:
            yield cur
            cur = self.parent.get(id(cur))

    def block_of(self, n: Node) -> Node | None:
        """The root-level block holding n (appendix, addenda, ...), None for the body."""
        chain = [n, *self.ancestors(n)]
        top = chain[-2] if len(chain) >= 2 else n
        return top if top.block_type != "body" else None

    def article_of(self, n: Node) -> Node | None:
        for x in [n, *self.ancestors(n)]:
            if x.kind == "article":
                return x
        return None

    def paragraph_of(self, n: Node) -> Node | None:
        for x in [n, *self.ancestors(n)]:
            if x.kind == "paragraph":
                return x
        return None

    def find_under(self, base: Node | None, suffix: str) -> Node | None:
        """A node whose path is base.path + "/" + suffix, or under the body prefix when base is None."""
        if base is None:
            return None
        return self.by_path.get(f"{base.path}/{suffix}" if base.path else suffix)

    def find_label(self, block: Node | None, suffix: str, body_prefix: str) -> Node | None:
        if block is not None:
            hit = self.find_under(block, suffix)
            if hit is not None:
                return hit
        return self.by_path.get(f"{body_prefix}/{suffix}" if body_prefix else suffix)


def _ko_suffix(art: str | None, sub: str | None, para: str | None, item: str | None, mok: str | None
               ) -> list[str]:
    """Candidate path suffixes, most precise first ("제5조/제2항/제3호", then "제5조/제2항", "제5조")."""
    parts = []
    if art:
        parts.append(f"제{int(art)}조" + (f"의{int(sub)}" if sub else ""))
    if para:
        parts.append(f"제{int(para)}항")
    if item:
        n, _, isub = item.partition("의")
        parts.append(f"제{int(n)}호" + (f"의{int(isub)}" if isub else ""))
    if mok:
        parts.append(f"{mok}목")
    return ["/".join(parts[:k]) for k in range(len(parts), 0, -1)]


def _item(gd: dict[str, str | None]) -> str | None:
    """The 호 number of a match, with its branch number: "9" or "9의2" (제9호의2)."""
    item = gd.get("item")
    return f"{item}의{gd['itemsub']}" if item and gd.get("itemsub") else item


def _app_label(app: str, app_id: str | None, lang: str) -> str:
    return block_label(app, app_id or "", lang)


def resolve_references(root: Node, doc: Document, lang: str, warnings: list[str]) -> None:
    g: Grammar = for_language(lang)
    idx = _Index(root)
    text = doc.text
    patterns = g.ref_res
    pointer_after = g.pointer_after_re
    pointer_before = g.pointer_before_re
    body_prefix = g.labels["body"]
    taken: list[tuple[int, int]] = []

    def overlaps(s: int, e: int) -> bool:
        return any(s < te and ts < e for ts, te in taken)

    for name, rx in patterns:
        for m in rx.finditer(text):
            s, e = m.span()
            if s == e or overlaps(s, e):
                continue
            holder = deepest_at(root, s)
            if holder is root:
                continue
            # A heading's own label is not a reference to itself.
            if holder.char_start <= s < (holder.body_start or holder.char_start):
                continue
            taken.append((s, e))
            if name.startswith("_skip"):
                continue  # looks like a reference but is not one ("법률 제20001호" is a law's number)
            gd = m.groupdict()
            ref = Ref(text=text[s:e], start=s, end=e)
            target, reason = _resolve(name, gd, holder, idx, lang, body_prefix)
            ref.target_path = target.path if target is not None else None
            ref.reason = reason
            tail = text[e : e + 30].split("\n")[0]
            head = text[max(0, s - 60) : s].split("\n")[-1]
            ref.pointer = bool(pointer_after.match(tail)) or bool(pointer_before.search(head))
            if not ref.pointer:  # Korean writes the pointer attached: "부록A에 따른다"
                ref.pointer = bool(g.pointer_after_attached_re.match(tail))
            holder.refs.append(ref)
    for n in root.walk():
        n.refs.sort(key=lambda r: r.start)


@dataclass(frozen=True)
class _Where:
    """Where a phrase is written: its node, and the block and article holding it."""

    holder: Node
    block: Node | None
    article: Node | None
    idx: _Index
    body_prefix: str


_Resolved = tuple[Node | None, str | None]  # (target, reason it stays unresolved)


def _resolve(name: str, gd: dict, holder: Node, idx: _Index, lang: str, body_prefix: str) -> _Resolved:
    if name == "other_law":
        return None, "other law"
    where = _Where(holder, idx.block_of(holder), idx.article_of(holder), idx, body_prefix)
    rule = (_KO_RULES if lang == "ko" else _EN_RULES).get(name)
    return rule(gd, where) if rule is not None else (None, "unknown reference form")


def _first_under(base: Node, idx: _Index, suffixes: list[str]) -> Node | None:
    return next((hit for suf in suffixes if (hit := idx.find_under(base, suf)) is not None), None)


# ── Korean ──────────────────────────────────────────────────────────────────────────────────────


def _ko_appendix(gd: dict, w: _Where) -> _Resolved:
    label = _app_label(gd["app"], gd.get("app_id"), "ko")
    app = w.idx.by_path.get(label) or _fuzzy_block(w.idx.root, label)
    # "이 부록" / "부록" written inside an appendix means that appendix
    if (app is None and not gd.get("app_id") and w.block is not None and w.block.kind == "appendix"
            and w.block.label.startswith(gd["app"])):
        app = w.block
    if app is None:
        return None, f"no {label} in this document"
    hit = _first_under(app, w.idx, _ko_suffix(gd.get("art"), gd.get("sub"), gd.get("para"), _item(gd), None))
    return (hit if hit is not None else app), None


def _ko_body_explicit(gd: dict, w: _Where) -> _Resolved:
    for suf in _ko_suffix(gd["art"], gd.get("sub"), gd.get("para"), _item(gd), gd.get("mok")):
        hit = w.idx.by_path.get(f"{w.body_prefix}/{suf}")
        if hit is not None:
            return hit, None
    return None, "no such clause in the body"


def _ko_article(gd: dict, w: _Where) -> _Resolved:
    law = "".join((gd.get("law") or "").split())
    if law and not law.startswith("이"):
        return None, "other law"
    for suf in _ko_suffix(gd["art"], gd.get("sub"), gd.get("para"), _item(gd), gd.get("mok")):
        hit = w.idx.find_label(w.block, suf, w.body_prefix)
        if hit is not None:
            return hit, None
    return None, "no such clause in this document"


def _ko_in_article(gd: dict, w: _Where) -> _Resolved:
    """"같은 조 제2항", a bare "제2항": a paragraph of the article it is written in."""
    if w.article is None:
        return None, "no enclosing article"
    hit = _first_under(w.article, w.idx, _ko_suffix(None, None, gd.get("para"), _item(gd), gd.get("mok")))
    return (hit, None) if hit is not None else (None, f"no such paragraph in {w.article.label}")


def _ko_in_paragraph(gd: dict, w: _Where) -> _Resolved:
    """"같은 항 제2호", a bare "제2호": an item of the paragraph (or article) it is written in."""
    para = w.idx.paragraph_of(w.holder) or w.article
    if para is None:
        return None, "no enclosing clause"
    hit = _first_under(para, w.idx, _ko_suffix(None, None, None, _item(gd), gd.get("mok")))
    return (hit, None) if hit is not None else (None, f"no such item in {para.label}")


def _ko_prev_article(gd: dict, w: _Where) -> _Resolved:
    if w.article is None:
        return None, "no enclosing article"
    prev = _previous_sibling(w.article, w.idx)
    if prev is None:
        return None, "no previous article"
    if gd.get("para"):
        hit = w.idx.find_under(prev, f"제{int(gd['para'])}항")
        if hit is not None:
            return hit, None
    return prev, None


def _ko_prev_para(gd: dict, w: _Where) -> _Resolved:
    para = w.idx.paragraph_of(w.holder)
    if para is None:
        return None, "no enclosing paragraph"
    prev = _previous_sibling(para, w.idx)
    return (prev, None) if prev is not None else (None, "no previous paragraph")


_KO_RULES: dict[str, Callable[[dict, _Where], _Resolved]] = {
    "appendix": _ko_appendix,
    "body_explicit": _ko_body_explicit,
    "article": _ko_article,
    "same_article": _ko_in_article,
    "bare_para": _ko_in_article,
    "same_para": _ko_in_paragraph,
    "bare_item": _ko_in_paragraph,
    "prev_article": _ko_prev_article,
    "prev_para": _ko_prev_para,
}


# ── English ─────────────────────────────────────────────────────────────────────────────────────


def _en_appendix(gd: dict, w: _Where) -> _Resolved:
    label = _app_label(gd["app"], gd.get("app_id"), "en")
    app = w.idx.by_path.get(label) or _fuzzy_block(w.idx.root, label)
    if app is None:
        return None, f"no {label} in this document"
    if gd.get("sec"):
        hit = _find_section(app, gd["sec"])
        if hit is not None:
            return hit, None
        return app, f"no {gd['sec']} in {label}; resolved to {label}"
    return app, None


def _en_article(gd: dict, w: _Where) -> _Resolved:
    hit = w.idx.by_path.get(f"Article {any_int(gd['art'])}")
    return (hit, None) if hit is not None else (None, "no such article")


def _en_section(gd: dict, w: _Where) -> _Resolved:
    sec = gd["sec"]
    if gd.get("of_block"):  # "Section 2 of this Schedule": only inside the block it is written in
        if w.block is None:
            return None, "not inside a schedule or annex"
        hit = _find_section(w.block, sec)
        return (hit, None) if hit is not None else (w.block, f"no {sec} in {w.block.label}; resolved to it")
    # "Section 4 of this Agreement" skips the enclosing block and article
    for sc in [] if gd.get("of_agreement") else [w.block, w.article]:
        if sc is not None:
            hit = _find_section(sc, sec)
            if hit is not None:
                return hit, None
    hit = _find_section(w.idx.root, sec, body_only=True)
    if hit is not None:
        return hit, None
    if "." not in sec:
        hit = (w.idx.by_path.get(f"Section {sec}") or w.idx.by_path.get(f"Clause {sec}")
               or w.idx.by_path.get(f"Article {sec}"))
        if hit is not None:
            return hit, None
    return None, "no such section"


_EN_RULES: dict[str, Callable[[dict, _Where], _Resolved]] = {
    "inner_of_appendix": _en_appendix,
    "appendix": _en_appendix,
    "article": _en_article,
    "section": _en_section,
    "bare_para": _en_section,
}


def _find_section(scope: Node, sec: str, body_only: bool = False) -> Node | None:
    for n in scope.walk():
        if body_only and n.block_type != "body":
            continue
        if n is scope:
            continue
        if n.attrs.get("_raw") == sec and (n.attrs.get("_scheme") in ("en_dotted", "en_decimal_dot")):
            return n
        if "." not in sec and n.path.rsplit("/", 1)[-1] in (sec, f"Section {sec}", f"Clause {sec}"):
            return n
    return None


def _fuzzy_block(root: Node, label: str) -> Node | None:
    key = label.replace(" ", "").lower()
    for ch in root.children:
        if ch.kind == "appendix" and ch.label.replace(" ", "").lower() == key:
            return ch
    return None


def _previous_sibling(n: Node, idx: _Index) -> Node | None:
    parent = idx.parent.get(id(n))
    if parent is None:
        return None
    same = [c for c in parent.children if c.kind == n.kind]
    i = next((k for k, c in enumerate(same) if c is n), -1)
    return same[i - 1] if i > 0 else None
