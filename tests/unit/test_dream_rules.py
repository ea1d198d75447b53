"""Dream's rules as pure functions: every rule, its boundary, and its idempotency.

Boundaries decided (and documented in engram.domain.dream):
- TTL: expired at ``expires_at <= now`` (inclusive, like every read).
- Stale: pruned when the last touch is at least N days ago (inclusive).
- Decay: one step at exactly 7 days without reinforcement (inclusive).
- Low confidence: pruned only strictly below 0.3 AND strictly older than 30 days.
- Duplicates: cosine strictly above the threshold.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from engram.domain.agent_config import DreamConfig
from engram.domain.dream import (
    DREAM_ACTOR,
    Policy,
    Rule,
    contradiction_changes,
    decay_steps,
    duplicate_clusters,
    entry_change,
    merge_change,
    merge_partitions,
    next_due,
    plan_user,
    summary_groups,
)
from engram.domain.dream_run import DreamMessage, MessageKind, Stats
from engram.domain.models import ChangeKind, MemoryEntry, Status, Visibility
from engram.domain.policies import identity_id

from tests.support import T0

DAY = timedelta(days=1)
ON = Policy.of(DreamConfig(enabled=True))
DEFAULT = Policy.of(DreamConfig())


def entry(
    key: str = "city",
    value: str = "Paris",
    *,
    agent: str = "agent-a",
    visibility: Visibility = Visibility.SELF,
    age: timedelta = timedelta(0),
    confidence: float = 1.0,
    reinforced_ago: timedelta | None = None,
    accessed_ago: timedelta | None = None,
    category: str = "fact",
    n: int = 1,
    **more: object,
) -> MemoryEntry:
    created = T0 - age
    return MemoryEntry(
        id=f"mem_{n:024x}",
        tenant_id="t1",
        user_id="u1",
        identity_id=identity_id("t1", "u1", key, visibility, agent),
        key=key,
        value=value,
        category=category,
        visibility=visibility,
        source_agent_id=agent,
        created_at=created,
        updated_at=created,
        version=1,
        confidence=confidence,
        last_reinforced_at=created if reinforced_ago is None else T0 - reinforced_ago,
        last_accessed_at=None if accessed_ago is None else T0 - accessed_ago,
        **more,  # type: ignore[arg-type]
    )


def policy(p: Policy = ON) -> object:
    return lambda agent_id: p


# -- TTL ---------------------------------------------------------------------------------------


def test_given_an_entry_whose_expiry_is_now_when_planned_then_it_expires_as_a_system_removal() -> None:
    e = entry(expires_at=T0)
    change = entry_change(e, DEFAULT, T0, T0, None)
    assert change is not None and change.rule is Rule.EXPIRE and change.kind is ChangeKind.EXPIRED
    assert change.after[0].status is Status.DELETED
    assert change.reason == "dream: expired (TTL)"


def test_given_an_entry_expiring_a_microsecond_later_when_planned_then_it_stays() -> None:
    assert entry_change(entry(expires_at=T0 + timedelta(microseconds=1)), DEFAULT, T0, T0, None) is None


def test_given_dream_disabled_for_the_agent_when_expired_then_ttl_still_applies() -> None:
    assert not DEFAULT.enabled
    change = entry_change(entry(expires_at=T0 - DAY), DEFAULT, T0, T0, None)
    assert change is not None and change.rule is Rule.EXPIRE


def test_given_a_user_retention_when_an_entry_is_exactly_that_old_then_it_is_pruned() -> None:
    change = entry_change(entry(age=30 * DAY, reinforced_ago=DAY), DEFAULT, T0, T0, 30 * DAY)
    assert change is not None and change.rule is Rule.RETENTION
    assert (
        entry_change(entry(age=30 * DAY - timedelta(seconds=1), reinforced_ago=DAY), DEFAULT, T0, T0, 30 * DAY) is None
    )


# -- stale ----------------------------------------------------------------------------------------


def test_given_exactly_n_days_without_access_when_planned_then_the_entry_is_stale() -> None:
    p = Policy.of(DreamConfig(enabled=True, prune_stale_after_days=90, decay_confidence=False))
    change = entry_change(entry(age=100 * DAY, accessed_ago=90 * DAY), p, T0, T0, None)
    assert change is not None and change.rule is Rule.PRUNE_STALE and change.kind is ChangeKind.PRUNED
    assert "not accessed in 90 days" in change.reason


def test_given_an_access_a_second_inside_n_days_when_planned_then_it_is_not_stale() -> None:
    p = Policy.of(DreamConfig(enabled=True, prune_stale_after_days=90, decay_confidence=False))
    assert entry_change(entry(age=100 * DAY, accessed_ago=90 * DAY - timedelta(seconds=1)), p, T0, T0, None) is None


def test_given_a_recent_reinforcement_when_never_accessed_then_it_is_not_stale() -> None:
    p = Policy.of(DreamConfig(enabled=True, prune_stale_after_days=90, decay_confidence=False))
    assert entry_change(entry(age=200 * DAY, reinforced_ago=10 * DAY), p, T0, T0, None) is None


@pytest.mark.parametrize(
    "config",
    [DreamConfig(enabled=True, prune_stale_after_days=0), DreamConfig(enabled=False, prune_stale_after_days=90)],
)
def test_given_stale_pruning_off_when_long_unaccessed_then_it_stays(config: DreamConfig) -> None:
    p = Policy.of(config.model_copy(update={"decay_confidence": False}))
    assert entry_change(entry(age=1000 * DAY), p, T0, T0, None) is None


# -- decay ----------------------------------------------------------------------------------------


def test_given_exactly_seven_days_without_reinforcement_when_planned_then_confidence_decays_once() -> None:
    e = entry(age=7 * DAY)
    change = entry_change(e, DEFAULT, T0, T0, None)
    assert change is not None and change.rule is Rule.DECAY and change.kind is ChangeKind.DECAYED
    after = change.after[0]
    assert after.confidence == 0.95
    assert after.last_decayed_at == T0
    # Recall's most_recent order is by updatedAt: a system decay must not float it up.
    assert after.updated_at == e.updated_at
    assert after.status is Status.ACTIVE


def test_given_a_second_under_seven_days_when_planned_then_nothing_decays() -> None:
    assert entry_change(entry(age=7 * DAY - timedelta(seconds=1)), DEFAULT, T0, T0, None) is None


def test_given_three_missed_weeks_when_planned_then_three_steps_are_taken_at_once() -> None:
    change = entry_change(entry(age=22 * DAY), DEFAULT, T0, T0, None)
    assert change is not None
    assert change.after[0].confidence == round(0.95**3, 4)
    assert change.after[0].last_decayed_at == T0 - DAY  # anchored on whole periods


def test_given_a_decay_already_taken_when_planned_again_the_same_day_then_nothing_changes() -> None:
    first = entry_change(entry(age=8 * DAY), DEFAULT, T0, T0, None)
    assert first is not None
    again = entry_change(first.after[0], DEFAULT, T0 + timedelta(hours=20), T0, None)
    assert again is None


def test_given_daily_runs_when_two_weeks_pass_then_decay_is_per_week_not_per_run() -> None:
    e = entry(age=0 * DAY)
    for day in range(1, 15):
        change = entry_change(e, DEFAULT, T0 + day * DAY, T0 + day * DAY, None)
        if change is not None:
            e = change.after[0]
    assert e.confidence == round(0.95 * 0.95, 4)


def test_given_a_reinforcement_after_a_decay_when_planned_then_the_clock_restarts() -> None:
    e = entry(age=20 * DAY, reinforced_ago=3 * DAY, last_decayed_at=T0 - 6 * DAY)
    steps, _ = decay_steps(e, DEFAULT, T0)
    assert steps == 0


def test_given_decay_turned_off_when_old_then_it_neither_decays_nor_is_pruned() -> None:
    p = Policy.of(DreamConfig(decay_confidence=False))
    assert entry_change(entry(age=400 * DAY, confidence=0.1), p, T0, T0, None) is None


# -- low confidence -------------------------------------------------------------------------------


def test_given_confidence_below_threshold_and_older_than_thirty_days_when_planned_then_pruned() -> None:
    e = entry(age=31 * DAY, confidence=0.29, reinforced_ago=DAY)
    change = entry_change(e, DEFAULT, T0, T0, None)
    assert change is not None and change.rule is Rule.PRUNE_LOW_CONFIDENCE
    assert change.after[0].status is Status.DELETED


def test_given_confidence_exactly_the_threshold_when_old_then_it_stays() -> None:
    assert entry_change(entry(age=60 * DAY, confidence=0.3, reinforced_ago=DAY), DEFAULT, T0, T0, None) is None


def test_given_exactly_thirty_days_old_when_confidence_is_low_then_it_stays_until_a_tick_later() -> None:
    e = entry(age=30 * DAY, confidence=0.1, reinforced_ago=DAY)
    assert entry_change(e, DEFAULT, T0, T0, None) is None
    later = entry_change(e, DEFAULT, T0 + timedelta(microseconds=1), T0, None)
    assert later is not None and later.rule is Rule.PRUNE_LOW_CONFIDENCE


def test_given_a_decay_that_crosses_the_threshold_when_old_enough_then_it_is_pruned_in_the_same_pass() -> None:
    e = entry(age=60 * DAY, confidence=0.31, reinforced_ago=7 * DAY)
    change = entry_change(e, DEFAULT, T0, T0, None)
    assert change is not None and change.rule is Rule.PRUNE_LOW_CONFIDENCE
    assert change.after[0].confidence == round(0.31 * 0.95, 4)


# -- contradictions -------------------------------------------------------------------------------


def test_given_one_key_with_different_values_across_agents_when_planned_then_both_are_flagged() -> None:
    a = entry("language", "English", agent="agent-a", n=1)
    b = entry("language", "German", agent="agent-b", n=2)
    c = entry("city", "Paris", agent="agent-b", n=3)
    changes, found = contradiction_changes([a, b, c], policy())
    assert found == 1 and len(changes) == 1  # the key's entries are flagged together
    (change,) = changes
    assert change.rule is Rule.FLAG_CONTRADICTION and change.kind is ChangeKind.FLAGGED
    assert {e.id for e in change.before} == {a.id, b.id}
    assert all(e.conflicted for e in change.after)
    # No winner: both stay active with their values.
    assert all(e.status is Status.ACTIVE for e in change.after)
    assert {e.value for e in change.after} == {"English", "German"}


def test_given_a_global_and_a_self_entry_disagreeing_when_planned_then_both_are_flagged() -> None:
    g = entry("diet", "vegan", visibility=Visibility.GLOBAL, n=1)
    s = entry("diet", "omnivore", visibility=Visibility.SELF, n=2)
    changes, found = contradiction_changes([g, s], policy())
    assert found == 1 and len(changes[0].after) == 2


def test_given_values_differing_only_in_case_and_punctuation_when_planned_then_no_contradiction() -> None:
    a = entry("language", "English", agent="agent-a", n=1)
    b = entry("language", "english.", agent="agent-b", n=2)
    assert contradiction_changes([a, b], policy()) == ([], 0)


def test_given_flags_already_set_when_planned_again_then_nothing_changes() -> None:
    a = entry("language", "English", agent="agent-a", n=1, conflicted=True)
    b = entry("language", "German", agent="agent-b", n=2, conflicted=True)
    assert contradiction_changes([a, b], policy()) == ([], 0)


def test_given_a_resolved_contradiction_when_planned_then_the_remaining_flag_is_cleared() -> None:
    a = entry("language", "English", agent="agent-a", n=1, conflicted=True)
    changes, found = contradiction_changes([a], policy())
    assert found == 0
    assert [c.rule for c in changes] == [Rule.CLEAR_CONTRADICTION]
    assert changes[0].after[0].conflicted is False
    assert changes[0].kind is ChangeKind.UPDATED


@pytest.mark.parametrize(
    "other",
    [DreamConfig(enabled=True, detect_contradictions=False), DreamConfig(enabled=False)],
    ids=["off", "no-dream"],
)
def test_given_detection_on_for_one_agent_only_when_planned_then_every_agents_entry_is_flagged(
    other: DreamConfig,
) -> None:
    """Issue #17, item 10: the flag was set only on the dream-enabled agent's entry."""
    a = entry("language", "English", agent="agent-a", n=1)
    b = entry("language", "German", agent="agent-b", n=2)
    changes, found = contradiction_changes([a, b], lambda agent: Policy.of(other) if agent == "agent-b" else ON)
    assert found == 1
    assert [e.id for c in changes for e in c.before] == [a.id, b.id]
    assert all(e.conflicted for c in changes for e in c.after)


def test_given_no_agent_of_the_key_detects_when_planned_then_nothing_is_flagged() -> None:
    off = Policy.of(DreamConfig(enabled=False))
    a = entry("language", "English", agent="agent-a", n=1)
    b = entry("language", "German", agent="agent-b", n=2)
    assert contradiction_changes([a, b], lambda agent: off) == ([], 0)


def test_given_a_decayed_and_contradicted_entry_when_planned_then_the_flag_builds_on_the_decay() -> None:
    a = entry("language", "English", agent="agent-a", n=1, age=8 * DAY)
    b = entry("language", "German", agent="agent-b", n=2)
    plan = plan_user([a, b], policy(), T0, T0)
    rules = [(c.rule, c.before[0].id) for c in plan.changes]
    assert rules[0] == (Rule.DECAY, a.id)
    flag = next(c for c in plan.changes if c.rule is Rule.FLAG_CONTRADICTION)
    flag_a = next(e for e in flag.after if e.id == a.id)
    assert flag_a.confidence == 0.95 and flag_a.conflicted


# -- duplicates -----------------------------------------------------------------------------------


def test_given_similar_entries_when_clustered_then_only_pairs_strictly_above_the_threshold_merge() -> None:
    g = [entry("a", "x", n=1), entry("b", "y", n=2), entry("c", "z", n=3)]
    sims = {(0, 1): 0.9, (0, 2): 0.95, (1, 2): 0.99}
    clusters = duplicate_clusters(g, lambda i, j: sims[(i, j)], 0.9)
    assert clusters == [[0, 2]]  # 0.9 is not above 0.9; 1 and 2 are compared only if 1 survives


def test_given_old_pairs_when_clustered_with_a_fresh_cutoff_then_they_are_not_compared_again() -> None:
    old1, old2 = entry("a", "x", n=1, age=5 * DAY), entry("b", "x", n=2, age=5 * DAY)
    fresh = entry("c", "x", n=3)
    calls: list[tuple[int, int]] = []

    def sim(i: int, j: int) -> float:
        calls.append((i, j))
        return 0.0

    duplicate_clusters([old1, old2, fresh], sim, 0.9, fresh_since=T0 - DAY)
    assert (0, 1) not in calls and (0, 2) in calls and (1, 2) in calls


def test_given_a_cluster_when_merged_then_the_survivor_is_reinforced_and_the_rest_superseded_by_it() -> None:
    survivor = entry("fav_drink", "coffee", n=1, confidence=0.8, importance=40, access_count=2)
    dup = entry("drink", "coffee", n=2, confidence=0.7, importance=70, access_count=3)
    at = T0 + DAY
    change = merge_change([survivor, dup], at)
    kept, gone = change.after
    assert change.rule is Rule.MERGE_DUPLICATES and change.kind is ChangeKind.MERGED
    assert kept.id == survivor.id and kept.confidence == 0.9 and kept.last_reinforced_at == at
    assert kept.importance == 70 and kept.access_count == 5
    assert gone.status is Status.SUPERSEDED and gone.superseded_by == survivor.id


def test_given_entries_other_agents_cannot_see_when_partitioned_then_they_are_never_merged_together() -> None:
    a = entry("drink", "coffee", agent="agent-a", n=1)
    b = entry("beverage", "coffee", agent="agent-b", n=2)
    g1 = entry("drink", "coffee", visibility=Visibility.GLOBAL, agent="agent-a", n=3)
    g2 = entry("beverage", "coffee", visibility=Visibility.GLOBAL, agent="agent-b", n=4)
    parts = merge_partitions([a, b, g1, g2], policy(), None)
    assert [[e.id for e in p] for p in parts] == [[g1.id, g2.id]]


def test_given_merging_disabled_when_partitioned_then_nothing_is_compared() -> None:
    off = Policy.of(DreamConfig(enabled=True, merge_duplicates=False))
    assert merge_partitions([entry("a", "x", n=1), entry("b", "x", n=2)], policy(off), None) == []


# -- summaries ------------------------------------------------------------------------------------


def test_given_a_big_enough_partition_when_grouped_then_it_is_summarised_and_small_ones_are_not() -> None:
    p = Policy.of(DreamConfig(enabled=True, summarize_interactions=True, summarize_min_entries=3))
    facts = [entry(f"k{i}", "v", n=i) for i in range(1, 4)]
    prefs = [entry(f"p{i}", "v", n=10 + i, category="preference") for i in range(3)]
    assert [len(g) for g in summary_groups(facts + prefs, policy(p))] == [3]
    assert summary_groups(facts[:2], policy(p)) == []


# -- the whole user, and when to come back ----------------------------------------------------------


def test_given_a_planned_state_when_planned_again_at_the_same_time_then_there_is_nothing_to_do() -> None:
    entries = [
        entry("language", "English", agent="agent-a", n=1, age=8 * DAY),
        entry("language", "German", agent="agent-b", n=2),
        entry("mood", "ok", n=3, category="feeling", expires_at=T0 - DAY),
        entry("old", "x", n=4, age=90 * DAY, confidence=0.2, reinforced_ago=DAY),
    ]
    first = plan_user(entries, policy(), T0, T0)
    assert {c.rule for c in first.changes} == {
        Rule.DECAY,
        Rule.FLAG_CONTRADICTION,
        Rule.EXPIRE,
        Rule.PRUNE_LOW_CONFIDENCE,
    }
    again = plan_user(first.survivors, policy(), T0, T0)
    assert again.changes == [] and again.contradictions == 0


def test_given_entries_when_the_next_due_time_is_computed_then_it_is_the_earliest_rule_point() -> None:
    p = Policy.of(DreamConfig(enabled=True, prune_stale_after_days=90))
    e1 = entry("a", "x", n=1, age=2 * DAY)  # decay due in 5 days
    e2 = entry("b", "x", n=2, expires_at=T0 + 3 * DAY)
    assert next_due([e1, e2], policy(p), T0) == T0 + 3 * DAY
    assert next_due([e1], policy(p), T0) == T0 + 5 * DAY


def test_given_low_confidence_young_entry_when_next_due_then_it_is_one_tick_after_thirty_days() -> None:
    e = entry("a", "x", age=10 * DAY, confidence=0.2, reinforced_ago=timedelta(0), last_decayed_at=None)
    due = next_due([e], policy(Policy.of(DreamConfig(decay_after_days=365))), T0)
    assert due == e.created_at + 30 * DAY + timedelta(microseconds=1)


def test_given_nothing_time_based_when_next_due_then_the_user_leaves_the_index() -> None:
    p = Policy.of(DreamConfig(decay_confidence=False))
    assert next_due([entry()], policy(p), T0) is None
    assert next_due([], policy(), T0) is None


# -- plumbing --------------------------------------------------------------------------------------


def test_given_a_message_when_round_tripped_then_it_is_equal_and_bad_users_are_refused() -> None:
    m = DreamMessage.batch("dream_x", [("t1", "u1"), ("t2", "u2")])
    assert DreamMessage.from_dict(m.to_dict()) == m
    assert DreamMessage.from_dict(DreamMessage.plan("dream_x").to_dict()).kind is MessageKind.PLAN
    with pytest.raises(ValueError, match="pairs"):
        DreamMessage.from_dict({"kind": "dream.users", "runId": "r", "users": [["t1"]]})


def test_given_stats_when_counted_and_added_then_counters_round_trip() -> None:
    s = Stats(expired=1, stale_pruned=2, cost_micros=5)
    s.add(Stats(expired=1, low_confidence_pruned=1))
    assert s.entries_pruned == 5
    assert Stats.from_counters(s.counters()) == s
    assert DREAM_ACTOR.id == "dream"


def test_given_many_entries_of_one_rule_when_planned_then_they_share_changesets_of_at_most_25() -> None:
    entries = [entry(f"k{i}", "v", n=i, age=8 * DAY) for i in range(1, 61)]
    plan = plan_user(entries, policy(DEFAULT), T0, T0)
    assert [len(c.before) for c in plan.changes] == [25, 25, 10]
    assert all(c.rule is Rule.DECAY for c in plan.changes)
    assert sum(len(c.after) for c in plan.changes) == 60


def test_given_a_users_single_entry_changes_when_batched_then_they_share_changesets_and_flags_stay_apart() -> None:
    from engram.service.dream_pass import in_changesets

    entries = [entry(f"k{i}", "v", n=i, age=8 * DAY) for i in range(1, 31)]
    entries += [entry(f"e{i}", "v", n=100 + i, category="context", expires_at=T0 - DAY) for i in range(3)]
    entries += [
        entry("language", "English", agent="agent-a", n=200),
        entry("language", "German", agent="agent-b", n=201),
    ]
    plan = plan_user(entries, policy(), T0, T0)
    batches = in_changesets(plan.changes)
    sizes = [sum(len(c.before) for c in b) for b in batches]
    assert max(sizes) <= 25 and sum(sizes) == sum(len(c.before) for c in plan.changes)
    assert [c.rule for c in batches[-1]] == [Rule.FLAG_CONTRADICTION]
    assert {c.rule for b in batches[:-1] for c in b} == {Rule.DECAY, Rule.EXPIRE}
    assert len(batches) == 3  # 33 single-entry changes in two changesets, then the flag
