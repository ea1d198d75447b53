"""The Python client, sync and async, against ``engram serve`` over real HTTP."""

from __future__ import annotations

import asyncio
import time

import pytest
from engram.domain.agent_config import AgentConfig, Guardrails, UserMemoryConfig
from engram.domain.tools import tool_calls_in
from engram_memory_client import (
    AsyncEngramClient,
    AuthenticationError,
    EngramClient,
    GuardrailError,
    InvalidRequest,
    NotFoundError,
    PermissionDenied,
    SensitiveDataError,
)

from tests.e2e.conftest import EngramServer
from tests.e2e.keys import make_keys
from tests.recorded_tool_calls import RECORDED, REMEMBERED, expected_result

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def keys(server: EngramServer) -> dict[str, str]:
    admin, alpha, beta, viewer = make_keys(
        server,
        ("acme", "ops", ("admin",)),
        ("acme", "alpha", ("writer",)),
        ("acme", "beta", ("writer",)),
        ("acme", "reader", ("viewer",)),
    )
    return {"admin": admin, "alpha": alpha, "beta": beta, "viewer": viewer}


def test_given_a_served_engram_when_the_sync_client_remembers_recalls_and_forgets_then_each_step_holds(
    server: EngramServer, keys: dict[str, str]
) -> None:
    with EngramClient(server.url, keys["alpha"]) as alpha, EngramClient(server.url, keys["beta"]) as beta:
        assert alpha.health().status == "ok"
        assert alpha.whoami().agent_id == "alpha"
        created = alpha.remember("sync-user", "favorite_color", "blue", category="preference")
        assert created.outcome == "created"
        assert alpha.remember("sync-user", "favorite_color", "Blue", category="preference").outcome == "reinforced"
        changed = alpha.remember("sync-user", "favorite_color", "green", category="preference")
        assert (changed.outcome, changed.previous_id) == ("superseded", created.entry.id)
        beta.remember("sync-user", "language", "German", visibility="global")

        assert {(e.key, e.value) for e in alpha.iter_visible("sync-user")} == {
            ("favorite_color", "green"),
            ("language", "German"),
        }
        assert {e.key for e in beta.iter_visible("sync-user")} == {"language"}
        hits = alpha.search_memories("sync-user", q="favorite color").items
        assert hits[0].entry.value == "green"
        assert [e.value for e in alpha.memories_by_key("sync-user", "favorite_color").items] == ["green"]

        versions = [v.version for v in alpha.iter_history("sync-user", changed.entry.id, limit=1)]
        assert versions == [1, 2, 3]
        restored = alpha.restore_memory("sync-user", changed.entry.id, version=1)
        assert restored.entry.value == "blue"

        assert alpha.count_memories("sync-user").count == 2
        assert alpha.forget_key("sync-user", "favorite_color").deleted
        assert alpha.count_memories("sync-user").count == 1
        assert alpha.set_agent_name("sync-user", name="Jarvis").agent_names == {"alpha": "Jarvis"}


def test_given_more_entries_than_a_page_when_iterating_then_every_entry_comes_once(
    server: EngramServer, keys: dict[str, str]
) -> None:
    with EngramClient(server.url, keys["alpha"]) as alpha:
        written = alpha.remember_many(
            "paged-user", [{"key": f"fact_{i}", "value": f"value {i}"} for i in range(7)], turn_id="bulk-1"
        )
        assert len(written.results) == 7
        seen = [e.key for e in alpha.iter_memories("paged-user", limit=3)]
        assert sorted(seen) == sorted(f"fact_{i}" for i in range(7))
        first = alpha.list_memories("paged-user", limit=3)
        assert len(first.items) == 3 and first.next_cursor


def test_given_bad_requests_when_sent_then_the_client_raises_the_error_family_with_the_api_code(
    server: EngramServer, keys: dict[str, str]
) -> None:
    bogus = "egm_0123456789abcdef_" + "x" * 43
    with EngramClient(server.url, bogus) as stranger, pytest.raises(AuthenticationError) as auth:
        stranger.count_memories("err-user")
    assert auth.value.code == "unauthenticated"
    with EngramClient(server.url, keys["viewer"]) as viewer, pytest.raises(PermissionDenied) as denied:
        viewer.remember("err-user", "k", "v")
    assert denied.value.code == "forbidden"
    with EngramClient(server.url, keys["alpha"]) as alpha:
        with pytest.raises(NotFoundError):
            alpha.get_memory("err-user", "mem_0123456789abcdef01234567")
        with pytest.raises(SensitiveDataError) as sensitive:
            alpha.remember("err-user", "card", "4111 1111 1111 1111")
        assert sensitive.value.details["rule"]
        with pytest.raises(GuardrailError) as guard:
            alpha.remember("err-user", "k" * 101, "v")
        assert guard.value.code == "key_too_long"
    with EngramClient(server.url, keys["admin"]) as admin, pytest.raises(InvalidRequest) as confirm:
        admin.delete_all("err-user")
    assert confirm.value.code == "confirmation_required"


def test_given_a_turn_budget_when_a_turn_writes_too_much_then_the_429_is_raised_without_retrying(
    server: EngramServer, keys: dict[str, str]
) -> None:
    with EngramClient(server.url, keys["admin"]) as admin:
        config = AgentConfig(user_memory_config=UserMemoryConfig(guardrails=Guardrails(max_writes_per_turn=2)))
        admin.put_agent_config("beta", user_memory_config=config.user_memory_config.model_dump())
    with EngramClient(server.url, keys["beta"]) as beta:
        beta.remember("turn-user", "a", "1", turn_id="turn-9")
        beta.remember("turn-user", "b", "2", turn_id="turn-9")
        with pytest.raises(GuardrailError) as err:
            beta.remember("turn-user", "c", "3", turn_id="turn-9")
        assert (err.value.status, err.value.code) == (429, "too_many_writes")
        assert beta.count_memories("turn-user").count == 2


@pytest.mark.parametrize("fmt", ["openai", "anthropic", "bedrock"])
def test_given_a_recorded_model_response_when_its_calls_run_through_the_client_then_results_come_back(
    server: EngramServer, keys: dict[str, str], fmt: str
) -> None:
    user = f"tools-{fmt}"
    with EngramClient(server.url, keys["alpha"]) as alpha:
        assert "rememberFact" in alpha.list_tools(format=fmt).names
        turn = alpha.turn(user)
        [execution] = [turn.execute(c) for c in tool_calls_in(RECORDED[fmt])]
        assert (execution.format, execution.is_error, execution.text) == (fmt, False, REMEMBERED)
        assert execution.result == expected_result(fmt, REMEMBERED)
        assert [(e.key, e.value) for e in alpha.iter_visible(user)] == [("favorite_color", "blue")]


def test_given_the_async_client_when_it_runs_the_same_calls_then_it_matches_the_sync_client(
    server: EngramServer, keys: dict[str, str]
) -> None:
    async def main() -> None:
        async with AsyncEngramClient(server.url, keys["alpha"]) as alpha:
            outcome = await alpha.remember("async-user", "city", "Lisbon")
            assert outcome.outcome == "created"
            await alpha.remember_many("async-user", [{"key": f"k{i}", "value": str(i)} for i in range(4)])
            keys_seen = [e.key async for e in alpha.iter_memories("async-user", limit=2)]
            assert sorted(keys_seen) == ["city", "k0", "k1", "k2", "k3"]
            turn = alpha.turn("async-user")
            results = await turn.results(tool_calls_in(RECORDED["anthropic"]))
            assert results == [expected_result("anthropic", REMEMBERED)]
            with pytest.raises(NotFoundError):
                await alpha.delete_memory("async-user", "mem_0123456789abcdef01234567")

        async with AsyncEngramClient(server.url, keys["admin"]) as admin:
            receipt = await admin.delete_all("async-user", confirm="CONFIRM")
            assert receipt.user_id == "async-user"
            assert (await admin.count_memories("async-user")).count == 0

    asyncio.run(main())


def test_given_the_generated_client_when_it_drives_conversations_proposals_blocks_and_control_then_each_answers(
    server: EngramServer, keys: dict[str, str]
) -> None:
    # Operations the hand-written client never had, through the generated methods.
    user = "wide-user"
    with EngramClient(server.url, keys["alpha"]) as alpha, EngramClient(server.url, keys["admin"]) as admin:
        appended = alpha.append_messages(
            user,
            "thread-1",
            messages=[
                {"id": "m1", "role": "user", "content": "I'm allergic to peanuts."},
                {"id": "m2", "role": "assistant", "content": "Noted, no peanuts."},
            ],
        )
        assert appended.created == ["m1", "m2"]
        window = alpha.read_messages(user, "thread-1", last=1)
        assert [m.id for m in window.messages] == ["m2"] and window.truncated
        assert [t.thread_id for t in alpha.list_threads(user).items] == ["thread-1"]
        # Messages are indexed in the background: the answer says how far behind it is.
        deadline = time.monotonic() + 30
        while not (found := alpha.search_messages(user, q="peanuts", min_score=0.0)).items:
            assert time.monotonic() < deadline, found
            time.sleep(0.05)

        alpha.remember(user, "favorite_color", "blue", category="preference")
        recalled = alpha.recall(user, message="Which colour do I like?", token_budget=300)
        assert "blue" in recalled.context
        assert alpha.search_long_term(user, q="colour", min_score=0.0).items is not None

        proposal = alpha.create_proposal(
            user, change={"type": "entry", "key": "city", "value": "Lisbon"}, reason="the user said so"
        )
        decided = admin.approve_proposal(user, proposal.id, note="ok")
        assert decided.proposal.status == "approved" and decided.entry is not None
        assert decided.entry.value == "Lisbon"

        written = alpha.put_block(user, "human", values={"name": "Wide"})
        assert written.block is not None
        assert alpha.get_block(user, "human").version == written.block.version

        assert alpha.merge_properties(user, properties={"plan": "pro"}).properties["plan"] == "pro"
        assert "plan" not in alpha.delete_properties(user, key=["plan"]).properties
        assert admin.patch_settings(user, retention_days=30).retention_days == 30
        assert admin.patch_settings(user, retention_days=None).retention_days is None  # null clears, unset keeps

        seen = alpha.remembered(user)
        assert "preference" in seen.categories
        gone = alpha.forget(user, keys=["favorite_color"])
        assert len(gone.deleted) == 1

        run = admin.start_dream_run()
        assert run.run_id in {r.run_id for r in admin.list_dream_runs().items}
        assert admin.list_block_presets().presets
