"""The conversation story over HTTP against ``engram serve`` (behaviour items 6, 8, 9, 13-15).

The server's clock starts at a fixed instant (``ENGRAM_CLOCK_START``, read once at
start); "six hours later" is the same data served again by a server started six hours
on. Extraction runs on the server's background worker, as it does in the cloud, so the
test waits until every message reports that it has been processed.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import EngramServer

pytestmark = pytest.mark.e2e

T0 = "2026-01-15T10:30:00+00:00"
SIX_HOURS_LATER = "2026-01-15T16:31:00+00:00"
USER = "/v1/users/alice"
STORY = [
    "my name is Alice",
    "my favorite food is pizza",
    "I like pizza",
    "I like pizza",
    "actually my favorite food is ramen",
    "I'm feeling tired",
    "maybe I like sushi?",
    "my card is 4111 1111 1111 1111",
]


@pytest.fixture(scope="module")
def story_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngramServer]:
    srv = EngramServer(tmp_path_factory.mktemp("engram-story"), {"ENGRAM_CLOCK_START": T0}, "sqlite")
    srv.start()
    yield srv
    srv.stop()


def tell(client: httpx.Client, turns: list[str]) -> None:
    for i, text in enumerate(turns):
        r = client.post(f"{USER}/threads/chat-1/messages", json={"messages": [{"id": f"turn-{i}", "content": text}]})
        assert r.status_code == 200, r.text


def wait_processed(client: httpx.Client, n: int, timeout: float = 20.0) -> list[dict[str, Any]]:
    deadline = time.monotonic() + timeout
    while True:
        got = [client.get(f"{USER}/threads/chat-1/messages/turn-{i}").json() for i in range(n)]
        if all(m["extraction"] is not None for m in got):
            return got
        assert time.monotonic() < deadline, "extraction did not finish"
        time.sleep(0.05)


def entries(client: httpx.Client) -> list[dict[str, Any]]:
    r = client.get(f"{USER}/memories", params={"status": "all", "limit": 1000})
    assert r.status_code == 200, r.text
    return list(r.json()["items"])


def by_key(items: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    return [e for e in items if e["key"] == key]


def test_given_a_conversation_when_served_then_facts_are_extracted_deduped_superseded_and_expire(
    story_server: EngramServer,
) -> None:
    agent = story_server.key("acme", "alpha", "writer")
    admin = story_server.key("acme", "ops", "admin")
    with story_server.client(agent) as c, story_server.client(admin) as root:
        # Given an agent that allows feelings (extraction honours its categories)
        allowed = ["preference", "fact", "context", "feeling", "event"]
        config = {"userMemoryConfig": {"guardrails": {"allowedCategories": allowed}}}
        assert root.put("/v1/agents/alpha/config", json=config).status_code == 200
        # Given the user tells the agent these things
        tell(c, STORY)
        processed = wait_processed(c, len(STORY))

        # Then the name is Alice
        assert c.get(f"{USER}/profile").json()["name"] == "Alice"

        items = entries(c)
        # One "I like pizza" entry, reinforced by the repeat instead of duplicated
        (likes,) = by_key(items, "likes:pizza")
        assert (likes["status"], likes["confidence"]) == ("active", 0.8)
        changes = [v["change"] for v in c.get(f"{USER}/memories/{likes['id']}/history").json()["items"]]
        assert changes == ["created", "reinforced"]

        # Ramen is the favourite; pizza is superseded and linked both ways
        food = {e["value"]: e for e in by_key(items, "favorite_food")}
        assert set(food) == {"pizza", "ramen"}
        assert food["ramen"]["status"] == "active" and food["pizza"]["status"] == "superseded"
        assert food["pizza"]["supersededBy"] == food["ramen"]["id"]
        assert food["ramen"]["supersedes"] == food["pizza"]["id"]

        # The feeling is remembered for now
        (feeling,) = by_key(items, "feeling")
        assert feeling["value"] == "tired" and feeling["status"] == "active"

        # Nothing about sushi or the card is stored anywhere
        everything = root.get(f"{USER}/export").text
        assert "sushi" not in "".join(e["key"] + e["value"] for e in items)
        # (the digits as the card, not as "4111": random hex ids contain that now and then)
        assert not re.search(r"4111[\s-]*1111[\s-]*1111[\s-]*1111", everything)
        assert processed[6]["extraction"]["dropped"] == {"question": 1}
        assert processed[7]["extraction"]["dropped"] == {"sensitive": 1}

        # When the same turns are replayed (another device, a retry)
        before = entries(c)
        tell(c, STORY)
        wait_processed(c, len(STORY))
        # Then nothing changes
        assert entries(c) == before
        assert c.get(f"{USER}/threads/chat-1/messages").json()["thread"]["messageCount"] == len(STORY)

    # Six hours later (the same data, a server whose clock starts six hours on)
    story_server.stop()
    story_server.env["ENGRAM_CLOCK_START"] = SIX_HOURS_LATER
    story_server.start()
    with story_server.client(agent) as c:
        later = entries(c)
        assert by_key(later, "feeling") == []
        assert {e["value"] for e in by_key(later, "favorite_food") if e["status"] == "active"} == {"ramen"}
        assert c.get(f"{USER}/profile").json()["name"] == "Alice"


def test_the_server_clock_starts_where_it_is_told(story_server: EngramServer, tmp_path: Path) -> None:
    agent = story_server.key("acme", "clock", "writer")
    with story_server.client(agent) as c:
        r = c.post(f"{USER}/threads/clock/messages", json={"messages": [{"id": "a", "content": "hello"}]})
        stamp = r.json()["messages"][0]["timestamp"]
        assert stamp.startswith(story_server.env["ENGRAM_CLOCK_START"][:13])
