"""OpenAI-compatible chat completions (OpenAI, vLLM, llama.cpp server, Ollama's /v1, LM Studio …).

Configuration — section ``llm`` of jogak.yaml, each key overridable by the environment::

    llm:
      provider: openai              # JOGAK_LLM        (selects this generator; default: extractive)
      model: gpt-4o-mini            # JOGAK_LLM_MODEL
      base_url: https://…/v1        # JOGAK_LLM_BASE_URL, then OPENAI_BASE_URL
      api_key_env: OPENAI_API_KEY   # name of the variable holding the key (JOGAK_LLM_API_KEY wins)
      timeout: 60                   # seconds per request
      max_retries: 2                # retries after the first attempt (timeouts, 429, 5xx, bad JSON)
      backoff: 0.5                  # seconds; doubles per retry, honours Retry-After (capped at 30 s)
      temperature: 0
      json_mode: true               # send response_format={"type": "json_object"}

The model must reply with ``{"answer": "...", "evidence_ids": [1, 3]}``. A reply that is not that JSON is
retried; if it never is, the raw text comes back with no evidence ids (the answer is then marked
unsupported) and a warning says why. Network failures and HTTP errors raise ``GeneratorError`` with the
URL, status and the server's message.

``stream()`` yields the answer text as it arrives (server-sent events), decoding the ``answer`` string
of the JSON object incrementally; the parsed draft is left in ``last_draft``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from jogak.answer.context import Context
from jogak.answer.generators.base import Draft, Generator, GeneratorError

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.MULTILINE)


@dataclass
class OpenAIChatGenerator(Generator):
    model: str
    base_url: str = "https://api.openai.com/v1"
    api_key: str | None = None
    timeout: float = 60.0
    max_retries: int = 2
    backoff: float = 0.5
    temperature: float = 0.0
    json_mode: bool = True
    extra_body: dict[str, Any] = field(default_factory=dict)
    name: str = "openai"
    last_draft: Draft | None = field(default=None, repr=False)

    @classmethod
    def from_config(cls, section: dict[str, Any] | None = None, **overrides: Any) -> OpenAIChatGenerator:
        s = dict(section or {})
        env = os.environ
        model = overrides.pop("model", None) or env.get("JOGAK_LLM_MODEL") or s.get("model")
        if not model:
            raise GeneratorError("no model configured: set llm.model in jogak.yaml, JOGAK_LLM_MODEL or --model")
        base_url = (overrides.pop("base_url", None) or env.get("JOGAK_LLM_BASE_URL") or s.get("base_url")
                    or env.get("OPENAI_BASE_URL") or "https://api.openai.com/v1")
        key = overrides.pop("api_key", None) or env.get("JOGAK_LLM_API_KEY") or s.get("api_key")
        if not key:
            key = env.get(s.get("api_key_env") or "OPENAI_API_KEY")
        kw: dict[str, Any] = {}
        for k, typ in (("timeout", float), ("max_retries", int), ("backoff", float), ("temperature", float)):
            if k in s:
                kw[k] = typ(s[k])
        if "json_mode" in s:
            kw["json_mode"] = bool(s["json_mode"])
        if isinstance(s.get("extra_body"), dict):
            kw["extra_body"] = dict(s["extra_body"])
        kw.update(overrides)
        return cls(model=str(model), base_url=str(base_url), api_key=key, **kw)

    # ── HTTP ───────────────────────────────────────────────────────────────────────────────────
    @property
    def url(self) -> str:
        base = self.base_url.rstrip("/")
        return base if base.endswith("/chat/completions") else f"{base}/chat/completions"

    def _headers(self) -> dict[str, str]:
        h = {"Content-Type": "application/json"}
        if self.api_key:
            h["Authorization"] = f"Bearer {self.api_key}"
        return h

    def _body(self, question: str, context: Context, stream: bool = False) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": context.messages(question),
            "temperature": self.temperature,
        }
        if self.json_mode:
            body["response_format"] = {"type": "json_object"}
        if stream:
            body["stream"] = True
        body.update(self.extra_body)
        return body

    def _sleep(self, attempt: int, retry_after: str | None = None) -> None:
        delay = self.backoff * (2 ** attempt)
        if retry_after:
            with contextlib.suppress(ValueError):
                delay = max(delay, float(retry_after))
        time.sleep(min(delay, 30.0))

    def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        import httpx

        last: str = ""
        for attempt in range(self.max_retries + 1):
            try:
                r = httpx.post(self.url, json=body, headers=self._headers(), timeout=self.timeout)
            except httpx.TimeoutException:
                last = f"timed out after {self.timeout:g} s"
            except httpx.HTTPError as e:
                last = f"{type(e).__name__}: {e}"
            else:
                if r.status_code == 200:
                    try:
                        return r.json()
                    except ValueError:
                        last = f"the server's response is not JSON: {r.text[:200]!r}"
                elif r.status_code == 429 or r.status_code >= 500:
                    last = f"HTTP {r.status_code}: {_server_message(r)}"
                    if attempt < self.max_retries:
                        self._sleep(attempt, r.headers.get("retry-after"))
                        continue
                    break
                else:
                    raise GeneratorError(f"LLM request to {self.url} failed: HTTP {r.status_code}: "
                                         f"{_server_message(r)}")
            if attempt < self.max_retries:
                self._sleep(attempt)
        raise GeneratorError(f"LLM request to {self.url} failed after {self.max_retries + 1} attempt(s): {last}")

    # ── generate ───────────────────────────────────────────────────────────────────────────────
    def generate(self, question: str, context: Context) -> Draft:
        body = self._body(question, context)
        warnings: list[str] = []
        content = ""
        t0 = time.monotonic()
        for attempt in range(self.max_retries + 1):
            data = self._post(body)
            content = _content_of(data)
            parsed, why = parse_reply(content)
            if parsed is not None:
                draft = _draft_from(parsed, content, context)
                draft.warnings = warnings + draft.warnings
                draft.info["seconds"] = round(time.monotonic() - t0, 3)
                draft.info["attempts"] = attempt + 1
                self.last_draft = draft
                return draft
            warnings.append(f"model reply #{attempt + 1} was not the expected JSON ({why})")
            if attempt < self.max_retries:
                self._sleep(attempt)
        warnings.append("no valid JSON reply; showing the raw reply without evidence")
        draft = Draft(answer=content.strip(), evidence_ids=[], raw=content, warnings=warnings)
        self.last_draft = draft
        return draft

    def stream(self, question: str, context: Context) -> Iterator[str]:
        """Yield the answer text as the server streams it; ``last_draft`` holds the parsed result."""
        import httpx

        body = self._body(question, context, stream=True)
        buf: list[str] = []
        decoder = AnswerFieldDecoder()
        try:
            with httpx.stream("POST", self.url, json=body, headers=self._headers(),
                              timeout=self.timeout) as r:
                if r.status_code != 200:
                    r.read()
                    raise GeneratorError(f"LLM stream from {self.url} failed: HTTP {r.status_code}: "
                                         f"{_server_message(r)}")
                for line in r.iter_lines():
                    if not line.startswith("data:"):
                        continue
                    payload = line[5:].strip()
                    if payload == "[DONE]":
                        break
                    try:
                        chunk = json.loads(payload)
                    except ValueError:
                        continue
                    delta = ((chunk.get("choices") or [{}])[0].get("delta") or {}).get("content") or ""
                    if delta:
                        buf.append(delta)
                        out = decoder.feed(delta)
                        if out:
                            yield out
        except httpx.TimeoutException as e:
            raise GeneratorError(f"LLM stream from {self.url} timed out after {self.timeout:g} s") from e
        except httpx.HTTPError as e:
            raise GeneratorError(f"LLM stream from {self.url} failed: {type(e).__name__}: {e}") from e
        content = "".join(buf)
        parsed, why = parse_reply(content)
        if parsed is None:
            self.last_draft = Draft(answer=content.strip(), raw=content,
                                    warnings=[f"streamed reply was not the expected JSON ({why})"])
            if not decoder.started:
                yield content
        else:
            self.last_draft = _draft_from(parsed, content, context)


def _server_message(r: Any) -> str:
    try:
        data = r.json()
        err = data.get("error") if isinstance(data, dict) else None
        if isinstance(err, dict):
            return str(err.get("message") or err)[:300]
        if err:
            return str(err)[:300]
        return json.dumps(data, ensure_ascii=False)[:300]
    except Exception:
        return (r.text or "")[:300]


def _content_of(data: dict[str, Any]) -> str:
    try:
        msg = data["choices"][0]["message"]
    except (KeyError, IndexError, TypeError) as e:
        raise GeneratorError(f"unexpected chat-completions response (no choices[0].message): "
                             f"{json.dumps(data, ensure_ascii=False)[:200]}") from e
    return msg.get("content") or ""


def parse_reply(content: str) -> tuple[dict[str, Any] | None, str]:
    """``{"answer": str, "evidence_ids": [...]}`` from a reply (code fences and chatter tolerated)."""
    text = _FENCE.sub("", content.strip()).strip()
    obj: Any = None
    try:
        obj = json.loads(text)
    except ValueError:
        start, end = text.find("{"), text.rfind("}")
        if start != -1 and end > start:
            try:
                obj = json.loads(text[start : end + 1])
            except ValueError:
                obj = None
    if not isinstance(obj, dict):
        return None, "not a JSON object"
    if not isinstance(obj.get("answer"), str):
        return None, "missing string field 'answer'"
    ids = obj.get("evidence_ids", [])
    if isinstance(ids, int | str):
        ids = [ids]
    if not isinstance(ids, list):
        return None, "'evidence_ids' is not a list"
    obj["evidence_ids"] = ids
    return obj, ""


def _draft_from(parsed: dict[str, Any], raw: str, context: Context) -> Draft:
    answer = parsed["answer"].strip()
    ids = list(parsed["evidence_ids"])
    abstain = context.labels["abstain"]
    abstained = (not ids and (not answer or abstain.rstrip(".") in answer)) or answer == abstain
    return Draft(answer=answer, evidence_ids=ids, abstained=abstained, raw=raw)


class AnswerFieldDecoder:
    """Incrementally decode the string value of ``"answer"`` from a JSON object arriving in pieces."""

    _START = re.compile(r'"answer"\s*:\s*"')

    def __init__(self) -> None:
        self.buf = ""
        self.pos = -1  # index in buf where the answer string's content starts
        self.done = False
        self.started = False

    def feed(self, piece: str) -> str:
        self.buf += piece
        if self.done:
            return ""
        if self.pos < 0:
            m = self._START.search(self.buf)
            if not m:
                return ""
            self.pos = m.end()
            self.started = True
        out = []
        i = self.pos
        while i < len(self.buf):
            ch = self.buf[i]
            if ch == '"':
                self.done = True
                i += 1
                break
            if ch == "\\":
                if i + 1 >= len(self.buf):
                    break
                esc = self.buf[i + 1]
                if esc == "u":
                    if i + 6 > len(self.buf):
                        break
                    with contextlib.suppress(ValueError):
                        out.append(chr(int(self.buf[i + 2 : i + 6], 16)))
                    i += 6
                    continue
                out.append({"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}.get(esc, esc))
                i += 2
                continue
            out.append(ch)
            i += 1
        self.pos = i
        return "".join(out)
