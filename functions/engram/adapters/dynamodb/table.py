"""The table definition, for tests, the local ``--backend aws`` mode and the docs.

The CDK stack declares the same table (keys, indexes, stream, TTL); keep them in step.
Local secondary indexes can only be created with the table, so every LSI a feature
may need is declared here, with generic names that later item types can overload.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb.base import unreachable
from engram.domain.errors import StoreUnavailable

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


def table_definition(name: str) -> dict[str, Any]:
    """The CreateTable request: on-demand, stream with both images, three LSIs, two GSIs."""
    string_attrs = (k.PK, k.SK, k.LSI1SK, k.LSI2SK, k.LSI3SK, k.GSI1PK, k.GSI1SK, k.GSI2PK, k.GSI2SK)
    return {
        "TableName": name,
        "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": a, "AttributeType": "S"} for a in string_attrs],
        "KeySchema": [
            {"AttributeName": k.PK, "KeyType": "HASH"},
            {"AttributeName": k.SK, "KeyType": "RANGE"},
        ],
        "LocalSecondaryIndexes": [
            _lsi(k.LSI1, k.LSI1SK, {"ProjectionType": "ALL"}),
            _lsi(k.LSI2, k.LSI2SK, {"ProjectionType": "ALL"}),
            # Only counted, never read: the smallest projection keeps counting cheap.
            _lsi(k.LSI3, k.LSI3SK, {"ProjectionType": "KEYS_ONLY"}),
        ],
        "GlobalSecondaryIndexes": [
            {
                "IndexName": k.GSI1,
                "KeySchema": [
                    {"AttributeName": k.GSI1PK, "KeyType": "HASH"},
                    {"AttributeName": k.GSI1SK, "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "ALL"},
            },
            {
                # Sparse: only users due for dream carry GSI2PK, so the planner reads
                # nobody else. Keys and the user's ids are all it needs.
                "IndexName": k.GSI2,
                "KeySchema": [
                    {"AttributeName": k.GSI2PK, "KeyType": "HASH"},
                    {"AttributeName": k.GSI2SK, "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["tenantId", "userId", "dueAt"]},
            },
        ],
        "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
        "SSESpecification": {"Enabled": True},
    }


def _lsi(name: str, attr: str, projection: dict[str, Any]) -> dict[str, Any]:
    return {
        "IndexName": name,
        "KeySchema": [
            {"AttributeName": k.PK, "KeyType": "HASH"},
            {"AttributeName": attr, "KeyType": "RANGE"},
        ],
        "Projection": projection,
    }


def create_table(client: DynamoDBClient, name: str, wait_seconds: float = 60.0) -> None:
    """Create the table, wait until it is active, and turn TTL on for ``ttl``."""
    try:
        client.create_table(**table_definition(name))
        _wait_active(client, name, wait_seconds)
        client.update_time_to_live(
            TableName=name,
            TimeToLiveSpecification={"Enabled": True, "AttributeName": k.TTL},
        )
    except (ClientError, BotoCoreError) as exc:
        raise StoreUnavailable("The DynamoDB table could not be created.", table=name) from exc


def ensure_table(client: DynamoDBClient, name: str) -> bool:
    """Create the table unless it exists; True if it was created."""
    try:
        client.describe_table(TableName=name)
        return False
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") != "ResourceNotFoundException":
            raise StoreUnavailable("The DynamoDB table cannot be described.", table=name) from exc
    except BotoCoreError as exc:
        raise unreachable(exc, "DescribeTable") from exc
    try:
        create_table(client, name)
    except StoreUnavailable as exc:
        # Another process created it first: that is what we wanted.
        cause = exc.__cause__
        if isinstance(cause, ClientError) and cause.response.get("Error", {}).get("Code") == "ResourceInUseException":
            return False
        raise
    return True


def _wait_active(client: DynamoDBClient, name: str, wait_seconds: float) -> None:
    deadline = time.monotonic() + wait_seconds
    while True:
        status = client.describe_table(TableName=name)["Table"].get("TableStatus")
        if status == "ACTIVE":
            return
        if time.monotonic() > deadline:
            raise StoreUnavailable("The DynamoDB table did not become active in time.", table=name)
        time.sleep(0.5)
