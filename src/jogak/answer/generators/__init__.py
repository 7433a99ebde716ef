"""Answer generators: the offline extractive answerer (default) and OpenAI-compatible chat models."""

from __future__ import annotations

from jogak.answer.generators.base import Draft, DraftStatement, Generator, GeneratorError, Quote

__all__ = ["Draft", "DraftStatement", "Generator", "GeneratorError", "Quote", "get_generator"]


def get_generator(name: str | None = None, **kw) -> Generator:
    """``extractive`` (default; weights from config section ``answer``, ``extractive`` mapping, overridden by
    ``kw``) or ``openai`` (OpenAI-compatible; settings from config section ``llm`` overridden by ``kw``:
    model, base_url, api_key, timeout, ...)."""
    name = (name or "extractive").lower()
    if name == "extractive":
        from jogak.answer.generators.extractive import ExtractiveAnswerer
        from jogak.config import load_config

        return ExtractiveAnswerer.from_config(load_config().section("answer"), **kw)
    if name in ("openai", "openai-compatible"):
        from jogak.answer.generators.openai import OpenAIChatGenerator
        from jogak.config import load_config

        return OpenAIChatGenerator.from_config(load_config().section("llm"), **kw)
    raise ValueError(f"unknown generator '{name}' (choose extractive or openai)")
