"""The ``indexer`` Lambda: the table's stream in, the search index kept in step.

Each record is handled on its own so that one bad record fails alone: it comes back in
``batchItemFailures`` and Lambda retries from it (ReportBatchItemFailures), replaying
what followed it too. Every record states a whole outcome (index this entry as it now
is, or remove it), so a replay leaves the index as the last record says.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from engram.adapters.dynamodb.stream import entry_change, is_ttl_removal
from engram.container import get_engram
from engram.domain.models import Status
from engram.handlers.observability import logger, metrics, trace_handler, trace_method

processor = BatchProcessor(event_type=EventType.DynamoDBStreams)


@trace_method
def record_handler(record: DynamoDBRecord) -> None:
    change = entry_change(record.raw_event)
    if change is None:
        return  # history, identities, profiles...: not searchable
    get_engram().indexer.apply([change])
    if change.entry is not None and change.entry.status is Status.ACTIVE:
        metrics.add_metric(name="index.upserted", unit=MetricUnit.Count, value=1)
    else:
        metrics.add_metric(name="index.removed", unit=MetricUnit.Count, value=1)
    if is_ttl_removal(record.raw_event):
        metrics.add_metric(name="index.expired", unit=MetricUnit.Count, value=1)


@logger.inject_lambda_context(log_event=False)
@trace_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    response: dict[str, Any] = dict(
        process_partial_response(
            event=event,
            record_handler=record_handler,
            processor=processor,
            context=context,
        )
    )
    failures = response.get("batchItemFailures", [])
    if failures:
        logger.warning("stream records failed", extra={"failed": len(failures), "records": len(event["Records"])})
    return response
