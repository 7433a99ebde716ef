"""Seed 000's three article-tag rules, computed from offsets (repeated text cannot fool it)."""

from __future__ import annotations

from jogak.chunk.articles import ArticleTagger, HeadingGrammar, normalise_heading

DOC = (
    "제1조 (목적)\n목적 문장이다.\n"
    "제2조(정의)\n정의 문장이다. 반복되는 문장.\n"
    "제3조 (적립)\n반복되는 문장.\n적립 문장이다.\n"
    "자주 묻는 질문 (FAQ)\nQ. 무엇?\nA. 답.\n"
    "부칙\n시행한다.\n"
)


def span(sub: str, nth: int = 1) -> tuple[int, int]:
    pos = -1
    for _ in range(nth):
        pos = DOC.index(sub, pos + 1)
    return pos, pos + len(sub)


def test_all_headings_in_chunk() -> None:
    t = ArticleTagger(DOC)
    s, _ = span("제1조")
    _, e = span("정의 문장이다.")
    assert t.tag(s, e) == "제1조 (목적), 제2조 (정의)"


def test_inherits_previous_clause_first() -> None:
    t = ArticleTagger(DOC)
    s, _ = span("적립 문장이다.")
    _, e = span("Q. 무엇?")
    assert t.tag(s, e) == "제3조 (적립), 자주 묻는 질문 (FAQ)"


def test_repeated_text_uses_offsets_not_find() -> None:
    # "반복되는 문장." occurs in 제2조 and 제3조; a text.find() would tag the second as 제2조.
    t = ArticleTagger(DOC)
    s, e = span("반복되는 문장.", 2)
    assert t.tag(s, e) == "제3조 (적립)"
    s, e = span("반복되는 문장.", 1)
    assert t.tag(s, e) == "제2조 (정의)"


def test_trailing_heading_only_is_dropped() -> None:
    t = ArticleTagger(DOC)
    s, _ = span("목적 문장이다.")
    _, e = span("제2조(정의)")
    assert t.tag(s, e) == "제1조 (목적)"
    # a chunk cut inside the heading line itself
    assert t.tag(s, e - 3) == "제1조 (목적)"


def test_faq_and_addenda_are_headings() -> None:
    t = ArticleTagger(DOC)
    s, _ = span("부칙")
    assert t.tag(s, len(DOC)) == "부칙"


def test_running_text_reference_is_not_a_heading() -> None:
    doc = "제1조 (목적)\n본문이다.\n제3조에 따라 처리한다.\n"
    t = ArticleTagger(doc)
    assert [h.name for h in t.headings] == ["제1조 (목적)"]


def test_grammar_is_configurable() -> None:
    g = HeadingGrammar.from_config({"headings": [r"Article\s+\d+.*"]})
    t = ArticleTagger("Article 1 Purpose\ntext\nArticle 2 Scope\nmore\n", g)
    assert [h.name for h in t.headings] == ["Article 1 Purpose", "Article 2 Scope"]


def test_normalise() -> None:
    assert normalise_heading("제1조(목적)") == "제1조 (목적)"
    assert normalise_heading("제17조의2 (시정)") == "제17조의2 (시정)"
    assert normalise_heading("제20조(이용자의 의무) 이용자는 다음") == "제20조 (이용자의 의무)"
