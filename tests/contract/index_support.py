"""Shared by the index contract and the backends it runs on: the vector size and helpers."""

from __future__ import annotations

import math

# Small on purpose: the suite builds its vectors by hand, so every cosine is known.
DIMENSION = 8


def unit(*weights: float) -> list[float]:
    """A unit vector from the first few coordinates (the rest are zero)."""
    padded = [*weights, *([0.0] * (DIMENSION - len(weights)))]
    norm = math.sqrt(sum(w * w for w in padded))
    return [w / norm for w in padded]
