"""Court decisions as clause trees (issue 4): a decision split into chunks never loses its 사건번호,
선고일 or title.

Two shapes are recognised (grammar tables live in ``jogak.grammar.case``):

* a **single decision** — law.go.kr / precedent-kr Markdown (front matter + ``## 판시사항`` …
  ``## 판례내용``), law.go.kr text (``【판시사항】`` …), or one case in casebook form;
* a **casebook** — decisions one after another, each a title line ("민법의 법원：관습법 (1)") and a header
  "(대법원 2003. 7. 24. 선고 2001다48781 전원합의체 판결)" followed by ``<쟁점>``, ``<판결요지>`` … markers,
  usually after a table of contents.

Tree shape and path conventions::

    document (path "")                     attrs["case"] = case metadata (single decision)
      section 판시사항 (path "판시사항")
        holding [1] (path "판시사항/[1]")   attrs: holdings [1], aligned ["판결요지/[1]", "참조조문/[1]"]
      section 판결요지 … holdings
      section 참조조문 … holdings           attrs["statutes"] = [{law, article, holding}], refs per item
      section 참조판례 … holdings "[1][2]"  attrs["precedents"] = [{court, date, case_number, …}]
      section 판례내용
        parties 당사자 (판례내용/당사자)    block_type "parties"
        section 원심판결 / 주문 / 이유 (판례내용/이유)
          section 1. (판례내용/이유/1) → section 가. (판례내용/이유/1/가)
        text 관여법관 (판례내용/관여법관)

    casebook: document → text 목차 (path "목차") + case nodes (path = 사건번호, e.g. "2001다48781",
    label = 사건번호, title without the "(1)" counter, attrs["case"]) → sections "2001다48781/판결요지/[1]".

Every node carries ``attrs["cite"]``, the label a chunk cut from it is cited by ("판결요지 [2]", "이유 1.").
Case metadata: title, court, case_number, case_numbers, decision_date (ISO), judgment_type (판결/결정),
en_banc (전원합의체), full_case_name, case_type, court_level, problems. Front matter wins over text;
malformed or missing values are ``None`` and explained in ``problems`` — never guessed.

Modules: ``headers`` (section markers, front matter, casebook header lines), ``metadata`` (the case fields),
``builder`` (sections, holdings, 판례내용 blocks, citations), ``statutes`` (참조조문 items), ``parse`` (detect
and build), ``links`` (citations resolved across documents), ``text`` (offset helpers). The grammar tables
live in ``jogak.grammar.case``.
"""

from __future__ import annotations

from jogak.structure.caselaw.links import case_index, iter_cases, link_cases, resolve_citation
from jogak.structure.caselaw.metadata import CHUNK_CASE_KEYS, case_for_chunk, citation_text
from jogak.structure.caselaw.parse import detect, parse_caselaw

__all__ = [
    "CHUNK_CASE_KEYS",
    "case_for_chunk",
    "case_index",
    "citation_text",
    "detect",
    "iter_cases",
    "link_cases",
    "parse_caselaw",
    "resolve_citation",
]
