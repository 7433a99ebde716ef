"""MCP: `jogak mcp` as a real process, driven by the official SDK's clients — over stdio (the SDK spawns
the command) calling every tool, and over streamable HTTP with API keys (the access rules of `jogak serve`)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from .conftest import JOGAK, QUESTION, ROOT, env

KEYS = {"haru": "k-haru-3f1e9d2c7b5a4e6f", "multi": "k-multi-8a7b6c5d4e3f2a1b"}
TOOLS = {"search", "ask", "get_clause", "tree", "list_documents"}


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _session_calls(read: Any, write: Any, calls: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    from mcp import ClientSession

    async with ClientSession(read, write) as session:
        out: dict[str, Any] = {"init": await session.initialize(), "tools": (await session.list_tools()).tools}
        for i, (name, args) in enumerate(calls):
            out[f"{i}:{name}"] = await session.call_tool(name, args)
        return out


STDIO_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("list_documents", {}),
    ("search", {"query": "단순 변심 반품 배송비", "k": 2}),
    ("ask", {"question": QUESTION}),
    ("get_clause", {"document": "반품교환환불정책", "path": "본문/제2조/제1항"}),
    ("tree", {"document": "하루마켓_멤버십정책.pdf", "depth": 1}),
    ("get_clause", {"document": "멤버십정책", "path": "본문/제99조"}),
    ("search", {"query": "대금 지급", "collection": "contracts", "k": 1, "filters": ["block_type=eq:body"]}),
    ("search", {"query": "x", "collection": "nope"}),
    ("search", {"query": "x", "filters": ["no-operator"]}),
    ("get_clause", {"document": "2001다99999", "path": "판결요지/[1]", "collection": "cases"}),
]


@pytest.fixture(scope="module")
def stdio(integration_store: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One stdio session with `jogak mcp --store … --collection haru`, every call in STDIO_CALLS made."""
    import anyio
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=JOGAK, args=["mcp", "--store", str(integration_store), "--collection",
                                                        "haru"], env=env(), cwd=str(ROOT))
    log = tmp_path_factory.mktemp("mcp-stdio") / "stderr.log"

    async def run() -> dict[str, Any]:
        with log.open("w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                return await _session_calls(read, write, STDIO_CALLS)

    try:
        return anyio.run(run)
    except Exception:
        print(log.read_text(errors="replace")[-4000:])
        raise


def _ok(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content[0].text
    return result.structured_content


def test_stdio_lists_the_five_tools_with_json_schemas(stdio: dict[str, Any]) -> None:
    assert stdio["init"].server_info.name == "jogak"
    tools = {t.name: t for t in stdio["tools"]}
    assert set(tools) == TOOLS
    for t in tools.values():
        assert t.description and t.input_schema["type"] == "object" and t.output_schema
    assert tools["search"].input_schema["required"] == ["query"]
    assert set(tools["get_clause"].input_schema["required"]) == {"document", "path"}
    assert set(tools["ask"].input_schema["properties"]) == {"question", "k", "filters", "collection", "as_of"}
    assert "citations" in tools["ask"].output_schema["properties"]


def test_stdio_list_documents_and_search(stdio: dict[str, Any]) -> None:
    docs = _ok(stdio["0:list_documents"])
    assert docs["collection"] == "haru" and docs["collections"] == ["haru", "cases", "contracts", "default"]
    assert {d["doc_title"] for d in docs["documents"]} == {"멤버십정책", "반품교환환불정책"}
    assert all("path" not in d for d in docs["documents"])  # no server-side file paths

    res = _ok(stdio["1:search"])
    assert res["collection"] == "haru" and len(res["hits"]) == 2
    top = res["hits"][0]
    assert top["metadata"]["path"] == "본문/제2조" and top["metadata"]["page_start"] == 1
    assert top["citation"] == "반품교환환불정책 · 제2조 (반품 배송비)"
    assert top["source_note"] == "(근거: 반품교환환불정책 · 제2조 (반품 배송비))"

    other = _ok(stdio["6:search"])
    assert other["collection"] == "contracts" and other["hits"][0]["metadata"]["doc_title"] == "물품매매계약서"
    assert other["filters"][0]["key"] == "block_type"


def test_stdio_ask_answers_with_verified_citations(stdio: dict[str, Any]) -> None:
    ans = _ok(stdio["2:ask"])
    assert ans["answer"].splitlines()[0].endswith("(근거: 반품교환환불정책 · 제2조 (반품 배송비) ①)") and ans["supported"]
    c = ans["citations"][0]
    assert (c["path"], c["article"], c["page_start"]) == ("본문/제2조/제1항", "제2조 (반품 배송비) ①", 1)
    assert "6,000원" in c["quote"] and c["highlight"]["quote"]
    # the unstructured content (what older clients show) is the same JSON
    assert "(근거: 반품교환환불정책 · 제2조 (반품 배송비) ①)" in stdio["2:ask"].content[0].text


def test_stdio_get_clause_and_tree(stdio: dict[str, Any]) -> None:
    cl = _ok(stdio["3:get_clause"])
    assert cl["path"] == "본문/제2조/제1항" and cl["citation"] == "반품교환환불정책 · 제2조 (반품 배송비) ①"
    assert cl["text"] == "① 단순 변심에 의한 반품은 왕복 배송비 6,000원(편도 3,000원)을 고객이 부담한다."
    assert cl["page_start"] == 1 and cl["chunk_ids"] and cl["document"]["doc_title"] == "반품교환환불정책"

    tree = _ok(stdio["4:tree"])
    kids = tree["tree"]["children"]
    assert tree["document"]["doc_title"] == "멤버십정책"
    assert [k["path"] for k in kids][:2] == ["본문/제1조", "본문/제2조"]
    assert all(k["children"] == [] for k in kids) and kids[1]["n_children"] == 4  # cut at depth 1

    case = _ok(stdio["9:get_clause"])  # a court decision found by its case number, in another collection
    assert case["collection"] == "cases" and case["text"].startswith("[1] 피해자의 보험자에 대한")
    assert case["citation"] == "대법원 2001. 5. 15. 선고 2001다99999 판결 · 판결요지 [1]"


def test_stdio_errors_are_tool_errors_that_say_what_exists(stdio: dict[str, Any]) -> None:
    missing = stdio["5:get_clause"]
    assert missing.is_error and "not_found" in missing.content[0].text
    assert "본문/제5조" in missing.content[0].text  # the paths that do exist
    nope = stdio["7:search"]
    assert nope.is_error and "no collection 'nope'" in nope.content[0].text
    bad = stdio["8:search"]
    assert bad.is_error and "bad_filter" in bad.content[0].text


# ─── streamable HTTP with keys ─────────────────────────────────────────────────────────────────


@pytest.fixture(scope="module")
def http_server(integration_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    work = tmp_path_factory.mktemp("mcp-http")
    cfg = work / "jogak.yaml"
    cfg.write_text(yaml.safe_dump({
        "load": {"doc_title": {"strip_prefixes": ["하루마켓_"]}},
        "server": {"keys": {KEYS["haru"]: ["haru"], KEYS["multi"]: ["haru", "contracts"]},
                   "default_collection": "haru"}}, allow_unicode=True), encoding="utf-8")
    port = _free_port()
    log = (work / "server.log").open("wb")
    proc = subprocess.Popen([JOGAK, "mcp", "--transport", "http", "--port", str(port), "--store",
                             str(integration_store), "--config", str(cfg)], cwd=ROOT, env=env(), stdout=log,
                            stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert proc.poll() is None, (work / "server.log").read_text(errors="replace")
            try:
                httpx.post(url, json={}, timeout=2)
                break
            except httpx.HTTPError:
                time.sleep(0.25)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        log.close()


def _http_calls(url: str, headers: dict[str, str], calls: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    import anyio
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async def run() -> dict[str, Any]:
        async with (create_mcp_http_client(headers=headers) as http,
                    streamable_http_client(url, http_client=http) as (read, write)):
            return await _session_calls(read, write, calls)

    return anyio.run(run)


def test_http_transport_applies_the_services_key_rules(http_server: str) -> None:
    missing = httpx.post(http_server, json={}, timeout=10)
    assert missing.status_code == 401 and missing.json()["error"] == "unauthorized"
    wrong = httpx.post(http_server, json={}, headers={"Authorization": "Bearer nope"}, timeout=10)
    assert wrong.status_code == 401 and wrong.json()["message"] == "invalid API key"

    calls = [("list_documents", {}), ("search", {"query": "대금 지급", "collection": "contracts", "k": 1}),
             ("ask", {"question": QUESTION}), ("search", {"query": "반품", "collection": "cases"})]
    haru = _http_calls(http_server, {"Authorization": f"Bearer {KEYS['haru']}"}, calls)
    assert {t.name for t in haru["tools"]} == TOOLS
    assert _ok(haru["0:list_documents"])["collections"] == ["haru"]
    assert haru["1:search"].is_error and "forbidden" in haru["1:search"].content[0].text
    assert _ok(haru["2:ask"])["answer"].splitlines()[0].endswith("(근거: 반품교환환불정책 · 제2조 (반품 배송비) ①)")
    assert haru["3:search"].is_error and "forbidden" in haru["3:search"].content[0].text  # exists, not granted

    multi = _http_calls(http_server, {"X-API-Key": KEYS["multi"]}, calls[:2])
    assert _ok(multi["0:list_documents"])["collections"] == ["haru", "contracts"]
    assert _ok(multi["1:search"])["hits"][0]["metadata"]["doc_title"] == "물품매매계약서"


def test_cli_refuses_public_bind_without_keys_and_missing_store(integration_store: Path, tmp_path: Path) -> None:
    run = lambda *a: subprocess.run([JOGAK, "mcp", *a], cwd=ROOT, env=env(), capture_output=True, text=True,  # noqa: E731
                                    timeout=120)
    public = run("--transport", "http", "--host", "0.0.0.0", "--store", str(integration_store))
    assert public.returncode == 2 and "refusing to bind 0.0.0.0" in public.stderr and public.stdout == ""
    missing = run("--store", str(tmp_path / "none"))
    assert missing.returncode == 2 and "no store at" in missing.stderr and missing.stdout == ""
