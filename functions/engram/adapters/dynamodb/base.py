"""What every DynamoDB store class of Engram builds on.

``DynamoBase`` holds the client and the table name, sends every request through one
place (``call``) that asks for consumed capacity, counts requests per operation and
translates client errors into domain errors, and offers the paging and batching loops
DynamoDB needs. Feature stores (conversations, proposals, blocks, dream state) subclass
it, or share one instance's client, and add their own item types under the key scheme
of ``engram.adapters.dynamodb.keys``.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError, PartialCredentialsError

from engram.adapters.dynamodb import keys as k
from engram.domain.errors import EngramError, PayloadTooLarge, StoreUnavailable, Throttled, VersionConflict

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

    from engram.settings import Settings

logger = logging.getLogger(__name__)

Item = dict[str, Any]  # an item in DynamoDB's attribute-value form

THROTTLING_CODES = frozenset(
    {
        "ProvisionedThroughputExceededException",
        "ThrottlingException",
        "RequestLimitExceeded",
    }
)
# Reasons inside a TransactionCanceledException.
THROTTLING_REASONS = frozenset({"ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded"})
CONFLICT_REASONS = frozenset({"ConditionalCheckFailed", "TransactionConflict"})

# Operations that accept ReturnConsumedCapacity.
_METERED = frozenset(
    {
        "GetItem",
        "PutItem",
        "UpdateItem",
        "DeleteItem",
        "Query",
        "Scan",
        "BatchGetItem",
        "BatchWriteItem",
        "TransactWriteItems",
        "TransactGetItems",
    }
)
_METHODS = {
    "GetItem": "get_item",
    "PutItem": "put_item",
    "UpdateItem": "update_item",
    "DeleteItem": "delete_item",
    "Query": "query",
    "Scan": "scan",
    "BatchGetItem": "batch_get_item",
    "BatchWriteItem": "batch_write_item",
    "TransactWriteItems": "transact_write_items",
    "TransactGetItems": "transact_get_items",
}

_serializer = TypeSerializer()
_deserializer = TypeDeserializer()


class ConditionFailed(VersionConflict):
    """A single-item condition did not hold. Store classes catch it where a failed
    condition has a meaning of their own; uncaught, it is a version conflict (409)."""


class TransactionCancelled(VersionConflict):
    """A transaction was cancelled by a failed condition or a conflicting transaction.

    ``reasons`` holds one code per action, in request order ("None" for actions that
    were fine), so a caller can tell which of its conditions failed.
    """

    def __init__(self, message: str, reasons: Sequence[str], **details: Any) -> None:
        super().__init__(message, **details)
        self.reasons = list(reasons)


# -- metrics ---------------------------------------------------------------------------


@dataclass
class OperationStats:
    requests: int = 0
    errors: int = 0
    capacity_units: float = 0.0
    read_units: float = 0.0
    write_units: float = 0.0


@dataclass
class DynamoMetrics:
    """Requests and consumed capacity per DynamoDB operation, as DynamoDB reports it."""

    operations: dict[str, OperationStats] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, operation: str, response: Mapping[str, Any] | None, failed: bool = False) -> None:
        consumed = None if response is None else response.get("ConsumedCapacity")
        rows: list[Mapping[str, Any]] = []
        if isinstance(consumed, Mapping):
            rows = [consumed]
        elif isinstance(consumed, list):
            rows = [c for c in consumed if isinstance(c, Mapping)]
        with self._lock:
            stats = self.operations.setdefault(operation, OperationStats())
            stats.requests += 1
            stats.errors += int(failed)
            for row in rows:
                stats.capacity_units += float(row.get("CapacityUnits", 0) or 0)
                stats.read_units += float(row.get("ReadCapacityUnits", 0) or 0)
                stats.write_units += float(row.get("WriteCapacityUnits", 0) or 0)

    def snapshot(self) -> dict[str, OperationStats]:
        with self._lock:
            return {op: OperationStats(**vars(s)) for op, s in self.operations.items()}

    def reset(self) -> None:
        with self._lock:
            self.operations.clear()

    @property
    def requests(self) -> int:
        with self._lock:
            return sum(s.requests for s in self.operations.values())


# -- values ----------------------------------------------------------------------------


def _to_dynamo_value(value: Any) -> Any:
    if isinstance(value, float):
        # repr is the shortest string that reads back as the same float.
        return Decimal(repr(value))
    if isinstance(value, Mapping):
        return {key: _to_dynamo_value(v) for key, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_to_dynamo_value(v) for v in value]
    return value


def _from_dynamo_value(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, Mapping):
        return {key: _from_dynamo_value(v) for key, v in value.items()}
    if isinstance(value, list | tuple):
        return [_from_dynamo_value(v) for v in value]
    return value


def to_item(data: Mapping[str, Any]) -> Item:
    """A plain dict (as ``engram.domain.serialization`` makes them) in attribute-value form.

    ``None`` values are left out, so ``attribute_not_exists`` means "not set".
    """
    return {key: _serializer.serialize(_to_dynamo_value(v)) for key, v in data.items() if v is not None}


def from_item(item: Mapping[str, Any]) -> dict[str, Any]:
    """An item back to a plain dict; whole numbers come back as ``int``, others as ``float``."""
    return {key: _from_dynamo_value(_deserializer.deserialize(v)) for key, v in item.items()}


def attr(value: Any) -> Any:
    """One value in attribute-value form (for keys and expression values)."""
    return _serializer.serialize(_to_dynamo_value(value))


def key_of(pk: str, sk: str) -> Item:
    return {k.PK: {"S": pk}, k.SK: {"S": sk}}


# -- errors ----------------------------------------------------------------------------


def translate(exc: ClientError, operation: str) -> EngramError:
    """The domain error for a DynamoDB client error. Never echoes the error message: it
    may quote item contents, and those are user data."""
    error = exc.response.get("Error", {})
    code = str(error.get("Code", "Unknown"))
    message = str(error.get("Message", ""))
    if code in THROTTLING_CODES:
        return Throttled("The memory store is busy; retry shortly.", operation=operation)
    if code == "ConditionalCheckFailedException":
        return ConditionFailed("The item changed since it was read; retry.", operation=operation)
    if code == "TransactionCanceledException":
        raw = exc.response.get("CancellationReasons") or []
        reasons = [str(r.get("Code", "None")) if isinstance(r, Mapping) else "None" for r in raw]
        if any(r in THROTTLING_REASONS for r in reasons):
            return Throttled("The memory store is busy; retry shortly.", operation=operation)
        if any(r in CONFLICT_REASONS for r in reasons):
            return TransactionCancelled("This memory was changed by another writer; retry.", reasons)
        if "ItemCollectionSizeLimitExceeded" in reasons:
            return StoreUnavailable("This user's data reached the store's size limit.", operation=operation)
        return StoreUnavailable("The memory store refused the change.", operation=operation, reasons=reasons)
    if code == "TransactionInProgressException":
        return VersionConflict("Another writer is changing this memory; retry.", operation=operation)
    if code == "ValidationException" and "size" in message.lower():
        return PayloadTooLarge("The item is larger than the memory store accepts.", operation=operation)
    if code == "ResourceNotFoundException":
        return StoreUnavailable("The memory store's table does not exist.", operation=operation)
    return StoreUnavailable("The memory store is unavailable.", operation=operation, code=code)


def unreachable(exc: BotoCoreError, operation: str) -> StoreUnavailable:
    if isinstance(exc, NoCredentialsError | PartialCredentialsError):
        return StoreUnavailable("No AWS credentials were found for the memory store.", operation=operation)
    return StoreUnavailable("The memory store cannot be reached.", operation=operation)


# -- the base class --------------------------------------------------------------------


class DynamoBase:
    """Client, table name, metrics, error translation, paging and batching."""

    def __init__(self, client: DynamoDBClient, table_name: str, metrics: DynamoMetrics | None = None) -> None:
        self.client = client
        self.table_name = table_name
        self.metrics = metrics or DynamoMetrics()

    @staticmethod
    def client_from_settings(settings: Settings) -> DynamoDBClient:
        import boto3
        from botocore.config import Config

        config = Config(
            retries={"mode": "standard", "max_attempts": 5},
            max_pool_connections=50,
            connect_timeout=3,
            read_timeout=10,
        )
        client: DynamoDBClient = boto3.client(
            "dynamodb",
            region_name=settings.aws_region,
            endpoint_url=settings.dynamodb_endpoint,
            config=config,
        )
        return client

    def call(self, operation: str, **params: Any) -> dict[str, Any]:
        """Send one request; every client error leaves as a domain error."""
        if operation in _METERED:
            params.setdefault("ReturnConsumedCapacity", "TOTAL")
        method = getattr(self.client, _METHODS.get(operation, operation))
        try:
            response: dict[str, Any] = method(**params)
        except ClientError as exc:
            self.metrics.record(operation, None, failed=True)
            error = translate(exc, operation)
            if isinstance(error, Throttled | StoreUnavailable):
                logger.warning(
                    "dynamodb request failed",
                    extra={"operation": operation, "code": exc.response.get("Error", {}).get("Code")},
                )
            raise error from exc
        except BotoCoreError as exc:
            self.metrics.record(operation, None, failed=True)
            logger.warning("dynamodb unreachable", extra={"operation": operation, "error": type(exc).__name__})
            raise unreachable(exc, operation) from exc
        self.metrics.record(operation, response)
        return response

    # -- single items ----------------------------------------------------------------
    def get(self, pk: str, sk: str, *, consistent: bool = True, projection: Sequence[str] = ()) -> Item | None:
        params: dict[str, Any] = {"TableName": self.table_name, "Key": key_of(pk, sk), "ConsistentRead": consistent}
        if projection:
            names = {f"#p{i}": name for i, name in enumerate(projection)}
            params["ProjectionExpression"] = ", ".join(names)
            params["ExpressionAttributeNames"] = names
        item: Item | None = self.call("GetItem", **params).get("Item")
        return item

    def put(self, item: Item, **params: Any) -> None:
        self.call("PutItem", TableName=self.table_name, Item=item, **params)

    # -- many items ------------------------------------------------------------------
    def query_pages(self, **params: Any) -> Iterator[dict[str, Any]]:
        """Every page of a query (DynamoDB stops each page at 1 MB or ``Limit``)."""
        params.setdefault("TableName", self.table_name)
        while True:
            page = self.call("Query", **params)
            yield page
            last = page.get("LastEvaluatedKey")
            if not last:
                return
            params["ExclusiveStartKey"] = last

    def query_items(self, **params: Any) -> Iterator[Item]:
        for page in self.query_pages(**params):
            yield from page.get("Items", [])

    def batch_get(self, keys: Sequence[Item], *, consistent: bool = True, projection: Sequence[str] = ()) -> list[Item]:
        """The items that exist among ``keys`` (100 per request, unprocessed keys retried)."""
        out: list[Item] = []
        request_extra: dict[str, Any] = {"ConsistentRead": consistent}
        if projection:
            names = {f"#p{i}": name for i, name in enumerate(projection)}
            request_extra["ProjectionExpression"] = ", ".join(names)
            request_extra["ExpressionAttributeNames"] = names
        for start in range(0, len(keys), 100):
            pending: dict[str, Any] = {self.table_name: {"Keys": list(keys[start : start + 100]), **request_extra}}
            for attempt in range(10):
                response = self.call("BatchGetItem", RequestItems=pending)
                out.extend(response.get("Responses", {}).get(self.table_name, []))
                pending = response.get("UnprocessedKeys") or {}
                if not pending:
                    break
                _backoff(attempt)
            else:
                raise Throttled("The memory store is busy; retry shortly.", operation="BatchGetItem")
        return out

    def batch_delete(self, keys: Sequence[Item]) -> int:
        """Delete ``keys`` (25 per request, unprocessed ones retried); how many were sent."""
        for start in range(0, len(keys), 25):
            pending: dict[str, Any] = {
                self.table_name: [{"DeleteRequest": {"Key": key}} for key in keys[start : start + 25]]
            }
            self._batch_write(pending)
        return len(keys)

    def batch_put(self, items: Sequence[Item]) -> None:
        for start in range(0, len(items), 25):
            self._batch_write({self.table_name: [{"PutRequest": {"Item": it}} for it in items[start : start + 25]]})

    def _batch_write(self, pending: dict[str, Any]) -> None:
        for attempt in range(10):
            response = self.call("BatchWriteItem", RequestItems=pending)
            pending = response.get("UnprocessedItems") or {}
            if not pending:
                return
            _backoff(attempt)
        raise Throttled("The memory store is busy; retry shortly.", operation="BatchWriteItem")


def _backoff(attempt: int) -> None:
    time.sleep(random.uniform(0, min(1.0, 0.02 * 2**attempt)))


def expression_names(*names: str) -> dict[str, str]:
    """``{"#name": "name"}`` for attribute names used in an expression."""
    return {f"#{name}": name for name in names}
