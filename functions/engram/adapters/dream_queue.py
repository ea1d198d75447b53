"""Dream's fan-out queue: SQS in the cloud, process memory on a laptop."""

from __future__ import annotations

import json
import queue
import threading
from collections import deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from aws_lambda_powertools import Logger
from botocore.exceptions import BotoCoreError, ClientError

from engram.domain.dream_run import DreamMessage
from engram.domain.errors import StoreUnavailable, Throttled

if TYPE_CHECKING:
    from mypy_boto3_sqs import SQSClient
    from mypy_boto3_sqs.type_defs import SendMessageBatchRequestEntryTypeDef, SendMessageBatchResultTypeDef

logger = Logger(service="engram", child=True)

SQS_BATCH = 10  # SendMessageBatch takes at most ten messages
ATTEMPTS = 3


class SqsDreamQueue:
    def __init__(self, client: SQSClient, queue_url: str) -> None:
        self._client = client
        self._url = queue_url

    def send(self, messages: Sequence[DreamMessage]) -> None:
        for start in range(0, len(messages), SQS_BATCH):
            chunk = messages[start : start + SQS_BATCH]
            pending: list[SendMessageBatchRequestEntryTypeDef] = [
                {"Id": str(i), "MessageBody": json.dumps(m.to_dict(), separators=(",", ":"))}
                for i, m in enumerate(chunk)
            ]
            self._send_batch(pending)

    def _send_batch(self, pending: list[SendMessageBatchRequestEntryTypeDef]) -> None:
        """One batch, its failed messages sent again while the service is at fault."""
        for _ in range(ATTEMPTS):
            answer = self._call(pending)
            failed = {f["Id"] for f in answer.get("Failed", [])}
            if not failed:
                return
            # Sender faults will not pass on a retry; only the service's own do.
            if any(f.get("SenderFault") for f in answer.get("Failed", [])):
                raise StoreUnavailable("The dream queue rejected a message.", failed=len(failed))
            pending = [e for e in pending if e["Id"] in failed]
        raise StoreUnavailable("The dream queue kept failing part of a batch.", failed=len(pending))

    def _call(self, pending: list[SendMessageBatchRequestEntryTypeDef]) -> SendMessageBatchResultTypeDef:
        try:
            return self._client.send_message_batch(QueueUrl=self._url, Entries=pending)
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "")
            if code in {"ThrottlingException", "RequestThrottled", "KmsThrottled"}:
                raise Throttled("The dream queue is throttling; retry shortly.") from exc
            raise StoreUnavailable("The dream queue refused the batch.", code=code) from exc
        except BotoCoreError as exc:
            raise StoreUnavailable("The dream queue cannot be reached.") from exc


class InMemoryDreamQueue:
    """The laptop's fan-out: the local runner drains it. Not durable, and need not be:
    the due index is the durable record, so users a crashed local run never reached
    are still due for the next one."""

    def __init__(self) -> None:
        self._messages: deque[DreamMessage] = deque()
        self._lock = threading.Lock()

    def send(self, messages: Sequence[DreamMessage]) -> None:
        with self._lock:
            self._messages.extend(messages)

    def receive(self, max_messages: int = 10) -> list[DreamMessage]:
        with self._lock:
            return [self._messages.popleft() for _ in range(min(max_messages, len(self._messages)))]

    def __len__(self) -> int:
        return len(self._messages)


class ThreadedDreamQueue:
    """The local server's fan-out: a daemon thread hands each message to the service,
    and sends users a transient error deferred back a few times, as SQS would."""

    def __init__(self, max_attempts: int = 3) -> None:
        self._queue: queue.Queue[tuple[DreamMessage, int]] = queue.Queue()
        self._handler: Callable[[DreamMessage], Sequence[tuple[str, str]]] | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._max_attempts = max_attempts

    def bind(self, handler: Callable[[DreamMessage], Sequence[tuple[str, str]]]) -> None:
        """``handler`` processes one message and returns the users to try again."""
        self._handler = handler

    def send(self, messages: Sequence[DreamMessage]) -> None:
        for m in messages:
            self._queue.put((m, 1))
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="engram-dream", daemon=True)
                self._thread.start()

    def join(self) -> None:
        """Wait until every message sent so far is handled."""
        self._queue.join()

    def _loop(self) -> None:
        while True:
            message, attempt = self._queue.get()
            try:
                if self._handler is None:
                    raise RuntimeError("no dream handler bound")
                retry = self._handler(message)
                if retry and attempt < self._max_attempts:
                    self._queue.put((DreamMessage.batch(message.run_id, retry), attempt + 1))
            except Exception as exc:
                logger.exception("dream message failed", extra={"run_id": message.run_id, "error": type(exc).__name__})
            finally:
                self._queue.task_done()
