"""Korean references: the resolution rules of each phrase form, and the reader that carries a list's law and
article from one reference to the next.

Korean legal text writes lists of references elliptically: "법 제24조의2부터 제24조의12까지" (both the Act's),
"제3조제1항 각 호 및 제2항 각 호" (the second is 제3조제2항), "법 제34조제1항제1호 또는 제2호의 사항 … 같은 항
제3호부터" (같은 항 is the Act's 제34조제1항). The reader keeps the last reference read: a reference joined to it
by a list connector (",", "및", "부터", "ㆍ", "(" …) continues its law and, for a bare 항/호, its article and
paragraph; "같은 조"/"같은 항"/"같은 법" look back to the last reference of the same paragraph. Scopes (this
document or another law) come from lawrefs.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from jogak.grammar.effective import FORMER_TEXT_BEFORE_RE, SAME_UNIT_RE, other_law_of_addenda
from jogak.grammar.laws import (
    ADDENDA_WORD_BEFORE_RE,
    LAW_PART_BEFORE_RE,
    OTHER_ADDENDA_BEFORE_RE,
    OWN_QUOTED_BEFORE_RE,
    PLAIN_NAME_ALIAS_BEFORE_RE,
    QUALIFIER_BEFORE_RE,
    QUOTED_BEFORE_RE,
    QUOTED_REPLACED_AFTER_RE,
    REF_CONNECTOR_RE,
    REF_CONNECTOR_WORDS,
)
from jogak.grammar.patterns import EACH_ITEM_ASIDE_GAP_RE, PARA_ITEM_ASIDE_GAP_RE, PARA_ITEM_ASIDE_REST_RE
from jogak.model import Document, Node, Ref
from jogak.structure.lawrefs import SELF, LawContext, NoLinkSpans, Scope
from jogak.structure.refindex import (
    RefIndex,
    Resolved,
    Where,
    app_label,
    first_under,
    fuzzy_block,
    previous_sibling,
)

_ADDRESS = ("app", "app_id", "art", "sub", "para", "item", "itemsub", "mok")
# What an elliptic reference takes from the one it continues: a bare 항 its article, a bare 호 its article
# and 항 (and an appendix: "별표 1 제4호부터 제6호까지"), "같은 조 제N항" the article, "같은 항 제N호" both.
_ELLIPTIC = {
    "bare_para": ("app", "app_id", "art", "sub"),
    "same_article": ("app", "app_id", "art", "sub"),
    "bare_item": ("app", "app_id", "art", "sub", "para"),
    "same_para": ("app", "app_id", "art", "sub", "para"),
    "same_table": ("app", "app_id"),
}


# An aside in parentheses inside a list of references, innermost first (removed repeatedly)
_ASIDE_RE = re.compile(r"[(（][^()（）]*[)）]")


def _without_asides(gap: str) -> str:
    """``gap`` with its closed asides removed, nested ones too."""
    while (reduced := _ASIDE_RE.sub("", gap)) != gap:
        gap = reduced
    return gap


def _connects(gap: str, aside: bool = False) -> bool:
    """Is ``gap`` (the text between two references) a list connector ("ㆍ", ", ", " 및 ", "부터 ")? With the asides
    removed (``aside``) nothing else may stay: a "(" the removal left is an aside not closed yet."""
    if aside:
        gap = _without_asides(gap)
        if "(" in gap or "（" in gap:
            return False
    return (len(gap) <= 40 and "\n" not in gap and REF_CONNECTOR_RE.fullmatch(gap) is not None
            and any(w in gap for w in REF_CONNECTOR_WORDS))


def _joins(gap: str) -> bool:
    """Is ``gap`` nothing but an aside or a genitive between two parts of one address? "제14조(교직원의 구분)제1항",
    "「형사소송법」 제56조의2(공판정에서의 속기ㆍ녹음 및 영상녹화)제2항", "법 제284조의2의 제1항", "제100조의7(제1항ㆍ제9항":
    the 항 is that article's, not this one's ("제3조 및 제2항", a list, names this article's own)."""
    if not gap or "\n" in gap or len(gap) > 60:
        return False
    return _without_asides(gap).strip() in ("", "의", "(", "（")


# A relative reference (no article of its own) inside quoted wording of another provision: "법 제116조의2제1항제2호
# 단서에서 "제2항에 따른 …"", "같은 조 중 "제1항, 제8항 후단 …"는 …" — its 항 is that provision's.
_RELATIVE = frozenset({"bare_para", "bare_item", "same_article", "same_para", "same_table", "prev_article", "prev_para"})


def _quote_span(text: str, pos: int) -> tuple[int, int] | None:
    """Where the quotation ``pos`` stands in opens and closes (on one line), or None outside quotes."""
    line_start = text.rfind("\n", 0, pos) + 1
    head = text[line_start:pos]
    straight = head.count('"') % 2 == 1
    if not straight and head.count("“") <= head.count("”"):
        return None
    q = head.rfind('"') if straight else head.rfind("“")
    close = text.find('"' if straight else "”", pos)
    line_end = text.find("\n", pos)
    if close < 0 or (0 <= line_end < close):
        return None
    return line_start + q, close


def _quoted_wording(text: str, pos: int) -> bool:
    """Is ``pos`` inside a quotation of another provision's wording: quoted after "중"/"에서", or the wording a
    reading replaces ('"…"는 "…"으로 본다')? Not the replacing wording: this law's drafters write it, and its
    "제1항부터 제5항까지" are their own article's."""
    span = _quote_span(text, pos)
    if span is None:
        return False
    q, close = span
    before = text[max(0, q - 30) : q]
    if OWN_QUOTED_BEFORE_RE.search(before):
        return False
    return bool(QUOTED_BEFORE_RE.search(before) or QUOTED_REPLACED_AFTER_RE.match(text, close + 1))


@dataclass(slots=True)
class _Read:
    """A reference already read: where it ends, its scope and its full address (art … mok)."""

    end: int
    holder: Node
    scope: Scope
    addr: dict[str, str | None]
    in_block: bool = False  # it named a clause of its own 부칙 ("부칙 제2조제2항")
    depth: int = 0  # parentheses open where it stands, counted from its paragraph's start
    quoted: bool = False  # it stands inside quoted wording ('"제92조제1항"으로')


class KoReader:
    def __init__(self, idx: RefIndex, doc: Document, body_prefix: str) -> None:
        self.idx = idx
        self.text = doc.text
        self.body_prefix = body_prefix
        self.laws = LawContext(doc)
        self.no_link = NoLinkSpans(idx.root, doc.text)
        self.last: _Read | None = None  # the reference read last, anywhere
        self.last_in: dict[int, list[_Read]] = {}  # id(paragraph, article or holder) → the references read there
        self.scope_start: dict[int, int] = {}  # id(paragraph, article or holder) → where its text starts
        self.last_law: dict[int, str] = {}  # id(paragraph, article or holder) → the last other law named there
        self.last_law_any: str | None = None
        # (paragraph, law) → the last reference with an article into that law there ("법 제49조 … 법 같은 조")
        self.last_of_law: dict[tuple[int, str], _Read] = {}
        self.last_in_block = False  # the last reference resolved into its own block (a 부칙's "부칙 제3조")

    def read(self, ref: Ref, name: str, gd: dict, holder: Node) -> None:
        """Resolve one reference (in document order) and remember it for the ones that follow."""
        no_link = self.no_link.at(ref.start)
        if no_link is not None:
            ref.reason, ref.law = no_link
            return
        article = self.idx.article_of(holder)
        # "같은 조/같은 항/같은 법" look back within the paragraph (a new paragraph's "같은 조" is its own article)
        scope_node = self.idx.paragraph_of(holder) or article
        key = id(scope_node if scope_node is not None else holder)
        self.scope_start.setdefault(key, (scope_node if scope_node is not None else holder).char_start)
        addr = {k: gd.get(k) for k in _ADDRESS}
        qualified = self._qualified(name, gd, ref.start, key)
        if qualified is not None:  # "법 같은 조 제10항", "법 제2호": the qualifier's law, never this document
            scope, base = qualified
        else:
            base = self._base(name, ref.start, key)
            if base is None and name in _RELATIVE and _quoted_wording(self.text, ref.start):
                ref.reason = "quoted wording"  # relative to the quoted provision, not to this one
                return
        if base is not None and name in _ELLIPTIC:
            # the elided parts come from the reference it continues: "제3조제1항 … 및 제2항" → 제3조제2항
            for k in _ELLIPTIC[name]:
                addr[k] = base.addr.get(k)
        if qualified is None:
            scope = self._scope(name, gd, ref, base, key)
        if scope.reason is not None:
            ref.reason = scope.reason
        elif scope.law is not None:
            ref.law, ref.clause, ref.reason = scope.law, _clause(addr, self.body_prefix), "other law"
            self.last_law[key] = scope.law
            self.last_law_any = scope.law
            if addr.get("art"):
                self.last_of_law[(key, scope.law)] = _Read(ref.end, holder, scope, dict(addr))
        else:
            block = self.idx.block_of(holder)
            # … not in another law's 부칙 (타법개정: its numbers are the amending act's), nor after the word "부칙" or in
            # a list that began with it ("부칙 제3조 및 제4조")
            # … nor "같은 조 제2항" after a reference into the 부칙 itself ("부칙 제2조제2항 … 같은 조 제2항")
            body_first = (block is not None and block.kind == "addenda" and other_law_of_addenda(block.label) is None
                          and not ADDENDA_WORD_BEFORE_RE.search(self.text, max(0, ref.start - 50), ref.start)
                          and not (self._connected(ref.start, key) is not None and self.last_in_block)
                          and not (base is not None and name in ("same_article", "same_para") and base.in_block))
            where = Where(holder, block, article, self.idx, self.body_prefix, body_first)
            target, ref.reason = self._here(name, addr, where)
            ref.target_path = target.path if target is not None else None
            self.last_in_block = target is not None and block is not None and target.path.startswith(block.path + "/")
        if name not in ("prev_article", "prev_para"):
            read = _Read(ref.end, holder, scope, addr, scope.law is None and scope.reason is None and self.last_in_block,
                         self._depth(key, ref.start), _quote_span(self.text, ref.start) is not None)
            self.last = read
            self.last_in.setdefault(key, []).append(read)

    def _qualified(self, name: str, gd: dict, start: int, key: int) -> tuple[Scope, _Read | None] | None:
        """A relative reference ("같은 조 제10항", a bare "제2호") written after a qualifier the patterns do not
        take ("법 같은 조 제10항"): (the qualifier's scope, the last reference into that law), or None when
        there is no such qualifier or it names this document."""
        if name not in _ELLIPTIC or gd.get("law"):
            return None
        m = QUALIFIER_BEFORE_RE.search(self.text, max(0, start - 12), start)
        if m is None:
            return None
        scope = self.laws.qualifier(m.group("q"), self.last_law_any)
        if scope.is_self:
            return None
        base = self.last_of_law.get((key, scope.law)) if scope.law is not None else None
        return scope, (base if name in ("same_article", "same_para") else None)

    def _quoted_provision(self, start: int, key: int) -> _Read | None:
        """When ``start`` is inside quoted wording of another law's provision: the reference naming that provision
        (the last one of the paragraph before the quotation opens, outside quotes), else None."""
        if not _quoted_wording(self.text, start):
            return None
        span = _quote_span(self.text, start)
        opened = span[0] if span is not None else start
        prior = next((r for r in reversed(self.last_in.get(key, [])) if r.end <= opened and not r.quoted), None)
        return prior if prior is not None and prior.scope.law is not None else None

    @staticmethod
    def _here(name: str, addr: dict, where: Where) -> Resolved:
        """Resolve inside this document, by the most complete address known."""
        if addr.get("app"):
            return _ko_appendix(addr, where)
        if addr.get("art"):
            return _ko_article(addr, where) if name != "body_explicit" else _ko_body_explicit(addr, where)
        if addr.get("para") and name in ("bare_item", "same_para"):
            return _ko_in_article(addr, where)
        rule = _KO_RULES.get(name)
        return rule(addr, where) if rule is not None else (None, "unknown reference form")

    def _depth(self, key: int, pos: int) -> int:
        """Parentheses open at ``pos`` since the start of the paragraph ``key`` names (0 at or below it)."""
        s = self.text[self.scope_start.get(key, pos): pos]
        return max(0, s.count("(") + s.count("（") - s.count(")") - s.count("）"))

    def _connected(self, start: int, key: int) -> _Read | None:
        """The reference whose list the one at ``start`` continues ("…제1항, 제2항", "…부터 …"), if any: the last one
        read, or — past an aside in parentheses that held references of its own ("「법인세법」 제75조의8(같은 조
        제1항제4호에 따른 …) 및 제75조의9") — the last one before the aside, at the depth ``start`` is at."""
        last = self.last
        if last is None or last.end > start:
            return None
        gap = self.text[last.end : start]
        depth = self._depth(key, start)
        # a list connector, or one past an aside without references ("제134조제1항제1호(경고ㆍ문책만 해당한다) 및 제3호")
        if _connects(gap) or _joins(gap) or (last.depth <= depth and _connects(gap, aside=True)):
            return last
        reads = self.last_in.get(key, [])
        if not reads or reads[-1] is not last or last.depth <= depth:
            return None
        prior = next((r for r in reversed(reads) if r.depth <= depth), None)
        if prior is None or prior.end > start:
            return None
        return prior if _connects(_ASIDE_RE.sub("", self.text[prior.end : start]), aside=True) else None

    def _base(self, name: str, start: int, key: int) -> _Read | None:
        """The reference this one continues or refers back to, if any."""
        if name in ("same_article", "same_para"):
            # the last reference of the paragraph, not one inside a parenthesis closed since ("제7조제1항에 따라
            # 신청자(부칙 제2조제2항에 따라 … 포함한다. 이하 같다)에게 … 같은 조 제2항": 제7조's, the aside skipped)
            # … and, written outside quotes, not one inside quoted wording ('「특허법」 제165조제1항 중 "…"은
            # "제92조제1항"으로, 같은 조 제3항 중 …': 특허법 제165조's ③)
            depth = self._depth(key, start)
            outside = _quote_span(self.text, start) is None
            prior = next((r for r in reversed(self.last_in.get(key, []))
                          if r.depth <= depth and not (outside and r.quoted)), None)
            need = "art" if name == "same_article" else "para"
            return prior if prior is not None and (prior.addr.get(need) or prior.addr.get("app")) else None
        if name == "same_table":
            # the table of the last reference of the paragraph that named one ("별표 3 제1호 … 및 같은 표 제3호")
            depth = self._depth(key, start)
            return next((r for r in reversed(self.last_in.get(key, [])) if r.depth <= depth and r.addr.get("app")),
                        None)
        last = self._connected(start, key) if name in _ELLIPTIC else None
        if last is None:
            return None
        if last.addr.get("app"):
            return last  # "별표 1 제4호부터 제6호까지"
        if name == "bare_para" and not last.addr.get("para") and not _joins(self.text[last.end : start]):
            return None  # "제3조 및 제2항" names this article's 제2항; "제3조제1항 및 제2항" names 제3조's
        if name == "bare_item" and not last.addr.get("item") \
                and not EACH_ITEM_ASIDE_GAP_RE.fullmatch(self.text, last.end, start) \
                and not (last.addr.get("para") and PARA_ITEM_ASIDE_GAP_RE.fullmatch(self.text, last.end, start)
                         and PARA_ITEM_ASIDE_REST_RE.match(self.text, start)):
            # "제3조제1항 및 제2호" names this paragraph's; "제3조제1항 각 호(제2호는 제외한다)" and "제3항(제8호는
            # 제외한다)" the 항's
            return None
        return last

    def _scope(self, name: str, gd: dict, ref: Ref, base: _Read | None, key: int) -> Scope:
        """This document, another law, or unknown: the qualifier written, else the list's or the referred-back
        reference's law, else this document."""
        if name == "other_law":
            inner = ref.text[ref.text.index("「") + 1 : ref.text.index("」")]
            return self.laws.named(inner)
        if gd.get("law"):
            return self.laws.qualifier(gd["law"], self.last_law.get(key) or self.last_law_any)
        if OTHER_ADDENDA_BEFORE_RE.search(self.text, max(0, ref.start - 80), ref.start):
            return Scope(reason="a 부칙 of another law")  # "…개정법률 부칙 제3조": not this text's 제3조
        if base is not None:
            return base.scope
        if name in ("article", "bare_para", "bare_item") and (prev := self._connected(ref.start, key)) is not None \
                and not prev.addr.get("app"):
            return prev.scope  # "법 제24조의2부터 제24조의12까지": the list's law
        if name == "article" and (quoted := self._quoted_provision(ref.start, key)) is not None:
            return quoted.scope  # '「특허법」 제139조제1항 중 "제133조제1항 … "은': 특허법's 제133조
        if name == "article" and (part := LAW_PART_BEFORE_RE.search(self.text, max(0, ref.start - 140), ref.start)):
            return self.laws.named(part.group("law"))  # "「형법」 제2편제25장 … 중 제257조"
        if name == "article" and (alias := PLAIN_NAME_ALIAS_BEFORE_RE.search(self.text, max(0, ref.start - 80),
                                                                             ref.start)):
            return self.laws.named(alias.group("name"))  # "낙농진흥법(이하 "법"이라 한다) 제4조제1항"
        return SELF


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


def _clause(addr: dict, body_prefix: str) -> str | None:
    """The full path of a clause in another law ("본문/제34조/제1항", "별표 1/제61호"), None for the whole law."""
    if addr.get("app"):
        label = app_label(addr["app"], addr.get("app_id"), "ko")
        inner = _ko_suffix(addr.get("art"), addr.get("sub"), addr.get("para"), _item(addr), addr.get("mok"))
        return f"{label}/{inner[0]}" if inner else label
    if not addr.get("art"):
        return None
    return f"{body_prefix}/{_ko_suffix(addr['art'], addr.get('sub'), addr.get('para'), _item(addr), addr.get('mok'))[0]}"


def _item(gd: dict[str, str | None]) -> str | None:
    """The 호 number of a match, with its branch number: "9" or "9의2" (제9호의2)."""
    item = gd.get("item")
    return f"{item}의{gd['itemsub']}" if item and gd.get("itemsub") else item


def _ko_appendix(gd: dict, w: Where) -> Resolved:
    label = app_label(gd["app"], gd.get("app_id"), "ko")
    app = w.idx.by_path.get(label) or fuzzy_block(w.idx.root, label)
    # "이 부록" / "부록" written inside an appendix means that appendix
    if (app is None and not gd.get("app_id") and w.block is not None and w.block.kind == "appendix"
            and w.block.label.startswith(gd["app"])):
        app = w.block
    if app is None:
        return None, f"no {label} in this document"
    hit = first_under(app, w.idx, _ko_suffix(gd.get("art"), gd.get("sub"), gd.get("para"), _item(gd), None))
    return (hit if hit is not None else app), None


def _ko_body_explicit(gd: dict, w: Where) -> Resolved:
    for suf in _ko_suffix(gd["art"], gd.get("sub"), gd.get("para"), _item(gd), gd.get("mok")):
        hit = w.idx.by_path.get(f"{w.body_prefix}/{suf}")
        if hit is not None:
            return hit, None
    return None, "no such clause in the body"


def _ko_article(gd: dict, w: Where) -> Resolved:
    """"제5조제2항" (this document's: the reader has decided the scope): the block's, else the body's — in a 부칙
    (``Where.body_first``) the body's at any precision first ("제3조제3항" of a 본칙 제3조 that has lost its ③ is
    still the 본칙's 제3조, not the 부칙's own ③)."""
    suffixes = _ko_suffix(gd["art"], gd.get("sub"), gd.get("para"), _item(gd), gd.get("mok"))
    if w.body_first:
        for suf in suffixes:
            hit = w.idx.find_label(None, suf, w.body_prefix)
            if hit is not None:
                return hit, None
    for suf in suffixes:
        hit = w.idx.find_label(w.block, suf, w.body_prefix)
        if hit is not None:
            return hit, None
    return None, "no such clause in this document"


def _ko_in_article(gd: dict, w: Where) -> Resolved:
    """"같은 조 제2항", a bare "제2항": a paragraph of the article it is written in. Terms of service often
    number an article's paragraphs "1." "2." (read as 호): there "제2항" is the article's second one."""
    if w.article is None:
        return None, "no enclosing article"
    hit = first_under(w.article, w.idx, _ko_suffix(None, None, gd.get("para"), _item(gd), gd.get("mok")))
    if hit is None and gd.get("para") and _items_as_paragraphs(w.article):
        hit = first_under(w.article, w.idx, _ko_suffix(None, None, None, gd["para"], None))
    return (hit, None) if hit is not None else (None, f"no such paragraph in {w.article.label}")


def _ko_in_paragraph(gd: dict, w: Where) -> Resolved:
    """"같은 항 제2호", a bare "제2호": an item of the paragraph (or article) it is written in."""
    para = w.idx.paragraph_of(w.holder) or w.article
    if para is None:
        return None, "no enclosing clause"
    hit = first_under(para, w.idx, _ko_suffix(None, None, None, _item(gd), gd.get("mok")))
    return (hit, None) if hit is not None else (None, f"no such item in {para.label}")


def _ko_prev_article(gd: dict, w: Where) -> Resolved:
    if w.article is None:
        return None, "no enclosing article"
    prev = previous_sibling(w.article, w.idx)
    if prev is None:
        return None, "no previous article"
    if gd.get("para"):
        hit = w.idx.find_under(prev, f"제{int(gd['para'])}항")
        if hit is not None:
            return hit, None
    return prev, None


def _ko_prev_para(gd: dict, w: Where) -> Resolved:
    """"전항": the paragraph before the one it is written in (an item, where items serve as paragraphs)."""
    para = w.idx.paragraph_of(w.holder)
    if para is None and w.article is not None and _items_as_paragraphs(w.article):
        para = next((x for x in [w.holder, *w.idx.ancestors(w.holder)] if w.idx.parent.get(id(x)) is w.article),
                    None)
    if para is None:
        return None, "no enclosing paragraph"
    prev = previous_sibling(para, w.idx)
    return (prev, None) if prev is not None else (None, "no previous paragraph")


def _items_as_paragraphs(article: Node) -> bool:
    """An article numbered "1." "2." directly below it, without any ① paragraph."""
    kinds = {c.kind for c in article.children}
    return "item" in kinds and "paragraph" not in kinds


_KO_RULES: dict[str, Callable[[dict, Where], Resolved]] = {
    "appendix": _ko_appendix,
    "body_explicit": _ko_body_explicit,
    "article": _ko_article,
    "same_article": _ko_in_article,
    "bare_para": _ko_in_article,
    "same_para": _ko_in_paragraph,
    "bare_item": _ko_in_paragraph,
    "prev_article": _ko_prev_article,
    "prev_para": _ko_prev_para,
    "same_table": lambda gd, w: (None, "no table named before"),
}


def former_text_refs(refs: list[Ref], text: str) -> set[int]:
    """ids of the references to the former text: one right after "종전의", the references listed with it
    ("종전의 제41조제1항 또는 제6항", "종전의 제16조제3항, 제30조의2제3항 및 제43조제11항") and "같은 조 …" right after
    one ("종전의 제41조제2항에 따라 … 같은 조 제1항에 따라")."""
    out: set[int] = set()
    prev: Ref | None = None
    for r in sorted((r for r in refs if r.end > r.start), key=lambda r: r.start):
        after = prev is not None and id(prev) in out
        listed = after and (REF_CONNECTOR_RE.fullmatch(text[prev.end:r.start]) or SAME_UNIT_RE.match(text, r.start))
        if listed or FORMER_TEXT_BEFORE_RE.search(text, max(0, r.start - 8), r.start):
            out.add(id(r))
        prev = r
    return out
