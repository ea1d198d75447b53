from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from engram.container import Engram, set_engram
from engram.domain.models import Role
from engram.local.gateway import LocalGateway, Reply

from tests.support import engram_for


class Api:
    """The API in-process through the same gateway and handler `engram serve` uses."""

    def __init__(self, engram: Engram) -> None:
        self.engram = engram
        self.gateway = LocalGateway(engram)

    def key(self, tenant: str, agent: str, *roles: Role, groups: tuple[str, ...] = ()) -> str:
        return self.engram.keys.create(tenant, agent, frozenset(roles or (Role.WRITER,)), groups)[1]

    def call(
        self,
        method: str,
        path: str,
        key: str | None = None,
        *,
        json_body: Any = None,
        body: str | bytes | None = None,
        query: str = "",
        headers: dict[str, str] | None = None,
    ) -> Reply:
        h = {"content-type": "application/json", **(headers or {})}
        if key:
            h["authorization"] = f"Bearer {key}"
        if json_body is not None:
            body = json.dumps(json_body)
        return self.gateway.handle(method, path, query=query, headers=h, body=body)


@pytest.fixture
def api(tmp_path: Path) -> Iterator[Api]:
    engram = engram_for(tmp_path)
    set_engram(engram)
    yield Api(engram)
    set_engram(None)
