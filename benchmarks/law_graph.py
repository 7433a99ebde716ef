"""The legal graph over every Korean statute, decree and rule: parser robustness and reference resolution.

    .venv/bin/python benchmarks/law_graph.py                       # korean_law_all.tar.xz (5,674 files)
    .venv/bin/python benchmarks/law_graph.py --sets                # korean_law_sets only (two families)
    .venv/bin/python benchmarks/law_graph.py --step 10 --json      # every 10th file, one JSON document

Each file is loaded, parsed and chunked (structure strategy); then every reference into another law is
resolved against the whole collection (``jogak.structure.family``), as a store does. The table:

- files, parser crashes, lost characters (non-space characters of the text no structure chunk covers),
  articles, "제N장의M"/"제N절의M" headings and how many are nodes;
- references: resolved in the document / into another document of the collection / to a law not in the
  collection / not links (amendment wording, 생략) / unresolved by reason;
- family: "법 제N조" (in a decree or rule) and "영 제N조" (in a rule) — how many reach the family member when
  it is in the collection;
- wrong document, by an independent check that reads the text around each reference, not the resolver:
  a reference qualified by "법"/"영"/"시행령"/"「other law」" resolved inside its own document, a reference in a
  부칙's amendment wording ("… 일부를 다음과 같이 개정한다") resolved inside the document, a family reference whose
  target is not the family member it names, or a reference into a document of another name.

The archive is unpacked once into the corpus cache (``jogak.eval.corpus``), never into the repository.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from jogak.chunk import doc_id_for, get_chunker  # noqa: E402
from jogak.grammar.laws import name_key, split_instrument  # noqa: E402
from jogak.load import load  # noqa: E402
from jogak.load.identity import law_identity  # noqa: E402
from jogak.structure import parse  # noqa: E402
from jogak.structure.family import LawIndex, Member  # noqa: E402

CORPORA = ROOT.parent / "shared" / "corpora"
# A division heading with a branch number, as written at a line start: "## 제3장의2 …", "제9절의2 …"
BRANCH_DIVISION = re.compile(r"^(?:#+\s*)?제\s*\d+\s*[편장절관]\s*의\s*\d+(?=\s|$)", re.MULTILINE)
# Independent reading of a reference's qualifier: the text just before it, or its own start.
QUALIFIER = re.compile(r"(?:^|[^가-힣])(?P<q>법|영|시행령|시행규칙)\s*$")
# "같은 법 제3조", "이 법 제3조": the law named last, this document — not the family member "법" names
SAME_OR_THIS = re.compile(r"(?:^|[^가-힣])(?:같은|이)\s*$")
APPENDIX_REASON = re.compile(r"no (별표|별지|서식|첨부|부록|별첨)")
BRACKETED = re.compile(r"^「(?P<name>[^」]+)」")
AMENDING = re.compile(r"다음과\s*같이\s*개정한다")
# "「상호저축은행법」(이하 "법"이라 한다)": a short name the text defines (read here, not from the parser)
ALIAS_RE = re.compile(r"「(?P<name>[^」]{1,80})」\s*\(\s*이하\s*[\"“'‘]?(?P<short>[^\"”'’)]{1,20}?)[\"”'’]?"
                      r"\s*(?:이?라|라고)\s*한다\s*\)")


@dataclass
class Tally:
    files: int = 0
    crashes: list[str] = field(default_factory=list)
    lost_chars: int = 0
    lost_files: list[str] = field(default_factory=list)
    articles: int = 0
    branch_headings: int = 0
    branch_nodes: int = 0
    refs: Counter = field(default_factory=Counter)
    unresolved: Counter = field(default_factory=Counter)
    family_total: int = 0
    family_resolved: int = 0
    family_misses: Counter = field(default_factory=Counter)
    wrong: list[str] = field(default_factory=list)
    wrong_kinds: Counter = field(default_factory=Counter)
    seconds: float = 0.0


@dataclass
class Parsed:
    doc_id: str
    title: str
    rank: str | None
    act: str | None
    paths: set[str]
    refs: list[dict[str, Any]]  # {text, before, law, clause, target_path, reason, in_amendment}
    aliases: dict[str, str]  # short names the text defines: "법" → "상호저축은행법"
    effective: str | None = None  # 시행일자, to choose among versions of one law as a store does
    promulgated: str | None = None


def files_of(args: argparse.Namespace) -> list[Path]:
    if args.dir:
        return sorted(Path(args.dir).rglob("*.md"))
    if args.sets:
        return sorted((CORPORA / "korean_law_sets").rglob("*.md"))
    from jogak.eval.corpus import archive_member

    kr = archive_member(CORPORA / "korean_law_all.tar.xz" / "kr")
    if kr is None:
        sys.exit(f"no archive at {CORPORA / 'korean_law_all.tar.xz'}")
    return sorted(kr.rglob("*.md"))


def lost_characters(text: str, spans: list[tuple[int, int]]) -> int:
    """Non-space characters of ``text`` outside every span."""
    lost, pos = 0, 0
    for s, e in sorted(spans):
        if s > pos:
            lost += len("".join(text[pos:s].split()))
        pos = max(pos, e)
    return lost + len("".join(text[pos:].split()))


def parse_one(path: Path, chunker: Any, t: Tally) -> Parsed | None:
    try:
        doc = load(path)
        tree = parse(doc)
        chunks = list(chunker.chunk_document(doc, tree=tree))
    except Exception as e:  # a crash is what this run counts
        t.crashes.append(f"{path}: {type(e).__name__}: {e}")
        return None
    t.files += 1
    text = doc.text
    # headings are carried by breadcrumbs, not chunk text: a heading's label and title (and the document's
    # title line) are not lost; everything else must be in a chunk
    spans = [(c.metadata.char_start, c.metadata.char_end) for c in chunks]
    spans += [(n.char_start, n.body_start) for n in tree.root.walk() if n.body_start and n.kind != "document"]
    first = text.split("\n", 1)[0]
    if first.strip() and name_key(first.lstrip("# ")) == name_key(doc.doc_title):
        spans.append((0, len(first)))
    lost = lost_characters(text, spans)
    if lost:
        t.lost_chars += lost
        t.lost_files.append(f"{path} ({lost})")
    nodes = list(tree.root.walk())
    t.articles += sum(1 for n in nodes if n.kind == "article" and n.block_type == "body")
    heads = {" ".join(m.group(0).lstrip("#").split()).replace(" ", "") for m in BRANCH_DIVISION.finditer(text)}
    t.branch_headings += len(heads)
    labels = {n.label.replace(" ", "") for n in nodes if n.kind == "chapter"}
    t.branch_nodes += len(heads & labels)
    ident = law_identity(doc.metadata)
    act, rank = split_instrument(ident.title) if ident else (None, None)
    if rank == "act" and ident is not None and ident.rank != "act":
        act = None  # a 규칙/규정 not named "… 시행령/시행규칙": "법" names no family Act
    # the first definition counts: the body defines "법" before any 부칙 quotes an older act's definition
    aliases: dict[str, str] = {}
    for m in ALIAS_RE.finditer(text):
        aliases.setdefault("".join(m.group("short").split()), m.group("name"))
    refs = []
    for n in nodes:
        own_start = n.body_start if n.body_start is not None else n.char_start
        for r in n.refs:
            before = text[max(0, r.start - 12) : r.start]
            amending = n.block_type == "addenda" and bool(AMENDING.search(text[own_start : r.start]))
            refs.append({"text": r.text, "before": before, "law": getattr(r, "law", None),
                         "clause": getattr(r, "clause", None),
                         "target_path": r.target_path, "reason": r.reason, "in_amendment": amending})
    return Parsed(doc_id_for(doc), doc.doc_title, ident.rank if ident else rank, act,
                  {n.path for n in nodes if n.path}, refs, aliases,
                  ident.effective if ident else None, ident.promulgated if ident else None)


def qualifier_of(ref: dict[str, Any]) -> str | None:
    """The qualifier in front of a reference, read from the text ("법", "영", "시행령", "「민법」")."""
    m = QUALIFIER.search(ref["before"])
    if m and not SAME_OR_THIS.search(ref["before"][: m.start("q")]):
        return m.group("q")
    m = re.match(r"(?P<q>법|영|시행령|시행규칙)\s*제", ref["text"])
    if m:
        return m.group("q")
    b = BRACKETED.match(ref["text"])
    return f"「{b.group('name')}」" if b else None


def expected_family(doc: Parsed, q: str) -> str | None:
    """The family member a qualifier names in this document ("법" in a decree → its Act, or the law the text
    defines as "법"), or None."""
    if q in doc.aliases:
        return doc.aliases[q] if name_key(doc.aliases[q]) != name_key(doc.title) else None
    if doc.act is None:
        return None
    want = {"법": "act", "영": "decree", "시행령": "decree", "시행규칙": "rule"}.get(q)
    if want is None or want == doc.rank:
        return None
    return {"act": doc.act, "decree": f"{doc.act} 시행령", "rule": f"{doc.act} 시행규칙"}[want]


def audit(docs: list[Parsed], t: Tally) -> None:
    titles = {d.doc_id: d.title for d in docs}
    index = LawIndex([Member(d.doc_id, d.title, d.effective, d.promulgated) for d in docs], lambda i: by_id[i].paths)
    by_id = {d.doc_id: d for d in docs}
    have = {name_key(d.title) for d in docs}
    for d in docs:
        for r in d.refs:
            q = qualifier_of(r)
            fam = expected_family(d, q) if q in ("법", "영", "시행령", "시행규칙") else None
            other = fam is not None or (q is not None and q.startswith("「")
                                        and name_key(q.strip("「」")) != name_key(d.title))
            counted = (fam is not None and name_key(fam) in have
                       and r["reason"] not in ("amendment text", "omitted text (생략)") and not r["in_amendment"])
            target_doc = _audit_ref(d, r, q, fam, other, index, titles, t)
            if counted:
                t.family_total += 1
                if target_doc is not None and name_key(titles[target_doc]) == name_key(fam or ""):
                    t.family_resolved += 1
                else:
                    t.family_misses[f"{q} → {r['target_path'] or r['reason']}"] += 1


def _audit_ref(d: Parsed, r: dict[str, Any], q: str | None, fam: str | None, other: bool, index: LawIndex,
               titles: dict[str, str], t: Tally) -> str | None:
    """Count one reference; returns the document it reaches in the collection (None: none or this one)."""
    if r["target_path"] is not None:  # resolved inside the document by the parser
        t.refs["in document"] += 1
        if other:
            t.wrong.append(f"{d.title}: {q} {r['text']!r} resolved inside the document")
            t.wrong_kinds["another law's reference resolved inside the document"] += 1
        elif r["in_amendment"]:
            t.wrong.append(f"{d.title}: {r['text']!r} in amendment wording resolved inside the document")
            t.wrong_kinds["amendment wording resolved inside the document"] += 1
        return None
    if r["law"] and r["reason"] in ("other law", "other document"):
        target_doc, _, reason = index.resolve(r["law"], r["clause"], exclude=d.doc_id)
        if target_doc is None:
            t.refs["law not in the collection"] += 1
            return None
        t.refs["into another document"] += 1
        named = q[1:-1] if q and q.startswith("「") else None  # the name as bracketed in the text
        expect = fam or named
        if expect and name_key(titles[target_doc]) != name_key(expect):
            t.wrong.append(f"{d.title}: {r['text']!r} → {titles[target_doc]}")
            t.wrong_kinds["resolved into another law than the one named"] += 1
        if reason:
            t.unresolved[f"clause not in the target document ({reason.split(' in ')[0]})"] += 1
        return target_doc
    if r["reason"] in ("amendment text", "omitted text (생략)"):
        t.refs["not a link (amendment wording, 생략)"] += 1
    else:
        t.refs["unresolved"] += 1
        t.unresolved[_reason_kind(r["reason"])] += 1
    return None


def _reason_kind(reason: str | None) -> str:
    if not reason:
        return "(none)"
    m = APPENDIX_REASON.match(reason)
    if m:  # "no 별표 3", "no 별지 제12호서식": forms and tables live in attachments, not in the Markdown text
        return f"no {m.group(1)} in the text"
    return re.sub(r" in (제\S+|this document|the body|[^ ]+)$", "", reason)


def _examples(wrong: list[str], per_kind: int = 5) -> list[str]:
    """A few examples of each kind of wrong link (the kinds differ in their last words)."""
    seen: Counter = Counter()
    out = []
    for w in wrong:
        kind = "inside" if w.endswith("inside the document") else "other"
        if seen[kind] < per_kind:
            seen[kind] += 1
            out.append(w)
    return out


def report(t: Tally, as_json: bool) -> None:
    fam = t.family_resolved / t.family_total if t.family_total else None
    data = {
        "files": t.files, "crashes": len(t.crashes), "lost_characters": t.lost_chars, "articles": t.articles,
        "branch_division_headings": t.branch_headings, "branch_division_nodes": t.branch_nodes,
        "refs": dict(t.refs), "unresolved_by_reason": dict(t.unresolved.most_common()),
        "family_refs": t.family_total, "family_resolved": t.family_resolved,
        "family_share": round(fam, 4) if fam is not None else None,
        "family_misses": dict(t.family_misses.most_common(10)),
        "wrong_document": len(t.wrong), "wrong_by_kind": dict(t.wrong_kinds), "wrong_examples": _examples(t.wrong), "crash_examples": t.crashes[:10],
        "lost_examples": t.lost_files[:10], "seconds": round(t.seconds, 1),
    }
    if as_json:
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return
    print(f"files {t.files:,} · crashes {len(t.crashes)} · lost characters {t.lost_chars:,} · "
          f"articles {t.articles:,} · 제N장의M/제N절의M headings {t.branch_headings} (nodes {t.branch_nodes}) · "
          f"{t.seconds:.0f} s")
    total = sum(t.refs.values())
    print(f"references {total:,}")
    for k, v in t.refs.most_common():
        print(f"  {k:<40} {v:>9,}  {v / total:6.1%}")
    print("unresolved by reason")
    for k, v in t.unresolved.most_common(15):
        print(f"  {k:<60} {v:>9,}")
    if fam is not None:
        print(f"family references (법/영 제N조 whose family member is in the collection): "
              f"{t.family_resolved:,}/{t.family_total:,} = {fam:.4f}")
    print(f"wrong document: {len(t.wrong)}")
    for k, v in t.wrong_kinds.most_common():
        print(f"  {k:<60} {v:>9,}")
    for w in _examples(t.wrong):
        print("  " + w)
    for c in t.crashes[:10]:
        print("  crash: " + c)
    for lf in t.lost_files[:10]:
        print("  lost: " + lf)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", action="store_true", help="korean_law_sets only")
    ap.add_argument("--dir", help="a folder of statute Markdown files instead of the archive")
    ap.add_argument("--step", type=int, default=1, help="every N-th file")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    files = files_of(args)[:: max(1, args.step)]
    chunker = get_chunker("structure")
    t = Tally()
    t0 = time.perf_counter()
    docs = []
    for i, f in enumerate(files, 1):
        p = parse_one(f, chunker, t)
        if p is not None:
            docs.append(p)
        if i % 200 == 0:
            print(f"{i}/{len(files)} {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    audit(docs, t)
    t.seconds = time.perf_counter() - t0
    report(t, args.json)


if __name__ == "__main__":
    main()
