"""The CLI against a served instance: demo, export and import."""

from __future__ import annotations

import json

import pytest

from tests.e2e.conftest import EngramServer

pytestmark = pytest.mark.e2e


def test_demo_walks_through_the_features(server: EngramServer) -> None:
    out = server.cli("demo", "--url", server.url, "--tenant", f"demo-{server.backend}")
    assert "Demo finished; its three keys are revoked." in out
    assert "-> 422" in out  # the card number was refused
    assert '"outcome": "restored"' in out
    # The demo leaves no active key behind (it made three, one of them admin).
    listed = server.cli("keys", "list", "--tenant", f"demo-{server.backend}").splitlines()
    assert len(listed) == 3 and all(line.endswith("revoked") for line in listed), listed


def test_export_then_import_into_another_tenant_round_trips(server: EngramServer) -> None:
    key = server.cli_key("exp", "a")  # `engram keys create`, end to end: the key works over HTTP
    with server.client(key) as c:
        c.put("/v1/users/bob/memories", json={"key": "city", "value": "Paris"})
        c.put("/v1/users/bob/memories", json={"key": "city", "value": "Rome"})
        c.patch("/v1/users/bob/profile", json={"name": "Bob"})
    dump = server.data_dir / "bob.json"
    server.cli("export", "--tenant", "exp", "--user", "bob", "--out", str(dump))
    data = json.loads(dump.read_text())
    assert len(data["entries"]) == 2
    assert data["profile"]["name"] == "Bob"
    counts = json.loads(server.cli("import", str(dump), "--tenant", "imp"))
    assert counts == {"identities": 1, "entries": 2, "history": 2, "skipped": 0}
    again = json.loads(server.cli("import", str(dump), "--tenant", "imp"))
    assert again["skipped"] == 1
    with server.client(server.key("imp", "a")) as c:
        items = c.get("/v1/users/bob/memories/visible").json()["items"]
        assert [e["value"] for e in items] == ["Rome"]
        history = c.get(f"/v1/users/bob/memories/{items[0]['id']}/history").json()["items"]
        assert [h["entry"]["value"] for h in history] == ["Paris", "Rome"]
        assert c.get("/v1/users/bob/profile").json()["name"] == "Bob"
