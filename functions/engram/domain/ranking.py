"""Score fusion for search and recall: pure, deterministic, tested on its own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime


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


# -- recall: the hybrid score (design, behaviour item 12) ---------------------------------


@dataclass(frozen=True, slots=True)
class HybridWeights:
    """How recall fuses its five signals; tuned on bench/eval_data.py (see docs/recall.md).

    relevance = semantic * s + keyword * (1 - s), from the query alone, where keyword is
                BM25 over the larger of this query's best BM25 and ``keyword_floor``
                (scale-free on a real corpus, and a weak best match stays weak);
    prior     = importance, recency and confidence, mixed by their weights;
    total     = relevance * ((1 - prior_share) + prior_share * prior).

    The prior multiplies: it reorders what is relevant and never makes an unrelated
    memory relevant, so ``min_score`` keeps meaning "at least this relevant".
    """

    semantic: float = 0.5
    keyword_floor: float = 4.0
    prior_share: float = 0.2
    importance: float = 0.4
    recency: float = 0.2
    confidence: float = 0.4
    recency_half_life_days: float = 30.0
    # The least total a tier-2 memory needs unless the request names its own.
    min_score: float = 0.15

    def __post_init__(self) -> None:
        if not 0.0 <= self.semantic <= 1.0 or not 0.0 <= self.prior_share <= 1.0:
            raise ValueError("semantic and prior_share are shares between 0 and 1")
        if self.keyword_floor <= 0 or self.recency_half_life_days <= 0:
            raise ValueError("keyword_floor and recency_half_life_days must be positive")
        if min(self.importance, self.recency, self.confidence) < 0:
            raise ValueError("prior weights must not be negative")


# What bench/retrieval_eval.py chose on the training split of the generated evaluation,
# one set per embedder family; anything else gets the defaults above.
TUNED_WEIGHTS: dict[str, HybridWeights] = {
    "engram-hash-v1-": HybridWeights(
        semantic=0.6,
        keyword_floor=16.0,
        prior_share=0.7,
        importance=1.0,
        recency=0.0,
        confidence=0.0,
        recency_half_life_days=30.0,
        min_score=0.01,
    ),
    "all-MiniLM-L6-v2": HybridWeights(
        semantic=0.9,
        keyword_floor=8.0,
        prior_share=0.7,
        importance=0.4,
        recency=0.2,
        confidence=0.4,
        recency_half_life_days=90.0,
        min_score=0.17,
    ),
}


def weights_for(model_id: str) -> HybridWeights:
    for prefix, weights in TUNED_WEIGHTS.items():
        if model_id.startswith(prefix):
            return weights
    return HybridWeights()


@dataclass(frozen=True, slots=True)
class Signals:
    """The raw inputs of one candidate's score."""

    keyword: float  # BM25, unbounded, 0 when no query word matched
    semantic: float  # cosine similarity, -1..1
    importance: int  # 0..100
    confidence: float  # 0..1
    freshness: datetime  # the latest of written, reinforced or used


@dataclass(frozen=True, slots=True)
class ScoreParts:
    """Every component on 0..1, and the total they make (what an item reports)."""

    semantic: float
    keyword: float
    importance: float
    recency: float
    confidence: float
    relevance: float
    prior: float
    total: float


def keyword_scale(bm25: float, best: float, floor: float) -> float:
    """BM25 to 0..1: a share of the query's best match, or of ``floor`` if that is higher."""
    return min(1.0, bm25 / max(best, floor)) if bm25 > 0 else 0.0


def recency(freshness: datetime, now: datetime, half_life_days: float) -> float:
    age_days = max(0.0, (now - freshness).total_seconds() / 86400.0)
    return float(0.5 ** (age_days / half_life_days))


def score(signals: Signals, weights: HybridWeights, now: datetime, best_keyword: float) -> ScoreParts:
    sem = max(0.0, min(1.0, signals.semantic))
    kw = keyword_scale(signals.keyword, best_keyword, weights.keyword_floor)
    imp = max(0, min(100, signals.importance)) / 100.0
    rec = recency(signals.freshness, now, weights.recency_half_life_days)
    conf = max(0.0, min(1.0, signals.confidence))
    relevance = weights.semantic * sem + (1.0 - weights.semantic) * kw
    mix = weights.importance + weights.recency + weights.confidence
    prior = (weights.importance * imp + weights.recency * rec + weights.confidence * conf) / mix if mix else 0.0
    total = relevance * ((1.0 - weights.prior_share) + weights.prior_share * prior)
    return ScoreParts(sem, kw, imp, rec, conf, relevance, prior, total)


def rank(
    candidates: Sequence[tuple[str, Signals]], weights: HybridWeights, now: datetime
) -> list[tuple[str, ScoreParts]]:
    """Best first; equal totals by id, so the order is the same on every run."""
    best = max((s.keyword for _, s in candidates), default=0.0)
    scored = [(cid, score(s, weights, now, best)) for cid, s in candidates]
    scored.sort(key=lambda p: (-p[1].total, p[0]))
    return scored
