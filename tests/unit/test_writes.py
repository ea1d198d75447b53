"""The write planner: reinforce, update, supersede, stale, restore (behaviour items 2, 6, 10)."""

from __future__ import annotations

from datetime import timedelta

from engram.domain.models import Actor, ActorType, ChangeKind, Status, Visibility
from engram.domain.policies import identity_id
from engram.domain.writes import Outcome, WriteRequest, plan_removal, plan_write

from tests.support import T0

AGENT = Actor(ActorType.AGENT, "a")


def req(value: str = "blue", **kw: object) -> WriteRequest:
    base: dict[str, object] = {
        "tenant_id": "t",
        "user_id": "u",
        "key": "color",
        "value": value,
        "category": "preference",
        "visibility": Visibility.SELF,
        "agent_id": "a",
        "actor": AGENT,
    }
    base.update(kw)
    return WriteRequest(**base)  # type: ignore[arg-type]


def test_given_no_entry_when_written_then_created_at_version_1_with_full_confidence() -> None:
    plan = plan_write(req(), None, None, T0)
    assert plan.outcome is Outcome.CREATED
    assert plan.entry.version == 1
    assert plan.entry.confidence == 1.0
    assert plan.guard.expected_version is None
    assert plan.active_delta == 1
    assert plan.history[0].change is ChangeKind.CREATED


def test_given_same_value_in_other_case_when_written_then_reinforced_capped_at_one() -> None:
    first = plan_write(req(confidence=0.5), None, None, T0).entry
    plan = plan_write(req("  BLUE!"), first, 1, T0 + timedelta(days=1))
    assert plan.outcome is Outcome.REINFORCED
    assert plan.entry.value == "blue"
    assert plan.entry.confidence == 0.6
    assert plan.entry.importance == first.importance
    assert plan.entry.id == first.id
    assert plan.active_delta == 0
    full = plan_write(req("blue"), first.evolve(confidence=0.95), 2, T0)
    assert full.entry.confidence == 1.0


def test_given_same_value_with_new_importance_when_written_then_updated_in_place() -> None:
    first = plan_write(req(), None, None, T0).entry
    plan = plan_write(req(importance=90), first, 1, T0)
    assert plan.outcome is Outcome.UPDATED
    assert plan.entry.importance == 90


def test_given_different_value_when_written_then_old_superseded_and_linked() -> None:
    first = plan_write(req(), None, None, T0).entry
    plan = plan_write(req("green"), first, 1, T0 + timedelta(hours=1))
    assert plan.outcome is Outcome.SUPERSEDED
    old, new = plan.entries
    assert old.status is Status.SUPERSEDED
    assert old.superseded_by == new.id
    assert new.supersedes == first.id
    assert old.valid_to == T0 + timedelta(hours=1)
    assert plan.guard.current_entry_id == new.id
    assert plan.active_delta == 0


def test_given_an_older_observation_when_it_arrives_late_then_kept_in_history_as_stale() -> None:
    first = plan_write(req("green", source_time=T0), None, None, T0).entry
    plan = plan_write(req("blue", source_time=T0 - timedelta(hours=2)), first, 1, T0 + timedelta(minutes=5))
    assert plan.outcome is Outcome.STALE
    assert plan.entries == ()
    assert plan.entry == first
    assert plan.history[0].change is ChangeKind.STALE
    assert plan.history[0].entry.value == "blue"
    assert plan.guard.new_version == 2


def test_given_a_newer_observation_then_it_supersedes() -> None:
    first = plan_write(req("green", source_time=T0), None, None, T0).entry
    plan = plan_write(req("blue", source_time=T0 + timedelta(hours=2)), first, 1, T0)
    assert plan.outcome is Outcome.SUPERSEDED


def test_given_an_expired_entry_when_written_then_a_fresh_entry_is_created() -> None:
    first = plan_write(req("tired", category="feeling"), None, None, T0).entry
    assert first.expires_at == T0 + timedelta(hours=6)
    plan = plan_write(req("tired", category="feeling"), first, 1, T0 + timedelta(hours=6))
    assert plan.outcome is Outcome.CREATED
    assert plan.guard.expected_version == 1


def test_retention_shortens_expiry_but_never_lengthens_it() -> None:
    fact = plan_write(req(category="fact", retention=timedelta(days=3)), None, None, T0).entry
    assert fact.expires_at == T0 + timedelta(days=3)
    feeling = plan_write(req(category="feeling", retention=timedelta(days=3)), None, None, T0).entry
    assert feeling.expires_at == T0 + timedelta(hours=6)


def test_restore_is_a_new_version_with_its_own_change_kind() -> None:
    first = plan_write(req(), None, None, T0).entry
    green = plan_write(req("green"), first, 1, T0).entry
    plan = plan_write(req("blue"), green, 2, T0, restoring=1)
    assert plan.outcome is Outcome.RESTORED
    assert plan.entry.value == "blue"
    assert plan.history[0].reason == "restore of version 1"
    assert plan.guard.new_version == 3


def test_removal_is_soft_and_versioned() -> None:
    first = plan_write(req(), None, None, T0).entry
    guard, removed, rec = plan_removal(first, 1, first.id, AGENT, "asked", T0)
    assert removed.status is Status.DELETED
    assert guard.current_entry_id is None
    assert rec.version == 2
    assert rec.change is ChangeKind.DELETED


def test_identity_is_per_agent_for_self_and_group_and_shared_for_global() -> None:
    assert identity_id("t", "u", "k", Visibility.SELF, "a") != identity_id("t", "u", "k", Visibility.SELF, "b")
    assert identity_id("t", "u", "k", Visibility.GROUP, "a") != identity_id("t", "u", "k", Visibility.GROUP, "b")
    assert identity_id("t", "u", "k", Visibility.GLOBAL, "a") == identity_id("t", "u", "k", Visibility.GLOBAL, "b")
    assert identity_id("t", "u", "k", Visibility.GLOBAL, "a") != identity_id("t2", "u", "k", Visibility.GLOBAL, "a")
