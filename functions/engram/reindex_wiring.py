"""Builds the cloud re-index (``engram.service.reindex``) over the backend's scanner and stream."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engram.domain.errors import StoreUnavailable
from engram.service.reembed import ConversationDocuments
from engram.service.reindex import ReindexService

if TYPE_CHECKING:
    from engram.container import Engram


def reindex_service(engram: Engram) -> ReindexService:
    """The service with the table's scanner and stream, the work queue and the failure queue."""
    settings, backend = engram.settings, engram.backend
    scanner = backend.entry_scanner()
    if scanner is None or not settings.reindex_queue_url:
        raise StoreUnavailable(
            "The cloud re-index needs the AWS backend and ENGRAM_REINDEX_QUEUE_URL (set by the stack); "
            "on the embedded store use `engram reembed`."
        )
    import boto3

    from engram.adapters.sqs_messages import SqsMessages

    stream = backend.stream_range()
    if stream is None:
        raise StoreUnavailable("The cloud re-index needs the table's stream to read failed batches back.")
    sqs = boto3.client("sqs", region_name=settings.aws_region)
    failures = settings.indexer_failures_queue_url
    return ReindexService(
        engram.repos.entries,
        scanner,
        stream,
        engram.indexer,
        SqsMessages(sqs, settings.reindex_queue_url),
        SqsMessages(sqs, failures) if failures else None,
        engram.repos.erasure,  # the erasure tombstones: a re-index never brings an erased user back
        # Messages, summaries and archival are search documents too; a backfill re-embeds them.
        ConversationDocuments(
            engram.index, engram.embedder, engram.conversation.repo, engram.archival.repo, engram.repos.erasure
        ),
    )
