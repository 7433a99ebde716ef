"""Cross-references: phrases in running text resolved to target nodes of the same document, in scope.

A bare "제2항" or "paragraph 1.2" resolves inside the current article or appendix first; "제2조" written
inside 부록A means 부록A's 제2조 when it exists, the body's otherwise; "본문 제7조" always means the body.
References into other laws ("법 제34조" in a decree, "「민법」 제750조", "같은 법 제3조") are kept with the
law's name and never resolved here (korefs.py; a collection resolves them: family.py).
The phrase patterns are data (``ref_patterns`` of the grammars in jogak.grammar.ko / en).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable

from jogak.grammar import Grammar, for_language
from jogak.grammar.laws import CONTENT_AFTER_RE
from jogak.grammar.numbering import any_int
from jogak.model import Document, Node, Ref
from jogak.structure.footnotes import Locator
from jogak.structure.korefs import KoReader, former_text_refs
from jogak.structure.refindex import RefIndex, Resolved, Where, app_label, fuzzy_block
from jogak.structure.refspans import amending_act_refs, law_range_interiors, range_interiors

__all__ = ["resolve_references"]


def resolve_references(root: Node, doc: Document, lang: str, warnings: list[str]) -> None:
    g: Grammar = for_language(lang)
    idx = RefIndex(root)
    text = doc.text
    body_prefix = g.labels["body"]
    korean = KoReader(idx, doc, body_prefix) if lang == "ko" else None
    for name, gd, s, e, holder in _matches(root, text, g):
        ref = Ref(text=text[s:e], start=s, end=e)
        if korean is not None:
            korean.read(ref, name, gd, holder)
        else:
            rule = _EN_RULES.get(name)
            where = Where(holder, idx.block_of(holder), idx.article_of(holder), idx, body_prefix)
            if name == "other_law":  # "Section 3 of the Internal Revenue Code"
                target, ref.reason = None, "other law"
            else:
                target, ref.reason = rule(gd, where) if rule is not None else (None, "unknown reference form")
            ref.target_path = target.path if target is not None else None
        tail = text[e : e + 30].split("\n")[0]
        head = text[max(0, s - 60) : s].split("\n")[-1]
        ref.pointer = (bool(g.pointer_after_re.match(tail)) or bool(g.pointer_before_re.search(head))
                       or bool(g.pointer_after_attached_re.match(tail)))  # Korean writes it attached: "부록A에 따른다"
        if ref.law is not None and ref.clause is not None and not ref.pointer:
            # "법 제34조제1항 각 호의 사항을 알려야 한다": the other law's clause is part of what is said
            ref.pointer = bool(CONTENT_AFTER_RE.match(tail))
        holder.refs.append(ref)
    for n in root.walk():
        n.refs.sort(key=lambda r: r.start)
        if korean is not None:
            # "종전의 제4조제1항 및 제5조": the former text's clauses — today's 제4조 may say something else, and a wrong
            # link is worse than none
            for r in (r for r in n.refs if id(r) in former_text_refs(n.refs, text) and r.target_path and r.law is None):
                r.target_path, r.reason = None, "former text"
            amending_act_refs(n, text, idx)
            n.refs.extend([*range_interiors(n.refs, text, idx), *law_range_interiors(n.refs, text)])
            n.refs.sort(key=lambda r: r.start)


def _matches(root: Node, text: str, g: Grammar) -> list[tuple[str, dict, int, int, Node]]:
    """Every reference phrase in document order: (pattern name, groups, start, end, node holding it).
    Patterns are tried in the grammar's order and a later one never takes text an earlier one took."""
    starts: list[int] = []  # the spans taken so far, sorted and disjoint
    ends: list[int] = []
    out: list[tuple[str, dict, int, int, Node]] = []
    locate = Locator(root).at
    for name, rx in g.ref_res:
        for m in rx.finditer(text):
            s, e = m.span()
            i = bisect.bisect_right(starts, s)
            if s == e or (i > 0 and ends[i - 1] > s) or (i < len(starts) and starts[i] < e):
                continue
            holder = locate(s)
            if holder is root:
                continue
            # A heading's own label is not a reference to itself.
            if holder.char_start <= s < (holder.body_start or holder.char_start):
                continue
            starts.insert(i, s)
            ends.insert(i, e)
            if not name.startswith("_skip"):  # "법률 제20001호" is a law's number, not an item reference
                out.append((name, m.groupdict(), s, e, holder))
    out.sort(key=lambda x: x[2])
    return out


# ── English ─────────────────────────────────────────────────────────────────────────────────────


def _en_appendix(gd: dict, w: Where) -> Resolved:
    label = app_label(gd["app"], gd.get("app_id"), "en")
    app = w.idx.by_path.get(label) or fuzzy_block(w.idx.root, label)
    if app is None:
        return None, f"no {label} in this document"
    if gd.get("sec"):
        hit = _find_section(app, gd["sec"])
        if hit is not None:
            return hit, None
        return app, f"no {gd['sec']} in {label}; resolved to {label}"
    return app, None


def _en_article(gd: dict, w: Where) -> Resolved:
    hit = w.idx.by_path.get(f"Article {any_int(gd['art'])}")
    return (hit, None) if hit is not None else (None, "no such article")


def _en_section(gd: dict, w: Where) -> Resolved:
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


_EN_RULES: dict[str, Callable[[dict, Where], Resolved]] = {
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


