"""Score fusion for search: pure, deterministic, tested on its own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FusionWeights:
    keyword: float = 0.5
    semantic: float = 0.5


def normalise_keyword(scores: Sequence[float]) -> list[float]:
    """BM25 scores are unbounded; scale by the best score of this query to 0..1."""
    top = max(scores, default=0.0)
    return [s / top if top > 0 else 0.0 for s in scores]


def fuse(keyword: Sequence[float], semantic: Sequence[float], weights: FusionWeights) -> list[float]:
    kw = normalise_keyword(keyword)
    return [weights.keyword * k + weights.semantic * max(0.0, s) for k, s in zip(kw, semantic, strict=True)]
