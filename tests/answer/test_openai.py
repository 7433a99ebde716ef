"""The OpenAI-compatible generator against a real HTTP server on 127.0.0.1 speaking the chat-completions
protocol with scripted replies — valid JSON, malformed JSON, out-of-range evidence ids, a timeout, HTTP
errors and an SSE stream. No mock objects: requests go through httpx and a socket."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from jogak.answer.ask import AskOptions, answer_hits
from jogak.answer.generators import GeneratorError
from jogak.answer.generators.openai import AnswerFieldDecoder, OpenAIChatGenerator, parse_reply

from .helpers import TinyRetriever, haru_chunks


class ScriptedServer:
    """Replies, in order, with scripted actions: ("json", content) / ("raw", status, body) /
    ("sleep", seconds, content) / ("sse", [deltas]). Requests are recorded."""

    def __init__(self) -> None:
        self.script: list[tuple[Any, ...]] = []
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a: Any) -> None:
                pass

            def do_POST(self) -> None:
                n = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(n) or b"{}")
                outer.requests.append(body)
                outer.headers.append(dict(self.headers))
                if self.path != "/v1/chat/completions":
                    return self._send(404, {"error": {"message": f"no route {self.path}"}})
                action = outer.script.pop(0) if outer.script else ("raw", 500, {"error": "script empty"})
                kind = action[0]
                if kind == "json":
                    return self._send(200, _completion(action[1]))
                if kind == "raw":
                    return self._send(action[1], action[2])
                if kind == "sleep":
                    time.sleep(action[1])
                    try:
                        return self._send(200, _completion(action[2]))
                    except (BrokenPipeError, ConnectionResetError):
                        return None
                if kind == "sse":
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.end_headers()
                    for d in action[1]:
                        chunk = {"choices": [{"index": 0, "delta": {"content": d}}]}
                        self.wfile.write(f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode())
                        self.wfile.flush()
                    self.wfile.write(b"data: [DONE]\n\n")
                    self.wfile.flush()
                    return None
                raise AssertionError(kind)

            def _send(self, status: int, obj: Any) -> None:
                data = (obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False)).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> ScriptedServer:
        self.thread.start()
        return self

    def __exit__(self, *a: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _completion(content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": "scripted",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                     "finish_reason": "stop"}],
    }


@pytest.fixture()
def server() -> Iterator[ScriptedServer]:
    with ScriptedServer() as s:
        yield s


@pytest.fixture(scope="module")
def retriever() -> TinyRetriever:
    return TinyRetriever(haru_chunks())


def _gen(server: ScriptedServer, **kw: Any) -> OpenAIChatGenerator:
    kw.setdefault("timeout", 5.0)
    kw.setdefault("backoff", 0.01)
    return OpenAIChatGenerator(model="scripted", base_url=server.base_url, api_key="sk-test", **kw)


Q = "단순 변심인데 반품 배송비 얼마예요?"


def _ask(server: ScriptedServer, retriever: TinyRetriever, **kw: Any):
    return answer_hits(Q, retriever.search(Q), generator=_gen(server, **kw), options=AskOptions())


def test_valid_json_reply_gets_code_rendered_citation(server, retriever):
    server.script = [("json", json.dumps({
        "answer": "단순 변심으로 반품하면 왕복 배송비 6,000원(편도 3,000원)을 고객이 부담합니다.",
        "evidence_ids": [1]}, ensure_ascii=False))]
    c = _ask(server, retriever)
    ans = c.answer
    assert ans.supported
    assert ans.generator == "openai"
    assert "(근거: 반품교환환불정책 · 제2조 (반품 배송비) ①)" in ans.answer
    [cit] = ans.citations
    assert cit.n == 1 and cit.article == "제2조 (반품 배송비) ①"
    assert cit.quote.startswith("단순 변심에 의한 반품은")
    assert cit.support >= 0.5
    # The request: system prompt + seed 003's user prompt, JSON mode, bearer key.
    req = server.requests[0]
    assert req["model"] == "scripted" and req["response_format"] == {"type": "json_object"}
    assert req["messages"][0]["role"] == "system" and "evidence_ids" in req["messages"][0]["content"]
    user = req["messages"][1]["content"]
    assert user.startswith("[정책 발췌]\n■ 주요 증거 (본문)\n[발췌 1] (반품교환환불정책 · 제2조 (반품 배송비))")
    assert user.endswith(f"[고객 문의]\n{Q}")
    assert server.headers[0]["Authorization"] == "Bearer sk-test"


def test_fenced_json_is_accepted(server, retriever):
    server.script = [("json", "```json\n{\"answer\": \"왕복 배송비 6,000원을 고객이 부담합니다.\", "
                              "\"evidence_ids\": [\"1\"]}\n```")]
    ans = _ask(server, retriever).answer
    assert ans.supported and ans.citations[0].n == 1


def test_malformed_json_is_retried_then_succeeds(server, retriever):
    server.script = [("json", "배송비는 6,000원입니다 (JSON 아님)"),
                     ("json", json.dumps({"answer": "왕복 배송비 6,000원을 고객이 부담합니다.",
                                          "evidence_ids": [1]}, ensure_ascii=False))]
    c = _ask(server, retriever)
    assert c.answer.supported
    assert len(server.requests) == 2
    assert any("not the expected JSON" in w for w in c.answer.warnings)


def test_malformed_json_every_time_is_unsupported_not_invented(server, retriever):
    server.script = [("json", "그냥 텍스트"), ("json", "{\"answer\": 3}"), ("json", "[1, 2]")]
    c = _ask(server, retriever, max_retries=2)
    ans = c.answer
    assert not ans.supported
    assert ans.citations == []  # nothing invented
    assert "그냥" not in ans.answer or "주의" in ans.answer
    assert any("no valid JSON reply" in w for w in ans.warnings)
    assert len(server.requests) == 3


def test_out_of_range_evidence_ids_are_dropped_with_warning(server, retriever):
    server.script = [("json", json.dumps({"answer": "왕복 배송비 6,000원(편도 3,000원)을 고객이 부담합니다.",
                                          "evidence_ids": [1, 42, 0, -3]}, ensure_ascii=False))]
    ans = _ask(server, retriever).answer
    assert ans.supported
    assert [c.n for c in ans.citations] == [1]
    assert any("evidence id 42 is outside the excerpt range" in w for w in ans.warnings)
    assert any("evidence id 0 is outside" in w for w in ans.warnings)


def test_only_invalid_ids_means_unsupported(server, retriever):
    server.script = [("json", json.dumps({"answer": "왕복 배송비 6,000원을 고객이 부담합니다.",
                                          "evidence_ids": [99]}))]
    ans = _ask(server, retriever).answer
    assert not ans.supported
    assert ans.citations == []
    assert "근거:" not in ans.answer


def test_model_abstention_is_kept(server, retriever):
    server.script = [("json", json.dumps({"answer": "제공된 문서에서 근거를 찾지 못했습니다.",
                                          "evidence_ids": []}, ensure_ascii=False))]
    ans = _ask(server, retriever).answer
    assert ans.answer == "제공된 문서에서 근거를 찾지 못했습니다."
    assert not ans.supported and not ans.citations


def test_pointer_citation_is_redirected_to_its_target(server, retriever):
    q = "배송이 7일 늦어지면 보상은 얼마인가요?"
    hits = retriever.search(q)
    g = _gen(server)
    # Excerpt numbers as the model sees them:
    from jogak.answer.context import build_context

    ctx = build_context(hits)
    pointer_n = next(e.n for e in ctx.excerpts if "부록A 참조" in e.text)
    target_n = next(e.n for e in ctx.excerpts if e.via == pointer_n)
    server.script = [("json", json.dumps({"answer": "7일 이상 늦어지면 결제금액의 10%를 하루포인트로 지급합니다.",
                                          "evidence_ids": [pointer_n, target_n]}, ensure_ascii=False))]
    ans = answer_hits(q, hits, generator=g).answer
    assert ans.supported
    assert all("참조" not in c.quote for c in ans.citations)
    assert any(c.article.startswith("부록A 제1조") for c in ans.citations)
    assert ans.answer.startswith("부록A에 따르면")


def test_timeout_is_retried_then_raises_clear_error(server, retriever):
    server.script = [("sleep", 1.5, "{}"), ("sleep", 1.5, "{}")]
    g = _gen(server, timeout=0.3, max_retries=1)
    t0 = time.monotonic()
    with pytest.raises(GeneratorError, match=r"timed out after 0\.3 s") as ei:
        answer_hits(Q, retriever.search(Q), generator=g)
    assert "2 attempt" in str(ei.value) and server.base_url in str(ei.value)
    assert time.monotonic() - t0 < 5


def test_timeout_then_success(server, retriever):
    server.script = [("sleep", 1.0, "{}"),
                     ("json", json.dumps({"answer": "왕복 배송비 6,000원을 고객이 부담합니다.", "evidence_ids": [1]},
                                         ensure_ascii=False))]
    ans = answer_hits(Q, retriever.search(Q), generator=_gen(server, timeout=0.3, max_retries=2)).answer
    assert ans.supported


def test_server_errors_retry_with_backoff_and_client_errors_do_not(server, retriever):
    server.script = [("raw", 503, {"error": {"message": "overloaded"}}),
                     ("json", json.dumps({"answer": "왕복 배송비 6,000원을 고객이 부담합니다.", "evidence_ids": [1]},
                                         ensure_ascii=False))]
    assert _ask(server, retriever).answer.supported
    server.script = [("raw", 401, {"error": {"message": "invalid api key"}})]
    n = len(server.requests)
    with pytest.raises(GeneratorError, match="HTTP 401: invalid api key"):
        _ask(server, retriever)
    assert len(server.requests) == n + 1  # not retried


def test_connection_refused_is_a_clear_error(retriever):
    g = OpenAIChatGenerator(model="m", base_url="http://127.0.0.1:9/v1", timeout=1, max_retries=0)
    with pytest.raises(GeneratorError, match="failed after 1 attempt"):
        answer_hits(Q, retriever.search(Q), generator=g)


def test_stream_yields_answer_text_deltas(server, retriever):
    reply = json.dumps({"answer": "왕복 배송비 6,000원을 \"고객\"이 부담합니다.\n끝.", "evidence_ids": [1]},
                       ensure_ascii=False)
    pieces = [reply[i : i + 7] for i in range(0, len(reply), 7)]
    server.script = [("sse", pieces)]
    g = _gen(server)
    from jogak.answer.context import build_context

    ctx = build_context(retriever.search(Q))
    deltas = list(g.stream(Q, ctx))
    assert len(deltas) > 1
    assert "".join(deltas) == "왕복 배송비 6,000원을 \"고객\"이 부담합니다.\n끝."
    assert g.last_draft is not None and g.last_draft.evidence_ids == [1]
    assert server.requests[-1]["stream"] is True


def test_from_config_reads_section_and_environment(monkeypatch):
    monkeypatch.setenv("MY_KEY", "k-123")
    g = OpenAIChatGenerator.from_config({"model": "m1", "base_url": "http://x/v1", "api_key_env": "MY_KEY",
                                         "timeout": 7, "max_retries": 4})
    assert (g.model, g.base_url, g.api_key, g.timeout, g.max_retries) == ("m1", "http://x/v1", "k-123", 7.0, 4)
    monkeypatch.setenv("JOGAK_LLM_MODEL", "m2")
    assert OpenAIChatGenerator.from_config({"model": "m1"}).model == "m2"
    monkeypatch.delenv("JOGAK_LLM_MODEL")
    with pytest.raises(GeneratorError, match="no model configured"):
        OpenAIChatGenerator.from_config({})


def test_parse_reply_and_incremental_decoder():
    assert parse_reply('{"answer": "a", "evidence_ids": 2}')[0] == {"answer": "a", "evidence_ids": [2]}
    assert parse_reply("note: {\"answer\": \"a\", \"evidence_ids\": []} thanks")[0]["answer"] == "a"
    assert parse_reply("{\"evidence_ids\": [1]}")[0] is None
    d = AnswerFieldDecoder()
    text = '{"answer": "x\\u00e9\\"y\\\\", "evidence_ids": [1]}'
    out = "".join(d.feed(ch) for ch in text)
    assert out == 'xé"y\\' and d.done
