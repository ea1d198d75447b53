"""Dream (behaviour item 17): run state, the fan-out queue, the index's stored vectors
and the summarizer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from engram.domain.dream_run import DreamMessage, DreamRun, Stats, UserOutcome
from engram.domain.models import Page
from engram.ports.search import Vector


@dataclass(frozen=True, slots=True)
class DueUser:
    tenant_id: str
    user_id: str
    due_at: datetime


@dataclass(frozen=True, slots=True)
class DueState:
    """A user's entry in the sparse maintenance index.

    ``activity`` counts committed changesets not made by dream; ``due_at`` None means
    nothing is due (the user is out of the index); ``last_pass_at`` is the time the last
    dream pass evaluated the user at (entries updated after it are fresh).
    """

    due_at: datetime | None
    activity: int
    last_pass_at: datetime | None


class DreamStateRepository(Protocol):
    """Dream's own state: the sparse "maintenance due" index, runs and the cost ledger.

    Every committed changeset not made by dream marks its user due in the same atomic
    write (the store's ``apply``); a dream pass records the user's next due time, or
    removes the user from the index when nothing ever will be due. The planner reads
    only due users, so users with nothing to do are never read.
    """

    def due_users(
        self, as_of: datetime, limit: int, cursor: str | None = None, tenant_id: str | None = None
    ) -> Page[DueUser]:
        """Users due at or before ``as_of`` (of one tenant, or all), in a stable order."""
        ...

    def due_state(self, tenant_id: str, user_id: str) -> DueState | None: ...

    def mark_due(self, tenant_id: str, user_id: str, at: datetime) -> None:
        """Make the user due at ``at`` at the latest (backfills; writes do it in ``apply``)."""
        ...

    def create_run(self, run: DreamRun) -> DreamRun:
        """Store a new run; if one with that id exists, return it unchanged (a retried
        schedule event resumes its run instead of starting another)."""
        ...

    def get_run(self, run_id: str) -> DreamRun | None: ...

    def list_runs(self, tenant_id: str, limit: int = 20, cursor: str | None = None) -> Page[DreamRun]:
        """Runs that covered this tenant (its own and every-tenant runs), newest first."""
        ...

    def record_plan_progress(
        self, run_id: str, expected_cursor: str | None, cursor: str | None, users: int, batches: int, done: bool
    ) -> DreamRun | None:
        """If the planner's stored cursor is still ``expected_cursor``: store ``cursor``,
        add ``users`` and ``batches`` sent, and with ``done`` end planning (the run is then
        running until every planned user is done). None when another planner moved on."""
        ...

    def is_done(self, run_id: str, tenant_id: str, user_id: str) -> bool: ...

    def finish_user(self, run_id: str, outcome: UserOutcome) -> bool:
        """Mark (run, user) done and add its stats to the run's counters (atomically), then
        record its next due time if its activity is still ``seen_activity``. False (and
        nothing written) if the user was already done in this run."""
        ...

    def complete_run(self, run_id: str, at: datetime) -> bool:
        """Mark a running run whose planned users are all done as completed; True only
        for the call that did it."""
        ...

    def run_stats(self, run_id: str, tenant_id: str | None = None) -> Stats:
        """One tenant's counters of a run, or the whole run's."""
        ...

    def reserve_cost(self, run_id: str, tenant_id: str, agent_id: str, micros: int, cap_micros: int) -> bool:
        """Reserve ``micros`` of the agent's budget for this run if committed spend plus
        it stays within ``cap_micros``; False (nothing reserved) otherwise."""
        ...

    def settle_cost(self, run_id: str, tenant_id: str, agent_id: str, reserved: int, actual: int) -> None:
        """Replace a reservation by the actual cost (``actual <= reserved``)."""
        ...

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]: ...


class DreamQueue(Protocol):
    """Fan-out of a dream run: batches of users and planner continuations (SQS in the cloud).

    Separate from the extraction ``Queue``, whose messages are extraction jobs."""

    def send(self, messages: Sequence[DreamMessage]) -> None:
        """Accept every message durably or raise; a message may be delivered more than once."""
        ...


class VectorSource(Protocol):
    """Vectors the search index already holds (embedded when each entry was written),
    so dream's duplicate merging need not embed a user's entries again."""

    def stored_vectors(
        self, tenant_id: str, user_id: str, entry_ids: Sequence[str], model_id: str
    ) -> Mapping[str, Vector]:
        """The stored vectors of those entries made by ``model_id``; missing ones are absent."""
        ...


@dataclass(frozen=True, slots=True)
class SummaryRequest:
    facts: tuple[str, ...]
    category: str
    max_chars: int


@dataclass(frozen=True, slots=True)
class SummaryResult:
    text: str
    cost_micros: int
    # Indexes of ``request.facts`` the summary accounts for; None: all of them (a model's
    # summary). Only the entries it covers are superseded by it; the rest stay as they are.
    covered: tuple[int, ...] | None = None


class Summarizer(Protocol):
    """Compresses a group of facts into one short summary: an LLM (Bedrock), or the
    facts themselves, chosen and deduplicated (``ExtractiveSummarizer``, no model)."""

    def max_cost_micros(self, request: SummaryRequest) -> int:
        """An upper bound of what ``summarize(request)`` can cost, in micro-dollars."""
        ...

    def summarize(self, request: SummaryRequest) -> SummaryResult: ...
