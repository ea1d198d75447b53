"""The ``indexer`` Lambda: the table's stream in, the search index kept in step.

A batch is applied whole first: one change per entry (its last state), changes whose
text and filter fields did not move skipped (a recall's access count, a dream's decay),
every changed text embedded in one call and written in one bulk request. If that fails,
the batch is handled again record by record, so that one bad record fails alone: it
comes back in ``batchItemFailures`` and Lambda retries from it (ReportBatchItemFailures),
replaying what followed it too. Every record states a whole outcome (index this entry as
it now is, or remove it), so a replay leaves the index as the last record says.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from engram.adapters.dynamodb.stream import entry_change, is_ttl_removal
from engram.container import get_engram
from engram.handlers.observability import logger, metrics, trace_handler, trace_method
from engram.ports import EntryChange
from engram.service.indexing import IndexReport

processor = BatchProcessor(event_type=EventType.DynamoDBStreams)


def emit(report: IndexReport) -> None:
    metrics.add_metric(name="index.upserted", unit=MetricUnit.Count, value=report.upserted)
    metrics.add_metric(name="index.removed", unit=MetricUnit.Count, value=report.removed)
    metrics.add_metric(name="index.skipped", unit=MetricUnit.Count, value=report.skipped)


@trace_method
def record_handler(record: DynamoDBRecord) -> None:
    change = entry_change(record.raw_event)
    if change is None:
        return  # history, identities, profiles...: not searchable
    emit(get_engram().indexer.apply([change]))


def apply_batch(records: list[dict[str, Any]]) -> IndexReport:
    """The whole batch in one go; raises if any record or the index fails."""
    changes: list[EntryChange] = []
    for record in records:
        change = entry_change(record)
        if change is not None:
            changes.append(change)
    return get_engram().indexer.apply(changes)


@logger.inject_lambda_context(log_event=False)
@trace_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    records: list[dict[str, Any]] = event["Records"]
    expired = sum(1 for r in records if is_ttl_removal(r))
    if expired:
        metrics.add_metric(name="index.expired", unit=MetricUnit.Count, value=expired)
    try:
        emit(apply_batch(records))
        return {"batchItemFailures": []}
    except Exception as exc:
        # Find the record at fault: one at a time, each failing alone.
        logger.warning(
            "stream batch failed; retrying record by record",
            extra={"records": len(records), "error_type": type(exc).__name__},
        )
    response: dict[str, Any] = dict(
        process_partial_response(event=event, record_handler=record_handler, processor=processor, context=context)
    )
    failures = response.get("batchItemFailures", [])
    if failures:
        logger.warning("stream records failed", extra={"failed": len(failures), "records": len(records)})
    return response
