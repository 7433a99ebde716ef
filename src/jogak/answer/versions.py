"""Answers say which version they come from (issue 15).

* Every citation of a versioned document carries the version's ``effective_from`` / ``effective_to``.
* When a cited version is not the one in force today, the answer opens by naming it: "2024-12-31 당시
  시행되던 멤버십정책(2023. 1. 1. 시행)에 따른 답입니다." — a transitional provision of a later version that
  comes with it (부칙 ②: "종전 정책에 따라 …") is the rule that says the old text still governs, not a second
  version answering.
* When the cited text is not yet in force (the only one the collection holds, searched because no day was
  asked: retrieve/asof.py), the answer opens by saying so: "2026. 12. 31. 시행 예정인 …에 따른 답입니다 (아직
  시행 전인 판이라 …)".
* When no version of the work was in force on the day asked about, the answer says so and does not answer
  from another version — unless the day came from the question's own words (most often the day of the
  asker's event: retrieve/asof.py searches the nearest text then), when the answer opens by saying which
  text answered and that the rule on that day may have differed.
* When a cited clause's wording lapsed before that day (a 부칙's 유효기간: "…까지 효력을 가진다"), the answer
  opens by saying until when it had effect.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from jogak.answer.citations import locate, render_sources
from jogak.grammar.effective import ADDENDA_DATE_RE, is_transitional, parse_date
from jogak.grammar.laws import title_kind
from jogak.index.versions import today
from jogak.model import Answer, Citation, Hit

_NONE_IN_FORCE = ("was in force on", "holds no version of")
_NEAREST = "the rule on that day may have differed"  # retrieve/asof._nearest_notice


def annotate(answer: Answer, hits: list[Hit], notices: list[str], lang: str) -> None:
    """Fill the citations' version dates; name a non-current version; refuse when none was in force."""
    refusals = [n for n in notices if any(x in n for x in _NONE_IN_FORCE)]
    for n in notices:
        if n not in answer.warnings:
            answer.warnings.append(n)
    if refusals and not hits:
        answer.answer = _refusal(refusals, lang)
        answer.supported = False
        answer.citations = []
        return
    by_id = {h.chunk.id: h for h in hits}
    named: list[str] = []
    pending: list[str] = []
    pending_law = False
    for c in answer.citations:
        h = by_id.get(c.chunk_id)
        v = h.version if h is not None else None
        if not v:
            continue
        c.effective_from, c.effective_to = v.get("effective_from"), v.get("effective_to")
        transitional = h is not None and "transitional" in h.matched
        nearest = (str(v.get("effective_from") or "") <= today()
                   and any(n.startswith(f"{v.get('work')}:") and _NEAREST in n for n in notices))
        if not v.get("current") and not transitional and not nearest:  # nearest: _nearest_lead names it
            if str(v.get("effective_from") or "") > today():  # a text not yet in force (asof._pending)
                label = (f"{_dot(v['effective_from'])} 시행 예정인 {c.doc_title}" if lang == "ko" else
                         f"the text of {c.doc_title} taking effect on {v['effective_from']}")
                if label not in pending:
                    pending.append(label)
                    pending_law = pending_law or title_kind(c.doc_title or "") != "other"
                continue
            label = _version_name(c.doc_title, v, lang, _day_label(answer.filters, lang))
            if label not in named:
                named.append(label)
    # an answer "follows" the version; related clauses (no answer asserted) only come from it
    asserted = answer.outcome == "answer"
    if pending:
        names = ", ".join(pending)
        if lang == "ko":
            lead = (f"{names}에 따른 답입니다" if asserted else f"참고: 아래 조항 중 일부는 {names}에서 왔습니다")
            # a statute "in force"; terms or a policy only "apply"
            lead += (" (아직 시행 전인 판이라 지금 시행 중인 법령과 다를 수 있습니다). " if pending_law
                     else " (아직 시행 전인 판이라 지금 적용되는 내용과 다를 수 있습니다). ")
        else:
            lead = (f"This answer follows {names}" if asserted else f"Note: some clauses below come from {names}")
            lead += (" (not yet in force; the law in force today may differ). " if pending_law
                     else " (not yet in force; the text that applies today may differ). ")
        answer.answer = lead + answer.answer
    if named:
        names = ", ".join(named)
        if lang == "ko":
            lead = (f"{names}에 따른 답입니다 (현행 판이 아닙니다). " if asserted else
                    f"참고: 아래 조항 중 일부는 {names}에서 왔습니다 (현행 판이 아닙니다). ")
        else:
            lead = (f"This answer follows {names} (not the version in force today). " if asserted else
                    f"Note: some clauses below come from {names} (not the version in force today). ")
        answer.answer = lead + answer.answer
    nearest = _nearest_lead(answer, by_id, notices, lang)
    if nearest:
        answer.answer = nearest + answer.answer
    coming = _coming_wording(answer, by_id, notices, lang) + _lapsed_wording(answer, by_id, notices, lang)
    if coming:
        answer.answer = coming + answer.answer
    _transitional_note(answer, hits, lang)


def _nearest_lead(answer: Answer, by_id: dict[str, Hit], notices: list[str], lang: str) -> str:
    """A cited work searched in its nearest text because none was in force on the question's day: said first."""
    said: list[str] = []
    for c in answer.citations:
        v = (by_id[c.chunk_id].version or {}) if c.chunk_id in by_id else {}
        work = str(v.get("work") or "")
        if not work or not any(n.startswith(f"{work}:") and _NEAREST in n for n in notices):
            continue
        if str(v.get("effective_from") or "") > today():
            continue  # a text not yet in force: its own lead says so
        item = (f"{c.doc_title}({_dot(str(v['effective_from']))} 시행)" if lang == "ko"
                else f"the text of {c.doc_title} in force from {v['effective_from']}")
        if item not in said:
            said.append(item)
    if not said:
        return ""
    day = _day_label(answer.filters, lang)
    if lang == "ko":
        when = f"질문의 때({day})" if day else "질문의 때"
        return (f"{when}에 시행되던 판은 컬렉션에 없어 {', '.join(said)}에 따라 답합니다 "
                "(그때 규정은 달랐을 수 있습니다). ")
    return (f"No version in force on the question's day{' (' + day + ')' if day else ''} is in the collection; "
            f"this follows {', '.join(said)} (the rule then may have differed). ")


def _coming_wording(answer: Answer, by_id: dict[str, Hit], notices: list[str], lang: str) -> str:
    """A cited clause whose only text in the collection takes effect later (retrieve/transitional.py keeps
    it, with a notice ending "coming wording"): the answer says so before it answers from it."""
    said = _clause_notices(answer, by_id, notices, "coming wording", "clause_effective_from", lambda label, day: (
        f"{label}은(는) {_dot(day)} 시행 예정인 문언입니다" if lang == "ko"
        else f"{label} is the wording that takes effect on {day}"), lang)
    if not said:
        return ""
    if lang == "ko":
        return "; ".join(said) + " (오늘 시행 중인 문언은 컬렉션에 없습니다). "
    return "; ".join(said) + " (the wording in force today is not in the collection). "


def _lapsed_wording(answer: Answer, by_id: dict[str, Hit], notices: list[str], lang: str) -> str:
    """A cited clause whose 유효기간 (a 부칙's "…까지 효력을 가진다") ended before the day asked about: the answer
    says so before it answers from it (retrieve/transitional.py keeps it, with a notice ending "has lapsed")."""
    said = _clause_notices(answer, by_id, notices, "has lapsed", "clause_effective_to", lambda label, day: (
        f"{label}의 문언은 부칙의 유효기간에 따라 {_dot(day)}까지 효력이 있었습니다" if lang == "ko"
        else f"the wording of {label} had effect only until {day} (its 부칙's 유효기간)"), lang)
    if not said:
        return ""
    return "; ".join(said) + (" (지금은 효력이 없는 문언일 수 있습니다). " if lang == "ko"
                              else " (it may no longer be in force). ")


def _clause_notices(answer: Answer, by_id: dict[str, Hit], notices: list[str], ending: str, field: str,
                    say: Callable[[str, str], str], lang: str) -> list[str]:
    """One sentence per cited clause that has a search notice ending in ``ending`` and a date in its chunk's
    ``field``: ``say(label, date)``."""
    said: list[str] = []
    for c in answer.citations:
        h = by_id.get(c.chunk_id)
        if h is None:
            continue
        md = h.chunk.metadata
        key = f"{md.doc_title} {md.article or md.path}:"
        day = getattr(md, field)
        if day and any(n.startswith(key) and n.endswith(ending) for n in notices):
            item = say(f"{md.doc_title} {md.article}".strip() if lang == "ko" else key[:-1], day)
            if item not in said:
                said.append(item)
    return said


def _transitional_note(answer: Answer, hits: list[Hit], lang: str) -> None:
    """The transitional provision that came with a cited clause (경과조치: how the change applies to what
    happened before it) is stated and cited after the answer — the answer follows it."""
    by_id = {h.chunk.id: h for h in hits}
    cited = {c.chunk_id for c in answer.citations}
    for h in hits:
        modifies = h.chunk.metadata.transitional_for
        anchors = [c for c in answer.citations if c.chunk_id == h.via or any(
            c.path and (c.path == m or c.path.startswith(m + "/")) for m in modifies)]
        if "transitional" not in h.matched or not anchors or h.chunk.id in cited:
            continue
        # stated when it governs the answer: the cited text is an earlier version (an event before the
        # change), or the provision came with the cited version's own amendment
        past = any(not ((by_id.get(c.chunk_id) and by_id[c.chunk_id].version) or {}).get("current", True)
                   for c in anchors)
        if not past and not _own_amendment(h):
            continue
        found = _transitional_clause(h.chunk)
        if found is None:
            continue
        start, end = found
        clause = locate(h.chunk, start, end)
        quote = re.sub(r"^[①-⑳]\s*", "", " ".join(h.chunk.text[start:end].split()))
        md, v = h.chunk.metadata, h.version or {}
        c = Citation(n=max((x.n for x in answer.citations), default=0) + 1, chunk_id=h.chunk.id, source=md.source,
                     doc_title=md.doc_title, article=clause.article, path=clause.path, block_type=md.block_type,
                     page_start=clause.page_start, page_end=clause.page_end, quote=quote, support=1.0,
                     effective_from=v.get("effective_from"), effective_to=v.get("effective_to"))
        c.ref = max((x.ref for x in answer.citations), default=0) + 1  # the next display number
        c.relevance = max((x.relevance for x in anchors), default=0.0)  # as relevant as the rule it modifies
        which = ("현행 " if v.get("current") else "") if lang == "ko" else ("current " if v.get("current") else "")
        answer.answer += (f" {which}{md.doc_title} {clause.article}의 경과 규정: {quote} {render_sources([c], lang)}"
                          if lang == "ko" else
                          f" Transitional provision ({which}{md.doc_title} {clause.article}): {quote} "
                          f"{render_sources([c], lang)}")
        answer.citations.append(c)
        return


def _own_amendment(h: Hit) -> bool:
    """The 부칙 came with its version's own amendment: its header date ("부칙 <제17470호,2020.7.31>") is the
    version's promulgation date, or it is the document's only, undated 부칙."""
    m = ADDENDA_DATE_RE.search(h.chunk.metadata.path or "")
    if m is None:
        return True
    promulgated = (h.version or {}).get("promulgated")
    d = parse_date(m.group("date"))
    return bool(promulgated) and d is not None and d.isoformat() == promulgated


def _transitional_clause(chunk: Any) -> tuple[int, int] | None:
    """Chunk-relative span of the first leaf clause worded as a transitional provision."""
    md = chunk.metadata
    for seg in md.segments:
        s, e = seg.start - md.char_start, seg.end - md.char_start
        if 0 <= s < e <= len(chunk.text) and is_transitional("", chunk.text[s:e]):
            return s, e
    return (0, len(chunk.text)) if is_transitional("", chunk.text) and not md.segments else None


def _dot(iso: str) -> str:
    y, m, d = iso.split("-")
    return f"{int(y)}. {int(m)}. {int(d)}."


def _day_label(filters: Any, lang: str) -> str:
    """The day the answer is about as the question said it ("2021년"), else as a date ("2020. 8. 1.")."""
    for f in filters if isinstance(filters, list) else []:
        if isinstance(f, dict) and f.get("key") == "as_of":
            if str(f.get("value", "")).startswith("before-"):
                return ""  # "개정 전": the version named is the earlier one
            phrase = re.sub(r"\s*(?:에는|에|당시|기준|때|중)$", "", str(f.get("phrase") or "")).strip()
            if phrase and lang == "ko":
                return phrase
            value = str(f.get("value") or "")
            return _dot(value) if lang == "ko" and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) else value
    return ""


def _version_name(title: str, v: dict[str, Any], lang: str, day: str = "") -> str:
    if lang == "ko":
        until = f" ~ {_dot(v['effective_to'])} 전" if v.get("effective_to") else ""
        return f"{day + ' ' if day else ''}당시 시행되던 {title}({_dot(v['effective_from'])} 시행{until})"
    until = f" until {v['effective_to']}" if v.get("effective_to") else ""
    on = f" on {day}" if day else ""
    return f"the version of {title} in force{on} (from {v['effective_from']}{until})"


def _refusal(refusals: list[str], lang: str) -> str:
    if lang != "ko":
        return ("No version in the collection was in force on that date, so there is no answer from it: "
                + "; ".join(refusals) + ".")
    return ("그 날짜에 시행 중이던 판이 컬렉션에 없어 답하지 않습니다 (다른 판으로 답하면 틀린 답이 될 수 있습니다). "
            + "; ".join(refusals) + ".")


def version_notices(warnings: list[str]) -> list[str]:
    """The search warnings an answer must carry: about versions (none in force, a text's caveat)."""
    keys = (*_NONE_IN_FORCE, _NEAREST, "superseded", "takes effect on", "as_of has no effect", "has lapsed")
    return [w for w in warnings if any(x in w for x in keys)]
