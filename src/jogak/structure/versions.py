"""A text's place in time, read from the text: when it takes effect, which clauses start later, the
amendment notes on each clause, and the transitional provisions (경과조치, 적용례) linked to the rules they
modify.

    root.attrs["version"]           {"effective_from", "effective_source", "promulgated"} — the text's start:
                                    front matter 시행일자, else the 부칙 "이 법은 …부터 시행한다" resolved against
                                    공포일자 (front matter or the 부칙's own header "<제17470호,2020.7.31>")
    article.attrs["effective_from"] a later start of its own ("다만, 제24조제2항은 공포 후 1년이 …")
    article.attrs["effective_to"]   the last day its wording has effect (유효기간: "제5조의2의 개정규정은
                                    2027년 12월 31일까지 효력을 가진다"; the whole text: every body node)
    node.attrs["amendments"]        "<개정 2023.3.14>" notes of the node's own text: ["개정 2023-03-14"]
    article.attrs["transitional"]   the 부칙 clauses that say how the change applies, most recent first
    addenda.attrs["transitional_for"] the body articles such a clause modifies

A 부칙 clause names the rule it modifies ("제6조의3 및 제7조의 개정규정은 …"); one that names none ("이 정책
시행 전에 적립된 포인트의 유효기간은 종전 정책에 따라 …") is linked to the body article whose title shares the
most words with it, when one clearly does.
"""

from __future__ import annotations

import re
from datetime import date

from jogak.grammar.effective import (
    ACT_NUMBER_RE,
    ADDENDA_DATE_RE,
    AMENDING_ACT_BEFORE_RE,
    AMENDING_ACT_NAME_RE,
    AMENDING_ACT_RE,
    APPENDIX_TOPIC_RE,
    SAME_UNIT_RE,
    START_TITLE_RE,
    TOPIC_AFTER_RE,
    TOPIC_WORD_RE,
    WHOLE_LAW_TITLE_RE,
    LaterStart,
    Sunset,
    amendment_notes,
    is_transitional,
    later_starts,
    main_start,
    other_law_of_addenda,
    parse_date,
    sunsets,
)
from jogak.grammar.laws import (
    EFFECTIVE_KEY,
    LAW_NAME_WORD_RE,
    PROMULGATED_KEY,
    REF_CONNECTOR_RE,
    name_key,
    title_kind,
)
from jogak.load.identity import law_identity
from jogak.model import Document, Node, Ref
from jogak.structure.korefs import former_text_refs

# The document metadata key ``jogak ingest --effective YYYY-MM-DD`` sets: the start of a text that says none.
EFFECTIVE_AT_INGEST = "effective_at_ingest"
# A title word must be this long to link a 부칙 clause by wording (one-syllable words are too common).
_MIN_WORD = 2
# an article segment inside a 부칙's path ("부칙 <제16249호,2019.1.15>/제2조/제1항" → "제2조")
_ADDENDA_ARTICLE_RE = re.compile(r"(?:^|/)제\d+조(?:의\d+)?(?:/|$)")
_PARTICLES = re.compile(r"(?:과|와|의|및|등|에|은|는|을|를)$")


def annotate_versions(root: Node, doc: Document, warnings: list[str]) -> None:
    """Set the version attributes described in the module docstring on ``root`` and its nodes."""
    _amendments(root, doc.text)
    addenda = [n for n in root.walk() if n.kind == "addenda" and n.block_type == "addenda"]
    promulgated = parse_date(str(doc.metadata.get(PROMULGATED_KEY) or ""))
    own = _own_addenda(addenda, doc.text, promulgated)
    if promulgated is None and own is not None:
        promulgated = parse_date(_header_date(own, doc.text) or "")
    version: dict[str, str] = {}
    front = parse_date(str(doc.metadata.get(EFFECTIVE_KEY) or ""))
    text = doc.text[own.char_start: own.char_end] if own is not None else ""
    # its own 부칙 counts "공포 후 …" from its own header date (the text's may be a later, 타법 amendment's)
    own_date = (parse_date(_header_date(own, doc.text) or "") if own is not None else None) or promulgated
    from_addenda = main_start(text, own_date) if text else None
    given = parse_date(str(doc.metadata.get(EFFECTIVE_AT_INGEST) or ""))
    start = front or from_addenda or given
    if start is not None:
        version["effective_from"] = start.isoformat()
        version["effective_source"] = "시행일자" if front else "부칙" if from_addenda else "--effective"
    if given is not None and start != given:
        warnings.append(f"--effective {given.isoformat()} ignored: the text says it takes effect on {start}")
    if promulgated is not None:
        version["promulgated"] = promulgated.isoformat()
    if version:
        root.attrs["version"] = version
    own_listed: dict[tuple[int, date], date] = {}
    if own is not None and text and not _other_law(own, doc.text):
        own_listed = _later_starts({_number_key(n): n for n in _body_articles(root) if n.number}, text, own_date, start)
    if start is not None:
        _pending(root, addenda, doc.text, start, own, own_listed)
    _sunsets(root, addenda, doc.text, start, own)
    # a law by its front matter, or by its title when loaded from a file without it (a statute's PDF or HWP)
    ident = law_identity(doc.metadata)
    is_law = ident is not None or title_kind(doc.doc_title or "") != "other"
    _link_transitional(root, addenda, doc.text, is_law, name_key(ident.title if ident else doc.doc_title or ""))


def _own_text(n: Node, text: str) -> str:
    end = n.children[0].char_start if n.children else n.char_end
    return text[n.body_start if n.body_start is not None else n.char_start: end]


def _amendments(root: Node, text: str) -> None:
    for n in root.walk():
        if n.kind == "document":
            continue
        notes = amendment_notes(text[n.char_start: n.body_start or n.char_start] + " " + _own_text(n, text))
        if notes:
            n.attrs["amendments"] = notes


def _header(n: Node, text: str) -> str:
    return text[n.char_start: n.body_start or n.char_end] or n.label


def _header_date(n: Node, text: str) -> str | None:
    m = ADDENDA_DATE_RE.search(_header(n, text))
    return m.group("date") if m else None


def _other_law(n: Node, text: str) -> bool:
    """A 부칙 of another law's amendment (타법개정): its article numbers are that law's."""
    return other_law_of_addenda(_header(n, text)) is not None


def _blocks(addenda: list[Node], text: str) -> list[Node]:
    """One 부칙 per amendment: the dated blocks ("부칙 <제17470호,2020.7.31>", under a "## 부칙" parent in a
    consolidated statute), else the outermost 부칙 nodes (a policy's single 부칙)."""
    dated = [n for n in addenda if _header_date(n, text)]
    return dated or [n for n in addenda
                     if not any(n is not c and c.kind == "addenda" and _inside(n, c) for c in addenda)]


def _own_addenda(addenda: list[Node], text: str, promulgated: date | None) -> Node | None:
    """The 부칙 of this version's own amendment: the one whose header date is the promulgation date, else
    the last one (a 부칙 is appended with each amendment)."""
    top = _blocks(addenda, text)
    if promulgated is not None:
        for n in reversed(top):
            if parse_date(_header_date(n, text) or "") == promulgated:
                return n
    return top[-1] if top else None


def _inside(n: Node, outer: Node) -> bool:
    return outer.char_start <= n.char_start and n.char_end <= outer.char_end


def _body_articles(root: Node) -> list[Node]:
    return [n for n in root.walk() if n.kind == "article" and n.block_type == "body"]


def _later_starts(by_number: dict[str, Node], text: str, promulgated: date | None,
                  start: date | None) -> dict[tuple[int, date], date]:
    """Date the articles a 부칙 starts apart from its main start; returns the start set per (node id, 부칙 date)."""
    listed: dict[tuple[int, date], date] = {}
    day = promulgated.isoformat() if promulgated is not None else None
    for later in later_starts(text, promulgated):
        if start is not None and later.start <= start:
            continue
        for art in _with_ranges(later, by_number):
            node = by_number.get(art)
            if node is None:
                continue
            # a 부칙 naming some 항 of the article ("제24조제2항은 …") dates those 항, not the article; else the
            # article, and its 항 and 호 that this amendment changed (a note of its date)
            tops = _named_nodes(later, art, node)
            named = {id(t) for t in tops}
            for n in (x for t in tops for x in t.walk()):
                if id(n) in named or (day and any(a.endswith(day) for a in n.attrs.get("amendments") or ())):
                    n.attrs["effective_from"] = max([later.start, *_iso(n.attrs.get("effective_from"))]).isoformat()
                    if promulgated is not None:
                        listed[(id(n), promulgated)] = later.start
    return listed


def _with_ranges(later: LaterStart | Sunset, by_number: dict[str, Node]) -> list[str]:
    """The articles a later start names, with those between the ends of its ranges, in the text's order."""
    out = list(later.articles)
    order = list(by_number)  # body articles in document order
    for first, last in later.ranges:
        if first in by_number and last in by_number:
            i, j = order.index(first), order.index(last)
            out.extend(a for a in order[i : j + 1] if a not in out)
    return out


def _named_nodes(named: LaterStart | Sunset, art: str, node: Node) -> list[Node]:
    """The nodes a reference to ``art`` names: the 호 it lists ("제4항제2호의2"), the 항 it lists, else the article."""
    items = {p: set(v) for a, p, v in named.items if a == art}
    if 0 in items:  # 호 right under the article
        return [c for c in node.children if c.kind == "item" and c.number in items[0]] or [node]
    paras = set(dict(named.paragraphs).get(art, ()))
    tops: list[Node] = []
    for c in node.children:
        if c.kind != "paragraph" or not c.number or c.number[0] not in paras:
            continue
        subs = items.get(c.number[0])
        # a 항 whose named 호 are not found is dated whole rather than not at all
        tops.extend([i for i in c.children if i.kind == "item" and i.number in subs] if subs else [])
        if not subs or not any(i.kind == "item" and i.number in subs for i in c.children):
            tops.append(c)
    return tops or [node]


def _sunsets(root: Node, addenda: list[Node], text: str, start: date | None, own: Node | None) -> None:
    """Date the end of the wording a 부칙's 유효기간 clause limits. A consolidated statute keeps every earlier
    부칙: a clause whose wording a later amendment rewrote (an amendment note after that 부칙's date) is not
    the wording the old sunset limited, so it keeps no end."""
    by_number = {_number_key(n): n for n in _body_articles(root) if n.number}
    whole: date | None = None
    for block in _blocks(addenda, text):
        if _other_law(block, text):
            continue
        day = parse_date(_header_date(block, text) or "")
        body = text[block.char_start: block.char_end]
        for sun in sunsets(body, main_start(body, day) or (start if block is own else None)):
            if sun.whole:
                whole = sun.end  # the blocks come in order: the latest 부칙 that says so
                continue
            for art in _with_ranges(sun, by_number):
                node = by_number.get(art)
                # a period re-set by later amendments ("<개정 2016.12.27, 2023.12.31>" on the 유효기간 clause) limits
                # the wording as it stood at the last of them
                since = max((d for d in (day, sun.reset) if d is not None), default=None)
                for n in _named_nodes(sun, art, node) if node is not None else ():
                    if n.attrs.get("deleted") or (since is not None and _amended_after(n, since)):
                        continue  # deleted since, or rewritten after that 부칙 (or the period's last re-setting)
                    # a later 부칙 re-sets the period (the blocks come in order): its end replaces an earlier one
                    n.attrs["effective_to"] = sun.end.isoformat()
    if whole is not None:
        for n in root.children:
            if n.block_type == "body":
                n.attrs["effective_to"] = min([whole, *_iso(n.attrs.get("effective_to"))]).isoformat()


def _amended_after(n: Node, day: date) -> bool:
    return any(d is not None and d > day for x in n.walk() for a in x.attrs.get("amendments") or ()
               for d in [parse_date(a)])


def _pending(root: Node, addenda: list[Node], text: str, start: date, own: Node | None,
             own_listed: dict[tuple[int, date], date] | None = None) -> None:
    """Amendments promulgated before this text but taking effect after it: a consolidated text (law.go.kr's)
    already holds their wording — 주택임대차보호법 of 2020-07-31 has 제6조 "<개정 2020.6.9>", which takes effect
    on 2020-12-10 — so the clauses they amended carry that later start (their 부칙's 시행일 clause, resolved
    against the 부칙's own promulgation date)."""
    tops = _blocks(addenda, text)
    starts: dict[date, date] = {}
    listed: dict[tuple[int, date], date] = dict(own_listed or {})
    # built once: a consolidated statute has hundreds of 부칙 and each used to walk the whole tree for it
    by_number = {_number_key(n): n for n in _body_articles(root) if n.number}
    for n in tops:
        p = parse_date(_header_date(n, text) or "")
        body = text[n.char_start: n.char_end]
        s = main_start(body, p) if p is not None else None
        if p is None or s is None:
            continue
        if s > start:
            starts[p] = s
        if n is not own and not _other_law(n, text):
            # a clause this 부칙 starts apart (earlier or later than its main start) takes that start for its note
            listed.update(_later_starts(by_number, body, p, start))
    if not starts:
        return
    for n in root.walk():
        if n.block_type != "body":
            continue
        later = [listed.get((id(n), d), starts[d])
                 for d in (parse_date(x) for x in n.attrs.get("amendments") or ()) if d in starts]
        if later:
            n.attrs["effective_from"] = max([*later, *_iso(n.attrs.get("effective_from"))]).isoformat()


def _iso(v: object) -> list[date]:
    d = parse_date(str(v or ""))
    return [d] if d is not None else []


def _number_key(n: Node) -> str:
    num = n.number or ()
    return f"{num[0]}의{num[1]}" if len(num) > 1 and num[1] else str(num[0]) if num else ""


def _link_transitional(root: Node, addenda: list[Node], text: str, is_law: bool, own: str) -> None:
    articles = _body_articles(root)
    if not articles:
        return
    by_path = {n.path: n for n in root.walk()}
    # another law's 부칙 (타법개정) speaks of that law's articles: none of its clauses is linked here
    units: list[Node] = []
    for a in addenda:
        if _other_law(a, text):
            continue
        clauses = [c for c in a.children if c.kind != "addenda"]
        # a policy's one-paragraph 부칙 ("이 약관은 …부터 시행한다. 다만, 제25조제2항은 … 시행 전에 적립한 포인트는
        # …") is its own clause; a statute's such block is only its 시행일 (its 경과조치 are numbered articles)
        if not clauses and not is_law and not any(c.kind == "addenda" for c in a.children):
            clauses = [a]
        units += clauses
    for unit in reversed(units):  # most recent 부칙 first
        body = text[unit.char_start: unit.char_end]
        if not is_transitional(unit.title, body):
            continue
        targets = _targets(unit, articles, by_path, text, own)
        # by wording only in a text that is no law: a statute's 부칙 names the articles it modifies (one naming
        # none is about the whole law, or about another law's), a company's policy often does not
        # (a one-paragraph 부칙 only by the articles it names: it speaks of the whole text as much as of one rule)
        if not targets and not is_law and unit.kind != "addenda" and not WHOLE_LAW_TITLE_RE.search(unit.title or ""):
            targets = _by_wording(body, articles)
        if not targets:
            continue
        unit.attrs["transitional_for"] = [t.path for t in targets]
        for t in targets:
            t.attrs.setdefault("transitional", []).append(unit.path)


def _article_of(path: str, articles: list[Node]) -> Node | None:
    return next((a for a in articles if path == a.path or path.startswith(a.path + "/")), None)


def _targets(unit: Node, articles: list[Node], by_path: dict[str, Node], text: str, own: str) -> list[Node]:
    """Body articles the clause's references reach (a reference to another clause of the same 부칙 —
    "제1항에도 불구하고", "부칙 제2조에 따른 신청" — is followed one step, to another 부칙 article only when the
    clause names no body article itself); not the former text's ("종전의 제9조") nor an amending Act's
    named by number right before it ("법률 제7908호 …일부개정법률에 따른 제4조"); when a paragraph has a topic ("제26조의9의
    개정규정은 …"), only its topic, not the articles it mentions on the way."""
    out: list[Node] = []
    names_body = any(r.target_path and (b := by_path.get(r.target_path)) is not None and b.block_type == "body"
                     for n in unit.walk() for r in n.refs)
    for n in unit.walk():
        former = former_text_refs(n.refs, text)
        for r in _topic(n.refs, text, own, (n.char_start, n.char_end)):
            # "법률 제20900호 마을장터법 일부개정법률 제15조제1항": the patterns read "일부개정법률" as another law's name,
            # but an Act amending this law by its present name names this law's clause (``_amending`` keeps it)
            target = r.target_path or (r.clause if (r.law or "").replace(" ", "").endswith("개정법률") else None)
            if not target or id(r) in former:
                continue
            paths = [target]
            inner = by_path.get(r.target_path)
            if inner is not None and inner.block_type == "addenda":
                # "부칙 제1조 단서에 따른 시행일": a 시행일 article says when, not what this clause is about; the clause
                # itself ("[시행일 : 2017.12.30] 제5조") says nothing more
                if _start_article(inner, by_path) or _inside(inner, unit):
                    continue
                # another 부칙 article named beside this clause's own articles ("부칙 제2조에 따라 … 신청하여 … 제10조
                # 제1항에도 불구하고") says how a case arose, not what this clause modifies: its links are not inherited
                if names_body and _ADDENDA_ARTICLE_RE.search(inner.path.split("/", 1)[-1]):
                    continue
                paths = [r2.target_path for m in inner.walk() for r2 in m.refs if r2.target_path]
            for p in paths:
                art = _article_of(p, articles)
                if art is not None and art not in out:
                    out.append(art)
    return out


def _start_article(node: Node, by_path: dict[str, Node]) -> bool:
    """Is ``node`` a 시행일 article of a 부칙, or a part of one?"""
    while node is not None and node.kind not in ("article", "addenda"):
        node = by_path.get(node.path.rsplit("/", 1)[0]) if "/" in node.path else None
    return node is not None and node.kind == "article" and bool(START_TITLE_RE.match(node.title or ""))


def _amending(r: Ref, text: str, own: str = "") -> bool:
    """A reference into an amending Act named by its number ("법률 제7908호 기부금품모집규제법 일부개정법률에 따른
    제4조" — the patterns may take "일부개정법률" as the law's name) of another law or of this one under a former
    name. An Act amending this law by its present name ("법률 제19685호 자동차관리법 일부개정법률 제31조") names this
    law's articles."""
    law, start = (r.law or "").replace(" ", ""), r.start
    if not (law.endswith("개정법률") or AMENDING_ACT_BEFORE_RE.search(text, max(0, start - 80), start)):
        return False
    acts = list(AMENDING_ACT_NAME_RE.finditer(text[max(0, start - 80): start]))
    return not (own and acts and name_key(acts[-1].group("name")) == own)


def _topic(refs: list[Ref], text: str, own: str = "", span: tuple[int, int] | None = None) -> list[Ref]:
    """The references a paragraph is about: a run of references ("제3조제1항 및 제5조") followed by "…의 개정규정은"
    / "…은" / "…의 개정규정 중", when the paragraph has one; none when it is about an appendix's amendment ("별표 6의
    개정규정에도 불구하고"); else all of them. Never an amending Act's articles
    (a run that follows "법률 제7908호 …일부개정법률에 따른" stays that Act's)."""
    refs = sorted((r for r in refs if r.end > r.start), key=lambda r: r.start)
    runs: list[list[Ref]] = []
    amending: set[int] = set()
    for r in refs:
        # a list goes on past an amending Act's name ("제67조제1항제2호 및 제71조제2항, 법률 제18171호 … 일부개정법률
        # 제34조의24의 개정규정은"): the whole list is the topic
        gap = SAME_UNIT_RE.sub(" ", AMENDING_ACT_RE.sub(" ", text[runs[-1][-1].end:r.start])) if runs else ""
        act = ACT_NUMBER_RE.search(gap)
        if act is not None and _amending(r, text, own):  # "…, 법률 제18171호 … 법률 [일부개정법률 제34조의24]" (the law in the ref)
            gap = gap[:act.start()]
        if runs and REF_CONNECTOR_RE.fullmatch(gap):
            if id(runs[-1][-1]) in amending and not AMENDING_ACT_RE.search(text, runs[-1][-1].end, r.start):
                amending.add(id(r))
            runs[-1].append(r)
        else:
            runs.append([r])
        if _amending(r, text, own):
            amending.add(id(r))
    topical = [r for run in runs if TOPIC_AFTER_RE.match(text, run[-1].end) for r in run]
    # "제57조제4항의 개정규정에 따라 준용되는 「독점규제법」 제55조의5제1항은 …": another law's article read through this
    # law's clause is the topic — the clause it is read through is what the 부칙 is about
    if topical and all(r.law and not r.law.replace(" ", "").endswith("개정법률") for r in topical):
        topical = []
    appendix = None if topical or span is None else APPENDIX_TOPIC_RE.search(text, *span)
    if appendix is not None:
        # about an appendix's amendment: only articles listed with it ("제5조 및 별표 6의 개정규정에도 불구하고")
        # are its topic; one named before ("제5조제1호에 따른 … 사람에 대한") only says whom it concerns
        topical = [r for run in runs if REF_CONNECTOR_RE.fullmatch(text[run[-1].end:appendix.start()]) for r in run]
        return [r for r in topical if id(r) not in amending]
    return [r for r in (topical or refs) if id(r) not in amending]


def _words(title: str) -> list[str]:
    return [w for w in (_PARTICLES.sub("", x) for x in re.findall(r"[가-힣]+", title)) if len(w) >= _MIN_WORD]


def _begins_word(word: str, body: str, starts: set[int]) -> bool:
    return any(m.start() in starts for m in re.finditer(re.escape(word), body))


def _by_wording(body: str, articles: list[Node]) -> list[Node]:
    """The one article whose title words the clause uses most (by characters), when it clearly leads. Words
    inside a law's name do not count ("문화예술진흥법중개정법률" says nothing of 제13조 "학교 등의 문화예술 진흥")."""
    body = LAW_NAME_WORD_RE.sub(" ", body)
    # a title word counts where a word of the clause begins with it ("이용" in "이용권", never "제한" in "결제한")
    starts = {m.start() for m in re.finditer(r"(?<![가-힣])[가-힣]", body)}
    scored = sorted(((sum(len(w) for w in _words(a.title) if _begins_word(w, body, starts)), i)
                     for i, a in enumerate(articles)), reverse=True)
    if not scored or scored[0][0] < 3 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return []
    best = articles[scored[0][1]]
    # what the clause speaks of ("…등록한 이용자의 월 이용료는 … 종전의 금액에 따른다": 이용료) names another
    # article's title and not this one's: the title words counted are incidental ("등록", "이용") — no link
    topics = {m.group(1) for m in TOPIC_WORD_RE.finditer(body)}
    if topics and not topics & set(_words(best.title)) and any(
            topics & set(_words(a.title)) for a in articles if a is not best):
        return []
    return [best]
