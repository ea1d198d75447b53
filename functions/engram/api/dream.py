"""Dream runs: start one by hand, read their reports (admin only)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.openapi.params import Path, Query

from engram.api.deps import Cursor, context, new_router
from engram.api.responses import errors
from engram.api.schemas import ApiModel
from engram.container import Engram
from engram.domain.dream_run import DreamRun, Stats
from engram.service.dream import DreamService, RunReport

router = new_router()
TAG = ["dream"]

RunId = Annotated[str, Path(pattern=r"^dream_[A-Za-z0-9_\-]{1,120}$", description="A dream run id.")]


class DreamStats(ApiModel):
    """What the run did to this tenant's users."""

    users_processed: int
    users_failed: int
    entries_read: int
    entries_pruned: int
    expired: int
    retention_pruned: int
    stale_pruned: int
    low_confidence_pruned: int
    decayed: int
    contradictions_found: int
    flags_set: int
    flags_cleared: int
    duplicates_merged: int
    summaries_written: int
    entries_summarized: int
    summaries_skipped_for_cost: int
    version_conflicts: int
    cost_usd: float

    @classmethod
    def of(cls, s: Stats) -> DreamStats:
        counters = s.counters()
        micros = counters.pop("cost_micros")
        return cls(**counters, entries_pruned=s.entries_pruned, cost_usd=micros / 1_000_000)


class DreamRunReport(ApiModel):
    run_id: str
    trigger: Literal["schedule", "manual", "cli"]
    scope: Literal["tenant", "all"]
    status: Literal["planning", "running", "completed"]
    as_of: datetime
    started_at: datetime
    finished_at: datetime | None = None
    duration_seconds: float | None = None
    # Progress counts users of every tenant, so only a tenant's own runs show it.
    users_planned: int | None = None
    users_done: int | None = None
    stats: DreamStats

    @classmethod
    def of(cls, report: RunReport) -> DreamRunReport:
        r: DreamRun = report.run
        own = r.tenant_id is not None
        return cls(
            run_id=r.run_id,
            trigger=r.trigger.value,
            scope="tenant" if own else "all",
            status=r.status.value,
            as_of=r.as_of,
            started_at=r.started_at,
            finished_at=r.finished_at,
            duration_seconds=None if r.finished_at is None else (r.finished_at - r.started_at).total_seconds(),
            users_planned=r.users_planned if own else None,
            users_done=r.users_done if own else None,
            stats=DreamStats.of(report.stats),
        )


class DreamRunPage(ApiModel):
    items: list[DreamRunReport]
    next_cursor: str | None = None


@router.get(
    "/dream/runs",
    summary="Dream runs that covered this tenant, newest first (admin)",
    tags=TAG,
    responses=errors(503),
)
def list_runs(
    limit: Annotated[int, Query(ge=1, le=100, description="Page size.")] = 20,
    cursor: Cursor = None,
) -> DreamRunPage:
    engram, principal = context(router)
    page = _dream(engram).list_runs(principal, limit, cursor)
    return DreamRunPage(items=[DreamRunReport.of(r) for r in page.items], next_cursor=page.next_cursor)


@router.get(
    "/dream/runs/<runId>",
    summary="One dream run's report for this tenant (admin)",
    tags=TAG,
    responses=errors(503),
)
def get_run(runId: RunId) -> DreamRunReport:
    engram, principal = context(router)
    return DreamRunReport.of(_dream(engram).get_run(principal, runId))


@router.post(
    "/dream/runs",
    summary="Start a dream run over this tenant's due users (admin); it proceeds in the background",
    tags=TAG,
    responses=errors(503, ok=202, ok_description="The run is accepted; poll its report."),
)
def start_run() -> Response[DreamRunReport]:
    engram, principal = context(router)
    service = _dream(engram)
    run = service.request_run(principal)
    report = DreamRunReport.of(service.get_run(principal, run.run_id))
    return Response(status_code=202, content_type=content_types.APPLICATION_JSON, body=report)


def _dream(engram: Engram) -> DreamService:
    return engram.dream
