"""The web page in a real browser: Debian's Chromium (never a downloaded one) driven by Playwright against
the real `jogak serve` process. Ask a question, click a citation, see the quote highlighted inside its
clause with the page number; browse the clause tree; upload a file with progress; no external requests.

Skips when /usr/bin/chromium is missing — unless JOGAK_REQUIRE_BROWSER=1 (CI), where that is a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serverkit import KEYS, ServerProcess

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"]
Q = "단순 변심인데 반품 배송비 얼마예요?"
QUOTE = "단순 변심에 의한 반품은 왕복 배송비 6,000원(편도 3,000원)을 고객이 부담한다."

pytestmark = pytest.mark.browser


def expect(locator: Any) -> Any:
    """Playwright's polling assertions (they run over the protocol, so the page's CSP, which forbids
    eval, does not get in the way the way ``wait_for_function`` strings would)."""
    from playwright.sync_api import expect as _expect

    return _expect(locator)


def _need_browser() -> None:
    why = None
    if not CHROMIUM.exists():
        why = f"{CHROMIUM} not found (install Debian's chromium: apt-get install -y chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            why = "the playwright Python package is not installed"
    if why:
        if os.environ.get("JOGAK_REQUIRE_BROWSER") == "1":
            pytest.fail(f"browser test required (JOGAK_REQUIRE_BROWSER=1) but {why}")
        pytest.skip(f"browser test skipped: {why}")


@pytest.fixture()
def browser_page(keyed_server: ServerProcess, tmp_path: Path) -> Iterator[tuple[Any, list[str]]]:
    _need_browser()
    from playwright.sync_api import expect as _expect
    from playwright.sync_api import sync_playwright

    _expect.set_options(timeout=60_000)
    outside: list[str] = []
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=str(CHROMIUM), headless=True, args=FLAGS,
            locale="ko-KR", viewport={"width": 1280, "height": 900})

        def guard(route: Any) -> None:
            url = route.request.url
            if url.startswith(keyed_server.url) or url.startswith("data:"):
                route.continue_()
            else:  # the page must work offline: anything else is recorded and refused
                outside.append(url)
                route.abort()

        ctx.route("**/*", guard)
        page = ctx.new_page()
        page.set_default_timeout(60_000)
        try:
            yield page, outside
        finally:
            ctx.close()


def test_ask_click_citation_shows_highlighted_clause_and_page(browser_page, keyed_server: ServerProcess) -> None:
    page, outside = browser_page
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(keyed_server.url + "/")
    # keyed server, no key yet: the page says so
    expect(page.locator("#status")).to_contain_text("API 키")
    page.fill("#api-key", KEYS["multi"])
    page.press("#api-key", "Enter")
    expect(page.locator("#collection option")).to_have_count(3)
    page.select_option("#collection", "haru")

    page.fill("#question", Q)
    page.press("#question", "Enter")
    marker = page.locator("#answer .cite-marker").first
    marker.wait_for(state="visible")
    assert "6,000원" in page.inner_text("#answer")
    assert marker.inner_text() == "[1]"
    assert page.inner_text("#sources li:first-child .path") == "반품교환환불정책 · 제2조 (반품 배송비) ①"

    marker.click()
    mark = page.locator("#evidence mark.quote")
    mark.wait_for(state="visible")
    assert page.inner_text("#evidence-path") == "반품교환환불정책 · 제2조 (반품 배송비) ①"
    assert page.inner_text("#evidence-page") == "p. 1"
    assert mark.inner_text() == QUOTE
    clause = page.locator("#evidence .clause")
    assert clause.inner_text().startswith("① 단순 변심")
    assert mark.evaluate("m => m.closest('.clause') !== null")
    # the whole chunk (제2조 with ② and ③) is shown around the clause
    text = page.inner_text("#evidence-text")
    assert text.startswith("제2조 (반품 배송비)") and "② 상품 불량" in text
    assert "② 상품 불량" not in clause.inner_text()
    bg = mark.evaluate("m => getComputedStyle(m).backgroundColor")
    assert bg not in ("rgba(0, 0, 0, 0)", "transparent")
    assert page.get_attribute("#answer .cite-marker", "aria-pressed") == "true"
    # focus moved to the evidence panel (keyboard users land on it)
    assert page.evaluate("document.activeElement.id") == "evidence"

    # keyboard: the source list entry opens the same evidence with Enter
    page.locator("#evidence").evaluate("e => { e.hidden = true; }")
    page.focus("#sources .source-link")
    page.keyboard.press("Enter")
    page.locator("#evidence mark.quote").wait_for(state="visible")
    assert page.inner_text("#evidence-page") == "p. 1"

    # "show in document": the clause tree opens at the cited clause
    page.click("#evidence-open")
    page.locator("#tree .select.active").wait_for(state="visible")
    assert page.get_attribute("#tree .select.active", "data-path") == "본문/제2조/제1항"
    assert page.inner_text("#node-path") == "반품교환환불정책 · 제2조 (반품 배송비) ①"  # as the citation says
    assert page.inner_text("#node-page") == "p. 1"
    assert page.inner_text("#node-text").startswith("① 단순 변심")
    assert errors == [] and outside == []


def test_document_browser_upload_and_english(browser_page, keyed_server: ServerProcess, tmp_path: Path) -> None:
    page, outside = browser_page
    page.goto(keyed_server.url + "/")
    page.evaluate(f"sessionStorage.setItem('jogak.key', {KEYS['multi']!r})")
    page.reload()
    expect(page.locator("#collection option")).to_have_count(3)
    page.select_option("#collection", "haru")
    # tabs by keyboard (arrow keys move between tabs)
    page.focus("#tab-ask")
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("#tab-docs", "aria-selected") == "true"
    page.locator("#doc-list .doc").first.wait_for(state="visible")
    titles = page.locator("#doc-list .doc strong").all_inner_texts()
    assert sorted(titles) == ["멤버십정책", "멤버십정책", "반품교환환불정책"]  # two 멤버십정책 versions
    page.locator("#doc-list .doc strong", has_text="멤버십정책").first.click()  # two versions: the first
    page.locator("#tree li.node").first.wait_for(state="visible")
    art = page.locator('#tree .select[data-path="본문/제3조"]')
    assert art.inner_text().startswith("제3조 (하루포인트 적립)")
    art.click()
    assert page.inner_text("#node-path") == "멤버십정책 · 제3조 (하루포인트 적립)"
    assert page.inner_text("#node-page") == "p. 1"
    # expand 제2조 to see its paragraphs (collapsed below the first level)
    item = page.locator('#tree .select[data-path="본문/제2조/제2항/제1호"]')
    assert not item.is_visible()
    page.click('#tree li.node[data-path="본문/제2조"] > .row > .toggle')
    page.click('#tree li.node[data-path="본문/제2조/제2항"] > .row > .toggle')
    assert item.is_visible()

    # upload into an empty collection, with progress and job status
    page.select_option("#collection", "scratch")
    f = tmp_path / "브라우저 규정.md"
    f.write_text("# 브라우저 규정\n\n제1조 (목적)\n이 규정은 브라우저 시험을 위한 것이다.\n\n"
                 "제2조 (연락)\n문의는 7일 이내에 답한다.\n", encoding="utf-8")
    page.evaluate("""() => { window.__seen = [];
        new MutationObserver(() => window.__seen.push(document.getElementById('upload-status').textContent))
          .observe(document.getElementById('upload-status'), {childList: true, characterData: true, subtree: true}); }""")
    page.set_input_files("#upload-files", str(f))
    page.click("#upload-button")
    expect(page.locator("#upload-status")).to_have_attribute("data-job", "succeeded", timeout=120_000)
    seen = page.evaluate("window.__seen")
    assert any(s.startswith("올리는 중") for s in seen), seen
    assert "완료: 1 추가" in page.inner_text("#upload-status")
    page.locator("#doc-list .doc strong", has_text="브라우저 규정").wait_for(state="visible")

    # a bad file: what went wrong, in Korean, with the file's name
    bad = tmp_path / "가짜.pdf"
    bad.write_bytes(b"not a pdf")
    page.set_input_files("#upload-files", str(bad))
    page.click("#upload-button")
    expect(page.locator("#upload-status")).to_have_attribute("data-job", "failed")
    assert page.inner_text("#upload-status") == "오류: 가짜.pdf: 파일 이름이 말하는 형식과 실제 내용이 다릅니다"

    # delete the uploaded document (two clicks: arm, then delete)
    row = page.locator("#doc-list li.doc-row", has_text="브라우저 규정")
    row.locator(".doc-delete").click()
    expect(row.locator(".doc-delete")).to_have_text("정말 삭제")
    row.locator(".doc-delete").click()
    expect(page.locator("#doc-list .doc strong", has_text="브라우저 규정")).to_have_count(0)
    expect(page.locator("#status")).to_contain_text("삭제했습니다: 브라우저 규정")

    # English labels
    page.click("#lang")
    assert page.inner_text("#lang") == "한국어"
    assert page.inner_text("#tab-ask") == "Ask"
    assert page.evaluate("document.documentElement.lang") == "en"
    page.click("#tab-ask")
    page.select_option("#collection", "contracts")
    page.fill("#question", "What is the governing law?")
    page.click("#ask-button")
    expect(page.locator("#answer-box")).to_have_attribute("aria-busy", "false")
    expect(page.locator("#answer")).not_to_be_empty()
    assert outside == []


SHOTS = Path(__file__).resolve().parents[2] / ".pytest_cache" / "jogak" / "screens"


def _shot(page: Any, name: str) -> None:
    """A screenshot for people to look at (kept under .pytest_cache/jogak/screens); it must not be blank."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    png = page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000


def test_screens_landing_answer_references_and_korean_errors(browser_page, keyed_server: ServerProcess) -> None:
    page, outside = browser_page
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(keyed_server.url + "/")
    page.evaluate(f"sessionStorage.setItem('jogak.key', {KEYS['multi']!r}); sessionStorage.setItem('jogak.lang', 'ko')")
    page.reload()
    expect(page.locator("#collection option")).to_have_count(3)
    page.select_option("#collection", "haru")

    # 1. landing: the collection's documents and questions to try; no ids, no numbers for people to decode
    expect(page.locator("#welcome-docs li.welcome-doc")).to_have_count(3)  # two 멤버십정책 versions
    assert sorted(page.locator("#welcome-docs strong").all_inner_texts()) == ["멤버십정책", "멤버십정책", "반품교환환불정책"]
    expect(page.locator("#samples .sample").first).to_be_visible()
    samples = page.locator("#samples .sample").all_inner_texts()
    assert samples and all(q.endswith("?") for q in samples), samples
    assert page.locator("#key-controls").is_visible()  # keyed server: the key box is there
    _shot(page, "1-landing")

    # 2. an answer (asked by clicking a sample question) with its evidence: words, not scores or ids
    page.locator("#samples .sample", has_text="반품 배송비").click()
    page.locator("#answer .cite-marker").first.wait_for(state="visible")
    expect(page.locator("#answer-box")).to_have_attribute("aria-busy", "false")
    relevance = page.locator("#sources .relevance").first.inner_text()
    assert relevance in ("질문과의 관련도: 높음", "질문과의 관련도: 보통", "질문과의 관련도: 낮음"), relevance
    assert "지지도" not in page.inner_text("#answer-box") and "1.00" not in page.inner_text("#answer-box")
    # the outcome and its confidence are shown; the markers [n] are the JSON's refs
    assert page.inner_text("#answer-head") == "답변"
    assert page.inner_text("#answer-confidence").startswith("신뢰도 ")
    page.locator("#answer .cite-marker").first.click()
    page.locator("#evidence mark.quote").wait_for(state="visible")
    source = page.inner_text("#evidence-source")
    assert source.endswith(".pdf") and "-" not in source.split(".pdf")[0][-9:]  # the file, no chunk id
    _shot(page, "2-answer")

    # 3. references in the clause tree: 제8조 ③ points at 부록A, which one click opens
    page.click("#tab-docs")
    page.locator("#doc-list .doc strong", has_text="반품교환환불정책").click()
    page.locator("#tree li.node").first.wait_for(state="visible")
    page.click('#tree li.node[data-path="본문/제8조"] > .row > .toggle')
    node = page.locator('#tree .select[data-path="본문/제8조/제3항"]')
    assert "→ 부록A" in node.inner_text()
    node.click()
    expect(page.locator("#node-refs")).to_be_visible()
    assert page.inner_text("#node-refs h3") == "참조"
    page.locator("#node-refs .ref-link", has_text="부록A").click()
    assert page.get_attribute("#tree .select.active", "data-path") == "부록A"
    _shot(page, "3-references")

    # footnotes with their text: the contract's 제7조 ① cites footnote 4
    page.select_option("#collection", "contracts")
    page.locator("#doc-list .doc strong", has_text="물품매매계약서").click()
    page.locator("#tree li.node").first.wait_for(state="visible")
    page.click('#tree li.node[data-path="본문/제7조"] > .row > .toggle')
    page.click('#tree .select[data-path="본문/제7조/제1항"]')
    expect(page.locator("#node-notes")).to_be_visible()
    note = page.inner_text("#node-notes li")
    assert note.startswith("4") and "민법 제398조" in note
    foot = page.locator('#tree .select[data-path="각주/4"]')
    assert "지체상금은" in foot.inner_text()  # a footnote in the tree shows its text, not a bare number

    # 4. a Korean upload error, and a collection name the server refuses, also in Korean
    page.select_option("#collection", "scratch")
    bad = SHOTS / "위장.pdf"
    bad.write_bytes(b"MZ\x90\x00" + b"\0" * 60 + b"%PDF-1.4 not really")
    page.set_input_files("#upload-files", str(bad))
    page.click("#upload-button")
    expect(page.locator("#upload-status")).to_have_attribute("data-job", "failed")
    msg = page.inner_text("#upload-status")
    assert msg == "오류: 위장.pdf: 파일 이름이 말하는 형식과 실제 내용이 다릅니다", msg
    assert page.locator("#upload-steps .step.failed").count() == 1
    page.fill("#new-collection", "haru")
    page.click("#collection-create")
    expect(page.locator("#collection-status")).to_have_text("오류: 이미 있습니다")
    page.fill("#new-collection", "계약서")  # this key may not create it: said in Korean as well
    page.click("#collection-create")
    expect(page.locator("#collection-status")).to_have_text("오류: 이 컬렉션을 쓸 권한이 없습니다")
    _shot(page, "4-upload-error")
    assert errors == [] and outside == []


def test_local_mode_has_no_key_box(browser_page, keyed_server: ServerProcess) -> None:
    """What the page does with a local-mode server (its /healthz answered here as such a server would)."""
    page, _ = browser_page
    page.route("**/healthz", lambda route: route.fulfill(
        status=200, content_type="application/json",
        body='{"status": "ok", "ready": true, "mode": "local", "version": "0"}'))
    page.goto(keyed_server.url + "/")
    expect(page.locator("#status")).not_to_be_empty()
    assert not page.locator("#key-controls").is_visible()
