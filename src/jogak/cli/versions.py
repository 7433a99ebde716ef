"""``jogak versions`` (every work's versions and their dates) and ``jogak diff WORK --from --to`` (the
articles added, removed and changed between two versions, with the changed sentences)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from jogak.cli.common import as_of_option, emit_json, error, out
from jogak.cli.stores import open_existing

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")]
StoreOpt = Annotated[str, typer.Option("--store", help="Store directory (from `jogak ingest`).")]
CollOpt = Annotated[str, typer.Option("--collection", "-c", help="Collection name.")]
StateOpt = Annotated[Path | None, typer.Option("--state", help="State directory (default: inside --store).")]


def register(app: typer.Typer) -> None:
    app.command("versions")(versions_cmd)
    app.command("diff")(diff_cmd)


def versions_cmd(store: StoreOpt = "./jogak_db", collection: CollOpt = "default", state: StateOpt = None,
                 as_json: JsonOpt = False) -> None:
    """Every work with dated versions: when each version took effect and until when."""
    from jogak.index.versions import lexical_timelines, today

    st = open_existing(store, collection, state)
    now = today()
    tl = lexical_timelines(st.lexical())
    if as_json:
        emit_json({"collection": collection, "today": now,
                   "works": [{"work": w, "versions": [v.to_dict(now) for v in vs]} for w, vs in sorted(tl.items())]})
        return
    if not tl:
        out.print("no document in this collection has an effective date", markup=False)
    for work, vs in sorted(tl.items()):
        out.print(work, markup=False)
        for v in vs:
            until = f" ~ {v.effective_to} 전" if v.effective_to and not v.superseded_by else ""
            mark = " (현행)" if v.in_force(now) else f" (superseded by {v.superseded_by})" if v.superseded_by else ""
            prom = f", 공포 {v.promulgated}" if v.promulgated else ""
            out.print(f"  {v.effective_from} 시행{until}{mark}{prom}  [{v.doc_id}]", markup=False)


def diff_cmd(
    work: Annotated[str, typer.Argument(help="The work: a law's 제목, a policy's title.")],
    from_day: Annotated[str, typer.Option("--from", help="YYYY-MM-DD: the older version (promulgated or taking "
                                                         "effect that day, else the one in force then).")],
    to_day: Annotated[str, typer.Option("--to", help="YYYY-MM-DD: the newer version.")],
    store: StoreOpt = "./jogak_db",
    collection: CollOpt = "default",
    state: StateOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Articles added, removed and changed between two versions of a work, with the changed sentences."""
    from jogak.index.versions import VersionError, diff

    a, b = as_of_option(from_day, "--from"), as_of_option(to_day, "--to")
    st = open_existing(store, collection, state)
    try:
        d = diff(st, work, a, b)
    except VersionError as e:
        error(str(e))
        raise typer.Exit(1) from None
    if as_json:
        emit_json({**d, "collection": collection})
        return
    print_diff(d)


def _side(v: dict[str, Any]) -> str:
    prom = f"공포 {v['promulgated']}, " if v.get("promulgated") else ""
    return f"{prom}{v['effective_from']} 시행"


def print_diff(d: dict[str, Any]) -> None:
    c = d["counts"]
    out.print(f"{d['work']}: {_side(d['from'])} → {_side(d['to'])} — {c['added']} added, {c['removed']} removed, "
              f"{c['changed']} changed", markup=False)
    for a in d["articles"]:
        title = f" ({a['title']})" if a["title"] else ""
        out.print(f"\n{a['status']:8} {a['label']}{title}", markup=False)
        if a["status"] != "changed":
            continue
        for s in a["sentences"]:
            if s["old"]:
                out.print(f"  - {s['old']}", markup=False)
            if s["new"]:
                out.print(f"  + {s['new']}", markup=False)
