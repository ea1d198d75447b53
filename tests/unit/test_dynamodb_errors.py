"""DynamoDB errors leave the adapter as domain errors (botocore's Stubber, no network)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.exceptions import EndpointConnectionError
from botocore.stub import Stubber
from engram.adapters.dynamodb import DynamoStore
from engram.adapters.dynamodb import keys as k
from engram.domain.errors import (
    CapacityReached,
    EngramError,
    PayloadTooLarge,
    StoreUnavailable,
    Throttled,
    VersionConflict,
)
from engram.domain.models import Actor, ActorType, Changeset, Visibility
from engram.domain.writes import WriteRequest, plan_write

from tests.support import T0


@pytest.fixture
def stubbed() -> Iterator[tuple[DynamoStore, Stubber]]:
    client = boto3.client(
        "dynamodb", region_name="us-east-1", aws_access_key_id="testing", aws_secret_access_key="testing"
    )
    with Stubber(client) as stubber:
        yield DynamoStore(client, "engram"), stubber


def _changeset(cap: int | None = None) -> Changeset:
    req = WriteRequest("t1", "u1", "color", "blue", "fact", Visibility.SELF, "a", Actor(ActorType.AGENT, "a"))
    plan = plan_write(req, None, None, T0)
    return Changeset("t1", "u1", (plan.guard,), plan.entries, plan.history, plan.active_delta, cap)


def _state_read(stubber: Stubber, item: dict[str, Any] | None = None) -> None:
    """The read of the user's state item (counter, dream due, erasure) a change starts with."""
    stubber.add_response("get_item", {"Item": item} if item is not None else {})


def _cancelled(stubber: Stubber, *codes: str) -> None:
    stubber.add_client_error(
        "transact_write_items",
        service_error_code="TransactionCanceledException",
        service_message="Transaction cancelled",
        modeled_fields={"CancellationReasons": [{"Code": c} for c in codes]},
    )


@pytest.mark.parametrize(
    ("code", "error"),
    [
        ("ProvisionedThroughputExceededException", Throttled),
        ("ThrottlingException", Throttled),
        ("RequestLimitExceeded", Throttled),
        ("ResourceNotFoundException", StoreUnavailable),
        ("InternalServerError", StoreUnavailable),
        ("AccessDeniedException", StoreUnavailable),
    ],
)
def test_given_a_client_error_when_reading_then_a_domain_error_is_raised_from_it(
    stubbed: tuple[DynamoStore, Stubber], code: str, error: type[EngramError]
) -> None:
    store, stubber = stubbed
    stubber.add_client_error("get_item", service_error_code=code, service_message="item secret-value")
    with pytest.raises(error) as raised:
        store.get_entry("t1", "u1", "mem_1")
    assert raised.value.__cause__ is not None
    assert "secret-value" not in raised.value.message and "secret-value" not in str(raised.value.details)
    assert store.metrics.snapshot()["GetItem"].errors == 1


def test_given_an_item_over_the_size_limit_then_payload_too_large(stubbed: tuple[DynamoStore, Stubber]) -> None:
    store, stubber = stubbed
    _state_read(stubber)
    stubber.add_client_error(
        "transact_write_items",
        service_error_code="ValidationException",
        service_message="Item size has exceeded the maximum allowed size",
    )
    with pytest.raises(PayloadTooLarge):
        store.apply(_changeset(), T0)


def test_given_a_throttled_transaction_then_throttled(stubbed: tuple[DynamoStore, Stubber]) -> None:
    store, stubber = stubbed
    _state_read(stubber)
    _cancelled(stubber, "None", "ThrottlingError", "None")
    with pytest.raises(Throttled):
        store.apply(_changeset(), T0)


@pytest.mark.parametrize(
    "reasons", [("ConditionalCheckFailed", "None", "None"), ("None", "TransactionConflict", "None")]
)
def test_given_a_failed_guard_or_a_conflict_then_version_conflict(
    stubbed: tuple[DynamoStore, Stubber], reasons: tuple[str, ...]
) -> None:
    store, stubber = stubbed
    _state_read(stubber)
    _cancelled(stubber, *reasons)
    with pytest.raises(VersionConflict):
        store.apply(_changeset(), T0)


def test_given_only_the_capacity_condition_fails_then_a_recount_decides(stubbed: tuple[DynamoStore, Stubber]) -> None:
    store, stubber = stubbed
    full = {"n": {"N": "3"}, "exact": {"N": "1"}}  # an exact count, at the cap
    _state_read(stubber, full)
    # entry, history (the identity's lock), user state: only the last one's condition failed
    _cancelled(stubber, "None", "None", "ConditionalCheckFailed")
    _state_read(stubber, full)  # read again, consistently: no room
    _state_read(stubber, full)  # the recount starts from it
    stubber.add_response("query", {"Count": 3, "ScannedCount": 3, "Items": [{}, {}, {}]})  # none expires
    stubber.add_response("update_item", {})  # the recount settles the counter at 3
    with pytest.raises(CapacityReached) as raised:
        store.apply(_changeset(cap=3), T0)
    assert raised.value.details == {"maxEntriesPerUser": 3}
    stubber.assert_no_pending_responses()


def test_given_no_endpoint_then_store_unavailable() -> None:
    client: Any = boto3.client(
        "dynamodb", region_name="us-east-1", aws_access_key_id="testing", aws_secret_access_key="testing"
    )
    store = DynamoStore(client, "engram")

    def refuse(**kwargs: Any) -> None:
        raise EndpointConnectionError(endpoint_url="http://127.0.0.1:1")

    client.get_item = refuse
    with pytest.raises(StoreUnavailable):
        store.get_profile("t1", "u1")


def test_given_ids_with_separators_then_keys_stay_unambiguous() -> None:
    assert k.user_pk("a#U#b", "c") != k.user_pk("a", "b#U#c")
    for tenant, user in [("a#U#b", "c"), ("a", "b#U#c"), ("x%23", "%"), ("t", "")]:
        assert k.parse_user_pk(k.user_pk(tenant, user)) == (tenant, user)
    assert k.entry_id_of(k.entry_sk("mem_1")) == "mem_1"
    assert k.entry_id_of(k.history_sk("i", 3)) is None
    # Numbers in sort keys sort as numbers.
    assert k.history_sk("i", 9) < k.history_sk("i", 10)
    # An entry expiring exactly now is not live; one expiring a microsecond later is.
    now = "2026-01-15T10:30:00.000000Z"
    assert k.expiry_sk(now, "mem_1") < k.live_after(now) < k.expiry_sk("2026-01-15T10:30:00.000001Z", "mem_1")
    assert k.expiry_sk(None, "mem_1") > k.live_after("9999-12-31T23:59:59.999999Z")
