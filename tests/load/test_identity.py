"""Document identity: a statute's front matter names the work and version; other files keep their name."""

from __future__ import annotations

from pathlib import Path

from jogak.chunk import doc_id_for
from jogak.grammar.laws import family_of, split_instrument
from jogak.load import load
from jogak.load.identity import document_key, law_identity


def _law(title: str, kind: str, promulgated: str, effective: str, body: str = "제1조(목적) 이 법은 …") -> str:
    return (f"---\n제목: {title}\n법령ID: '001248'\n법령구분: {kind}\n공포일자: {promulgated}\n"
            f"공포번호: '17363'\n시행일자: {effective}\n상태: 시행\n---\n\n# {title}\n\n##### 제1조 (목적)\n\n{body}\n")


def _write(p: Path, text: str) -> Path:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def test_front_matter_title_is_the_doc_title(tmp_path: Path) -> None:
    act = load(_write(tmp_path / "주택임대차보호법" / "법률.md", _law("주택임대차보호법", "법률", "2023-07-11", "2023-07-11")))
    decree = load(_write(tmp_path / "주택임대차보호법" / "시행령.md",
                         _law("주택임대차보호법 시행령", "대통령령", "2025-12-30", "2026-01-02")))
    assert act.doc_title == "주택임대차보호법" and decree.doc_title == "주택임대차보호법 시행령"
    ident = law_identity(decree.metadata)
    assert ident is not None and ident.rank == "decree" and ident.family == "주택임대차보호법"
    assert ident.promulgated == "2025-12-30" and ident.effective == "2026-01-02"


def test_two_files_of_one_name_from_two_folders_are_two_documents(tmp_path: Path) -> None:
    a = load(_write(tmp_path / "근로기준법" / "법률.md", _law("근로기준법", "법률", "2026-08-04", "2026-10-02")))
    b = load(_write(tmp_path / "최저임금법" / "법률.md", _law("최저임금법", "법률", "2020-05-26", "2020-05-26")))
    assert a.source == b.source == "법률.md"
    assert doc_id_for(a) != doc_id_for(b)
    # the same file loaded again is the same document
    assert doc_id_for(load(tmp_path / "근로기준법" / "법률.md")) == doc_id_for(a)


def test_two_versions_of_one_law_are_two_documents(tmp_path: Path) -> None:
    old = load(_write(tmp_path / "v" / "법률@2020-06-09.md", _law("주택임대차보호법", "법률", "2020-06-09", "2020-12-10")))
    new = load(_write(tmp_path / "v" / "법률@2020-07-31.md", _law("주택임대차보호법", "법률", "2020-07-31", "2020-07-31")))
    assert old.doc_title == new.doc_title == "주택임대차보호법"
    assert document_key(old) != document_key(new) and doc_id_for(old) != doc_id_for(new)
    # one version copied under another name is still that version
    copy = load(_write(tmp_path / "w" / "사본.md", (tmp_path / "v" / "법률@2020-06-09.md").read_text("utf-8")))
    assert doc_id_for(copy) == doc_id_for(old)


def test_files_without_a_law_front_matter_keep_the_file_name_rule(tmp_path: Path) -> None:
    plain = load(_write(tmp_path / "a" / "이용약관.md", "# 이용약관\n\n제1조(목적) 이 약관은 …\n"))
    other = load(_write(tmp_path / "b" / "policy.md", "---\ntitle: 반품 정책\n---\n\n제1조(목적) …\n"))
    assert plain.doc_title == "이용약관" and document_key(plain) == "이용약관.md"
    assert other.doc_title == "policy" and document_key(other) == "policy.md"


def test_family_names() -> None:
    assert split_instrument("상호저축은행법 시행령") == ("상호저축은행법", "decree")
    assert split_instrument("상호저축은행법 시행규칙") == ("상호저축은행법", "rule")
    assert split_instrument("근로기준법") == ("근로기준법", "act")
    # a ministry's own rule under a shared Act; names compared without spacing
    assert family_of("국토교통부 소관 비상대비에 관한 법률 시행규칙") == family_of("비상대비에 관한 법률")
    assert family_of("특정범죄신고자등보호법시행령") == family_of("특정범죄신고자등 보호법")
    # a decree named without "시행령" is its own family
    ident = law_identity({"제목": "공무원 보수규정", "법령구분": "대통령령"})
    assert ident is not None and ident.rank == "decree" and ident.family == "공무원보수규정"
