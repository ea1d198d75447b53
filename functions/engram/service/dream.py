"""Dream orchestration: start a run, plan it, process users (behaviour item 17).

The planner reads only the sparse due index (users whose writes or time-based rules
made them due) and fans out batches of users through the ``DreamQueue``; workers
process users. A run is idempotent per (run, user): a user done in a run is skipped
when its message comes again, and every rule is a function of stored state, so a
user a crash interrupted half way is finished, not redone. Each change is its own
atomic versioned changeset (actor ``system/dream``, the rule as reason).
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from aws_lambda_powertools import Logger

from engram.domain.dream import (
    SUMMARY_KEY_PREFIX,
    Policy,
    PolicyOf,
    cosine,
    duplicate_clusters,
    fact_line,
    merge_change,
    merge_partitions,
    next_due,
    plan_user,
    summary_groups,
    summary_key,
)
from engram.domain.dream_run import DreamMessage, DreamRun, MessageKind, RunStatus, Stats, Trigger, UserOutcome
from engram.domain.errors import Forbidden, NotFound, StoreUnavailable, Throttled, ValidationFailed
from engram.domain.models import (
    MemoryEntry,
    Page,
    Principal,
    Role,
    Status,
    Visibility,
)
from engram.domain.sensitive import find_sensitive
from engram.domain.ttl import DEFAULT_TTL
from engram.ports import (
    Clock,
    DreamQueue,
    DreamStateRepository,
    Embedder,
    EntryQuery,
    MemoryRepository,
    ProfileRepository,
    Summarizer,
    SummaryRequest,
    SummaryResult,
    Vector,
    VectorSource,
)
from engram.service.agents import AgentConfigService
from engram.service.dream_pass import UserPass, in_changesets

logger = Logger(service="engram", child=True)

# Errors worth a redelivery: the user is left for the queue to retry.
TRANSIENT = (Throttled, StoreUnavailable)


@dataclass(frozen=True, slots=True)
class RunReport:
    run: DreamRun
    stats: Stats


@dataclass(slots=True)
class BatchResult:
    processed: int = 0
    skipped: int = 0
    failed: int = 0
    # Users to hand back to the queue (transient errors); the rest of the batch is done.
    retry: list[tuple[str, str]] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    completed: DreamRun | None = None


def new_run_id(now: datetime) -> str:
    return "dream_" + now.strftime("%Y%m%dT%H%M%SZ") + "_" + secrets.token_hex(4)


def schedule_run_id(event_id: str) -> str:
    """The run of one schedule event: a redelivered event resumes it instead of starting another."""
    safe = re.sub(r"[^A-Za-z0-9\-]", "", event_id)[:100]
    if not safe:
        raise ValidationFailed("The schedule event has no usable id.", field="id")
    return "dream_sched_" + safe


@dataclass
class DreamService:
    entries: MemoryRepository
    profiles: ProfileRepository
    state: DreamStateRepository
    queue: DreamQueue
    embedder: Embedder
    clock: Clock
    agents: AgentConfigService
    summarizer: Summarizer | None = None
    vectors: VectorSource | None = None
    ttl: Mapping[str, timedelta | None] = field(default_factory=lambda: dict(DEFAULT_TTL))
    batch_users: int = 100
    page_size: int = 1000

    # -- runs ------------------------------------------------------------------------------
    def start(self, trigger: Trigger, tenant_id: str | None = None, run_id: str | None = None) -> DreamRun:
        """Create a run (or return the existing one with that id: a retried schedule
        event resumes its run). Users due at its start are in it."""
        now = self.clock.now()
        run = DreamRun(run_id or new_run_id(now), as_of=now, started_at=now, trigger=trigger, tenant_id=tenant_id)
        stored = self.state.create_run(run)
        if stored.tenant_id != tenant_id:
            raise Forbidden("A dream run with that id exists for another scope.", runId=stored.run_id)
        return stored

    def scheduled(self, event_id: str, time_left: Callable[[], float] | None = None) -> DreamRun:
        """The schedule's run over every tenant: start (or resume) it and plan it."""
        run = self.start(Trigger.SCHEDULE, None, schedule_run_id(event_id))
        return self.plan(run.run_id, time_left)

    def request_run(self, principal: Principal) -> DreamRun:
        """An admin starts a run of their own tenant; planning happens on the queue."""
        _require_admin(principal)
        run = self.start(Trigger.MANUAL, principal.tenant_id)
        self.queue.send([DreamMessage.plan(run.run_id)])
        logger.info("dream run requested", extra={"run_id": run.run_id, "tenant_id": principal.tenant_id})
        return run

    def plan(self, run_id: str, time_left: Callable[[], float] | None = None, reserve_s: float = 30.0) -> DreamRun:
        """Page the due index and send batches of users, storing the cursor after each
        page. With ``time_left`` (seconds), stop early and queue a continuation."""
        run = self._run(run_id)
        while run.status is RunStatus.PLANNING:
            page = self.state.due_users(run.as_of, self.page_size, run.plan_cursor, run.tenant_id)
            users = [(u.tenant_id, u.user_id) for u in page.items]
            batches = [users[i : i + self.batch_users] for i in range(0, len(users), self.batch_users)]
            if batches:
                self.queue.send([DreamMessage.batch(run.run_id, b) for b in batches])
            done = page.next_cursor is None
            moved = self.state.record_plan_progress(
                run.run_id, run.plan_cursor, page.next_cursor, len(users), len(batches), done
            )
            if moved is None:
                # Another planner (a redelivered continuation) advanced this run; the
                # batches we sent are duplicates the workers skip.
                return self._run(run_id)
            run = moved
            if not done and time_left is not None and time_left() < reserve_s:
                self.queue.send([DreamMessage.plan(run.run_id)])
                return run
        self._complete_if_done(run)
        return self._run(run_id)

    def handle(self, message: DreamMessage, time_left: Callable[[], float] | None = None) -> BatchResult:
        if message.kind is MessageKind.PLAN:
            self.plan(message.run_id, time_left)
            return BatchResult()
        return self.process_batch(message.run_id, message.users)

    def process_batch(self, run_id: str, users: Sequence[tuple[str, str]]) -> BatchResult:
        run = self._run(run_id)
        result = BatchResult()
        policies: dict[tuple[str, str], Policy] = {}
        for tenant_id, user_id in users:
            try:
                outcome = self.process_user(run, tenant_id, user_id, policies)
            except TRANSIENT as exc:
                logger.warning(
                    "dream user deferred",
                    extra={"run_id": run_id, "tenant_id": tenant_id, "error": type(exc).__name__},
                )
                result.retry.append((tenant_id, user_id))
                continue
            except Exception as exc:  # one bad user must not stall a run of millions
                logger.exception(
                    "dream user failed",
                    extra={"run_id": run_id, "tenant_id": tenant_id, "error": type(exc).__name__},
                )
                failed = self._fail_user(run, tenant_id, user_id)
                if failed is not None:
                    result.failed += 1
                    result.stats.add(failed)
                continue
            if outcome is None:
                result.skipped += 1
                continue
            result.processed += 1
            result.stats.add(outcome)
        if result.processed or result.failed:
            result.completed = self._complete_if_done(self._run(run_id))
        return result

    def _fail_user(self, run: DreamRun, tenant_id: str, user_id: str) -> Stats | None:
        due = self.state.due_state(tenant_id, user_id)
        stats = Stats(users_failed=1)
        # The user stays due as they were: the next run tries again.
        outcome = UserOutcome(
            tenant_id,
            user_id,
            stats,
            due.activity if due else 0,
            due.due_at if due else run.as_of,
            None,
        )
        return stats if self.state.finish_user(run.run_id, outcome) else None

    def _complete_if_done(self, run: DreamRun) -> DreamRun | None:
        if not run.complete:
            return None
        at = self.clock.now()
        if not self.state.complete_run(run.run_id, at):
            return None
        stats = self.state.run_stats(run.run_id)
        logger.info(
            "dream run completed",
            extra={
                "run_id": run.run_id,
                "users": run.users_done,
                "duration_s": (at - run.started_at).total_seconds(),
                **stats.counters(),
            },
        )
        return self._run(run.run_id)

    # -- one user ----------------------------------------------------------------------------
    def process_user(
        self,
        run: DreamRun,
        tenant_id: str,
        user_id: str,
        policies: dict[tuple[str, str], Policy] | None = None,
    ) -> Stats | None:
        """Apply every rule to one user; None if this run already did them."""
        if self.state.is_done(run.run_id, tenant_id, user_id):
            return None
        cache = policies if policies is not None else {}

        def policy_of(agent_id: str) -> Policy:
            key = (tenant_id, agent_id)
            p = cache.get(key)
            if p is None:
                p = cache[key] = Policy.of(self.agents.get(tenant_id, agent_id).user_memory_config.dream_config)
            return p

        # The activity counter is read before the entries: a write after this point
        # keeps the user due even if this pass misses it.
        due = self.state.due_state(tenant_id, user_id)
        now = run.as_of
        entries = self._active_entries(tenant_id, user_id, now)
        settings = self.profiles.get_settings(tenant_id, user_id)
        retention = None if settings is None or settings.retention_days is None else timedelta(settings.retention_days)
        stats = Stats(users_processed=1, entries_read=len(entries))
        pass_ = UserPass(self.entries, tenant_id, user_id, stats, self.clock.now())

        plan = plan_user(entries, policy_of, now, pass_.at, retention)
        stats.contradictions_found += plan.contradictions
        for batch in in_changesets(plan.changes):
            pass_.apply_all(batch)
        survivors = {e.id: e for e in plan.survivors if e.id not in pass_.lost}
        self._merge(pass_, list(survivors.values()), policy_of, due.last_pass_at if due else None, survivors)
        if self.summarizer is not None:
            self._summarize(run, pass_, list(survivors.values()), policy_of, survivors)
        outcome = UserOutcome(
            tenant_id,
            user_id,
            stats,
            due.activity if due else 0,
            next_due(survivors.values(), policy_of, now, retention),
            now,
        )
        # Another delivery of the same message may have finished the user meanwhile:
        # its stats count, not these.
        return stats if self.state.finish_user(run.run_id, outcome) else None

    def _active_entries(self, tenant_id: str, user_id: str, now: datetime) -> list[MemoryEntry]:
        out: list[MemoryEntry] = []
        cursor: str | None = None
        while True:
            page: Page[MemoryEntry] = self.entries.list_entries(
                tenant_id,
                user_id,
                EntryQuery(now=now, statuses=(Status.ACTIVE,), include_expired=True, limit=1000, cursor=cursor),
            )
            out.extend(page.items)
            cursor = page.next_cursor
            if cursor is None:
                return out

    def _merge(
        self,
        pass_: UserPass,
        entries: list[MemoryEntry],
        policy_of: PolicyOf,
        fresh_since: datetime | None,
        survivors: dict[str, MemoryEntry],
    ) -> None:
        threshold = self.embedder.dedup_threshold
        for group in merge_partitions(entries, policy_of, fresh_since):
            similarity = _similarity(self._vectors(pass_, group))
            for cluster in duplicate_clusters(group, similarity, threshold, fresh_since):
                change = merge_change([group[i] for i in cluster], pass_.at)
                if pass_.apply(change):
                    for e in change.before[1:]:
                        survivors.pop(e.id, None)
                    survivors[change.after[0].id] = change.after[0]

    def _vectors(self, pass_: UserPass, group: list[MemoryEntry]) -> list[Vector]:
        """The index's stored vectors where it has them (dream's own changes never alter
        an entry's text); the embedder for the rest."""
        stored: Mapping[str, Vector] = {}
        if self.vectors is not None:
            ids = [e.id for e in group]
            stored = self.vectors.stored_vectors(pass_.tenant_id, pass_.user_id, ids, self.embedder.model_id)
        missing = [e for e in group if e.id not in stored]
        made = dict(zip((e.id for e in missing), self.embedder.embed([e.text() for e in missing]), strict=True))
        return [stored[e.id] if e.id in stored else made[e.id] for e in group]

    def _summarize(
        self,
        run: DreamRun,
        pass_: UserPass,
        entries: list[MemoryEntry],
        policy_of: PolicyOf,
        survivors: dict[str, MemoryEntry],
    ) -> None:
        assert self.summarizer is not None
        # Global entries are shared by every agent: no one agent's budget or settings
        # may compress them.
        own = [e for e in entries if e.visibility is not Visibility.GLOBAL]
        for group in summary_groups(own, policy_of):
            agent_id, category = group[0].source_agent_id, group[0].category
            guardrails = self.agents.get(pass_.tenant_id, agent_id).user_memory_config.guardrails
            request = SummaryRequest(tuple(fact_line(e) for e in group), category, guardrails.max_value_length)
            result = self._summary(run, pass_, agent_id, request, policy_of)
            if result is None:
                continue
            text = " ".join(result.text.split())[: guardrails.max_value_length].strip()
            key = summary_key(category, group[0].visibility, group[0].group_ids)
            if not text or find_sensitive(text, key) is not None:
                logger.warning("dream summary dropped", extra={"run_id": run.run_id, "reason": "empty or sensitive"})
                continue
            # Only what the summary accounts for is superseded by it (an extractive
            # summary leaves out facts that do not fit); a summary that takes in no new
            # fact would only rewrite the previous one.
            sources = group if result.covered is None else [group[i] for i in result.covered if 0 <= i < len(group)]
            if not any(not e.key.startswith(SUMMARY_KEY_PREFIX) for e in sources):
                continue
            written = pass_.write_summary(sources, key, text, self.ttl)
            if written is not None:
                for e in sources:
                    survivors.pop(e.id, None)
                survivors[written.id] = written

    def _summary(
        self, run: DreamRun, pass_: UserPass, agent_id: str, request: SummaryRequest, policy_of: PolicyOf
    ) -> SummaryResult | None:
        """One summary under the agent's cost cap for the run; None when the cap is reached."""
        assert self.summarizer is not None
        reserve = self.summarizer.max_cost_micros(request)
        if reserve <= 0:
            return self.summarizer.summarize(request)  # free (extractive): no ledger writes
        cap = int(policy_of(agent_id).max_cost_per_run * 1_000_000)
        if not self.state.reserve_cost(run.run_id, pass_.tenant_id, agent_id, reserve, cap):
            pass_.stats.summaries_skipped_for_cost += 1
            return None
        try:
            result = self.summarizer.summarize(request)
        except Throttled:
            self.state.settle_cost(run.run_id, pass_.tenant_id, agent_id, reserve, 0)
            raise
        except Exception:
            # The call may have been billed: keep the reservation as spent.
            self.state.settle_cost(run.run_id, pass_.tenant_id, agent_id, reserve, reserve)
            pass_.stats.cost_micros += reserve
            raise
        actual = min(result.cost_micros, reserve)
        self.state.settle_cost(run.run_id, pass_.tenant_id, agent_id, reserve, actual)
        pass_.stats.cost_micros += actual
        return result

    def _run(self, run_id: str) -> DreamRun:
        run = self.state.get_run(run_id)
        if run is None:
            raise NotFound("No dream run with that id.", runId=run_id)
        return run

    # -- reports -------------------------------------------------------------------------------
    def list_runs(self, principal: Principal, limit: int = 20, cursor: str | None = None) -> Page[RunReport]:
        _require_admin(principal)
        page = self.state.list_runs(principal.tenant_id, limit, cursor)
        return Page(
            [RunReport(r, self.state.run_stats(r.run_id, principal.tenant_id)) for r in page.items],
            page.next_cursor,
        )

    def get_run(self, principal: Principal, run_id: str) -> RunReport:
        _require_admin(principal)
        run = self.state.get_run(run_id)
        if run is None or run.tenant_id not in (None, principal.tenant_id):
            raise NotFound("No dream run with that id covers this tenant.", runId=run_id)
        return RunReport(run, self.state.run_stats(run_id, principal.tenant_id))


def _similarity(vectors: Sequence[Vector]) -> Callable[[int, int], float]:
    """Pairwise cosine of one group: one matrix product when numpy is there (the laptop),
    pure Python otherwise (numpy is not in the Lambda layer)."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - the dev environment has numpy
        return lambda i, j: cosine(vectors[i], vectors[j])
    m = np.asarray(vectors, dtype=np.float32)
    norms = np.sqrt(np.einsum("ij,ij->i", m, m))
    norms[norms == 0] = 1.0
    m = m / norms[:, None]
    # einsum, not matmul: BLAS would start a thread pool whose spinning threads take
    # the cores this per-user work (and the other workers) need.
    sims: Any = np.einsum("ij,kj->ik", m, m)
    return lambda i, j: float(sims[i, j])


def _require_admin(principal: Principal) -> None:
    if not principal.has(Role.ADMIN):
        raise Forbidden("Dream runs are for admin keys.", requiredRole=Role.ADMIN.value)


def time_left_of(context: Any) -> Callable[[], float] | None:
    """Seconds a Lambda invocation has left, if it is one."""
    getter = getattr(context, "get_remaining_time_in_millis", None)
    if getter is None:
        return None
    return lambda: float(getter()) / 1000.0


def monotonic_deadline(seconds: float) -> Callable[[], float]:
    end = time.monotonic() + seconds
    return lambda: end - time.monotonic()
