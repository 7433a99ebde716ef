"""Streamed answers: `jogak serve` configured with the OpenAI-compatible generator, talking to a real local
HTTP server that speaks the chat-completions protocol and streams its reply slowly, piece by piece.
The test checks that the pieces reach the client as separate server-sent events before the answer is
complete, and that the final event carries the citations."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
import yaml
from serverkit import ROOT, ServerProcess

Q = "단순 변심인데 반품 배송비 얼마예요?"
ANSWER = "단순 변심에 의한 반품은 왕복 배송비 6,000원(편도 3,000원)을 고객이 부담한다."


class FakeLLM:
    """Chat completions on 127.0.0.1: cites the excerpt holding 제2조; streams in ~12 pieces, 0.15 s apart."""

    def __init__(self) -> None:
        self.fail = False
        self.requests: list[dict[str, Any]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                outer.requests.append(body)
                if outer.fail or self.path != "/v1/chat/completions":
                    data = json.dumps({"error": {"message": "model overloaded"}}).encode()
                    self.send_response(503)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                prompt = body["messages"][-1]["content"]
                m = re.search(r"\[발췌 (\d+)\] \(반품교환환불정책 · 제2조", prompt)
                content = json.dumps({"answer": ANSWER, "evidence_ids": [int(m.group(1)) if m else 1]},
                                     ensure_ascii=False)
                if not body.get("stream"):
                    data = json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                                    "finish_reason": "stop"}]}, ensure_ascii=False).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                step = max(1, len(content) // 12)
                for i in range(0, len(content), step):
                    chunk = {"choices": [{"index": 0, "delta": {"content": content[i : i + step]}}]}
                    self.wfile.write(f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode())
                    self.wfile.flush()
                    time.sleep(0.15)
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="module")
def llm() -> Iterator[FakeLLM]:
    f = FakeLLM()
    yield f
    f.close()


@pytest.fixture(scope="module")
def llm_server(llm: FakeLLM, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """`jogak serve` over a lexical-only store of the Haru Market policies (fast to build)."""
    from jogak.index import open_store

    work = tmp_path_factory.mktemp("sse")
    store = work / "store"
    st = open_store(store, "default", embedder=False)
    rep = st.ingest([str(p) for p in sorted((ROOT / "examples" / "haru-market").glob("*.pdf"))],
                    strategy="structure")
    assert rep.ok, rep.to_dict()
    st.close()
    cfg = work / "jogak.yaml"
    cfg.write_text(yaml.safe_dump({
        "load": {"doc_title": {"strip_prefixes": ["하루마켓_"]}},
        "embed": {"backend": "none"},
        "llm": {"provider": "openai", "model": "fake-model", "base_url": llm.base_url, "max_retries": 0,
                "timeout": 20},
    }, allow_unicode=True), encoding="utf-8")
    srv = ServerProcess(store, cfg, work / "server.log", extra=["--no-warm-up"]).start()
    yield srv
    srv.stop()


def read_events(r: httpx.Response) -> list[tuple[str, Any, float]]:
    out: list[tuple[str, Any, float]] = []
    event, data = "message", []
    for line in r.iter_lines():
        if line == "":
            if data:
                out.append((event, json.loads("\n".join(data)), time.monotonic()))
            event, data = "message", []
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
    return out


def test_answer_streams_as_server_sent_events(llm_server: ServerProcess, llm: FakeLLM) -> None:
    llm.fail = False
    with httpx.stream("POST", f"{llm_server.url}/v1/ask", json={"question": Q, "stream": True}, timeout=60) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        events = read_events(r)
    names = [e for e, _, _ in events]
    assert names[0] == "meta" and names[-2:] == ["answer", "done"], names
    deltas = [(d["text"], t) for e, d, t in events if e == "delta"]
    assert len(deltas) >= 5, names
    assert "".join(x for x, _ in deltas) == ANSWER
    # the pieces arrived over time, not in one burst at the end
    answer_at = next(t for e, _, t in events if e == "answer")
    assert answer_at - deltas[0][1] > 0.8
    assert deltas[len(deltas) // 2][1] - deltas[0][1] > 0.3
    meta = events[0][1]
    assert meta["generator"] == "openai" and meta["collection"] == "default"
    final = next(d for e, d, _ in events if e == "answer")
    assert final["generator"] == "openai"
    assert final["supported"] is True
    cit = final["citations"][0]
    assert cit["article"] == "제2조 (반품 배송비) ①" and cit["doc_title"] == "반품교환환불정책"
    assert cit["highlight"]["quote"] is not None
    assert llm.requests[-1]["stream"] is True


def test_accept_header_selects_streaming_and_json_stays_default(llm_server: ServerProcess, llm: FakeLLM) -> None:
    llm.fail = False
    with httpx.stream("POST", f"{llm_server.url}/v1/ask", json={"question": Q},
                      headers={"Accept": "text/event-stream"}, timeout=60) as r:
        assert [e for e, _, _ in read_events(r)][-1] == "done"
    r = httpx.post(f"{llm_server.url}/v1/ask", json={"question": Q}, timeout=60)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    a = r.json()
    assert a["generator"] == "openai" and a["citations"][0]["article"] == "제2조 (반품 배송비) ①"
    assert "stream" not in llm.requests[-1]


def test_llm_failure_is_reported(llm_server: ServerProcess, llm: FakeLLM) -> None:
    llm.fail = True
    try:
        r = httpx.post(f"{llm_server.url}/v1/ask", json={"question": Q}, timeout=60)
        assert r.status_code == 502
        assert r.json()["error"] == "generator_error" and "HTTP 503" in r.json()["message"]
        with httpx.stream("POST", f"{llm_server.url}/v1/ask", json={"question": Q, "stream": True},
                          timeout=60) as s:
            events = read_events(s)
        assert events[-1][0] == "error"
        assert events[-1][1]["error"] == "generator_error" and "model overloaded" in events[-1][1]["message"]
    finally:
        llm.fail = False

