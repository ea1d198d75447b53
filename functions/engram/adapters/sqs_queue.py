"""The cloud ``Queue``: Amazon SQS feeding the ``extraction`` Lambda.

The message body carries only the job's ids; the worker reads the message itself
from the repository, so no conversation text travels through or rests in the queue.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from botocore.exceptions import BotoCoreError, ClientError

from engram.domain.conversation import ExtractionJob
from engram.domain.errors import StoreUnavailable, Throttled

if TYPE_CHECKING:
    from mypy_boto3_sqs.client import SQSClient
    from mypy_boto3_sqs.type_defs import SendMessageBatchRequestEntryTypeDef

BATCH = 10  # SQS's limit per SendMessageBatch
_THROTTLING = {"ThrottlingException", "RequestThrottled", "KmsThrottled"}


class SqsQueue:
    def __init__(self, client: SQSClient, queue_url: str, attempts: int = 3) -> None:
        self._client = client
        self._url = queue_url
        self._attempts = attempts

    def send(self, jobs: Sequence[ExtractionJob]) -> None:
        for start in range(0, len(jobs), BATCH):
            self._send_batch(list(jobs[start : start + BATCH]))

    def _send_batch(self, jobs: list[ExtractionJob]) -> None:
        entries: list[SendMessageBatchRequestEntryTypeDef] = [
            {"Id": str(i), "MessageBody": json.dumps(job.as_dict(), separators=(",", ":"))}
            for i, job in enumerate(jobs)
        ]
        for _ in range(self._attempts):
            try:
                reply = self._client.send_message_batch(QueueUrl=self._url, Entries=entries)
            except ClientError as exc:
                code = exc.response.get("Error", {}).get("Code", "")
                if code in _THROTTLING:
                    raise Throttled("The extraction queue is throttling; retry shortly.") from exc
                raise StoreUnavailable("The extraction queue refused the messages; retry shortly.") from exc
            except BotoCoreError as exc:
                raise StoreUnavailable("The extraction queue cannot be reached; retry shortly.") from exc
            failed = {f["Id"] for f in reply.get("Failed", [])}
            if not failed:
                return
            # Partial failures are per entry; only those are sent again.
            entries = [e for e in entries if e["Id"] in failed]
        raise StoreUnavailable(
            "The extraction queue did not accept every message; retry the request.", failed=len(entries)
        )
