"""External rerankers for the rerank stage (``jogak.retrieve.rerank``).

``http``: the rerank protocol text-embeddings-inference (TEI), Jina and Cohere-compatible servers speak.
The request carries the question and the passages under both names servers use::

    POST {url}            (a url ending in /rerank is used as given; else {url}/rerank, then {url}/v1/rerank)
    {"query": "...", "texts": [...], "documents": [...], "model": "...", "top_n": N, "return_documents": false}

and every response shape they answer with is read:

    [{"index": 0, "score": 0.9}, ...]                                    (TEI)
    {"results": [{"index": 0, "relevance_score": 0.9}, ...]}             (Jina, Cohere v1/v2)
    {"data": [{"index": 0, "score": 0.9}, ...]} / {"scores": [0.9, ...]}  (other servers)

``cross-encoder``: sentence-transformers' ``CrossEncoder`` from a local model path (the ``st`` extra,
imported on first use; one model per process).
"""

from __future__ import annotations

import functools
import json
import os
import urllib.error
import urllib.request
from typing import Any

from jogak.retrieve.rerank import RerankSpec


class RerankError(RuntimeError):
    """A reranker answered with something that is not one score per passage."""


def http_scores(spec: RerankSpec, query: str, texts: list[str]) -> list[float]:
    if not spec.url:
        raise RerankError("rerank backend http needs a url")
    body = {"query": query, "texts": texts, "documents": texts, "top_n": len(texts), "return_documents": False,
            "raw_scores": False}
    if spec.model:
        body["model"] = spec.model
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    key = os.environ.get(spec.api_key_env) if spec.api_key_env else None
    if key:
        headers["Authorization"] = f"Bearer {key}"
    last: Exception | None = None
    for url in _endpoints(spec.url):
        req = urllib.request.Request(url, data=json.dumps(body, ensure_ascii=False).encode("utf-8"),
                                     headers=headers, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=spec.timeout) as resp:  # the configured server
                return parse_scores(json.loads(resp.read().decode("utf-8")), len(texts))
        except urllib.error.HTTPError as e:
            last = e
            if e.code != 404:  # a wrong path is tried on the next endpoint; anything else is an answer
                raise RerankError(f"{url}: HTTP {e.code}") from None
    raise RerankError(f"no rerank endpoint at {spec.url} ({last})")


def _endpoints(url: str) -> list[str]:
    u = url.rstrip("/")
    if u.endswith("/rerank"):
        return [u]
    return [f"{u}/rerank", f"{u}/v1/rerank"]


def parse_scores(data: Any, n: int) -> list[float]:
    """One score per passage, in the order sent, from any of the response shapes above."""
    if isinstance(data, dict):
        for key in ("results", "data", "scores", "rankings"):
            if key in data:
                data = data[key]
                break
        else:
            raise RerankError(f"unknown rerank response keys: {', '.join(sorted(data))}")
    if not isinstance(data, list):
        raise RerankError("rerank response is not a list")
    if all(isinstance(x, (int, float)) for x in data):
        scores = [float(x) for x in data]
    else:
        scores = [float("-inf")] * n
        for item in data:
            i = int(item["index"])
            s = item.get("relevance_score", item.get("score", item.get("logit")))
            if s is None or not 0 <= i < n:
                raise RerankError(f"bad rerank result {item!r}")
            scores[i] = float(s)
        if float("-inf") in scores:
            raise RerankError(f"{sum(x == float('-inf') for x in scores)} of {n} passages got no score")
    if len(scores) != n:
        raise RerankError(f"{len(scores)} scores for {n} passages")
    return scores


def cross_encoder_scores(spec: RerankSpec, query: str, texts: list[str]) -> list[float]:
    if not spec.model:
        raise RerankError("rerank backend cross-encoder needs a model (a local path)")
    model = _cross_encoder(spec.model)
    return [float(s) for s in model.predict([(query, t) for t in texts], show_progress_bar=False)]


@functools.lru_cache(maxsize=2)
def _cross_encoder(path: str) -> Any:
    try:
        from sentence_transformers import CrossEncoder  # extra "st" (Apache-2.0), heavy: imported on use
    except ImportError as e:
        raise RerankError("the cross-encoder reranker needs the st extra: pip install 'jogak[st]'") from e
    return CrossEncoder(path, local_files_only=True) if os.path.isdir(path) else CrossEncoder(path)
