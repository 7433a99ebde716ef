"""An article's first item written on its heading line ("제2조(회원탈퇴) 1. 회원은 …"), as terms of service
often are: the item is a node, so the items after it are in sequence and "제1호" resolves."""

from __future__ import annotations

from jogak.load import load_bytes
from jogak.structure import parse

TERMS = """제1조(목적) 이 약관은 서비스 이용 조건을 정한다.

제2조(회원탈퇴) 1. 회원은 언제든지 탈퇴를 요청할 수 있다.
2. 회사는 제1호의 요청을 즉시 처리한다.

제3조(분사무소(分事務所)의 설치) 1. 회사는 분사무소를 둘 수 있다.
2. 분사무소의 위치는 회사가 정한다.
"""


def _tree(text: str):
    return parse(load_bytes(text.encode("utf-8"), "약관.txt"))


def test_first_item_on_the_heading_line_is_a_node() -> None:
    t = _tree(TERMS)
    paths = [n.path for n in t.root.walk()]
    assert "본문/제2조/제1호" in paths and "본문/제2조/제2호" in paths
    assert "본문/제3조/제1호" in paths and "본문/제3조/제2호" in paths
    first = t.find("본문/제2조/제1호")
    assert t.doc.text[first.char_start:first.char_end].startswith("1. 회원은 언제든지")
    assert not t.warnings


def test_a_number_inside_the_heading_sentence_is_no_item() -> None:
    # "1." is an item only right after the heading's bracketed title, not after a sentence that starts there
    t = _tree("제1조(목적) 이 약관은 1. 2.의 조건을 정한다.\n제2조(기타) 나머지.\n")
    assert [n.path for n in t.root.walk()] == ["", "본문/제1조", "본문/제2조"]


def test_reference_to_the_first_item_resolves() -> None:
    t = _tree(TERMS)
    second = t.find("본문/제2조/제2호")
    targets = [r.target_path for r in second.refs] if hasattr(second, "refs") else []
    assert "본문/제2조/제1호" in targets
