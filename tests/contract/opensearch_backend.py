"""Registers the OpenSearch index with the index contract.

It runs only against a real cluster named by ``OPENSEARCH_URL`` (no engine can run
inside the unit suite); see README, "The search index contract on a real OpenSearch".
Each test gets its own index, deleted afterwards, and writes wait for the refresh so
the contract's read-after-write checks hold.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Any

import pytest
from engram.adapters.opensearch import OpenSearchIndex
from engram.settings import Settings

from tests.contract.conftest import INDEX_FACTORIES
from tests.contract.index_support import DIMENSION


def _opensearch(request: pytest.FixtureRequest, tmp: Path) -> Any:
    url = os.environ.get("OPENSEARCH_URL")
    if not url:
        pytest.skip("OPENSEARCH_URL is not set: the OpenSearch index contract needs a real cluster (see README)")
    name = f"engram-contract-{uuid.uuid4().hex[:12]}"
    index = OpenSearchIndex.from_settings(
        Settings(opensearch_url=url, opensearch_index=name), DIMENSION, refresh="wait_for"
    )

    def drop() -> None:
        index._get_client().indices.delete(index=name, ignore=[404])

    request.addfinalizer(drop)
    return index


INDEX_FACTORIES["opensearch"] = _opensearch
