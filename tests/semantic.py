"""One MiniLM embedder per test process: the model opens once (about 0.3 s), not per test."""

from __future__ import annotations

from functools import lru_cache

from engram.adapters.minilm_embedder import MiniLMEmbedder


@lru_cache(maxsize=1)
def minilm() -> MiniLMEmbedder:
    # One thread: pytest-xdist already runs a worker per core.
    return MiniLMEmbedder(threads=1)
