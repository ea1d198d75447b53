"""The ``reindex`` Lambda: rebuilds the search index from the table, and replays the
stream indexer's failed batches (``engram.service.reindex``).

Invoked directly (by ``engram reindex``) with ``{"action": "start", "segments": N}`` to
queue a backfill, or ``{"action": "replay"}`` to queue the failure queue's batches; and
by its SQS queue with the work itself, each message reported on its own so SQS retries
only what failed.
"""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes import SQSRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from engram.container import Engram, get_engram
from engram.handlers.observability import logger, metrics, trace_handler
from engram.reindex_wiring import reindex_service
from engram.service.dream import time_left_of
from engram.service.reindex import ReindexService

processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)
# Built once per container (it holds boto3 clients), not once per record.
_built: tuple[Engram, ReindexService] | None = None


def _service() -> ReindexService:
    global _built
    engram = get_engram()
    if _built is None or _built[0] is not engram:
        _built = (engram, reindex_service(engram))
    return _built[1]


def _record(record: SQSRecord, lambda_context: LambdaContext | None = None) -> None:
    result = _service().handle(json.loads(record.body), time_left_of(lambda_context))
    metrics.add_metric(name="reindex.entries", unit=MetricUnit.Count, value=result.entries)
    metrics.add_metric(name="reindex.upserted", unit=MetricUnit.Count, value=result.upserted)
    metrics.add_metric(name="reindex.removed", unit=MetricUnit.Count, value=result.removed)
    metrics.add_metric(name="reindex.erased", unit=MetricUnit.Count, value=result.erased)
    metrics.add_metric(name="reindex.messages", unit=MetricUnit.Count, value=result.messages)
    metrics.add_metric(name="reindex.summaries", unit=MetricUnit.Count, value=result.summaries)
    metrics.add_metric(name="reindex.archival", unit=MetricUnit.Count, value=result.archival)


@logger.inject_lambda_context(log_event=False)
@trace_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    if "Records" in event:
        return dict(process_partial_response(event=event, record_handler=_record, processor=processor, context=context))
    service = _service()
    action = event.get("action")
    if action == "start":
        return {"action": "start", "segments": service.start(int(event.get("segments", 4)))}
    if action == "replay":
        return {"action": "replay", "batches": service.replay_failures(int(event.get("limit", 1000)))}
    return {"error": "unknown_action", "message": "Send {'action': 'start', 'segments': N} or {'action': 'replay'}."}
