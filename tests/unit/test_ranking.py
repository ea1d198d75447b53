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


def test_news_told_over_a_few_turns_lifts_the_turns_around_the_one_that_matches() -> None:
    from dataclasses import replace

    from engram.domain.ranking import explain, said_around

    at = datetime(2023, 5, 7, 18, 0, tzinfo=UTC)
    # Given Maya's two turns a minute apart, Leo's turn between them, and Maya's turn in
    # another thread at the same time and one an hour later
    said = [
        ("m1", "t1", "Maya", at),
        ("l1", "t1", "Leo", at + timedelta(seconds=30)),
        ("m2", "t1", "Maya", at + timedelta(minutes=1)),
        ("m3", "t1", "Maya", at + timedelta(hours=1)),
        ("x1", "t2", "Maya", at),
    ]
    near = said_around(said)
    # Then only the same speaker's turns in the same thread, close in time, are neighbours
    assert near == {"m1": ["m2"], "m2": ["m1"]}
    # And the turn that shares no word with the question is lifted by the one that does
    w = HybridWeights(semantic=1.0, prior_share=0.0, context_boost=0.5)
    cands = [
        ("m1", Signals(0.0, 0.8, 50, 1.0, NOW)),
        ("m2", Signals(0.0, 0.2, 50, 1.0, NOW)),
        ("l1", Signals(0.0, 0.3, 50, 1.0, NOW)),
    ]
    assert [cid for cid, _ in rank(cands, w, NOW)] == ["m1", "l1", "m2"]
    ranked = dict(rank(cands, w, NOW, neighbours=near))
    assert [cid for cid, _ in rank(cands, w, NOW, neighbours=near)] == ["m1", "m2", "l1"]
    assert ranked["m2"].context == pytest.approx(0.4)
    assert ranked["m2"].total == pytest.approx(0.6)
    # A neighbour's lift does not feed back: m1 is lifted by m2's own total only
    assert ranked["m1"].total == pytest.approx(0.8 + 0.5 * 0.2)
    assert "lifted 0.400 by the same speaker's turns around it" in explain(ranked["m2"], ("vector",))
    # Only a neighbour that passes the minimum score lifts: a question nothing answers
    # still gets nothing
    floored = dict(rank(cands, w, NOW, neighbours=near, lift_floor=0.5))
    assert (floored["m2"].context, floored["m1"].context) == (pytest.approx(0.4), 0.0)
    assert dict(rank(cands, w, NOW, neighbours=near, lift_floor=0.9))["m2"].context == 0.0
    # Without a boost nothing moves, and a negative boost is refused
    assert rank(cands, replace(w, context_boost=0.0), NOW, neighbours=near) == rank(cands, w, NOW)
    with pytest.raises(ValueError):
        HybridWeights(context_boost=-0.1)


def test_boosted_matches_keep_their_order_instead_of_tying_at_one() -> None:
    # Given MiniLM's weights (a turn said by whom the question names counts double, one
    # said in the span it names 2.5 times) and three of Maya's turns: the one that answers
    # (close in meaning, shares words) and two that only mention the subject
    w = weights_for("all-MiniLM-L6-v2")
    answer = Signals(6.0, 0.6, 50, 1.0, NOW, speaker_match=1.0)
    mention = Signals(5.5, 0.58, 50, 1.0, NOW, speaker_match=1.0)
    in_span = Signals(0.0, 0.2, 50, 1.0, NOW, time_match=1.0, speaker_match=1.0)
    # When ranked (the ids put the answer last if totals tie)
    ranked = rank([("z-answer", answer), ("a-mention", mention), ("b-in-span", in_span)], w, NOW, neighbours=None)
    # Then the better match comes first: a boost past 1 used to clip every one of them to
    # 1.0, and the tie went by id, whatever the meaning and the words said
    assert [cid for cid, _ in ranked] == ["z-answer", "a-mention", "b-in-span"]
    parts = dict(ranked)
    assert parts["z-answer"].relevance == pytest.approx(2 * (0.8 * 0.6 + 0.2 * 6.0 / 16.0))
    assert parts["b-in-span"].relevance == pytest.approx(0.16 * 2.5 * 2)
    # And a boost still never makes an unrelated turn relevant
    assert score(Signals(0.0, 0.0, 50, 1.0, NOW, time_match=1.0, speaker_match=1.0), w, NOW, 6.0).total == 0.0
