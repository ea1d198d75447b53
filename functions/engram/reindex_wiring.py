"""Builds the cloud re-index (``engram.service.reindex``) over the AWS backend's clients."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engram.domain.errors import StoreUnavailable
from engram.service.reindex import ReindexService

if TYPE_CHECKING:
    from engram.container import Engram


def reindex_service(engram: Engram) -> ReindexService:
    """The service with the table's scanner and stream, the work queue and the failure queue."""
    from engram.adapters.dynamodb import DynamoStore

    settings, store = engram.settings, engram.store
    if not isinstance(store, DynamoStore) or not settings.reindex_queue_url:
        raise StoreUnavailable(
            "The cloud re-index needs the AWS backend and ENGRAM_REINDEX_QUEUE_URL (set by the stack); "
            "on the embedded store use `engram reembed`."
        )
    import boto3

    from engram.adapters.dynamodb.reindex import DynamoEntryScanner, DynamoStreamRange
    from engram.adapters.sqs_messages import SqsMessages

    sqs = boto3.client("sqs", region_name=settings.aws_region)
    streams = boto3.client("dynamodbstreams", region_name=settings.aws_region, endpoint_url=settings.dynamodb_endpoint)
    failures = settings.indexer_failures_queue_url
    return ReindexService(
        store,
        DynamoEntryScanner(store),
        DynamoStreamRange(streams),
        engram.indexer,
        SqsMessages(sqs, settings.reindex_queue_url),
        SqsMessages(sqs, failures) if failures else None,
        store,  # the erasure tombstones: a re-index never brings an erased user back
    )
