"""``engram serve --backend aws``: DynamoDB on moto server, search on the embedded index.

The table is created first, as a deployment would have it; the server feeds its
embedded index from the table's stream.
"""

from __future__ import annotations

from pathlib import Path

from engram.adapters.dynamodb import create_table

from tests.e2e.conftest import SERVER_BACKENDS
from tests.moto_server import DUMMY_CREDENTIALS, REGION, dynamodb_client, fresh_table_name, moto_endpoint


def _aws(data_dir: Path) -> dict[str, str]:
    endpoint = moto_endpoint()
    name = fresh_table_name("engram-e2e")
    client = dynamodb_client(endpoint)
    create_table(client, name)
    # Extraction's idempotency records live in their own table, as deployed (erasure
    # deletes a user's records there: without the table, erasing a user with messages fails).
    idempotency = fresh_table_name("engram-e2e-idem")
    client.create_table(
        TableName=idempotency,
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
    )
    return {
        "ENGRAM_IDEMPOTENCY_TABLE": idempotency,
        **DUMMY_CREDENTIALS,
        "ENGRAM_DYNAMODB_ENDPOINT": endpoint,
        "ENGRAM_TABLE_NAME": name,
        "ENGRAM_AWS_REGION": REGION,
    }


SERVER_BACKENDS["aws"] = _aws
