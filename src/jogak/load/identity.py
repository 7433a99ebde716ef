"""Which work a document is, and which version of it: the identity a collection keys documents by.

A Korean statute file names itself in its front matter (제목, 법령구분, 공포일자, 시행일자): its ``doc_title`` is
the 제목 ("개인정보 보호법", "근로기준법 시행령"), whatever the file is called, and its key is the work and the
version together — so two files named 법률.md from different folders are two documents, the same file
ingested again replaces itself, and two versions of one law (same 제목, another 공포일자 or 시행일자) are two
documents. A document without such front matter is keyed by its file name, as before: re-ingesting or
re-uploading a file of the same name replaces it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jogak.grammar.laws import (
    ACT_KINDS,
    EFFECTIVE_KEY,
    KIND_KEY,
    PROMULGATED_KEY,
    TITLE_KEYS,
    Rank,
    family_of,
    split_instrument,
)
from jogak.model import Document


@dataclass(frozen=True, slots=True)
class LawIdentity:
    """A statute's identity from its front matter."""

    title: str  # 제목: "상호저축은행법 시행령"
    kind: str  # 법령구분: 법률, 대통령령, 총리령, 국토교통부령 … ("" when not given)
    rank: Rank  # act | decree | rule
    family: str  # the name of its Act, compared without spacing: "상호저축은행법"
    promulgated: str | None = None  # 공포일자 (ISO)
    effective: str | None = None  # 시행일자 (ISO)

    @property
    def key(self) -> str:
        """The document key: work and version ("제목|법령구분|공포일자|시행일자")."""
        return "|".join((self.title, self.kind, self.promulgated or "", self.effective or ""))

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "kind": self.kind, "rank": self.rank, "family": self.family,
                "promulgated": self.promulgated, "effective": self.effective}


def law_identity(metadata: dict[str, Any] | None) -> LawIdentity | None:
    """The identity a statute's front matter gives, or None when it names no law."""
    md = metadata or {}
    title = next((" ".join(str(md[k]).split()) for k in TITLE_KEYS if isinstance(md.get(k), str | int)), "")
    if not title:
        return None
    kind = " ".join(str(md.get(KIND_KEY) or "").split())
    _, rank = split_instrument(title)
    if rank == "act" and kind and kind not in ACT_KINDS:
        # a decree or rule not named "… 시행령/시행규칙" ("공무원 보수규정"): its own family
        rank = "decree" if kind == "대통령령" else "rule"
    return LawIdentity(title=title, kind=kind, rank=rank, family=family_of(title),
                       promulgated=_date(md.get(PROMULGATED_KEY)), effective=_date(md.get(EFFECTIVE_KEY)))


def document_key(doc: Document) -> str:
    """What a collection keys the document by: its law identity, else its file name."""
    ident = law_identity(doc.metadata)
    return ident.key if ident is not None else doc.source


def work_of(doc: Document) -> str:
    """The work a document is a version of: a statute's 제목 (its versions differ in 공포일자/시행일자),
    else its ``doc_title`` — the configured file-name rule (``load.doc_title``) decides it, and drops a
    version marker such as "@2024-01-01" from the name, so "멤버십정책@2023.pdf" and "멤버십정책.pdf" are
    versions of one policy."""
    ident = law_identity(doc.metadata)
    return ident.title if ident is not None else doc.doc_title


def _date(v: Any) -> str | None:
    s = str(v).strip() if v is not None else ""
    return s or None
