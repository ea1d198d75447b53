"""Queues: extraction, dream and re-index fan-out, each with its dead-letter queue, plus the failure
destinations of the stream indexer and of the schedule. All encrypted, all TLS-only."""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_kms as kms
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from engram_infra.nag import acknowledge

# A message that failed this often is poison, not bad luck: park it for a human.
MAX_RECEIVES = 5
DLQ_RETENTION = Duration.days(14)


class Queues(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        key: kms.IKey,
        extraction_timeout: Duration,
        dream_worker_timeout: Duration,
        reindex_timeout: Duration,
    ) -> None:
        super().__init__(scope, construct_id)
        self._key = key

        # Conversation text travels through these, so they use the customer-managed key.
        self.extraction_dlq = self._queue("ExtractionDlq", retention=DLQ_RETENTION)
        self.extraction = self._queue(
            "Extraction",
            # AWS's guidance for an SQS event source: six times the function timeout.
            visibility=Duration.seconds(6 * extraction_timeout.to_seconds()),
            dlq=self.extraction_dlq,
        )
        self.dream_dlq = self._queue("DreamDlq", retention=DLQ_RETENTION)
        self.dream = self._queue(
            "Dream",
            visibility=Duration.seconds(6 * dream_worker_timeout.to_seconds()),
            dlq=self.dream_dlq,
        )

        # The cloud re-index's work: backfill segments and replays of failed stream batches.
        self.reindex_dlq = self._queue("ReindexDlq", retention=DLQ_RETENTION)
        self.reindex = self._queue(
            "Reindex",
            visibility=Duration.seconds(6 * reindex_timeout.to_seconds()),
            dlq=self.reindex_dlq,
        )

        # Where the indexer's event source mapping parks batches it gave up on (shard and
        # sequence numbers, no item data), so they can be replayed from the table.
        self.indexer_failures = self._queue("IndexerFailures", retention=DLQ_RETENTION)
        acknowledge(
            self.indexer_failures,
            "SQS3",
            "This queue is itself the on-failure destination of the DynamoDB stream event source; "
            "a dead-letter queue for a dead-letter queue would only move the problem.",
        )
        # EventBridge cannot use a customer-managed key without a key policy for events.amazonaws.com;
        # the message is only the schedule tick, so SQS-managed encryption is enough.
        self.schedule_dlq = sqs.Queue(
            self,
            "ScheduleDlq",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            retention_period=DLQ_RETENTION,
        )
        acknowledge(
            self.schedule_dlq,
            "SQS3",
            "This queue is itself the dead-letter queue of the dream schedule's EventBridge target.",
        )

    @property
    def dead_letter_queues(self) -> dict[str, sqs.Queue]:
        return {
            "Extraction": self.extraction_dlq,
            "Dream": self.dream_dlq,
            "Indexer": self.indexer_failures,
            "Reindex": self.reindex_dlq,
            "Schedule": self.schedule_dlq,
        }

    def _queue(
        self,
        construct_id: str,
        *,
        visibility: Duration | None = None,
        retention: Duration | None = None,
        dlq: sqs.IQueue | None = None,
    ) -> sqs.Queue:
        return sqs.Queue(
            self,
            construct_id,
            encryption=sqs.QueueEncryption.KMS,
            encryption_master_key=self._key,
            # Reusing a data key for 5 minutes keeps KMS calls (and their cost) low.
            data_key_reuse=Duration.minutes(5),
            enforce_ssl=True,
            visibility_timeout=visibility,
            retention_period=retention,
            dead_letter_queue=sqs.DeadLetterQueue(max_receive_count=MAX_RECEIVES, queue=dlq) if dlq else None,
        )
