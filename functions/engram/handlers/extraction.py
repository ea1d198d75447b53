"""The ``extraction`` Lambda: SQS batches of ingested messages -> index and extract.

Each record is one message id; a record that fails is reported back as a partial batch
failure, so SQS retries only it (and after the queue's receive limit moves it to the
dead-letter queue) while the rest of the batch is done. Processing is idempotent per
(tenant, user, thread, message id), so a redelivered record adds nothing.
"""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from engram.container import get_engram
from engram.domain.conversation import ExtractionJob
from engram.domain.errors import ValidationFailed
from engram.handlers.observability import logger, metrics, trace_handler, trace_method

processor = BatchProcessor(event_type=EventType.SQS)


def parse_job(body: str) -> ExtractionJob:
    try:
        return ExtractionJob.from_dict(json.loads(body))
    except (ValueError, KeyError, TypeError) as exc:
        # Never succeeds however often it is retried: the DLQ is where it belongs.
        raise ValidationFailed("The queue message is not an extraction job.") from exc


def record_metrics(result: dict[str, Any]) -> None:
    """Counts only, never values: what was written, what was dropped and why, model usage."""
    metrics.add_metric(name="extraction.messages", unit=MetricUnit.Count, value=1)
    for outcome, n in (result.get("outcomes") or {}).items():
        metrics.add_metric(name=f"extraction.facts.{outcome}", unit=MetricUnit.Count, value=n)
    for reason, n in (result.get("dropped") or {}).items():
        metrics.add_metric(name=f"extraction.dropped.{reason}", unit=MetricUnit.Count, value=n)
    usage = result.get("usage") or {}
    if usage:
        metrics.add_metric(name="extraction.llm.input_tokens", unit=MetricUnit.Count, value=usage["inputTokens"])
        metrics.add_metric(name="extraction.llm.output_tokens", unit=MetricUnit.Count, value=usage["outputTokens"])
        metrics.add_metric(name="extraction.llm.cost_usd", unit=MetricUnit.NoUnit, value=usage["costUsd"])


@logger.inject_lambda_context(log_event=False)
@trace_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    feature = get_engram().conversation

    @trace_method
    def record_handler(record: SQSRecord) -> dict[str, Any]:
        job = parse_job(record.body)
        result = feature.processor(job, context)
        record_metrics(result)
        return result

    return dict(
        process_partial_response(event=event, record_handler=record_handler, processor=processor, context=context)
    )
