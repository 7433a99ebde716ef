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
    assert sorted(titles) == ["멤버십정책", "반품교환환불정책"]
    page.locator("#doc-list .doc strong", has_text="멤버십정책").click()
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

    # a bad file: the server's message is shown
    bad = tmp_path / "가짜.pdf"
    bad.write_bytes(b"not a pdf")
    page.set_input_files("#upload-files", str(bad))
    page.click("#upload-button")
    expect(page.locator("#upload-status")).to_contain_text("415")
    assert "the name says PDF" in page.inner_text("#upload-status")

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
