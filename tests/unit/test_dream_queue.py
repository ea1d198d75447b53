"""The SQS fan-out of dream runs: batches of ten, service faults retried, the rest refused."""

from __future__ import annotations

from typing import Any

import boto3
import pytest
from botocore.stub import ANY, Stubber
from engram.adapters.dream_queue import SqsDreamQueue
from engram.domain.dream_run import DreamMessage
from engram.domain.errors import StoreUnavailable, Throttled

URL = "https://sqs.us-east-1.amazonaws.com/123456789012/engram-dream"


def _queue() -> tuple[SqsDreamQueue, Stubber]:
    client = boto3.client("sqs", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x")
    return SqsDreamQueue(client, URL), Stubber(client)


def _entries(ids: range | list[int]) -> list[dict[str, Any]]:
    return [{"Id": str(i), "MessageBody": ANY} for i in ids]


def _ok(ids: range | list[int]) -> dict[str, Any]:
    return {"Successful": [{"Id": str(i), "MessageId": f"m{i}", "MD5OfMessageBody": "x"} for i in ids], "Failed": []}


def _messages(n: int) -> list[DreamMessage]:
    return [DreamMessage.plan(f"dream_{i}") for i in range(n)]


def test_messages_go_in_batches_of_ten() -> None:
    # Given twelve messages
    queue, stub = _queue()
    stub.add_response("send_message_batch", _ok(range(10)), {"QueueUrl": URL, "Entries": _entries(range(10))})
    stub.add_response("send_message_batch", _ok(range(2)), {"QueueUrl": URL, "Entries": _entries(range(2))})
    # When they are sent
    with stub:
        queue.send(_messages(12))
    # Then two batches went, of ten and two
    stub.assert_no_pending_responses()


def test_a_service_fault_sends_only_the_failed_messages_again() -> None:
    # Given a batch whose second message fails on the service's side once
    queue, stub = _queue()
    failed = {"Id": "1", "SenderFault": False, "Code": "InternalError"}
    stub.add_response(
        "send_message_batch",
        {"Successful": _ok([0, 2])["Successful"], "Failed": [failed]},
        {"QueueUrl": URL, "Entries": _entries(range(3))},
    )
    stub.add_response("send_message_batch", _ok([1]), {"QueueUrl": URL, "Entries": _entries([1])})
    # When it is sent
    with stub:
        queue.send(_messages(3))
    # Then the failed message alone went again
    stub.assert_no_pending_responses()


def test_a_sender_fault_is_not_retried() -> None:
    queue, stub = _queue()
    failed = {"Id": "0", "SenderFault": True, "Code": "InvalidMessageContents"}
    stub.add_response("send_message_batch", {"Successful": [], "Failed": [failed]}, {"QueueUrl": URL, "Entries": ANY})
    with stub, pytest.raises(StoreUnavailable):
        queue.send(_messages(1))
    stub.assert_no_pending_responses()


def test_a_message_that_keeps_failing_is_given_up_after_three_attempts() -> None:
    queue, stub = _queue()
    failed = {"Id": "0", "SenderFault": False, "Code": "InternalError"}
    for _ in range(3):
        stub.add_response(
            "send_message_batch", {"Successful": [], "Failed": [failed]}, {"QueueUrl": URL, "Entries": ANY}
        )
    with stub, pytest.raises(StoreUnavailable, match="kept failing"):
        queue.send(_messages(1))
    stub.assert_no_pending_responses()


@pytest.mark.parametrize(("code", "error"), [("RequestThrottled", Throttled), ("AccessDenied", StoreUnavailable)])
def test_a_refused_call_is_a_domain_error(code: str, error: type[Exception]) -> None:
    queue, stub = _queue()
    stub.add_client_error("send_message_batch", service_error_code=code)
    with stub, pytest.raises(error):
        queue.send(_messages(1))
