"""A whole user story over HTTP against ``engram serve``, surviving a restart."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import EngramServer

pytestmark = pytest.mark.e2e


def test_given_a_served_engram_when_a_user_story_runs_then_everything_behaves_and_survives_restart(
    server_on_every_backend: EngramServer,
) -> None:
    server = server_on_every_backend
    admin = server.key("acme", "ops", "admin")
    alpha = server.key("acme", "alpha", "writer", groups=("team",))
    beta = server.key("acme", "beta", "writer", groups=("team",))
    gamma = server.key("acme", "gamma", "writer")
    other_tenant = server.key("globex", "alpha", "admin")
    base = "/v1/users/alice/memories"

    with (
        server.client(alpha) as a,
        server.client(beta) as b,
        server.client(gamma) as c,
        server.client(admin) as root,
        server.client(other_tenant) as intruder,
    ):
        # Given memories in every visibility
        color = a.put(base, json={"key": "favorite_color", "value": "blue", "category": "preference"})
        assert color.status_code == 200, color.text
        assert color.json()["outcome"] == "created"
        team = a.put(base, json={"key": "project", "value": "Apollo", "visibility": "group", "groupIds": ["team"]})
        assert team.json()["entry"]["visibility"] == "group"
        lang = b.put(base, json={"key": "language", "value": "German", "visibility": "global"})
        assert lang.json()["entry"]["visibility"] == "global"
        b.put(base, json={"key": "favorite_color", "value": "red", "category": "preference"})

        # When each agent asks what it can see
        def visible(client: object, **params: str) -> set[tuple[str, str]]:
            r = client.get(f"{base}/visible", params=params)  # type: ignore[attr-defined]
            assert r.status_code == 200, r.text
            return {(e["key"], e["value"]) for e in r.json()["items"]}

        # Then self stays private, group is shared within the group, global with everyone
        assert visible(a) == {("favorite_color", "blue"), ("project", "Apollo"), ("language", "German")}
        assert visible(b) == {("favorite_color", "red"), ("project", "Apollo"), ("language", "German")}
        assert visible(c) == {("language", "German")}
        assert visible(a, groupId="team") == visible(a)
        assert c.get(f"{base}/visible", params={"groupId": "team"}).status_code == 403
        assert visible(root, agentId="gamma") == {("language", "German")}
        assert c.get(f"{base}/visible", params={"agentId": "alpha"}).status_code == 403

        # Search finds by keyword within the caller's view only
        hits = a.get(f"{base}/search", params={"q": "favorite color"}).json()["items"]
        assert [(h["entry"]["key"], h["entry"]["value"]) for h in hits][:1] == [("favorite_color", "blue")]
        assert all(h["entry"]["value"] != "red" for h in hits)

        # Reinforce, then supersede
        again = a.put(base, json={"key": "favorite_color", "value": "Blue", "category": "preference"}).json()
        assert again["outcome"] == "reinforced"
        assert again["entry"]["id"] == color.json()["entry"]["id"]
        green = a.put(base, json={"key": "favorite_color", "value": "green", "category": "preference"}).json()
        assert green["outcome"] == "superseded"
        assert green["entry"]["supersedes"] == color.json()["entry"]["id"]
        old = a.get(f"{base}/{color.json()['entry']['id']}").json()
        assert old["status"] == "superseded"
        assert old["supersededBy"] == green["entry"]["id"]

        # History, then restore version 1 as a new version
        new_id = green["entry"]["id"]
        history = a.get(f"{base}/{new_id}/history").json()["items"]
        assert [(h["version"], h["change"], h["entry"]["value"]) for h in history] == [
            (1, "created", "blue"),
            (2, "reinforced", "blue"),
            (3, "superseded", "green"),
        ]
        restored = a.post(f"{base}/{new_id}/restore", json={"version": 1}).json()
        assert restored["outcome"] == "restored"
        assert restored["entry"]["value"] == "blue"
        assert restored["entry"]["version"] == 4

        # Another tenant cannot reach any of it, even with the ids
        assert intruder.get(f"{base}/{new_id}").status_code == 404
        assert intruder.get(f"{base}/count").json() == {"count": 0}
        assert intruder.get(f"{base}/search", params={"q": "color"}).json()["items"] == []

        # Delete one entry; count reflects it
        assert root.get(f"{base}/count").json() == {"count": 4}
        gone = a.delete(f"{base}/{team.json()['entry']['id']}")
        assert gone.status_code == 200
        assert gone.json()["status"] == "deleted"
        assert root.get(f"{base}/count").json() == {"count": 3}
        assert b.get(f"{base}/{team.json()['entry']['id']}").json()["status"] == "deleted"

        before_restart = sorted((e["id"], e["value"], e["version"]) for e in root.get(base).json()["items"])
        exported = root.get("/v1/users/alice/export").json()
        assert len(exported["entries"]) == 6
        assert len(exported["history"]) >= 8

    # Stop the server, start it again: everything is still there.
    server.restart()
    with server.client(admin) as root, server.client(alpha) as a:
        after = sorted((e["id"], e["value"], e["version"]) for e in root.get(base).json()["items"])
        assert after == before_restart
        hits = a.get(f"{base}/search", params={"q": "favorite color"}).json()["items"]
        assert hits[0]["entry"]["value"] == "blue"

        # Erase the user: a receipt with counts, then nothing is left
        refused = root.delete("/v1/users/alice")
        assert refused.status_code == 400
        assert refused.json()["code"] == "confirmation_required"
        assert a.delete("/v1/users/alice", params={"confirm": "CONFIRM"}).status_code == 403
        receipt = root.delete("/v1/users/alice", params={"confirm": "CONFIRM"}).json()
        assert receipt["counts"]["entries"] == 6
        assert root.get(f"{base}/count").json() == {"count": 0}
        assert root.get(f"{base}", params={"status": "all"}).json()["items"] == []
        assert a.get(f"{base}/search", params={"q": "color"}).json()["items"] == []
