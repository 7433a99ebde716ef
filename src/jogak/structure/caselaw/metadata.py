"""Case metadata: title, court, 사건번호, 선고일, 판결/결정, 전원합의체, case type — from front matter and the
decision's own header. Front matter wins over text; malformed or missing values are ``None`` and explained
in ``problems`` — never guessed."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from jogak.grammar import case as g
from jogak.model import CaseInfo
from jogak.structure.caselaw.headers import Header
from jogak.structure.caselaw.text import norm_ws

# The case fields a chunk carries (``ChunkMetadata.case``, a ``CaseInfo``); ``problems`` stays on the tree.
CHUNK_CASE_KEYS = CaseInfo.field_names()


def _fm_value(fm: Mapping[str, Any], field: str) -> Any:
    """The front-matter value of a case field, under any of its key spellings."""
    for k, f in g.FRONT_MATTER_KEYS.items():
        if f == field and fm.get(k) not in (None, ""):
            return fm[k]
    return None


def _normalize_judgment(v: Any) -> tuple[str | None, bool]:
    s = re.sub(r"\s+", "", str(v or ""))
    en_banc = any(w in s for w in g.EN_BANC_WORDS)
    for t in g.JUDGMENT_TYPES:
        if t in s:
            return t, en_banc
    return None, en_banc


def _title(fm: Mapping[str, Any], title: str | None, problems: list[str]) -> str | None:
    t_fm = _fm_value(fm, "title")
    title_v = norm_ws(str(t_fm)) if t_fm else (g.TITLE_COUNTER_RE.sub("", title).strip() if title else None)
    if not title_v:
        problems.append("title: missing")
        return None
    return title_v


def _court(fm: Mapping[str, Any], hdr: Header | None, problems: list[str]) -> tuple[str | None, str | None]:
    raw_fm, raw_tx = _fm_value(fm, "court"), (hdr.court if hdr else None)
    court, level = g.normalize_court(str(raw_fm)) if raw_fm else (None, None)
    if raw_fm and not court:
        problems.append(f"court: unknown court name '{raw_fm}' (front matter)")
    tx_court, tx_level = g.normalize_court(raw_tx) if raw_tx else (None, None)
    if raw_tx and not tx_court:
        problems.append(f"court: unknown court name '{raw_tx}'")
    if raw_fm and tx_court and court and tx_court != court:
        problems.append(f"court: front matter '{court}' differs from text '{tx_court}'")
    if not raw_fm:
        court, level = tx_court, tx_level
    if not raw_fm and not raw_tx:
        problems.append("court: missing")
    return court, level


def _numbers(fm: Mapping[str, Any], hdr: Header | None, problems: list[str]
             ) -> tuple[list[g.CaseNumber], str | None]:
    """The 사건번호 list and the numbers as written (for the full case name)."""
    raw_fm, raw_tx = _fm_value(fm, "case_number"), (hdr.nums if hdr else None)
    nums_fm = g.parse_case_numbers(str(raw_fm)) if raw_fm else []
    nums_tx = g.parse_case_numbers(raw_tx) if raw_tx else []
    if raw_fm and not nums_fm:
        problems.append(f"case_number: malformed '{raw_fm}' (front matter)")
    if raw_tx and not nums_tx:
        problems.append(f"case_number: malformed '{norm_ws(raw_tx)}'")
    if nums_fm and nums_tx and nums_fm[0].text != nums_tx[0].text:
        problems.append(f"case_number: front matter '{nums_fm[0].text}' differs from text '{nums_tx[0].text}'")
    nums = nums_fm if raw_fm else nums_tx
    numbers_text = norm_ws(str(raw_fm)) if raw_fm else (norm_ws(raw_tx) if raw_tx else None)
    if not raw_fm and not raw_tx:
        problems.append("case_number: missing")
    for cn in nums:
        yy = cn.text[: len(cn.text) - len(cn.code) - len(cn.serial)]
        if len(yy) == 2 and int(yy) < g.YEAR_PIVOT:
            problems.append(f"case_number: 2-digit year in '{cn.text}' (numbers carry 4-digit years since 2000)")
        if cn.case_type is None:
            problems.append(f"case_number: unknown 사건부호 '{cn.code}' in '{cn.text}'")
    return nums, numbers_text


def _date(fm: Mapping[str, Any], hdr: Header | None, problems: list[str]) -> str | None:
    raw_fm, raw_tx = _fm_value(fm, "decision_date"), (hdr.date if hdr else None)
    date, prob = g.parse_date(raw_fm if raw_fm not in (None, "") else raw_tx)
    if prob:
        problems.append(f"decision_date: {prob}")
    if raw_fm not in (None, "") and raw_tx:
        tx_date, _ = g.parse_date(raw_tx)
        if date and tx_date and tx_date != date:
            problems.append(f"decision_date: front matter '{date}' differs from text '{tx_date}'")
    return date


def _judgment(fm: Mapping[str, Any], hdr: Header | None, closing: str | None, chief_justice: bool,
              problems: list[str]) -> tuple[str | None, bool]:
    """판결/결정 and 전원합의체: front matter, then the header, then the closing words ("판결한다")."""
    jt, en_banc = _normalize_judgment(_fm_value(fm, "judgment_type"))
    if jt is None and hdr:
        jt, en_banc = hdr.judgment_type, hdr.en_banc or en_banc
    elif hdr:
        en_banc = en_banc or hdr.en_banc
    if jt is None and closing:
        jt = closing
    en_banc = en_banc or chief_justice
    if jt is None:
        problems.append("judgment_type: not stated (no 판결/결정 in front matter, header or closing)")
    return jt, en_banc


def case_metadata(fm: Mapping[str, Any], hdr: Header | None, title: str | None,
                  closing: str | None = None, chief_justice: bool = False) -> dict[str, Any]:
    problems: list[str] = []
    title_v = _title(fm, title, problems)
    court, level = _court(fm, hdr, problems)
    nums, numbers_text = _numbers(fm, hdr, problems)
    date = _date(fm, hdr, problems)
    jt, en_banc = _judgment(fm, hdr, closing, chief_justice, problems)
    ct = _fm_value(fm, "case_type")
    case_type = norm_ws(str(ct)) if ct else (nums[0].case_type if nums else None)
    if case_type is None:
        problems.append("case_type: missing")
    full = hdr.full if hdr and hdr.full else None
    if full is None:
        full = g.full_case_name(court, date, numbers_text, jt, en_banc)
    case: dict[str, Any] = {
        "title": title_v,
        "court": court,
        "case_number": nums[0].text if nums else None,
        "case_numbers": [cn.text for cn in nums],
        "decision_date": date,
        "judgment_type": jt,
        "en_banc": en_banc,
        "full_case_name": full,
        "case_type": case_type,
        "court_level": level,
    }
    pid = fm.get("판례일련번호")
    if pid not in (None, ""):
        case["precedent_id"] = str(pid)
    case["problems"] = problems
    return case


def closing_judgment(text: str, lo: int, hi: int) -> str | None:
    """"판결한다." / "결정한다." near the end of a decision: its judgment type."""
    last = None
    for m in g.CLOSING_RE.finditer(text, max(lo, hi - 2000), hi):
        last = m.group(1)
    return last


def case_for_chunk(case: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The subset of a node's ``attrs["case"]`` that belongs in ``ChunkMetadata.case``."""
    if not case:
        return None
    return {k: case.get(k) for k in CHUNK_CASE_KEYS if k in case}


def citation_text(case: Mapping[str, Any] | None) -> str:
    """"(참고 판례: 대법원 2005. 11. 25. 선고 2005다35554 판결)"; "" when the case number is unknown."""
    if not case:
        return ""
    name = case.get("full_case_name")
    if not name:
        name = g.full_case_name(case.get("court"), case.get("decision_date"), case.get("case_number"),
                                case.get("judgment_type"), bool(case.get("en_banc")))
    if not name:
        if not case.get("case_number"):
            return ""
        parts = [case.get("court")]
        if case.get("decision_date"):
            parts += [g.format_date_ko(case["decision_date"]), "선고"]
        parts += [case["case_number"], case.get("judgment_type")]
        name = " ".join(p for p in parts if p)
    return f"(참고 판례: {name})"
