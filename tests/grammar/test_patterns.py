"""Named patterns and the Grammar objects: what they match, what they refuse, and that the grammar layer
stays the bottom of the pipeline."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from jogak.grammar import EN, KO, all_schemes, for_language
from jogak.grammar import patterns as p

GRAMMAR_DIR = Path(__file__).resolve().parents[2] / "src" / "jogak" / "grammar"


def test_grammar_imports_nothing_else_of_jogak() -> None:
    for path in GRAMMAR_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("jogak"):
                assert node.module.startswith("jogak.grammar"), f"{path.name} imports {node.module}"


@pytest.mark.parametrize(("text", "n", "m"), [("제3조", "3", None), ("제 12 조의 2", "12", "2"), ("제43조의2(정의)", "43", "2")])
def test_article_label(text: str, n: str, m: str | None) -> None:
    mt = p.ARTICLE_LABEL_RE.match(text)
    assert mt is not None and mt.group("n") == n and mt.group("m") == m


def test_label_fragment_names_groups_as_asked() -> None:
    frag = p.label("호", "item", "itemsub")
    mt = re.fullmatch(frag, "제9호의2")
    assert mt is not None and mt.group("item") == "9" and mt.group("itemsub") == "2"
    assert re.fullmatch(p.label("호"), "제9호의2") is None  # no branch unless asked


def test_article_heading_and_heading_line() -> None:
    mt = p.ARTICLE_HEADING_RE.match("제2조(반품 배송비) 고객은 …")
    assert mt is not None and mt.group("title") == "반품 배송비"
    line = re.compile(p.ARTICLE_HEADING_LINE)
    assert line.match("제2조(반품 배송비)")
    assert line.match("제2조")
    assert not line.match("제2조에 따라 환불한다")


def test_amendment_tag_and_toc_leader() -> None:
    assert p.AMENDMENT_TAG_RE.search("정의 <개정 2020. 1. 1.>")
    assert p.AMENDMENT_TAG_RE.search("목적 <타법개정 2019.1.15>")
    assert not p.AMENDMENT_TAG_RE.search("정의 <개정 2020. 1. 1.> 이 법에서")  # only at the end
    assert p.TOC_LEADER_RE.search("제1조(목적) ........ 3")
    assert p.TOC_LEADER_RE.search("총칙 …… 12")
    assert not p.TOC_LEADER_RE.search("제1조(목적) 이 약관은 3")


@pytest.mark.parametrize(("text", "year", "code", "serial"),
                         [("2001다48781", "2001", "다", "48781"), ("97다카9619", "97", "다카", "9619"),
                          ("2004헌마554", "2004", "헌마", "554")])
def test_case_number(text: str, year: str, code: str, serial: str) -> None:
    mt = p.CASE_NUMBER_RE.fullmatch(text)
    assert mt is not None and (mt.group("year"), mt.group("code"), mt.group("serial")) == (year, code, serial)


def test_grammars_are_frozen_and_typed() -> None:
    assert for_language("ko") is KO and for_language("en") is EN and for_language("fr") is EN
    with pytest.raises(AttributeError):
        KO.toc_words = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        KO.labels["body"] = "x"  # type: ignore[index]
    assert KO.labels["body"] == "본문" and EN.labels["body"] == ""
    assert KO.deleted_re.fullmatch("삭제 <2023. 6. 1.>")
    assert EN.deleted_re.fullmatch("[Reserved].")
    assert not EN.pointer_after_attached_re.match("에 따른다")  # English has no attached pointer form
    assert KO.scheme("ko_article").format_label("제 3 조의 2", "3", (3, 2)) == "제3조의2"
    assert EN.scheme("en_article").format_label("ARTICLE iv", "iv", (4, 0)) == "Article IV"
    assert {"ko_article", "ko_roman", "en_dotted", "en_decimal_bare"} <= set(all_schemes())
