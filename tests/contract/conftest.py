"""Adapters under contract: each port's suite runs against every adapter listed here.

The embedded adapters always run. Other adapters register a factory in
``STORE_FACTORIES`` / ``INDEX_FACTORIES`` (see the DynamoDB and OpenSearch modules
beside this file); a factory may skip when its backend is not configured.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from engram.adapters.local_index import LocalIndex
from engram.adapters.sqlite import SqliteStore

StoreFactory = Callable[[pytest.FixtureRequest, Path], Any]

STORE_FACTORIES: dict[str, StoreFactory] = {
    "sqlite": lambda request, tmp: SqliteStore(tmp / "contract.db"),
}
INDEX_FACTORIES: dict[str, StoreFactory] = {
    "local": lambda request, tmp: LocalIndex(tmp / "contract-index.db"),
}

try:  # registered by the AWS data plane work; absent until it lands
    from tests.contract import aws_backends  # noqa: F401
except ImportError:
    pass
from tests.contract import opensearch_backend  # noqa: E402, F401  (skips unless OPENSEARCH_URL is set)


@pytest.fixture(params=sorted(STORE_FACTORIES))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    yield STORE_FACTORIES[request.param](request, tmp_path)


@pytest.fixture(params=sorted(INDEX_FACTORIES))
def index(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    yield INDEX_FACTORIES[request.param](request, tmp_path)
