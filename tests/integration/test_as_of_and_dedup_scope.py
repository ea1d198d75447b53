"""Review of issue #17's store-read paths: an as-of search or recall reads superseded
entries from the store, and write-time dedup reads the user's latest entries from it.
Neither may show one agent another agent's `self` memories or reach into them."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from engram.domain.models import Status, Visibility
from engram.domain.policies import scope_for
from engram.service.memory import UpsertCommand
from engram.service.recall import RecallRequest

from tests.support import engram_for, principal

THEN = datetime(2020, 3, 1, tzinfo=UTC)


def test_an_as_of_search_and_recall_never_show_another_agents_superseded_self_values(tmp_path: Path) -> None:
    engram = engram_for(tmp_path)
    a, b = principal("t1", "agent-a"), principal("t1", "agent-b")
    # Given agent A's private city, superseded since, and B's own
    for value, since in (("Paris", 2019), ("Rome", 2024)):
        engram.memory.upsert(a, "u1", [UpsertCommand("city", value, valid_from=datetime(since, 1, 1, tzinfo=UTC))])
    engram.memory.upsert(b, "u1", [UpsertCommand("pet", "a dog", valid_from=datetime(2019, 1, 1, tzinfo=UTC))])

    # When A and B search and recall as of 2020
    def searched(p: object) -> list[str]:
        hits = engram.memory.search(p, "u1", "city", as_of=THEN, min_score=0)  # type: ignore[arg-type]
        return [h.entry.value for h in hits]

    def recalled(p: object) -> list[str]:
        request = RecallRequest("which city do I live in?", as_of=THEN, min_score=0)
        result = engram.recall.recall(p, "u1", request)  # type: ignore[arg-type]
        return [i.entry.value for i in (*result.preferences, *result.memories)]

    # Then A finds the value that held then, and B never sees it
    assert "Paris" in searched(a) and "Paris" in recalled(a)
    assert "Paris" not in searched(b) and "Paris" not in recalled(b)
    assert "Rome" not in searched(b) and "Rome" not in recalled(b)


def test_write_time_dedup_never_reinforces_or_supersedes_another_agents_unindexed_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engram = engram_for(tmp_path)
    a, b = principal("t1", "agent-a"), principal("t1", "agent-b")
    # Given an index that has caught up with nothing, and A's private fact
    monkeypatch.setattr(engram.index, "upsert", lambda docs: None)
    mine = engram.memory.upsert(a, "u1", [UpsertCommand("favorite_food", "pizza", category="preference")])
    # When B states the same fact, and then a contradicting one, in other words
    same = engram.memory.upsert(b, "u1", [UpsertCommand("favorite_foods", "Pizza", category="preference")])
    other = engram.memory.upsert(
        b, "u1", [UpsertCommand("favourite_food", "sushi", category="preference", visibility=Visibility.GLOBAL)]
    )
    # Then each is B's own write: A's entry is neither reinforced nor superseded
    assert same[0].outcome.value == "created" and same[0].entry.source_agent_id == "agent-b"
    # (compared with nothing of A's: B's fact keeps B's own key)
    assert same[0].matched is None and same[0].entry.key == "favorite_foods"
    assert other[0].outcome.value == "created"
    kept = engram.memory.get(a, "u1", mine[0].entry.id)
    assert kept.value == "pizza" and kept.version == mine[0].entry.version and kept.status.value == "active"


def test_a_forgotten_key_is_not_shown_as_of_a_past_time(tmp_path: Path) -> None:
    engram = engram_for(tmp_path)
    a = principal("t1", "agent-a")
    # Given a city that changed, and then the key forgotten
    for value, since in (("Paris", 2019), ("Rome", 2024)):
        engram.memory.upsert(a, "u1", [UpsertCommand("city", value, valid_from=datetime(since, 1, 1, tzinfo=UTC))])
    assert engram.memory.delete_by_key(a, "u1", "city")
    # When the agent searches, recalls and lists as of a time the old value held
    found = [h.entry.value for h in engram.memory.search(a, "u1", "city", as_of=THEN, min_score=0)]
    result = engram.recall.recall(a, "u1", RecallRequest("which city do I live in?", as_of=THEN, min_score=0))
    recalled = [i.entry.value for i in (*result.preferences, *result.memories)]
    listed = [e.value for e in engram.memory.list_memories(a, "u1", scope_for(a), as_of=THEN).items]
    # Then the forgotten fact is not presented as a fact of that time
    assert "Paris" not in found and "Paris" not in recalled and "Paris" not in listed
    # while its record stays readable as history (status filters are the raw record)
    raw = engram.memory.list_memories(a, "u1", scope_for(a), statuses=(Status.SUPERSEDED,)).items
    assert [e.value for e in raw] == ["Paris"]


@pytest.mark.parametrize("first", [Visibility.SELF, Visibility.GROUP])
def test_write_time_dedup_never_moves_an_entry_between_self_and_a_group(tmp_path: Path, first: Visibility) -> None:
    engram = engram_for(tmp_path)
    a = principal("t1", "agent-a", groups=("g1",))
    b = principal("t1", "agent-b", groups=("g1",))
    then = Visibility.GROUP if first is Visibility.SELF else Visibility.SELF

    def groups(v: Visibility) -> tuple[str, ...] | None:
        return ("g1",) if v is Visibility.GROUP else None

    # Given agent A's fact, private or shared with group g1
    old = engram.memory.upsert(
        a, "u1", [UpsertCommand("favorite_food", "pizza", visibility=first, group_ids=groups(first))]
    )
    # When A states the same fact in other words for the other audience
    new = engram.memory.upsert(
        a, "u1", [UpsertCommand("favorite_foods", "Pizza", visibility=then, group_ids=groups(then))]
    )
    # Then it is a new entry where it was asked for: a private fact does not move to the
    # group (nor its key), and a group's fact is not taken away from its members
    assert new[0].matched is None and new[0].entry.key == "favorite_foods" and new[0].entry.visibility is then
    assert engram.memory.get(a, "u1", old[0].entry.id).status.value == "active"
    seen_by_b = {e.key for e in engram.memory.list_memories(b, "u1", scope_for(b)).items}
    assert seen_by_b == ({"favorite_foods"} if then is Visibility.GROUP else {"favorite_food"})
