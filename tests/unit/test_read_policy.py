"""The read policy alone: who sees what under memory off, retention and categories."""

from __future__ import annotations

from datetime import timedelta

import pytest
from engram.domain.errors import MemoryDisabled
from engram.domain.models import MemoryEntry, Role, UserSettings, Visibility
from engram.domain.read_policy import Reader, ReadPolicy, reader_of

from tests.support import T0, principal


def _entry(category: str = "fact", age: timedelta = timedelta(0), ttl: timedelta | None = None) -> MemoryEntry:
    created = T0 - age
    return MemoryEntry(
        id="mem_" + "0" * 24,
        tenant_id="t1",
        user_id="u",
        identity_id="i",
        key="k",
        value="v",
        category=category,
        visibility=Visibility.GLOBAL,
        source_agent_id="a",
        created_at=created,
        updated_at=T0,
        expires_at=None if ttl is None else created + ttl,
        version=1,
    )


def test_memory_off_closes_memory_to_agents_and_not_to_the_owner() -> None:
    off = UserSettings("t1", "u", memory_enabled=False)
    agent, owner = ReadPolicy.of(off, T0, Reader.AGENT), ReadPolicy.of(off, T0, Reader.OWNER)
    assert not agent.allows(_entry()) and owner.allows(_entry())
    with pytest.raises(MemoryDisabled):
        agent.require_readable()
    owner.require_readable()


def test_retention_is_created_plus_days_for_every_reader() -> None:
    settings = UserSettings("t1", "u", retention_days=2)
    for reader in Reader:
        policy = ReadPolicy.of(settings, T0, reader)
        assert policy.allows(_entry(age=timedelta(days=2) - timedelta(seconds=1)))
        assert not policy.allows(_entry(age=timedelta(days=2)))  # inclusive, as dream prunes
        assert not policy.allows_record(T0 - timedelta(days=3), expired=False)


def test_categories_bind_agents_and_ttl_binds_everyone() -> None:
    settings = UserSettings("t1", "u", allowed_categories=("fact",))
    agent, owner = ReadPolicy.of(settings, T0, Reader.AGENT), ReadPolicy.of(settings, T0, Reader.OWNER)
    assert agent.allows(_entry("fact")) and not agent.allows(_entry("preference"))
    assert owner.allows(_entry("preference"))
    expired = _entry(age=timedelta(hours=2), ttl=timedelta(hours=1))
    assert not agent.allows(expired) and not owner.allows(expired)


def test_recall_and_tools_read_as_the_agent_even_with_an_admin_key() -> None:
    admin = principal("t1", "console", Role.ADMIN)
    assert reader_of(admin) is Reader.OWNER
    assert reader_of(admin, as_agent=True) is Reader.AGENT
    assert reader_of(principal("t1", "coach", Role.WRITER)) is Reader.AGENT
