"""The ``dream`` Lambdas: the planner (EventBridge schedule) and the worker (SQS).

The planner pages the due index and sends batches of users to the queue, handing a
continuation to the queue if its time runs short. The worker processes each message
(a batch of users, or a planning continuation); a message whose users hit a transient
error is reported as a partial batch failure, so SQS delivers it again and the users
already done are skipped.
"""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes import EventBridgeEvent, SQSRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from engram.container import get_engram
from engram.domain.dream_run import DreamMessage, Stats
from engram.handlers.observability import logger, metrics, trace_handler
from engram.service.dream import BatchResult, DreamService, time_left_of

# Report every failure per message (even all of them) so SQS redelivers exactly those.
processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)


class UsersDeferred(Exception):
    """Some users of the message hit a transient error; SQS should deliver it again."""


def _dream() -> DreamService:
    return get_engram().dream


def emit(result: BatchResult) -> None:
    s: Stats = result.stats
    metrics.add_metric(name="dream.users.processed", unit=MetricUnit.Count, value=s.users_processed)
    metrics.add_metric(name="dream.users.failed", unit=MetricUnit.Count, value=s.users_failed)
    metrics.add_metric(name="dream.entries.pruned", unit=MetricUnit.Count, value=s.entries_pruned)
    metrics.add_metric(name="dream.entries.decayed", unit=MetricUnit.Count, value=s.decayed)
    metrics.add_metric(name="dream.entries.merged", unit=MetricUnit.Count, value=s.duplicates_merged)
    metrics.add_metric(name="dream.contradictions.found", unit=MetricUnit.Count, value=s.contradictions_found)
    metrics.add_metric(name="dream.cost", unit=MetricUnit.NoUnit, value=s.cost_micros / 1_000_000)
    if result.completed is not None and result.completed.finished_at is not None:
        duration = (result.completed.finished_at - result.completed.started_at).total_seconds()
        metrics.add_metric(name="dream.duration", unit=MetricUnit.Seconds, value=duration)


@logger.inject_lambda_context(log_event=False)
@trace_handler
@metrics.log_metrics
def planner_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    scheduled = EventBridgeEvent(event)
    run = _dream().scheduled(scheduled.get_id, time_left_of(context))
    logger.info("dream run planned", extra={"run_id": run.run_id, "status": run.status.value})
    metrics.add_metric(name="dream.users.planned", unit=MetricUnit.Count, value=run.users_planned)
    if run.finished_at is not None:  # nothing was due: the run completed while planning
        duration = (run.finished_at - run.started_at).total_seconds()
        metrics.add_metric(name="dream.duration", unit=MetricUnit.Seconds, value=duration)
    return {"runId": run.run_id, "status": run.status.value, "usersPlanned": run.users_planned}


def _record(record: SQSRecord, lambda_context: LambdaContext | None = None) -> None:
    message = DreamMessage.from_dict(json.loads(record.body))
    result = _dream().handle(message, time_left_of(lambda_context))
    emit(result)
    if result.retry:
        raise UsersDeferred(f"{len(result.retry)} users deferred")


@logger.inject_lambda_context(log_event=False)
@trace_handler
@metrics.log_metrics
def worker_handler(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse:
    return process_partial_response(event=event, record_handler=_record, processor=processor, context=context)
