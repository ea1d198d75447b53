"""The user's settings hold on every write path, because ``MemoryService.write`` itself
enforces them: explicit writes, extraction-style system writes, restores, approvals,
block changes and proposals."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from engram.container import Engram
from engram.domain.blocks import BlockEdit
from engram.domain.errors import GuardrailViolation, MemoryDisabled
from engram.domain.models import Actor, ActorType, Role, Visibility
from engram.domain.policies import VisibilityScope
from engram.domain.proposals import EntryUpsert
from engram.domain.writes import WriteRequest
from engram.service.memory import UpsertCommand

from tests.support import engram_for, principal

AGENT = principal("t1", "agent-a")
ADMIN = principal("t1", "console", Role.ADMIN)
EVERYTHING = VisibilityScope("console", everything=True)


@pytest.fixture
def engram(tmp_path: Path) -> Engram:
    return engram_for(tmp_path)


def _system_write(key: str, value: str, category: str = "fact") -> WriteRequest:
    """What extraction hands the pipeline: a system write for the agent's user."""
    return WriteRequest(
        "t1", "u1", key, value, category, Visibility.SELF, "agent-a", Actor(ActorType.SYSTEM, "extraction")
    )


def _live(engram: Engram) -> list[str]:
    return sorted(e.key for e in engram.memory.list_memories(ADMIN, "u1", EVERYTHING).items)


def _memory_off(engram: Engram) -> None:
    engram.users.update_settings(ADMIN, "u1", memory_enabled=False)


class TestMemoryOff:
    def test_given_memory_off_when_an_agent_writes_then_it_is_refused_with_memory_disabled(
        self, engram: Engram
    ) -> None:
        _memory_off(engram)
        with pytest.raises(MemoryDisabled) as err:
            engram.memory.upsert(AGENT, "u1", [UpsertCommand("city", "Oslo")], turn_id="turn-1")
        assert err.value.code == "memory_disabled" and err.value.status == 403
        assert "turned memory off" in err.value.message
        assert _live(engram) == []
        # The refused request used none of the turn's write budget.
        assert engram.store.add_turn_writes("t1", "agent-a", "turn-1", 1, 10, engram.clock.now()) == 1

    def test_given_memory_off_when_a_system_write_arrives_then_the_pipeline_itself_refuses_it(
        self, engram: Engram
    ) -> None:
        config = engram.agents.get("t1", "agent-a")
        engram.memory.write(_system_write("pet", "cat"), config)
        _memory_off(engram)
        with pytest.raises(MemoryDisabled) as err:
            engram.memory.write(_system_write("city", "Oslo"), config)
        assert err.value.code == "memory_disabled"
        assert _live(engram) == ["pet"]

    def test_given_memory_off_when_an_old_version_is_restored_then_it_is_refused(self, engram: Engram) -> None:
        [first] = engram.memory.upsert(AGENT, "u1", [UpsertCommand("city", "Oslo")])
        engram.memory.upsert(AGENT, "u1", [UpsertCommand("city", "Rome")])
        _memory_off(engram)
        with pytest.raises(MemoryDisabled):
            engram.memory.restore(AGENT, "u1", first.entry.id, 1)

    def test_given_memory_off_when_an_agent_proposes_or_edits_a_block_then_it_is_refused(self, engram: Engram) -> None:
        _memory_off(engram)
        with pytest.raises(MemoryDisabled):
            engram.proposals.propose(AGENT, "u1", EntryUpsert("city", "Oslo", "fact", Visibility.SELF))
        with pytest.raises(MemoryDisabled):
            engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"name": "Alice"}))
        assert engram.proposals.list_proposals(ADMIN, "u1").items == []

    def test_given_memory_back_on_when_written_then_it_is_remembered_again(self, engram: Engram) -> None:
        _memory_off(engram)
        engram.users.update_settings(ADMIN, "u1", memory_enabled=True)
        engram.memory.upsert(AGENT, "u1", [UpsertCommand("city", "Oslo")])
        assert _live(engram) == ["city"]

    def test_given_memory_off_when_forgetting_then_forgetting_still_works(self, engram: Engram) -> None:
        [written] = engram.memory.upsert(AGENT, "u1", [UpsertCommand("city", "Oslo")])
        _memory_off(engram)
        engram.memory.delete(AGENT, "u1", written.entry.id)
        assert _live(engram) == []


class TestCategoriesAndRetention:
    def test_given_allowed_categories_when_a_system_write_of_another_arrives_then_it_is_refused(
        self, engram: Engram
    ) -> None:
        engram.users.update_settings(ADMIN, "u1", allowed_categories=("preference",))
        with pytest.raises(GuardrailViolation) as err:
            engram.memory.write(_system_write("city", "Oslo", "fact"), engram.agents.get("t1", "agent-a"))
        assert err.value.code == "category_disabled_by_user"
        engram.memory.write(_system_write("drink", "tea", "preference"), engram.agents.get("t1", "agent-a"))
        assert _live(engram) == ["drink"]

    def test_given_a_retention_when_a_system_write_arrives_then_it_expires_within_it(self, engram: Engram) -> None:
        engram.users.update_settings(ADMIN, "u1", retention_days=3)
        before = engram.clock.now()
        result = engram.memory.write(_system_write("city", "Oslo"), engram.agents.get("t1", "agent-a"))
        assert result.entry.expires_at is not None
        assert result.entry.expires_at - before <= timedelta(days=3, seconds=1)
