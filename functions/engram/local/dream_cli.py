"""The ``engram dream`` subcommand: a progress bar while it runs, a summary table after."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from engram.domain.dream_run import Stats

if TYPE_CHECKING:
    from rich.console import Console

    from engram.local.dream_runner import LocalRunResult

# Users per batch while a progress bar is drawn.
PROGRESS_BATCH = 5


def add_dream_command(sub: Any, settings_of: Any) -> None:
    d = sub.add_parser("dream", help="Run dream (consolidation) over every due user now.")
    d.add_argument("--tenant", help="Only this tenant's users (default: every tenant).")
    d.add_argument("--workers", type=int, default=1, help="Worker processes (default 1).")
    d.add_argument("--json", action="store_true", help="Print the report as JSON, no progress bar.")
    d.set_defaults(func=lambda args: cmd_dream(args, settings_of(args)))


def rows(stats: Stats) -> list[tuple[str, str]]:
    return [
        ("users processed", f"{stats.users_processed:,}"),
        ("users failed", f"{stats.users_failed:,}"),
        ("entries read", f"{stats.entries_read:,}"),
        ("expired (TTL)", f"{stats.expired:,}"),
        ("pruned: retention", f"{stats.retention_pruned:,}"),
        ("pruned: stale", f"{stats.stale_pruned:,}"),
        ("pruned: low confidence", f"{stats.low_confidence_pruned:,}"),
        ("decayed", f"{stats.decayed:,}"),
        ("contradictions found", f"{stats.contradictions_found:,}"),
        ("flags set / cleared", f"{stats.flags_set:,} / {stats.flags_cleared:,}"),
        ("duplicates merged", f"{stats.duplicates_merged:,}"),
        ("summaries written", f"{stats.summaries_written:,} ({stats.entries_summarized:,} entries)"),
        ("summaries skipped (cost cap)", f"{stats.summaries_skipped_for_cost:,}"),
        ("cost", f"${stats.cost_micros / 1_000_000:.6f}"),
        ("skipped on concurrent writes", f"{stats.version_conflicts:,}"),
    ]


def cmd_dream(args: argparse.Namespace, settings: Any) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from engram.container import build
    from engram.local.dream_runner import run_dream
    from engram.service.dream import BatchResult

    console = Console(stderr=args.json)
    progress = Progress(
        TextColumn("dream"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("users"),
        TimeElapsedColumn(),
        console=console,
        # Drawn on a terminal only: quiet in pipes, logs and CI.
        disable=args.json or not console.is_terminal,
    )
    with progress:
        task = progress.add_task("users", total=None)

        def planned(run: Any) -> None:
            progress.update(task, total=run.users_planned)

        def batch(result: BatchResult) -> None:
            progress.advance(task, result.processed + result.skipped + result.failed)

        if console.is_terminal and not args.json:
            # The bar moves once per batch: small batches make it move every few users
            # instead of jumping from 0 to done (the run's work is the same).
            settings = settings.model_copy(
                update={"dream_batch_users": min(settings.dream_batch_users, PROGRESS_BATCH)}
            )
        result = run_dream(
            settings, tenant_id=args.tenant, workers=max(1, args.workers), on_planned=planned, on_batch=batch
        )
    build(settings).sync_index()  # the index catches up with every change at once
    _report(result, console, as_json=args.json)
    return 0


def _report(result: LocalRunResult, console: Console, *, as_json: bool) -> None:
    """The run's counters and speed: one JSON object, or a table for a person."""
    from rich.table import Table

    s = result.stats
    rate_users = s.users_processed / result.seconds if result.seconds else 0.0
    rate_entries = s.entries_read / result.seconds if result.seconds else 0.0
    if as_json:
        summary = {
            "runId": result.run.run_id,
            "status": result.run.status.value,
            "seconds": round(result.seconds, 3),
            "usersPerSecond": round(rate_users, 1),
            "entriesPerSecond": round(rate_entries, 1),
            **s.counters(),
            "entriesPruned": s.entries_pruned,
        }
        print(json.dumps(summary))
        return
    table = Table(title=f"dream run {result.run.run_id} ({result.run.status.value})")
    table.add_column("what")
    table.add_column("how many", justify="right")
    for name, value in rows(s):
        table.add_row(name, value)
    table.add_row("time", f"{result.seconds:.2f} s ({rate_users:,.0f} users/s, {rate_entries:,.0f} entries/s)")
    console.print(table)
