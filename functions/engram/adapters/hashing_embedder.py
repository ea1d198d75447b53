"""The default offline embedder: feature hashing, no model, no download.

Words, word pairs and character trigrams are hashed into a fixed number of signed
buckets and the vector is normalised. It captures shared words and shared word parts
("colour"/"colours"), not meaning; the semantic embedders (``engram[semantic]``,
Bedrock) are for that. It is deterministic across processes and machines because it
hashes with BLAKE2, not Python's salted ``hash``.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from functools import lru_cache

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


@lru_cache(maxsize=65536)
def _bucket(feature: str, dim: int) -> tuple[int, float]:
    digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
    n = int.from_bytes(digest, "little")
    return n % dim, (1.0 if (n >> 63) & 1 else -1.0)


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


class HashingEmbedder:
    def __init__(self, dimension: int = 384) -> None:
        self._dim = dimension

    @property
    def model_id(self) -> str:
        return f"engram-hash-v1-{self._dim}"

    @property
    def dimension(self) -> int:
        return self._dim

    @property
    def dedup_threshold(self) -> float:
        # Hashing vectors of the same fact in other words score low; only near-identical
        # wording should count as a duplicate.
        return 0.92

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._one(t) for t in texts]

    def _one(self, text: str) -> list[float]:
        vec = [0.0] * self._dim
        words = [_stem(w) for w in _WORD.findall(text.casefold())]
        features: list[tuple[str, float]] = [("w:" + w, 1.0) for w in words]
        features += [(f"b:{a} {b}", 0.5) for a, b in zip(words, words[1:], strict=False)]
        for w in words:
            padded = f"<{w}>"
            features += [("c:" + padded[i : i + 3], 0.25) for i in range(len(padded) - 2)]
        for feature, weight in features:
            idx, sign = _bucket(feature, self._dim)
            vec[idx] += sign * weight
        norm = math.sqrt(sum(v * v for v in vec))
        return [v / norm for v in vec] if norm else vec
