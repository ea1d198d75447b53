"""API keys for a served instance, made in-process (the CLI pays a cold start per key)."""

from __future__ import annotations

from tests.e2e.conftest import EngramServer


def make_keys(server: EngramServer, *specs: tuple[str, str, tuple[str, ...]]) -> list[str]:
    """One key per (tenant, agent, roles), in the server's own store."""
    return [server.key(t, a, *roles) for t, a, roles in specs]
