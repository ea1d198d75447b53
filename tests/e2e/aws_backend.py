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
    create_table(dynamodb_client(endpoint), name)
    return {
        **DUMMY_CREDENTIALS,
        "ENGRAM_DYNAMODB_ENDPOINT": endpoint,
        "ENGRAM_TABLE_NAME": name,
        "ENGRAM_AWS_REGION": REGION,
    }


SERVER_BACKENDS["aws"] = _aws
