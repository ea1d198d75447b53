"""Per-agent configuration: read with defaults, cached briefly, written by admins."""

from __future__ import annotations

import time
from collections.abc import Iterator
from threading import Lock
from typing import Any

from engram.domain.agent_config import AgentConfig
from engram.domain.sensitive import reject_sensitive
from engram.ports import ConfigRepository

DEFAULT_CONFIG = AgentConfig()


class AgentConfigService:
    def __init__(self, repo: ConfigRepository, cache_seconds: float = 10.0) -> None:
        self._repo = repo
        self._ttl = cache_seconds
        self._cache: dict[tuple[str, str], tuple[float, AgentConfig]] = {}
        self._lock = Lock()

    def get(self, tenant_id: str, agent_id: str) -> AgentConfig:
        key = (tenant_id, agent_id)
        hit = self._cache.get(key)
        if hit is not None and time.monotonic() - hit[0] < self._ttl:
            return hit[1]
        config = self._repo.get_agent_config(tenant_id, agent_id) or DEFAULT_CONFIG
        with self._lock:
            self._cache[key] = (time.monotonic(), config)
        return config

    def put(self, tenant_id: str, agent_id: str, config: AgentConfig) -> AgentConfig:
        # The agent's name and its block schemas' texts (a field default becomes every
        # user's block value) are stored and shown back, so they pass the one filter too.
        reject_sensitive(_texts(config.model_dump()), "agent configuration")
        self._repo.put_agent_config(tenant_id, agent_id, config)
        with self._lock:
            self._cache[(tenant_id, agent_id)] = (time.monotonic(), config)
        return config


def _texts(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _texts(v, str(k))
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _texts(v, key)
    elif isinstance(value, str):
        yield key, value
