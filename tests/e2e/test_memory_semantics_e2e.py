"""Memory semantics over real HTTP against ``engram serve`` (issue #17), on every store.

The timestamp property: any time the API accepts survives a restart on the embedded
store and on DynamoDB (moto server); any other is a clean 4xx and harms nobody. The
erase race, repeated. One fact, one entry: semantic dedup and the once-only source mark.
"""

from __future__ import annotations

import random
import time
from datetime import datetime, timedelta, timezone

from tests.e2e.conftest import EngramServer

EDGES = [
    "0001-01-01T00:00:00+05:00",
    "0001-01-01T00:00:00-05:00",
    "0999-01-01T00:00:00Z",
    "1899-12-31T23:59:59.999999Z",
    "1900-01-01T00:00:00Z",
    "1900-01-01T00:30:00+01:00",
    "1970-01-01T00:00:00Z",
    "2026-01-01T00:00:00+14:00",
    "2026-01-01T00:00:00-12:00",
    "2999-12-31T23:59:59.999999Z",
    "2999-12-31T20:00:00-05:00",
    "3000-01-01T00:00:00Z",
    "9999-12-31T23:00:00-05:00",
    "9999-12-31T23:00:00+05:00",
]


def _random_times(n: int) -> list[str]:
    rng = random.Random(17)
    out = []
    for _ in range(n):
        moment = datetime(1, 1, 2) + timedelta(
            seconds=rng.randrange(0, 315_500_000_000), microseconds=rng.randrange(10**6)
        )
        tz = timezone(timedelta(minutes=rng.randrange(-(24 * 60 - 1), 24 * 60)))
        out.append(moment.replace(tzinfo=tz).isoformat())
    return out


def test_any_accepted_timestamp_survives_a_restart_and_no_other_is_a_5xx(server_on_every_backend: EngramServer) -> None:
    srv = server_on_every_backend
    a = srv.key("acme", "a")
    other = srv.key("globex", "b")
    accepted: dict[str, datetime] = {}
    with srv.client(a) as c, srv.client(other) as o:
        for i, text in enumerate(EDGES + _random_times(24)):
            field = ("sourceTime", "validFrom", "validTo")[i % 3]
            r = c.put("/v1/users/alice/memories", json={"key": f"k{i}", "value": f"v{i}", field: text})
            assert r.status_code in (200, 422), (text, r.status_code, r.text)
            if r.status_code == 200:
                accepted[f"k{i}|{field}"] = datetime.fromisoformat(text)
            msg = {"id": f"m{i}", "content": "hello there", "timestamp": text}
            r = c.post("/v1/users/alice/threads/t1/messages", json={"messages": [msg]})
            assert r.status_code < 500, (text, r.status_code, r.text)
            # Another tenant's writes never notice
            assert o.put("/v1/users/bob/memories", json={"key": "city", "value": f"c{i}"}).status_code == 200
    assert len(accepted) >= 8, accepted
    srv.restart()
    with srv.client(a) as c:
        # status=all: the raw record (the default view shows only facts valid now)
        items = c.get("/v1/users/alice/memories", params={"limit": 200, "status": "all"}).json()["items"]
        by_key = {e["key"]: e for e in items}
        for name, sent in accepted.items():
            key, field = name.split("|")
            assert key in by_key, name
            assert datetime.fromisoformat(by_key[key][field]) == sent, (name, by_key[key][field])
        assert c.put("/v1/users/alice/memories", json={"key": "after", "value": "restart"}).status_code == 200


FACTS = [
    "I live in Lisbon.",
    "My favourite food is ramen.",
    "I work as a nurse.",
    "My dog is called Rex.",
    "I love hiking.",
]


def _settled(c: object, sentinel: str, deadline: float) -> None:
    """Wait until the sentinel user's fact is extracted: the jobs queued before it ran."""
    import httpx

    assert isinstance(c, httpx.Client)
    while time.monotonic() < deadline:
        if c.get(f"/v1/users/{sentinel}/memories").json()["items"]:
            return
        time.sleep(0.1)
    raise AssertionError("extraction did not settle")


def test_erasure_wins_over_queued_and_in_flight_extraction_repeatedly(server_on_every_backend: EngramServer) -> None:
    srv = server_on_every_backend
    writer = srv.key("acme", "a")
    admin = srv.key("acme", "root", "admin")
    with srv.client(writer) as w, srv.client(admin) as adm:
        for round_ in range(10):
            user = f"erase-{round_}"
            messages = [{"id": f"m{i}", "content": FACTS[i % len(FACTS)]} for i in range(25)]
            # Given 25 messages just appended (their extraction queued or running)
            assert w.post(f"/v1/users/{user}/threads/t1/messages", json={"messages": messages}).status_code < 300
            # When the user is erased at once
            r = adm.delete(f"/v1/users/{user}", params={"confirm": "CONFIRM"})
            assert r.status_code == 200, r.text
            # Then, once every queued job has run, nothing of the user is left
            sentinel = f"sentinel-{round_}"
            w.post(f"/v1/users/{sentinel}/threads/t1/messages", json={"messages": [{"id": "s", "content": FACTS[0]}]})
            _settled(adm, sentinel, time.monotonic() + 60)
            time.sleep(0.2)
            export = adm.get(f"/v1/users/{user}/export").json()
            assert export["entries"] == [] and export["history"] == [], (round_, export["entries"][:2])
            assert adm.get(f"/v1/users/{user}/memories").json()["items"] == []
            # And the user can start afresh after the erasure
        assert w.put(f"/v1/users/{user}/memories", json={"key": "city", "value": "Porto"}).status_code == 200


def _until(check: object, what: str, seconds: float = 30) -> object:
    """Poll ``check`` until it returns something truthy (the index and extraction run
    behind the answer, in another thread or, on the aws backend, another process)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()  # type: ignore[operator]
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"{what} did not happen within {seconds} s")


def test_one_fact_one_entry_across_keys_devices_and_paths(server_on_every_backend: EngramServer) -> None:
    """Items 6 and 7 over real HTTP: a restatement under a near-identical key reinforces
    (the suite's hashing embedder), and one message sent from two devices and PUT again
    is applied once."""
    srv = server_on_every_backend
    a = srv.key("acme", "a")
    u = "/v1/users/carol"
    with srv.client(a) as c:
        first = c.put(f"{u}/memories", json={"key": "favorite_food", "value": "pizza", "category": "preference"})
        assert first.status_code == 200, first.text
        _until(lambda: c.get(f"{u}/memories/search", params={"q": "favorite food pizza"}).json()["items"], "indexing")
        again = c.put(f"{u}/memories", json={"key": "favorite_foods", "value": "Pizza", "category": "preference"})
        body = again.json()
        assert body["outcome"] == "reinforced" and body["entry"]["id"] == first.json()["entry"]["id"], body
        assert body["matched"]["kind"] == "duplicate" and body["matched"]["requestedKey"] == "favorite_foods"
        # One message from the phone and the laptop
        msg = {"id": "m-42", "role": "user", "content": "My favorite drink is green tea."}
        for thread in ("phone", "laptop"):
            assert c.post(f"{u}/threads/{thread}/messages", json={"messages": [msg]}).status_code < 300
            _until(lambda t=thread: c.get(f"{u}/threads/{t}/messages/m-42").json()["extraction"], "extraction")
        put = {"key": "favorite_drink", "value": "green tea", "category": "preference", "sourceMessageId": "m-42"}
        assert c.put(f"{u}/memories", json=put).json()["outcome"] == "unchanged"
        items = c.get(f"{u}/memories/key/favorite_drink").json()["items"]
        assert [(e["value"], e["version"], e["confidence"]) for e in items] == [("green tea", 1, 0.8)]
        live = {e["key"] for e in c.get(f"{u}/memories").json()["items"]}
        assert live == {"favorite_food", "favorite_drink"}


def test_as_of_shows_the_value_that_held_then_on_list_search_and_recall(server_on_every_backend: EngramServer) -> None:
    """Item 8 over real HTTP: a value superseded since (no longer in the search index) is
    what list, search and recall show as of a time it held; now they show its successor."""
    srv = server_on_every_backend
    a = srv.key("acme", "a")
    u = "/v1/users/dora"
    then, params = "2020-03-01T00:00:00Z", {"q": "city"}
    with srv.client(a) as c:
        for value, since in (("Paris", "2019-01-01T00:00:00Z"), ("Rome", "2024-06-01T00:00:00Z")):
            put = c.put(f"{u}/memories", json={"key": "city", "value": value, "validFrom": since})
            assert put.status_code == 200, put.text
        _until(lambda: c.get(f"{u}/memories/search", params=params).json()["items"], "indexing")

        def values(path: str, **query: str) -> list[str]:
            r = c.get(f"{u}/{path}", params=query)
            assert r.status_code == 200, r.text
            return [i.get("entry", i)["value"] for i in r.json()["items"]]

        def recalled(**extra: str) -> list[str]:
            # No minimum: on a store this small BM25 gives "city" no weight (it is in every
            # document), and what counts here is which value is shown, not how well it scores.
            body = {"message": "which city do I live in?", "minScore": 0.0, **extra}
            r = c.post(f"{u}/recall", json=body)
            assert r.status_code == 200, r.text
            return [m["entry"]["value"] for m in r.json()["memories"] if m["entry"]["key"] == "city"]

        assert values("memories") == ["Rome"] and values("memories", asOf=then) == ["Paris"]
        assert values("memories/search", q="city") == ["Rome"]
        assert values("memories/search", q="city", asOf=then) == ["Paris"]
        assert recalled() == ["Rome"] and recalled(asOf=then) == ["Paris"]
