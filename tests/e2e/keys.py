"""API keys for a served instance, made in-process (the CLI pays a cold start per key)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from engram.container import build
from engram.domain.models import Role
from engram.settings import Settings

from tests.e2e.conftest import EngramServer


@contextmanager
def _server_env(server: EngramServer) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.update(server.env)  # the backend's settings and credentials, as the server has them
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def make_keys(server: EngramServer, *specs: tuple[str, str, tuple[str, ...]]) -> list[str]:
    """One key per (tenant, agent, roles), in the server's own store."""
    with _server_env(server):
        engram = build(Settings())
    return [engram.keys.create(t, a, frozenset(Role(r) for r in roles))[1] for t, a, roles in specs]
