"""The hybrid score: its parts, its order and its invariants (behaviour item 12)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from engram.domain.ranking import HybridWeights, Signals, keyword_scale, rank, recency, score, weights_for

NOW = datetime(2026, 1, 15, tzinfo=UTC)


def _s(keyword: float = 0.0, semantic: float = 0.0, importance: int = 50, confidence: float = 1.0, age: float = 0):
    return Signals(keyword, semantic, importance, confidence, NOW - timedelta(days=age))


def test_keyword_is_a_share_of_the_best_match_or_of_the_floor() -> None:
    assert keyword_scale(10.0, 10.0, 4.0) == 1.0
    assert keyword_scale(5.0, 10.0, 4.0) == 0.5
    assert keyword_scale(1.0, 1.0, 4.0) == 0.25  # a weak best match stays weak
    assert keyword_scale(0.0, 10.0, 4.0) == 0.0


def test_recency_halves_every_half_life() -> None:
    assert recency(NOW, NOW, 30) == 1.0
    assert recency(NOW - timedelta(days=30), NOW, 30) == pytest.approx(0.5)
    assert recency(NOW + timedelta(days=1), NOW, 30) == 1.0  # a clock skew is not "fresher than now"


def test_given_no_relevance_when_scored_then_importance_cannot_make_it_relevant() -> None:
    parts = score(_s(importance=100, confidence=1.0), HybridWeights(prior_share=0.9), NOW, 0.0)
    assert parts.relevance == 0.0 and parts.total == 0.0
    assert parts.prior > 0.9


def test_given_equal_relevance_when_ranked_then_the_prior_decides_and_ties_go_by_id() -> None:
    w = HybridWeights(semantic=1.0, prior_share=0.3)
    ranked = rank(
        [
            ("b", _s(semantic=0.6, importance=10, confidence=0.3, age=300)),
            ("a", _s(semantic=0.6, importance=90, confidence=1.0)),
            ("d", _s(semantic=0.2)),
            ("c", _s(semantic=0.2)),
        ],
        w,
        NOW,
    )
    assert [cid for cid, _ in ranked] == ["a", "b", "c", "d"]
    assert all(0.0 <= p.total <= 1.0 for _, p in ranked)


def test_pure_components_are_the_ends_of_the_fusion() -> None:
    only_bm25 = HybridWeights(semantic=0.0, prior_share=0.0)
    only_vector = HybridWeights(semantic=1.0, prior_share=0.0)
    s = _s(keyword=8.0, semantic=0.3)
    assert score(s, only_bm25, NOW, 8.0).total == 1.0
    assert score(s, only_vector, NOW, 8.0).total == pytest.approx(0.3)


@pytest.mark.parametrize(
    "bad",
    [
        {"semantic": 1.5},
        {"prior_share": -0.1},
        {"keyword_floor": 0},
        {"recency_half_life_days": 0},
        {"importance": -1},
    ],
)
def test_invalid_weights_are_refused(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        HybridWeights(**bad)


def test_every_embedder_gets_weights() -> None:
    assert isinstance(weights_for("some-future-model"), HybridWeights)


def test_a_message_said_by_whom_the_question_names_is_lifted() -> None:
    from engram.domain.ranking import question_words, speaker_named

    words = question_words("What did Maya adopt last week?")
    assert speaker_named("Maya Lopez", words) == 1.0
    assert speaker_named("Leo", words) == 0.0
    assert speaker_named("user", question_words("What did the user say about dogs?")) == 1.0
    w = HybridWeights(semantic=1.0, prior_share=0.0, speaker_boost=0.5)
    plain = Signals(0.0, 0.4, 50, 1.0, NOW)
    named = Signals(0.0, 0.4, 50, 1.0, NOW, speaker_match=1.0)
    assert score(plain, w, NOW, 0.0).relevance == pytest.approx(0.4)
    parts = score(named, w, NOW, 0.0)
    assert (parts.relevance, parts.speaker) == (pytest.approx(0.6), 1.0)
    # A boost never makes an unrelated message relevant: it multiplies.
    assert score(Signals(0.0, 0.0, 50, 1.0, NOW, speaker_match=1.0), w, NOW, 0.0).total == 0.0
    with pytest.raises(ValueError):
        HybridWeights(speaker_boost=-0.1)
