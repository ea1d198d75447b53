"""Dream runs end to end on the embedded store, with an injected clock."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from engram.adapters.dream_queue import InMemoryDreamQueue
from engram.adapters.sqlite.dream_state import SqliteDreamState
from engram.container import Engram
from engram.domain.agent_config import AgentConfig, DreamConfig, SemanticDedupConfig, UserMemoryConfig
from engram.domain.dream_run import DreamRun, RunStatus, Trigger
from engram.domain.errors import Forbidden, NotFound, StoreUnavailable
from engram.domain.models import ActorType, ChangeKind, Role, Status, UserSettings, Visibility
from engram.ports import EntryQuery
from engram.service.agents import AgentConfigService
from engram.service.dream import BatchResult, DreamService
from engram.service.memory import UpsertCommand

from tests.support import ManualClock, engram_for, principal

DAY = timedelta(days=1)
# Dream merges the duplicates write-time dedup let through (entries from before it, index
# lag); these tests write such duplicates on purpose, so write-time dedup is off.
NO_WRITE_DEDUP = SemanticDedupConfig(enabled=False)
DREAM_ON = AgentConfig(
    user_memory_config=UserMemoryConfig(dream_config=DreamConfig(enabled=True), semantic_dedup=NO_WRITE_DEDUP)
)


class CountingStore:
    """The store, counting the reads dream makes per user."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.reads: Counter[str] = Counter()
        self.fail_apply_after: int | None = None
        self.applied = 0

    def list_entries(self, tenant_id: str, user_id: str, query: EntryQuery) -> Any:
        self.reads[user_id] += 1
        return self.inner.list_entries(tenant_id, user_id, query)

    def get_settings(self, tenant_id: str, user_id: str) -> Any:
        self.reads[user_id] += 1
        return self.inner.get_settings(tenant_id, user_id)

    def apply(self, changeset: Any, now: Any) -> None:
        if self.fail_apply_after is not None and self.applied >= self.fail_apply_after:
            raise StoreUnavailable("simulated crash")
        self.inner.apply(changeset, now)
        self.applied += 1

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


@dataclass
class Rig:
    engram: Engram
    clock: ManualClock
    store: CountingStore
    queue: InMemoryDreamQueue
    dream: DreamService

    def write(self, user: str, key: str, value: str, agent: str = "agent-a", **kw: Any) -> Any:
        return self.engram.memory.upsert(principal("t1", agent), user, [UpsertCommand(key, value, **kw)])[0].entry

    def run(self, trigger: Trigger = Trigger.CLI, tenant: str | None = None) -> tuple[DreamRun, list[BatchResult]]:
        run = self.dream.start(trigger, tenant)
        self.dream.plan(run.run_id)
        return self.dream.state.get_run(run.run_id) or run, self.drain()

    def drain(self) -> list[BatchResult]:
        results = []
        while len(self.queue):
            for m in self.queue.receive():
                results.append(self.dream.handle(m))
        return results

    def history(self, user: str) -> list[Any]:
        return self.engram.store.history_of_user("t1", user)

    def active(self, user: str) -> list[Any]:
        return self.engram.store.list_entries("t1", user, EntryQuery(now=self.clock.now(), limit=1000)).items


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    clock = ManualClock()
    engram = engram_for(tmp_path, clock=clock)
    counting = CountingStore(engram.store)
    queue = InMemoryDreamQueue()
    service = DreamService(
        counting,  # type: ignore[arg-type]
        counting,  # type: ignore[arg-type]
        SqliteDreamState(engram.store.db),  # type: ignore[arg-type]
        queue,
        engram.embedder,
        clock,
        AgentConfigService(engram.store, cache_seconds=0),
        batch_users=2,
        page_size=3,
    )
    yield Rig(engram, clock, counting, queue, service)


def dream_on(rig: Rig, *agents: str, **config: Any) -> None:
    for agent in agents:
        cfg = DREAM_ON.user_memory_config.dream_config.model_copy(update=config)
        umc = UserMemoryConfig(dream_config=cfg, semantic_dedup=NO_WRITE_DEDUP)
        rig.engram.agents.put("t1", agent, AgentConfig(user_memory_config=umc))


# -- the sparse due index ---------------------------------------------------------------------------


def test_given_users_without_activity_or_due_rules_when_a_run_plans_then_they_are_never_read(rig: Rig) -> None:
    for u in ("quiet1", "quiet2", "quiet3", "busy"):
        rig.write(u, "city", "Paris")
    rig.run()  # the first pass records each user's next due time (a decay, 7 days on)
    rig.store.reads.clear()
    rig.clock.advance(DAY)
    rig.write("busy", "city", "Rome")
    run, _ = rig.run()
    assert run.users_planned == 1
    assert set(rig.store.reads) == {"busy"}


def test_given_a_user_due_later_when_that_time_comes_then_the_user_is_processed(rig: Rig) -> None:
    rig.write("u1", "city", "Paris")
    rig.run()
    state = rig.dream.state.due_state("t1", "u1")
    assert state is not None and state.due_at is not None
    rig.clock.advance(6 * DAY)
    assert rig.run()[0].users_planned == 0
    rig.clock.advance(DAY)
    run, results = rig.run()
    assert run.users_planned == 1 and sum(r.stats.decayed for r in results) == 1


def test_given_nothing_ever_due_when_a_pass_ends_then_the_user_leaves_the_index(rig: Rig) -> None:
    rig.engram.agents.put(
        "t1",
        "agent-a",
        AgentConfig(user_memory_config=UserMemoryConfig(dream_config=DreamConfig(decay_confidence=False))),
    )
    rig.write("u1", "city", "Paris")
    rig.run()
    state = rig.dream.state.due_state("t1", "u1")
    assert state is not None and state.due_at is None
    assert rig.dream.state.due_users(rig.clock.now() + 3650 * DAY, 10).items == []


def test_given_a_run_when_planned_then_batches_follow_the_batch_size_and_the_run_completes(rig: Rig) -> None:
    for i in range(5):
        rig.write(f"u{i}", "city", "Paris")
    run = rig.dream.start(Trigger.CLI)
    run = rig.dream.plan(run.run_id)
    assert run.status is RunStatus.RUNNING and run.users_planned == 5 and run.batches_sent == 3
    results = rig.drain()
    assert [r.processed for r in results] == [2, 1, 2]
    final = rig.dream.state.get_run(run.run_id)
    assert final is not None and final.status is RunStatus.COMPLETED and final.users_done == 5
    assert sum(1 for r in results if r.completed is not None) == 1


def test_given_little_time_left_when_planning_then_a_continuation_is_queued_and_resumes(rig: Rig) -> None:
    for i in range(7):
        rig.write(f"u{i}", "city", "Paris")
    run = rig.dream.start(Trigger.SCHEDULE)
    run = rig.dream.plan(run.run_id, time_left=lambda: 1.0)
    assert run.status is RunStatus.PLANNING and run.users_planned == 3
    rig.drain()
    final = rig.dream.state.get_run(run.run_id)
    assert final is not None and final.users_planned == 7 and final.status is RunStatus.COMPLETED


def test_given_a_tenant_run_when_planned_then_only_that_tenants_users_are_in_it(rig: Rig) -> None:
    rig.write("u1", "city", "Paris")
    rig.engram.memory.upsert(principal("t2", "agent-a"), "u1", [UpsertCommand("city", "Oslo")])
    run, _ = rig.run(Trigger.MANUAL, tenant="t2")
    assert run.users_planned == 1
    assert rig.dream.state.run_stats(run.run_id, "t1").users_processed == 0
    assert rig.dream.state.run_stats(run.run_id, "t2").users_processed == 1


# -- rules through the service ----------------------------------------------------------------------


def test_given_contradicting_agents_when_dream_runs_then_both_entries_are_flagged_by_system(rig: Rig) -> None:
    dream_on(rig, "agent-a", "agent-b")
    a = rig.write("u1", "language", "English", agent="agent-a")
    b = rig.write("u1", "language", "German", agent="agent-b")
    run, results = rig.run()
    assert sum(r.stats.contradictions_found for r in results) == 1
    flagged = {e.id: e for e in rig.active("u1")}
    assert flagged[a.id].conflicted and flagged[b.id].conflicted
    assert flagged[a.id].value == "English" and flagged[b.id].value == "German"
    last = rig.history("u1")[-1]
    assert last.actor.type is ActorType.SYSTEM and last.change is ChangeKind.FLAGGED
    assert last.reason.startswith("dream: contradiction")
    stats = rig.dream.state.run_stats(run.run_id)
    assert stats.contradictions_found == 1 and stats.flags_set == 2


def test_given_semantic_duplicates_when_dream_runs_then_they_merge_into_the_reinforced_survivor(rig: Rig) -> None:
    dream_on(rig, "agent-a")
    keep = rig.write("u1", "drink", "black coffee", confidence=0.8)
    dup = rig.write("u1", "drinks", "black coffee", confidence=0.6)
    rig.write("u1", "city", "Paris")
    _, results = rig.run()
    assert sum(r.stats.duplicates_merged for r in results) == 1
    live = {e.key: e for e in rig.active("u1")}
    assert set(live) == {"drink", "city"}
    assert live["drink"].confidence == 0.9
    gone = rig.engram.store.get_entry("t1", "u1", dup.id)
    assert gone is not None and gone.status is Status.SUPERSEDED and gone.superseded_by == keep.id


def test_given_a_duplicate_written_after_a_pass_when_dream_runs_then_only_fresh_pairs_are_compared(rig: Rig) -> None:
    dream_on(rig, "agent-a")
    rig.write("u1", "drink", "black coffee")
    rig.write("u1", "city", "Paris")
    rig.run()
    rig.clock.advance(DAY)
    rig.write("u1", "drinks", "black coffee")
    _, results = rig.run()
    assert sum(r.stats.duplicates_merged for r in results) == 1
    assert {e.key for e in rig.active("u1")} == {"drink", "city"}


def test_given_exact_boundaries_when_dream_runs_on_a_frozen_clock_then_seven_days_decays_thirty_keeps(
    tmp_path: Path,
) -> None:
    clock = ManualClock(tick=timedelta(0))
    engram = engram_for(tmp_path, clock=clock)
    assert engram.dream is not None
    queue = InMemoryDreamQueue()
    engram.dream.queue = queue
    p = principal("t1", "agent-a")
    e = engram.memory.upsert(p, "u1", [UpsertCommand("city", "Paris", confidence=0.29)])[0].entry
    clock.advance(7 * DAY)
    run = engram.dream.start(Trigger.CLI)
    engram.dream.plan(run.run_id)
    for m in queue.receive(10):
        engram.dream.handle(m)
    after = engram.store.get_entry("t1", "u1", e.id)
    assert after is not None and after.confidence == round(0.29 * 0.95, 4) and after.status is Status.ACTIVE
    state = engram.dream.state.due_state("t1", "u1")
    # Next: one tick after 30 days old (low confidence), earlier than the next decay (14 days)? No: 14 < 30.
    assert state is not None and state.due_at == e.created_at + 14 * DAY
    clock.advance(23 * DAY)  # exactly 30 days old: decays (at 28) but is not older than 30 days
    run = engram.dream.start(Trigger.CLI)
    engram.dream.plan(run.run_id)
    for m in queue.receive(10):
        engram.dream.handle(m)
    after = engram.store.get_entry("t1", "u1", e.id)
    assert after is not None and after.status is Status.ACTIVE
    state = engram.dream.state.due_state("t1", "u1")
    assert state is not None and state.due_at == e.created_at + 30 * DAY + timedelta(microseconds=1)
    clock.advance(timedelta(microseconds=1))
    run = engram.dream.start(Trigger.CLI)
    engram.dream.plan(run.run_id)
    for m in queue.receive(10):
        engram.dream.handle(m)
    after = engram.store.get_entry("t1", "u1", e.id)
    assert after is not None and after.status is Status.DELETED
    assert engram.store.history_of_user("t1", "u1")[-1].change is ChangeKind.PRUNED


def test_given_retention_settings_when_dream_runs_then_older_entries_are_removed(rig: Rig) -> None:
    old = rig.write("u1", "city", "Paris")
    rig.clock.advance(40 * DAY)
    rig.write("u1", "pet", "dog")
    rig.engram.store.put_settings(UserSettings("t1", "u1", retention_days=30))
    _, results = rig.run()
    assert sum(r.stats.retention_pruned for r in results) == 1
    assert {e.key for e in rig.active("u1")} == {"pet"}
    assert old.id not in {e.id for e in rig.active("u1")}


def test_given_ttl_categories_when_dream_runs_then_expired_entries_are_removed_with_history(rig: Rig) -> None:
    rig.engram.agents.put("t1", "agent-a", AgentConfig(user_memory_config=UserMemoryConfig(ttl_hours={"context": 24})))
    feeling = rig.write("u1", "mood", "tired", category="context")
    rig.clock.advance(2 * DAY)
    _, results = rig.run()
    assert sum(r.stats.expired for r in results) == 1
    stored = rig.engram.store.get_entry("t1", "u1", feeling.id)
    assert stored is not None and stored.status is Status.DELETED
    assert rig.history("u1")[-1].change is ChangeKind.EXPIRED


# -- idempotency and crashes ------------------------------------------------------------------------


def _seed_everything(rig: Rig) -> None:
    dream_on(rig, "agent-a", "agent-b")
    for u in ("u1", "u2", "u3"):
        rig.write(u, "language", "English", agent="agent-a")
        rig.write(u, "language", "German", agent="agent-b")
        rig.write(u, "drink", "black coffee")
        rig.write(u, "drinks", "black coffee", confidence=0.5)
        rig.write(u, "mood", "fine", category="context")
        rig.write(u, "city", "Paris")
    rig.clock.advance(8 * DAY)


def test_given_a_finished_run_when_its_messages_are_delivered_again_then_nothing_changes(rig: Rig) -> None:
    _seed_everything(rig)
    run = rig.dream.start(Trigger.CLI)
    rig.dream.plan(run.run_id)
    messages = rig.queue.receive(100)
    for m in messages:
        rig.dream.handle(m)
    before = {u: len(rig.history(u)) for u in ("u1", "u2", "u3")}
    assert all(n > 12 for n in before.values())
    stats_before = rig.dream.state.run_stats(run.run_id)
    again = [rig.dream.handle(m) for m in messages]
    assert sum(r.skipped for r in again) == 3 and sum(r.processed for r in again) == 0
    assert {u: len(rig.history(u)) for u in ("u1", "u2", "u3")} == before
    assert rig.dream.state.run_stats(run.run_id) == stats_before
    # Planning the same run again sends nothing more either.
    assert rig.dream.plan(run.run_id).users_planned == 3 and not len(rig.queue)


def test_given_a_user_processed_twice_at_the_same_time_then_the_second_pass_finds_nothing(rig: Rig) -> None:
    _seed_everything(rig)
    run = rig.dream.start(Trigger.CLI)
    first = rig.dream.process_user(run, "t1", "u1")
    assert first is not None and first.decayed + first.flags_set + first.duplicates_merged > 0
    n = len(rig.history("u1"))
    other = rig.dream.start(Trigger.CLI, run_id="dream_replay")
    replay = DreamRun(other.run_id, run.as_of, run.started_at, Trigger.CLI)
    second = rig.dream.process_user(replay, "t1", "u1")
    assert second is not None
    s = second
    assert (s.decayed, s.flags_set, s.duplicates_merged, s.expired, s.version_conflicts) == (0, 0, 0, 0, 0)
    assert len(rig.history("u1")) == n


def test_given_a_crash_mid_user_when_the_message_comes_again_then_the_user_ends_as_a_clean_run_would(
    tmp_path: Path,
) -> None:
    def final_state(crash_after: int | None, path: Path) -> tuple[list[tuple[str, str, float, bool]], int]:
        clock = ManualClock(tick=timedelta(0))
        engram = engram_for(path, clock=clock)
        counting = CountingStore(engram.store)
        queue = InMemoryDreamQueue()
        service = DreamService(
            counting,  # type: ignore[arg-type]
            counting,  # type: ignore[arg-type]
            SqliteDreamState(engram.store.db),
            queue,
            engram.embedder,
            clock,
            AgentConfigService(engram.store, cache_seconds=0),
        )
        rig = Rig(engram, clock, counting, queue, service)
        _seed_everything(rig)
        run = service.start(Trigger.CLI, run_id="dream_same")
        service.plan(run.run_id)
        messages = queue.receive(100)
        counting.fail_apply_after = crash_after
        first = [service.handle(m) for m in messages]
        if crash_after is not None:
            assert sum(len(r.retry) for r in first) >= 1
            counting.fail_apply_after = None
            for m in messages:
                service.handle(m)
        live = sorted(
            (e.key, e.value, e.confidence, e.conflicted)
            for u in ("u1", "u2", "u3")
            for e in engram.store.list_entries("t1", u, EntryQuery(now=clock.now(), limit=100)).items
        )
        stored = service.state.get_run(run.run_id)
        assert stored is not None and stored.status is RunStatus.COMPLETED
        return live, len(engram.store.history_of_user("t1", "u1"))

    clean = final_state(None, tmp_path / "clean")
    crashed = final_state(2, tmp_path / "crash")
    assert crashed == clean


def test_given_a_concurrent_write_during_a_pass_when_it_conflicts_then_the_user_stays_due(rig: Rig) -> None:
    rig.write("u1", "city", "Paris")
    rig.clock.advance(8 * DAY)
    run = rig.dream.start(Trigger.CLI)
    original = rig.store.inner.apply
    raced = threading.Event()

    def racing_apply(changeset: Any, now: Any) -> None:
        if not raced.is_set() and changeset.history and changeset.history[0].actor.type is ActorType.SYSTEM:
            raced.set()
            rig.write("u1", "city", "Paris")  # the user restates it while dream decays it
        original(changeset, now)

    rig.store.inner = type("S", (), {"__getattr__": lambda s, n: getattr(rig.engram.store, n)})()
    rig.store.inner.apply = racing_apply
    outcome = rig.dream.process_user(run, "t1", "u1")
    assert outcome is not None and outcome.version_conflicts == 1
    live = rig.active("u1")[0]
    assert live.confidence == 1.0  # the user's reinforcement stands; dream did not overwrite it
    state = rig.dream.state.due_state("t1", "u1")
    assert state is not None and state.due_at is not None and state.due_at <= rig.clock.now()


def test_given_a_user_whose_processing_fails_when_the_batch_runs_then_the_rest_proceed_and_it_stays_due(
    rig: Rig,
) -> None:
    rig.write("u1", "city", "Paris")
    rig.write("u2", "city", "Paris")
    original = rig.store.inner.get_settings

    def broken(tenant_id: str, user_id: str) -> Any:
        if user_id == "u1":
            raise RuntimeError("corrupt row")
        return original(tenant_id, user_id)

    rig.store.inner = type("S", (), {"__getattr__": lambda s, n: getattr(rig.engram.store, n)})()
    rig.store.inner.get_settings = broken
    run, results = rig.run()
    assert sum(r.failed for r in results) == 1 and sum(r.processed for r in results) == 1
    stored = rig.dream.state.get_run(run.run_id)
    assert stored is not None and stored.status is RunStatus.COMPLETED
    assert rig.dream.state.run_stats(run.run_id).users_failed == 1
    assert [u.user_id for u in rig.dream.state.due_users(rig.clock.now(), 10).items] == ["u1"]


# -- reports, access and erasure --------------------------------------------------------------------


def test_given_runs_when_listed_by_an_admin_then_only_runs_covering_their_tenant_show(rig: Rig) -> None:
    rig.write("u1", "city", "Paris")
    mine, _ = rig.run(Trigger.MANUAL, tenant="t1")
    theirs, _ = rig.run(Trigger.MANUAL, tenant="t2")
    everyone, _ = rig.run(Trigger.SCHEDULE)
    admin = principal("t1", "root", Role.ADMIN)
    ids = [r.run.run_id for r in rig.dream.list_runs(admin).items]
    assert ids == [everyone.run_id, mine.run_id]
    with pytest.raises(NotFound):
        rig.dream.get_run(admin, theirs.run_id)
    with pytest.raises(Forbidden):
        rig.dream.list_runs(principal("t1", "agent-a", Role.WRITER))


def test_given_a_user_erased_when_dream_state_is_asked_then_nothing_of_them_remains(rig: Rig) -> None:
    rig.write("u1", "city", "Paris")
    rig.run()
    receipt = rig.engram.privacy.erase(principal("t1", "root", Role.ADMIN), "u1", "CONFIRM")
    assert receipt.counts["dreamDue"] == 1 and receipt.counts["dreamRunMarkers"] == 1
    assert rig.dream.state.due_state("t1", "u1") is None


def test_given_a_group_entry_when_merged_then_visibility_and_groups_are_kept(rig: Rig) -> None:
    dream_on(rig, "agent-a")
    p = principal("t1", "agent-a", groups=("team",))
    rig.engram.memory.upsert(p, "u1", [UpsertCommand("drink", "tea", visibility=Visibility.GROUP)])
    rig.engram.memory.upsert(p, "u1", [UpsertCommand("drinks", "tea", visibility=Visibility.GROUP)])
    rig.run()
    live = rig.active("u1")
    assert len(live) == 1 and live[0].visibility is Visibility.GROUP and live[0].group_ids == ("team",)


def test_given_the_index_holds_the_vectors_when_merging_then_dream_embeds_nothing_again(tmp_path: Path) -> None:
    from engram.adapters.local_index import LocalIndex
    from engram.adapters.local_index_vectors import LocalIndexVectors

    clock = ManualClock()
    engram = engram_for(tmp_path, clock=clock)
    engram.agents.put("t1", "agent-a", DREAM_ON)
    p = principal("t1", "agent-a")
    engram.memory.upsert(p, "u1", [UpsertCommand("drink", "black coffee"), UpsertCommand("drinks", "black coffee")])
    engram.sync_index()
    assert isinstance(engram.index, LocalIndex)
    calls: list[int] = []
    real = engram.embedder

    class Counting:
        model_id = real.model_id
        dimension = real.dimension
        dedup_threshold = real.dedup_threshold

        def embed(self, texts: Any) -> Any:
            calls.append(len(texts))
            return real.embed(texts)

    queue = InMemoryDreamQueue()
    service = DreamService(
        engram.store,
        engram.store,
        SqliteDreamState(engram.store.db),  # type: ignore[arg-type]
        queue,
        Counting(),
        clock,
        AgentConfigService(engram.store, cache_seconds=0),
        vectors=LocalIndexVectors(engram.index),
    )
    run = service.start(Trigger.CLI)
    service.plan(run.run_id)
    results = [service.handle(m) for m in queue.receive(10)]
    assert sum(r.stats.duplicates_merged for r in results) == 1
    assert sum(calls) == 0
