"""The DynamoDB adapter under contract, against moto server (real HTTP through botocore).

One server per test session, a fresh table per test.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from engram.adapters.dynamodb import DynamoStore, create_table

from tests.contract.conftest import STORE_FACTORIES
from tests.moto_server import dynamodb_client, fresh_table_name, moto_endpoint, stop_moto

_cleanup_registered = False


def _dynamodb_store(request: pytest.FixtureRequest, tmp: Path) -> DynamoStore:
    global _cleanup_registered
    endpoint = moto_endpoint()
    if not _cleanup_registered:
        request.session.config.add_cleanup(stop_moto)
        _cleanup_registered = True
    client = dynamodb_client(endpoint)
    name = fresh_table_name()
    create_table(client, name)
    request.addfinalizer(lambda: client.delete_table(TableName=name))
    return DynamoStore(client, name)


STORE_FACTORIES["dynamodb"] = _dynamodb_store
