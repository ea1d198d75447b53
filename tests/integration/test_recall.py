"""Recall end to end: tiers, visibility, liveness, determinism, budget and access stats."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from engram.container import Engram, build
from engram.domain.agent_config import AgentConfig, Guardrails, UserMemoryConfig
from engram.domain.models import Role, Visibility
from engram.domain.policies import VisibilityScope
from engram.domain.rendering import estimate_tokens
from engram.ports import Embedder, SearchQuery
from engram.service.indexing import entry_document
from engram.service.memory import UpsertCommand
from engram.service.recall import RecallRequest
from engram.settings import Settings

from tests.integration.conftest import Api
from tests.semantic import minilm
from tests.support import ManualClock, principal

A = principal("t1", "agent-a", Role.WRITER, groups=("team",))
B = principal("t1", "agent-b", Role.WRITER, groups=("other",))


def _engram(tmp_path: Path, embedder: Embedder | None = None, clock: Any = None) -> Engram:
    engram = build(Settings(data_dir=tmp_path), embedder=embedder, clock=clock or ManualClock())
    cats = ("preference", "fact", "context", "event", "feeling")
    for agent in ("agent-a", "agent-b"):
        engram.agents.put(
            "t1",
            agent,
            AgentConfig(user_memory_config=UserMemoryConfig(guardrails=Guardrails(allowed_categories=cats))),
        )
    return engram


def _put(engram: Engram, p: Any, key: str, value: str, **kw: Any) -> str:
    return engram.memory.upsert(p, "u1", [UpsertCommand(key=key, value=value, **kw)])[0].entry.id


def _seed(engram: Engram) -> None:
    engram.users.update_profile(A, "u1", name="Alice", nickname="Ali", pronouns="she/her")
    engram.users.set_agent_name(A, "u1", "Jarvis")
    _put(engram, A, "favorite_color", "blue", category="preference", importance=90)
    _put(engram, A, "favorite_food", "pizza", category="preference", importance=60)
    _put(engram, A, "dog_name", "Rex", statement="a beagle who loves the park")
    _put(engram, A, "employer", "Acme Corp", visibility=Visibility.GLOBAL)
    _put(engram, A, "team_project", "the dog walking app", visibility=Visibility.GROUP)


def _recall(engram: Engram, p: Any = A, message: str = "what is my dog's name?", **kw: Any):
    return engram.recall.recall(p, "u1", RecallRequest(message, **kw))


def test_given_memories_when_recalled_then_tier1_always_and_tier2_by_relevance(tmp_path: Path) -> None:
    engram = _engram(tmp_path)
    _seed(engram)
    r = _recall(engram, min_score=0.0)
    assert (r.identity.name, r.identity.nickname, r.identity.pronouns, r.identity.agent_name) == (
        "Alice",
        "Ali",
        "she/her",
        "Jarvis",
    )
    assert [p.entry.key for p in r.preferences] == ["favorite_color", "favorite_food"]  # by importance
    assert r.memories[0].entry.key == "dog_name"
    top = r.memories[0]
    assert top.tier == 2 and top.rank == 1 and top.parts is not None and "bm25" in top.matched_by
    assert "relevant to the message" in top.why
    assert {p.entry.key for p in r.preferences}.isdisjoint(m.entry.key for m in r.memories)
    assert "- dog name: Rex (a beagle who loves the park)" in r.rendered.text


def test_given_the_same_query_and_memories_when_recalled_twice_then_the_block_is_the_same_bytes(
    tmp_path: Path,
) -> None:
    one, two = _engram(tmp_path / "1"), _engram(tmp_path / "2")
    _seed(one)
    _seed(two)
    assert _recall(one).rendered.text.encode() == _recall(two).rendered.text.encode()


def test_given_superseded_and_expired_entries_when_recalled_then_they_never_appear(tmp_path: Path) -> None:
    clock = ManualClock()
    engram = _engram(tmp_path, clock=clock)
    old = _put(engram, A, "dog_name", "Rex")
    new = _put(engram, A, "dog_name", "Biscuit")
    _put(engram, A, "dog_mood", "the dog felt sick", category="feeling")
    clock.advance(timedelta(hours=7))  # feelings live 6 hours
    # An index lagging behind the store still holds the old value: the store decides.
    stale = engram.store.get_entry("t1", "u1", old)
    assert stale is not None
    engram.index.upsert(
        [
            entry_document(
                stale.evolve(status=stale.status.ACTIVE),
                engram.embedder.embed([stale.text()])[0],
                engram.embedder.model_id,
            )
        ]
    )
    r = _recall(engram, message="dog sick Rex Biscuit", min_score=0.0, top_k=10)
    ids = [m.entry.id for m in r.memories]
    assert new in ids and old not in ids
    assert "Rex" not in r.rendered.text and "sick" not in r.rendered.text


@pytest.mark.parametrize("roles", [(Role.WRITER,), (Role.ADMIN,)])
def test_an_agent_never_receives_another_agents_self_entries(tmp_path: Path, roles: tuple[Role, ...]) -> None:
    engram = _engram(tmp_path)
    _put(engram, B, "dog_name", "Secret Rex")
    _put(engram, B, "dog_toy", "group ball", visibility=Visibility.GROUP)
    _put(engram, B, "favorite_color", "secret red", category="preference", importance=100)
    _put(engram, A, "dog_breed", "beagle")
    caller = principal("t1", "agent-a", *roles, groups=("team",))
    r = _recall(engram, caller, "dog name toy color", min_score=0.0, top_k=20)
    keys = {m.entry.key for m in r.memories} | {p.entry.key for p in r.preferences}
    assert keys == {"dog_breed"}
    assert "Secret" not in r.rendered.text and "secret" not in r.rendered.text


def test_given_any_budget_when_recalled_then_the_block_fits_it(tmp_path: Path) -> None:
    engram = _engram(tmp_path)
    _seed(engram)
    for i in range(30):
        _put(engram, A, f"dog_fact_{i}", f"the dog did thing number {i} at the park")
    for budget in (1, 10, 40, 80, 200, 5000):
        r = _recall(engram, token_budget=budget, top_k=30, min_score=0.0)
        assert estimate_tokens(r.rendered.text) == r.rendered.tokens <= budget
        shown = {m.entry.id for m in r.memories}
        assert shown.isdisjoint(r.over_budget)


def test_given_a_category_filter_and_min_score_when_recalled_then_tier2_honours_both(tmp_path: Path) -> None:
    engram = _engram(tmp_path)
    _seed(engram)
    _put(engram, A, "dog_walk", "every evening", category="context")
    r = _recall(engram, message="dog", categories=("context",), min_score=0.0)
    assert [m.entry.key for m in r.memories] == ["dog_walk"]
    strict = _recall(engram, message="dog", min_score=1.0)
    assert strict.memories == [] and strict.below_min_score > 0


def test_given_memory_turned_off_when_recalled_then_only_identity_is_given(tmp_path: Path) -> None:
    engram = _engram(tmp_path)
    _seed(engram)
    admin = principal("t1", "agent-a", Role.ADMIN)
    engram.users.update_settings(admin, "u1", memory_enabled=False)
    r = _recall(engram, min_score=0.0)
    assert not r.memory_enabled and r.memories == [] and r.preferences == []
    assert "Name: Alice" in r.rendered.text


def test_given_a_recall_when_the_background_worker_flushes_then_access_stats_are_updated(tmp_path: Path) -> None:
    engram = _engram(tmp_path)
    _seed(engram)
    r = _recall(engram, min_score=0.0)
    shown = [m.entry.id for m in r.memories] + [p.entry.id for p in r.preferences]
    assert engram.recall.access.flush()  # type: ignore[attr-defined]
    for entry in engram.store.get_entries("t1", "u1", shown):
        assert entry.access_count == 1 and entry.last_accessed_at is not None


def test_a_paraphrase_with_no_shared_words_is_found_with_the_semantic_embedder(tmp_path: Path) -> None:
    engram = _engram(tmp_path, embedder=minilm())
    for key, value in [
        ("employer", "Acme Corp"),
        ("favorite_food", "pizza"),
        ("home_city", "Lisbon"),
        ("dog_name", "Rex"),
        ("car", "Toyota Corolla"),
        ("hobby", "rock climbing"),
    ]:
        _put(engram, A, key, value)
    r = _recall(engram, message="which company do I work for?", top_k=3)
    assert r.memories and r.memories[0].entry.key == "employer"
    assert r.memories[0].matched_by == ("vector",)


class TestApi:
    def test_given_a_viewer_key_when_recalling_over_http_then_the_response_explains_itself(self, api: Api) -> None:
        writer = api.key("t1", "agent-a", Role.WRITER)
        viewer = api.key("t1", "agent-a", Role.VIEWER)
        api.call("PATCH", "/v1/users/u1/profile", writer, json_body={"name": "Alice"})
        api.call("PUT", "/v1/users/u1/memories", writer, json_body={"key": "dog_name", "value": "Rex"})
        reply = api.call(
            "POST", "/v1/users/u1/recall", viewer, json_body={"message": "my dog", "tokenBudget": 200, "minScore": 0}
        )
        assert reply.status == 200, reply.body
        body = reply.json()
        assert body["context"].startswith('<user-memory format="2">')
        assert body["tokens"]["used"] <= 200 and body["tokens"]["estimator"] == "engram-estimate-v1"
        item = body["memories"][0]
        assert item["entry"]["key"] == "dog_name" and item["tier"] == 2
        assert set(item["parts"]) >= {"semantic", "keyword", "importance", "recency", "confidence", "total"}
        assert item["provenance"]["sourceAgentId"] == "agent-a" and item["why"]

    @pytest.mark.parametrize(
        "body",
        [
            {},
            {"message": ""},
            {"message": "x", "topK": 0},
            {"message": "x", "tokenBudget": 0},
            {"message": "x", "extra": 1},
        ],
    )
    def test_given_bad_input_when_recalling_then_it_is_a_422(self, api: Api, body: dict[str, Any]) -> None:
        key = api.key("t1", "agent-a", Role.VIEWER)
        reply = api.call("POST", "/v1/users/u1/recall", key, json_body=body)
        assert reply.status == 422 and reply.json()["code"] == "validation_error"

    def test_given_no_key_when_recalling_then_it_is_a_401(self, api: Api) -> None:
        assert api.call("POST", "/v1/users/u1/recall", json_body={"message": "hi"}).status == 401


def test_given_an_index_that_keeps_ranking_fields_when_recalled_then_only_shown_entries_are_read(
    tmp_path: Path,
) -> None:
    # Given many candidates for the message, and an index that returns what ranking needs
    engram = _engram(tmp_path)
    for i in range(30):
        _put(engram, A, f"dog_fact_{i}", f"my dog likes thing {i}", importance=10 + i)
    engram.sync_index()
    read: list[str] = []
    real = engram.recall.entries.get_entries

    def counting(tenant_id: str, user_id: str, ids: Any) -> Any:
        read.extend(ids)
        return real(tenant_id, user_id, ids)

    engram.recall.entries.get_entries = counting  # type: ignore[method-assign]
    # When recalled with top 3
    result = _recall(engram, message="what does my dog like?", top_k=3)
    # Then only the three shown were read from the store, not every candidate
    assert len(result.memories) == 3
    assert sorted(read) == sorted(m.entry.id for m in result.memories)
    assert result.considered > 3


def test_given_the_index_lags_a_delete_when_recalled_then_the_next_candidate_is_read_instead(tmp_path: Path) -> None:
    engram = _engram(tmp_path)
    ids = [_put(engram, A, f"dog_fact_{i}", f"my dog likes thing {i}", importance=10 + 10 * i) for i in range(4)]
    engram.sync_index()
    best = _recall(engram, message="what does my dog like?", top_k=1).memories[0].entry.id
    # The store loses the best one; the index still has it (as if it lagged behind)
    gone = engram.memory.delete(A, "u1", best)
    engram.index.upsert(
        [
            entry_document(
                gone.evolve(status=gone.status.ACTIVE),
                engram.embedder.embed([gone.text()])[0],
                engram.embedder.model_id,
            )
        ]
    )
    lagging = engram.recall.index.search(
        SearchQuery("t1", "u1", engram.clock.now(), text="dog likes", scope=VisibilityScope("agent-a"), k=10)
    )
    assert best in {h.id for h in lagging}
    result = _recall(engram, message="what does my dog like?", top_k=1)
    assert [m.entry.id for m in result.memories] != [best]
    assert result.memories and result.memories[0].entry.id in ids


def test_given_many_hits_when_searched_then_only_the_top_ones_are_read_and_a_dropped_one_is_replaced(
    tmp_path: Path,
) -> None:
    engram = _engram(tmp_path)
    for i in range(20):
        _put(engram, A, f"dog_fact_{i}", f"my dog likes thing {i}")
    engram.sync_index()
    before = [r.entry.id for r in engram.memory.search(A, "u1", "dog likes", limit=3)]
    gone = engram.memory.delete(A, "u1", before[0])
    engram.index.upsert(  # the index lags the delete
        [
            entry_document(
                gone.evolve(status=gone.status.ACTIVE),
                engram.embedder.embed([gone.text()])[0],
                engram.embedder.model_id,
            )
        ]
    )
    read: list[str] = []
    real = engram.memory.entries.get_entries

    def counting(tenant_id: str, user_id: str, ids: Any) -> Any:
        read.extend(ids)
        return real(tenant_id, user_id, ids)

    engram.memory.entries.get_entries = counting  # type: ignore[method-assign]
    results = engram.memory.search(A, "u1", "dog likes", limit=3)
    assert len(results) == 3
    assert before[0] not in [r.entry.id for r in results]
    assert len(read) == 4  # the best three, then one more for the deleted one
