"""The web page with versions (issue 15), in Debian's Chromium against a real `jogak serve`: a question
about 2020 is answered from the version then in force, named in the answer; the cited clause offers
"다른 시점 보기", which shows the 신구조문대비표 (현행 | 개정) with the changed words marked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from serverkit import ServerProcess
from test_browser import CHROMIUM, FLAGS, _need_browser, expect

from jogak.index.store import open_store

VERSIONS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora" / "korean_law_sets" / "주택임대차보호법" / "versions"

pytestmark = pytest.mark.browser


@pytest.fixture()
def law_server(tmp_path: Path) -> Any:
    if not VERSIONS.is_dir():
        pytest.skip("shared corpus korean_law_sets absent")
    _need_browser()
    st = open_store(tmp_path / "db", embedder=False)
    assert not st.ingest([str(VERSIONS)]).failed
    st.close()
    server = ServerProcess(tmp_path / "db", None, tmp_path / "serve.log").start()
    try:
        yield server
    finally:
        server.stop()


def test_other_versions_show_the_old_and_new_text(law_server: ServerProcess, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    outside: list[str] = []
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=str(CHROMIUM), headless=True, args=FLAGS,
            locale="ko-KR", viewport={"width": 1280, "height": 900})

        def guard(route: Any) -> None:
            if route.request.url.startswith(law_server.url) or route.request.url.startswith("data:"):
                route.continue_()
            else:
                outside.append(route.request.url)
                route.abort()

        ctx.route("**/*", guard)
        page = ctx.new_page()
        page.set_default_timeout(60_000)
        page.on("pageerror", lambda e: errors.append(str(e)))
        try:
            page.goto(law_server.url + "/")
            expect(page.locator("#collection option")).to_have_count(1)
            page.fill("#question", "2021년에 임차권등기명령을 신청하면 등기 비용은 누가 부담했나요?")
            page.press("#question", "Enter")
            marker = page.locator("#answer .cite-marker").first
            marker.wait_for(state="visible")
            assert "당시 시행되던 주택임대차보호법(2020. 7. 31. 시행" in page.inner_text("#answer")
            assert "제3조의3" in page.inner_text("#sources")
            marker.click()
            button = page.locator("#evidence-versions .other-versions")
            button.wait_for(state="visible")
            assert button.inner_text() == "다른 시점 보기"
            assert "2020-07-31 시행 ~ 2023-07-11 전까지" in page.inner_text("#evidence-versions .version-of")
            # the superseded 2020-06-09 text is not offered: only the 2023-07-11 version
            assert page.locator("#evidence-versions select option").all_inner_texts() == ["2023-07-11 시행 (현행)"]
            button.click()
            table = page.locator("#evidence-versions table.sin-gu")
            table.wait_for(state="visible")
            heads = page.locator("#evidence-versions table.sin-gu thead th").all_inner_texts()
            assert heads[0].startswith("현행 (2020-07-31") and heads[1].startswith("개정 (2023-07-11")
            assert "제3조의3 (임차권등기명령)" in page.inner_text("#evidence-versions table.sin-gu tbody")
            assert page.locator("#evidence-versions table.sin-gu ins, #evidence-versions table.sin-gu del").count() > 0
        finally:
            ctx.close()
    assert errors == [] and outside == []
