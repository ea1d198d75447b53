"""JSON messages on an SQS queue: sent in batches of ten, received and deleted one by one.

Used by the cloud re-index (its own work queue, and the indexer's failure queue, which
Lambda fills with on-failure records). Errors leave as domain errors.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from engram.domain.errors import StoreUnavailable, Throttled


class SqsMessages:
    def __init__(self, client: Any, queue_url: str) -> None:
        self._client = client
        self._url = queue_url

    def send(self, bodies: Sequence[Mapping[str, Any]]) -> None:
        for start in range(0, len(bodies), 10):
            chunk = bodies[start : start + 10]
            entries = [{"Id": str(i), "MessageBody": json.dumps(b)} for i, b in enumerate(chunk)]
            with _translated("send"):
                answer = self._client.send_message_batch(QueueUrl=self._url, Entries=entries)
            if answer.get("Failed"):
                raise StoreUnavailable("The queue refused some messages; retry.", failed=len(answer["Failed"]))

    def receive(self, limit: int = 10) -> list[tuple[str, dict[str, Any]]]:
        """Up to ``limit`` (at most 10) messages: (receipt handle, body)."""
        with _translated("receive"):
            answer = self._client.receive_message(
                QueueUrl=self._url, MaxNumberOfMessages=max(1, min(limit, 10)), WaitTimeSeconds=0
            )
        return [(m["ReceiptHandle"], json.loads(m["Body"])) for m in answer.get("Messages", [])]

    def delete(self, receipt: str) -> None:
        with _translated("delete"):
            self._client.delete_message(QueueUrl=self._url, ReceiptHandle=receipt)


@contextmanager
def _translated(operation: str) -> Iterator[None]:
    try:
        yield
    except ClientError as exc:
        code = str(exc.response.get("Error", {}).get("Code", ""))
        if "Throttl" in code or code == "RequestThrottled":
            raise Throttled("The queue is busy; retry shortly.", operation=operation) from exc
        raise StoreUnavailable("The queue is unavailable.", operation=operation, code=code) from exc
    except BotoCoreError as exc:
        raise StoreUnavailable("The queue is unreachable.", operation=operation) from exc
