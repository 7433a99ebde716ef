"""Behaviour snapshot: trees, chunks and warnings of every sample, fixture and corpus document.

A refactor that must not change behaviour is checked by writing a snapshot before and comparing after:

    python scripts/snapshot.py write /tmp/before.json
    ... change code ...
    python scripts/snapshot.py compare /tmp/before.json        # exit 1 and a diff summary on any change

Per file it records the clause tree (kinds, labels, titles, paths, spans, refs, attrs), the parse warnings,
and both chunk strategies (ids, text hashes, full metadata, embed text hashes). Files that fail to load
record the error line. The shared corpora are included when ``../shared/corpora`` exists.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora"
SUFFIXES = {".pdf", ".docx", ".html", ".htm", ".md", ".txt", ".hwp", ".hwpx"}


def _files() -> list[Path]:
    roots = [ROOT / "examples", ROOT / "tests" / "fixtures"]
    if CORPORA.is_dir():
        roots += [CORPORA / "korean_statutes", CORPORA / "korean_precedents", CORPORA / "korean_law_sets",
                  CORPORA / "cuad_contracts" / "contracts"]
    out: list[Path] = []
    for r in roots:
        if r.is_dir():
            out += sorted(p for p in r.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES
                          and not p.name.startswith(("_", ".")))
    return out


def _h(s: str) -> str:
    return hashlib.sha256(s.encode("utf-8")).hexdigest()[:16]


def _record(path: Path) -> dict[str, Any]:
    import jogak
    from jogak.load import LoadError

    try:
        doc = jogak.load(str(path))
    except LoadError as e:
        return {"error": f"{type(e).__name__}: {e}"}
    tree = jogak.parse(doc)
    rec: dict[str, Any] = {
        "doc_title": doc.doc_title,
        "text": _h(doc.text),
        "tree": _h(json.dumps(tree.to_dict(with_text=False), ensure_ascii=False, sort_keys=True, default=str)),
        "warnings": list(tree.warnings),
    }
    for strategy in ("structure", "recursive"):
        chunks = jogak.chunk([doc], strategy=strategy, id_prefix=None)
        rec[strategy] = [
            {"id": c.id, "text": _h(c.text), "embed": _h(c.embed_text),
             "meta": _h(json.dumps(c.metadata.to_dict(), ensure_ascii=False, sort_keys=True, default=str))}
            for c in chunks
        ]
    return rec


def write(out: Path) -> None:
    snap: dict[str, Any] = {}
    files = _files()
    for i, p in enumerate(files, 1):
        key = str(p.relative_to(ROOT.parent))
        snap[key] = _record(p)
        print(f"[{i}/{len(files)}] {key}", file=sys.stderr)
    out.write_text(json.dumps(snap, ensure_ascii=False, indent=1, sort_keys=True))
    print(f"{len(snap)} files → {out}", file=sys.stderr)


def compare(before_path: Path) -> int:
    before = json.loads(before_path.read_text())
    tmp = before_path.with_suffix(".after.json")
    write(tmp)
    after = json.loads(tmp.read_text())
    changed = 0
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key), after.get(key)
        if a == b:
            continue
        changed += 1
        if a is None or b is None:
            print(f"{key}: {'added' if a is None else 'removed'}")
            continue
        for field in sorted(set(a) | set(b)):
            if a.get(field) != b.get(field):
                print(f"{key}: {field} differs")
    print(f"{len(after)} files, {changed} changed (after-snapshot: {tmp})")
    return 1 if changed else 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("write", "compare"):
        sys.exit(__doc__)
    if sys.argv[1] == "write":
        write(Path(sys.argv[2]))
    else:
        sys.exit(compare(Path(sys.argv[2])))
