"""What the ranking reuses across the rounds of one recall (issue #19, latency) changes
nothing it answers: a lifted candidate keeps every part but its total and lift, and a
ranking with a memo over several rounds, signals changing between them, orders and
scores as a ranking from scratch does."""

from __future__ import annotations

import random
from dataclasses import fields, replace
from datetime import UTC, datetime, timedelta

from engram.domain.ranking import RankMemo, ScoreParts, Signals, lift_by_context, rank, weights_for

NOW = datetime(2026, 1, 15, tzinfo=UTC)


def test_a_lifted_turn_keeps_every_part_but_its_total_and_lift() -> None:
    # Given parts whose every field has its own value (a field added later included)
    parts = ScoreParts(*(0.01 * (i + 1) for i in range(len(fields(ScoreParts)))))
    # When a neighbour above the floor lifts it
    lifted = dict(lift_by_context([("a", parts), ("b", replace(parts, total=0.9))], {"a": ["b"], "b": ["a"]}, 0.2, 0.2))
    # Then only the total and the lift change
    assert lifted["a"] == replace(parts, total=parts.total + 0.2 * 0.9, context=0.2 * 0.9)


def _signals(rng: random.Random) -> Signals:
    return Signals(
        rng.choice([0.0, rng.uniform(0, 12)]),
        rng.uniform(-0.2, 0.9),
        rng.randint(0, 100),
        rng.random(),
        NOW - timedelta(days=rng.uniform(0, 400)),
        rng.choice([0.0, 1.0]),
        rng.choice([0.0, 1.0]),
    )


def test_a_ranking_over_rounds_with_a_memo_answers_as_one_from_scratch() -> None:
    rng = random.Random(19)
    weights = weights_for("all-MiniLM-L6-v2")
    for _ in range(30):
        # Given candidates, some said around each other
        ids = [f"c{i}" for i in range(40)]
        signals = {cid: _signals(rng) for cid in ids}
        neighbours: dict[str, list[str]] = {}
        for a, b in (rng.sample(ids, 2) for _ in range(25)):
            neighbours.setdefault(a, []).append(b)
            neighbours.setdefault(b, []).append(a)
        memo = RankMemo()
        for _ in range(4):
            # When ranked round after round with one memo, some signals read again
            # between rounds (equal as a new object, or changed)
            for cid in rng.sample(ids, 6):
                was = signals[cid]
                signals[cid] = replace(was) if rng.random() < 0.5 else replace(was, keyword=rng.uniform(0, 12))
            candidates = [(cid, signals[cid]) for cid in ids]
            kept = rank(candidates, weights, NOW, memo, neighbours, weights.min_score)
            # Then each round is what a ranking from scratch gives
            assert kept == rank(candidates, weights, NOW, None, neighbours, weights.min_score)
