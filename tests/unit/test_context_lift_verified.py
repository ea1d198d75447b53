"""Recall's context lift comes only from neighbours the store confirms (review of #19)."""

from __future__ import annotations

from datetime import UTC, datetime

from engram.domain.ranking import HybridWeights, Signals
from engram.service.retrieval import confirm_top

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_a_neighbour_the_store_no_longer_has_does_not_lift_the_turn_shown() -> None:
    # Given a turn "m" and its neighbour "n", which the index still has but the store
    # deleted (the index lags), "n" ranking just below the one item asked for
    w = HybridWeights(semantic=1.0, prior_share=0.0, context_boost=0.5)
    cands = [("m", Signals(0.0, 0.6, 50, 1.0, NOW)), ("n", Signals(0.0, 0.5, 50, 1.0, NOW))]
    reads: list[list[str]] = []

    def read(ids: list[str]) -> dict[str, str]:
        reads.append(ids)
        return {i: i for i in ids if i != "n"}

    # When the top one is confirmed
    passing, _ = confirm_top(
        cands, {}, read, lambda cid, item: dict(cands)[cid], w, NOW, 0.0, 1, neighbours={"m": ["n"], "n": ["m"]}
    )
    # Then "m" is shown as it scores alone: a deleted turn lifts nothing
    assert passing[0][0] == "m"
    assert passing[0][1].context == 0.0
