"""Properties every tree must have, on crafted, corpus and random input."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jogak.load import load_bytes
from jogak.model import Node
from jogak.structure import parse
from sample_texts import EN, KO_CONTRACT


def own_spans(n: Node) -> list[tuple[int, int]]:
    spans, pos = [], n.char_start
    for c in n.children:
        if c.char_start > pos:
            spans.append((pos, c.char_start))
        pos = max(pos, c.char_end)
    if n.char_end > pos:
        spans.append((pos, n.char_end))
    return spans


def check_tree(tree) -> None:
    text = tree.doc.text
    owner = [0] * len(text)
    paths = set()
    for n in tree.root.walk():
        assert 0 <= n.char_start <= n.char_end <= len(text)
        assert n.path not in paths, f"duplicate path {n.path}"
        paths.add(n.path)
        for c in n.children:
            assert n.char_start <= c.char_start and c.char_end <= n.char_end, (n.path, c.path)
        for a, b in zip(n.children, n.children[1:], strict=False):
            assert a.char_end <= b.char_start, (a.path, b.path)
        assert [c.sibling_order for c in n.children] == list(range(1, len(n.children) + 1))
        if n is tree.root:
            continue
        for s, e in own_spans(n):
            for i in range(s, e):
                owner[i] += 1
    # every non-blank body character belongs to exactly one node (the root keeps only the title)
    first = min((c.char_start for c in tree.root.children), default=len(text))
    for i, ch in enumerate(text):
        if ch.isspace() or i < first:
            continue
        assert owner[i] == 1, (i, text[max(0, i - 20) : i + 20], owner[i])


def test_crafted_documents() -> None:
    check_tree(parse(load_bytes(KO_CONTRACT.encode(), "k.txt")))
    check_tree(parse(load_bytes(EN.encode(), "e.txt")))


def test_statutes(corpora_dir) -> None:
    from jogak.load import load

    for f in sorted((corpora_dir / "korean_statutes").glob("*.md")):
        check_tree(parse(load(f)))


def test_cuad_sample(corpora_dir) -> None:
    from jogak.load import load

    for f in sorted((corpora_dir / "cuad_contracts" / "contracts").glob("*.txt"))[:12]:
        check_tree(parse(load(f)))


ATOMS = ["제1조 (목적)", "제2조(정의)", "제3조", "①", "②", "③", "1.", "2.", "가.", "나.", "부록A", "부칙", "별표 1",
         "제3조에 따라", "제2항", "Section 4.2", "ARTICLE 1", "(a)", "(i)", "Schedule 1", "자주 묻는 질문", "Q.",
         "A.", "- 3 -", "다.", "한다.", "텍스트", "the", "|", "\t", " ", "\n", "\n\n"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(ATOMS), max_size=80))
def test_random_structure_text_never_crashes(parts: list[str]) -> None:
    text = " ".join(parts)
    tree = parse(load_bytes(text.encode() or b" ", "r.txt")) if text.strip() else None
    if tree is not None:
        check_tree(tree)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=400))
def test_arbitrary_unicode_never_crashes(text: str) -> None:
    from jogak.model import Document

    # straight to the parser (the loader rightly refuses control characters)
    check_tree(parse(Document(source="u.txt", doc_title="u", text=text, format="text")))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 30), st.sampled_from(["에 따라", "제2항에 따라", "의 규정에 의하여", "을 준용한다"])),
                min_size=1, max_size=5))
def test_running_text_references_never_become_headings(refs) -> None:
    lines = ["제1조 (목적)", "목적을 정한다."]
    for n, tail in refs:
        lines.append(f"제{n}조{tail} 처리한다.")  # a wrapped line that starts with a reference
    lines += ["제2조 (정의)", "정의를 정한다."]
    tree = parse(load_bytes("\n".join(lines).encode(), "r.txt"))
    arts = [n.label for n in tree.root.walk() if n.kind == "article"]
    assert arts == ["제1조", "제2조"]
