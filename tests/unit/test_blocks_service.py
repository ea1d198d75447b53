"""Memory blocks through the service: versions, restore, rotation into archival memory,
task archival, Markdown edits, presets and who may reach which block."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from engram.container import Engram
from engram.domain.agent_config import AgentConfig
from engram.domain.archival import ArchivalKind
from engram.domain.block_format import compact_size, to_markdown
from engram.domain.block_schema import BlockSchema, MemoryBlocksConfig, RotationStrategy
from engram.domain.blocks import BlockEdit
from engram.domain.errors import (
    Forbidden,
    GuardrailViolation,
    NotFound,
    StoreUnavailable,
    ValidationFailed,
    VersionConflict,
)
from engram.domain.models import ActorType, Role

from tests.support import engram_for, principal

AGENT = principal("t1", "agent-a")
OTHER = principal("t1", "agent-b")
VIEWER = principal("t1", "agent-a", Role.VIEWER)
ADMIN = principal("t1", "console", Role.ADMIN)


@pytest.fixture
def engram(tmp_path: Path) -> Engram:
    return engram_for(tmp_path)


# A block whose list has no item limit, so that only the character limit makes room.
JOURNAL = BlockSchema.model_validate(
    {
        "name": "journal",
        "fields": [{"name": "name"}, {"name": "current_task"}, {"name": "entries", "kind": "list"}],
        "maxChars": 600,
    }
)


def _configure(engram: Engram, strategy: RotationStrategy, max_chars: int = 600) -> None:
    blocks = MemoryBlocksConfig(schemas=(JOURNAL,), rotation=strategy, max_chars=max_chars)
    engram.agents.put("t1", "agent-a", AgentConfig(memory_blocks=blocks))


class TestVersions:
    def test_given_changes_when_history_is_read_then_every_version_is_there_with_its_actor(
        self, engram: Engram
    ) -> None:
        engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"name": "Alice"}))
        engram.blocks.write(ADMIN, "u1", "human", BlockEdit(set={"role": "Student"}), agent_id="agent-a")
        versions = engram.blocks.history(AGENT, "u1", "human").items
        assert [(v.version, v.change.value, v.actor.type) for v in versions] == [
            (1, "created", ActorType.AGENT),
            (2, "updated", ActorType.USER),
        ]
        assert versions[1].block.values == {"name": "Alice", "role": "Student", "session_state": "idle"}

    def test_given_an_old_version_when_restored_then_its_content_returns_as_a_new_version(self, engram: Engram) -> None:
        engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"name": "Alice"}))
        engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"name": "Bob", "role": "Chef"}))
        restored = engram.blocks.restore(AGENT, "u1", "human", 1)
        assert restored.block is not None and restored.block.version == 3
        assert restored.block.values == {"name": "Alice", "session_state": "idle"}
        assert engram.blocks.history(AGENT, "u1", "human").items[-1].change.value == "restored"
        with pytest.raises(NotFound):
            engram.blocks.restore(AGENT, "u1", "human", 9)

    def test_given_a_deleted_block_when_restored_then_it_is_back(self, engram: Engram) -> None:
        engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"name": "Alice"}))
        engram.blocks.delete(AGENT, "u1", "human")
        with pytest.raises(NotFound):
            engram.blocks.get(AGENT, "u1", "human")
        with pytest.raises(ValidationFailed):
            engram.blocks.restore(AGENT, "u1", "human", 2)
        engram.blocks.restore(AGENT, "u1", "human", 1)
        assert engram.blocks.get(AGENT, "u1", "human")[0].values["name"] == "Alice"

    def test_given_an_edit_that_changes_nothing_when_written_then_no_version_is_made(self, engram: Engram) -> None:
        engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"name": "Alice"}))
        again = engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"name": "Alice"}))
        assert not again.changed and again.block is not None and again.block.version == 1

    def test_given_a_stale_expected_version_when_written_then_it_is_a_conflict(self, engram: Engram) -> None:
        engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"name": "Alice"}), expected_version=0)
        with pytest.raises(VersionConflict):
            engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"name": "Al"}), expected_version=0)
        engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"name": "Al"}), expected_version=1)


class TestMarkdownEdits:
    def test_given_a_block_edited_as_markdown_when_saved_then_the_edit_round_trips(self, engram: Engram) -> None:
        engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"name": "Alice", "preferences": ["Tea"]}))
        block, schema = engram.blocks.get(AGENT, "u1", "human")
        edited = to_markdown(schema, block.values, block.version).replace("- Tea\n", "- Tea\n- Short answers\n")
        result = engram.blocks.write_document(AGENT, "u1", "human", "markdown", edited)
        assert result.block is not None and result.block.version == 2
        saved, schema = engram.blocks.get(AGENT, "u1", "human")
        assert saved.values["preferences"] == ("Tea", "Short answers")
        assert to_markdown(schema, saved.values, 1) == edited

    def test_given_markdown_made_from_an_old_version_when_saved_then_it_is_a_conflict(self, engram: Engram) -> None:
        engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"name": "Alice"}))
        block, schema = engram.blocks.get(AGENT, "u1", "human")
        stale = to_markdown(schema, block.values, block.version)
        engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"role": "Student"}))
        with pytest.raises(VersionConflict):
            engram.blocks.write_document(AGENT, "u1", "human", "markdown", stale.replace("Alice", "Alicia"))
        assert engram.blocks.get(AGENT, "u1", "human")[0].values["role"] == "Student"

    def test_given_toml_and_json_documents_when_saved_then_they_replace_the_block(self, engram: Engram) -> None:
        engram.blocks.write_document(AGENT, "u1", "human", "toml", 'name = "Alice"\nfacts = ["a", "b"]\n')
        assert engram.blocks.get(AGENT, "u1", "human")[0].values["facts"] == ("a", "b")
        engram.blocks.write_document(AGENT, "u1", "human", "json", '{"name": "Bo"}')
        assert engram.blocks.get(AGENT, "u1", "human")[0].values == {"name": "Bo", "session_state": "idle"}


class TestRotation:
    @pytest.mark.parametrize("strategy", list(RotationStrategy))
    def test_given_a_growing_block_when_it_passes_its_threshold_then_it_stays_under_its_limit_and_rotated_text_is_searchable(
        self, engram: Engram, strategy: RotationStrategy
    ) -> None:
        _configure(engram, strategy)
        facts = [f"Visited {city} in spring {year}" for city, year in zip(CITIES, range(2001, 2031), strict=False)]
        engram.blocks.write(AGENT, "u1", "journal", BlockEdit(set={"name": "Alice", "current_task": "Plan a trip"}))
        archived = []
        for fact in facts:
            result = engram.blocks.write(AGENT, "u1", "journal", BlockEdit(append={"entries": (fact,)}))
            assert result.block is not None
            schema = result.schema
            assert compact_size(schema, result.block.values) <= schema.max_chars
            archived.extend(result.archived)
        block, schema = engram.blocks.get(AGENT, "u1", "journal")
        assert block.values["name"] == "Alice" and block.values["current_task"] == "Plan a trip"
        kept = set(block.values.get("entries", ()))
        moved = {i.value for r in archived for i in r.items}
        assert kept | moved == set(facts) and not kept & moved
        assert moved and {r.kind for r in archived} == {ArchivalKind.ROTATION}
        for fact in moved:
            city = fact.split()[1]
            hits = engram.archival.search(AGENT, "u1", f"{city} spring", mode="keyword")
            assert any(fact in h.record.text for h in hits), (strategy, fact)
            semantic = engram.archival.search(AGENT, "u1", fact, mode="semantic", limit=5)
            assert any(fact in h.record.text for h in semantic), (strategy, fact)

    def test_given_a_rolling_list_when_it_overflows_then_the_oldest_notes_are_archived(self, engram: Engram) -> None:
        for i in range(5):
            engram.blocks.write(AGENT, "u1", "human", BlockEdit(append={"context_notes": (f"note {i}",)}))
        block, _ = engram.blocks.get(AGENT, "u1", "human")
        assert block.values["context_notes"] == ("note 2", "note 3", "note 4")
        records = engram.archival.list_records(AGENT, "u1").items
        assert sorted(i.value for r in records for i in r.items) == ["note 0", "note 1"]
        assert {r.kind for r in records} == {ArchivalKind.OVERFLOW}

    def test_given_a_block_whose_text_alone_is_too_long_when_written_then_it_is_refused(self, engram: Engram) -> None:
        _configure(engram, RotationStrategy.ADAPTIVE, max_chars=100)
        with pytest.raises(GuardrailViolation) as err:
            engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"current_task": "x" * 200}))
        assert err.value.code == "block_too_large"
        with pytest.raises(NotFound):
            engram.blocks.get(AGENT, "u1", "human")


CITIES = [
    "Lisbon", "Porto", "Madrid", "Seville", "Paris", "Lyon", "Berlin", "Munich", "Vienna", "Prague",
    "Warsaw", "Krakow", "Oslo", "Bergen", "Stockholm", "Helsinki", "Tallinn", "Riga", "Vilnius", "Dublin",
    "Cork", "Edinburgh", "Glasgow", "Cardiff", "Bristol", "Leeds", "Rome", "Milan", "Naples", "Turin",
]  # fmt: skip


class TestTasks:
    def test_given_a_task_with_context_when_completed_then_it_is_archived_with_its_context(
        self, engram: Engram
    ) -> None:
        engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"current_task": "Brainstorm essay topics"}))
        engram.blocks.write(AGENT, "u1", "human", BlockEdit(append={"context_notes": ("Discussed identity",)}))
        result = engram.blocks.write(AGENT, "u1", "human", BlockEdit(complete_task=True, task_notes="Picked 5"))
        assert result.block is not None
        assert result.block.values == {"session_state": "idle"}
        [record] = result.archived
        assert record.kind is ArchivalKind.TASK
        assert record.text.splitlines()[1:] == [
            "Task: Brainstorm essay topics",
            "Context:",
            "- Discussed identity",
            "Notes: Picked 5",
        ]
        hits = engram.archival.search(AGENT, "u1", "essay topics", mode="keyword")
        assert [h.record.id for h in hits] == [record.id]
        assert engram.blocks.history(AGENT, "u1", "human").items[-1].change.value == "task_completed"


class TestPresetsAndSchemas:
    def test_given_a_preset_when_applied_then_the_persona_holds_it(self, engram: Engram) -> None:
        result = engram.blocks.apply_preset(AGENT, "u1", "persona", "research_assistant")
        assert result.block is not None and result.block.values["name"] == "Researcher"
        with pytest.raises(ValidationFailed, match="no preset"):
            engram.blocks.apply_preset(AGENT, "u1", "persona", "pirate")

    def test_given_a_custom_block_schema_in_config_when_written_then_it_is_validated_by_it(
        self, engram: Engram
    ) -> None:
        schema = BlockSchema.model_validate(
            {
                "name": "journey",
                "fields": [{"name": "goal"}, {"name": "milestones", "kind": "list", "maxItems": 2}],
                "maxChars": 500,
            }
        )
        engram.agents.put("t1", "agent-a", AgentConfig(memory_blocks=MemoryBlocksConfig(schemas=(schema,))))
        engram.blocks.write(AGENT, "u1", "journey", BlockEdit(set={"goal": "Get into college"}))
        with pytest.raises(ValidationFailed, match="no field 'mood'"):
            engram.blocks.write(AGENT, "u1", "journey", BlockEdit(set={"mood": "happy"}))
        with pytest.raises(NotFound):
            engram.blocks.write(OTHER, "u1", "journey", BlockEdit(set={"goal": "x"}))


class TestWhoReachesWhat:
    def test_given_two_agents_when_each_writes_its_human_block_then_neither_sees_the_other(
        self, engram: Engram
    ) -> None:
        engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"name": "Alice"}))
        engram.blocks.write(OTHER, "u1", "human", BlockEdit(set={"name": "Al"}))
        assert engram.blocks.get(AGENT, "u1", "human")[0].values["name"] == "Alice"
        assert engram.blocks.get(OTHER, "u1", "human")[0].values["name"] == "Al"
        with pytest.raises(Forbidden):
            engram.blocks.get(OTHER, "u1", "human", agent_id="agent-a")
        assert len(engram.blocks.list_blocks(ADMIN, "u1")) == 2
        assert [b.agent_id for b, _ in engram.blocks.list_blocks(AGENT, "u1")] == ["agent-a"]

    def test_given_archival_memory_of_one_agent_when_another_searches_then_it_finds_nothing(
        self, engram: Engram
    ) -> None:
        engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"current_task": "Secret plan"}))
        engram.blocks.write(AGENT, "u1", "human", BlockEdit(complete_task=True))
        assert engram.archival.search(AGENT, "u1", "secret plan")
        assert engram.archival.search(OTHER, "u1", "secret plan") == []
        assert engram.archival.search(principal("t2", "agent-a"), "u1", "secret plan") == []

    def test_given_a_viewer_key_when_it_writes_then_it_is_forbidden(self, engram: Engram) -> None:
        with pytest.raises(Forbidden):
            engram.blocks.write(VIEWER, "u1", "human", BlockEdit(set={"name": "x"}))


class TestIndexingFailures:
    def test_given_the_index_down_when_a_task_is_archived_then_the_record_is_kept_and_indexed_later(
        self, engram: Engram
    ) -> None:
        real = engram.archival.index

        class Flaky:
            down = True

            def upsert(self, docs: Any) -> None:
                if self.down:
                    raise StoreUnavailable("The index is down.")
                real.upsert(docs)

            def __getattr__(self, name: str) -> Any:
                return getattr(real, name)

        flaky = Flaky()
        engram.archival.index = flaky  # type: ignore[assignment]
        engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"current_task": "Tax return"}))
        done = engram.blocks.write(AGENT, "u1", "human", BlockEdit(complete_task=True))
        [record] = done.archived
        assert [r.id for r in engram.archival.repo.unindexed_archival("t1", "u1")] == [record.id]
        flaky.down = False
        hits = engram.archival.search(AGENT, "u1", "tax return", mode="keyword")
        assert [h.record.id for h in hits] == [record.id]
        assert engram.archival.repo.unindexed_archival("t1", "u1") == []
