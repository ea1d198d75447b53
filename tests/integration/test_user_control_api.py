"""User control through the API: proposals, memory blocks, archival memory, privacy."""

from __future__ import annotations

import pytest
from engram.domain.models import Role

from tests.integration.conftest import Api

BASE = "/v1/users/alice"


@pytest.fixture
def keys(api: Api) -> dict[str, str]:
    return {
        "admin": api.key("acme", "console", Role.ADMIN),
        "agent": api.key("acme", "agent-a"),
        "other": api.key("acme", "agent-b"),
        "viewer": api.key("acme", "agent-a", Role.VIEWER),
    }


def _require_approval(api: Api, admin: str, *rules: str, **extra: object) -> None:
    r = api.call("PUT", "/v1/agents/agent-a/config", admin, json_body={"requireApproval": list(rules), **extra})
    assert r.status == 200, r.body


class TestApprovals:
    def test_given_require_approval_when_an_agent_writes_then_202_and_approval_applies_it(
        self, api: Api, keys: dict[str, str]
    ) -> None:
        _require_approval(api, keys["admin"], "preference")
        r = api.call(
            "PUT",
            f"{BASE}/memories",
            keys["agent"],
            json_body={"key": "drink", "value": "tea", "category": "preference"},
        )
        assert r.status == 202, r.body
        body = r.json()
        assert body["outcome"] == "proposed" and body["entry"] is None
        proposal = body["proposal"]
        assert proposal["status"] == "pending" and proposal["change"]["value"] == "tea"
        assert api.call("GET", f"{BASE}/memories", keys["agent"]).json()["items"] == []
        listed = api.call("GET", f"{BASE}/proposals", keys["agent"]).json()["items"]
        assert [p["id"] for p in listed] == [proposal["id"]]

        denied = api.call("POST", f"{BASE}/proposals/{proposal['id']}/approve", keys["agent"], json_body={})
        assert denied.status == 403 and denied.json()["code"] == "forbidden"
        ok = api.call("POST", f"{BASE}/proposals/{proposal['id']}/approve", keys["admin"], json_body={"note": "fine"})
        assert ok.status == 200, ok.body
        decision = ok.json()
        assert decision["proposal"]["status"] == "approved"
        assert decision["proposal"]["decidedBy"] == {"type": "user", "id": "alice"}
        assert (decision["entry"]["key"], decision["entry"]["value"]) == ("drink", "tea")
        history = api.call("GET", f"{BASE}/memories/{decision['entry']['id']}/history", keys["agent"]).json()
        assert history["items"][-1]["actor"] == {"type": "user", "id": "alice"}

        again = api.call("POST", f"{BASE}/proposals/{proposal['id']}/approve", keys["admin"], json_body={})
        assert again.status == 409 and again.json()["code"] == "proposal_decided"

    def test_given_a_superseded_proposal_when_approved_then_409_names_the_newer_one(
        self, api: Api, keys: dict[str, str]
    ) -> None:
        change = {"type": "entry", "key": "drink", "value": "tea", "category": "fact"}
        first = api.call("POST", f"{BASE}/proposals", keys["agent"], json_body={"change": change, "reason": "said so"})
        assert first.status == 201, first.body
        second = api.call("POST", f"{BASE}/proposals", keys["agent"], json_body={"change": {**change, "value": "milk"}})
        r = api.call("POST", f"{BASE}/proposals/{first.json()['id']}/approve", keys["admin"], json_body={})
        assert r.status == 409
        assert r.json()["code"] == "proposal_superseded"
        assert r.json()["details"]["supersededBy"] == second.json()["id"]
        rejected = api.call("POST", f"{BASE}/proposals/{second.json()['id']}/reject", keys["admin"], json_body={})
        assert rejected.json()["status"] == "rejected"
        assert api.call("GET", f"{BASE}/memories", keys["agent"]).json()["items"] == []
        all_ = api.call("GET", f"{BASE}/proposals", keys["admin"], query="status=all").json()["items"]
        assert sorted(p["status"] for p in all_) == ["rejected", "superseded"]

    def test_given_a_block_proposal_over_http_when_approved_then_the_block_changes(
        self, api: Api, keys: dict[str, str]
    ) -> None:
        _require_approval(api, keys["admin"], "block:*")
        r = api.call("PATCH", f"{BASE}/blocks/human", keys["agent"], json_body={"set": {"name": "Alice"}})
        assert r.status == 202, r.body
        assert r.json()["block"] is None and r.json()["proposal"]["after"]["name"] == "Alice"
        assert api.call("GET", f"{BASE}/blocks/human", keys["agent"]).status == 404
        pid = r.json()["proposal"]["id"]
        ok = api.call("POST", f"{BASE}/proposals/{pid}/approve", keys["admin"], json_body={}).json()
        assert ok["block"]["values"]["name"] == "Alice" and ok["block"]["updatedBy"]["type"] == "user"
        assert api.call("GET", f"{BASE}/blocks/human", keys["agent"]).json()["values"]["name"] == "Alice"


class TestBlocks:
    def test_given_a_block_when_edited_as_markdown_then_it_round_trips_and_history_restores(
        self, api: Api, keys: dict[str, str]
    ) -> None:
        agent = keys["agent"]
        created = api.call("PUT", f"{BASE}/blocks/persona", agent, json_body={"preset": "coding_assistant"})
        assert created.status == 200, created.body
        assert created.json()["block"]["compact"].startswith("[IDENTITY] CodeHelper | Software development assistant")
        md = api.call("GET", f"{BASE}/blocks/persona/text", agent, query="format=markdown").json()
        assert md["version"] == 1 and md["content"].startswith("---\nblock: persona\nversion: 1\n---")
        edited = md["content"].replace("CodeHelper", "Ada")
        saved = api.call("PUT", f"{BASE}/blocks/persona", agent, json_body={"markdown": edited})
        assert saved.status == 200 and saved.json()["block"]["values"]["name"] == "Ada"
        again = api.call("GET", f"{BASE}/blocks/persona/text", agent, query="format=markdown").json()
        assert again["content"] == edited.replace("version: 1", "version: 2")
        stale = api.call("PUT", f"{BASE}/blocks/persona", agent, json_body={"markdown": edited})
        assert stale.status == 409 and stale.json()["code"] == "version_conflict"
        toml = api.call("GET", f"{BASE}/blocks/persona/text", agent, query="format=toml").json()["content"]
        assert 'name = "Ada"' in toml
        history = api.call("GET", f"{BASE}/blocks/persona/history", agent).json()["items"]
        assert [v["version"] for v in history] == [1, 2]
        restored = api.call("POST", f"{BASE}/blocks/persona/restore", agent, json_body={"version": 1})
        assert restored.json()["block"]["values"]["name"] == "CodeHelper"
        assert restored.json()["block"]["version"] == 3

    @pytest.mark.parametrize(
        ("body", "code"),
        [
            ({"markdown": "## Hobbies\n- chess\n"}, "validation_error"),
            ({"values": {"constraints": ["a", "b", "c", "d"]}}, "block_list_too_long"),
            ({"values": {"name": 5}}, "validation_error"),
            ({"values": {"name": "x"}, "preset": "default"}, "validation_error"),
            ({"preset": "pirate"}, "validation_error"),
            ({"toml": "name = "}, "validation_error"),
        ],
    )
    def test_given_a_bad_block_write_when_sent_then_422_with_a_stable_code(
        self, api: Api, keys: dict[str, str], body: dict[str, object], code: str
    ) -> None:
        r = api.call("PUT", f"{BASE}/blocks/persona", keys["agent"], json_body=body)
        assert r.status == 422, r.body
        assert r.json()["code"] == code

    def test_given_an_unknown_block_when_written_then_404_lists_the_blocks(
        self, api: Api, keys: dict[str, str]
    ) -> None:
        r = api.call("PUT", f"{BASE}/blocks/diary", keys["agent"], json_body={"values": {}})
        assert r.status == 404 and "human, persona" in r.json()["message"]

    def test_given_a_growing_block_when_it_rotates_then_the_response_lists_what_was_archived_and_search_finds_it(
        self, api: Api, keys: dict[str, str]
    ) -> None:
        admin = keys["admin"]
        config = {"memoryBlocks": {"maxChars": 200, "rotation": "aggressive"}}
        assert api.call("PUT", "/v1/agents/agent-a/config", admin, json_body=config).status == 200
        archived: list[dict] = []
        for i in range(6):
            r = api.call(
                "PATCH",
                f"{BASE}/blocks/human",
                keys["agent"],
                json_body={"append": {"facts": [f"Fact {i} about gardening tulips"]}},
            )
            assert r.status == 200, r.body
            assert r.json()["block"]["chars"] <= 200
            archived += r.json()["archived"]
        assert archived
        moved = {i["value"] for a in archived for i in a["items"]}
        hits = api.call("GET", f"{BASE}/archival/search", keys["agent"], query="q=gardening+tulips&mode=keyword").json()
        found = {i["value"] for h in hits["items"] for i in h["record"]["items"]}
        assert moved <= found
        assert api.call("GET", f"{BASE}/archival/search", keys["other"], query="q=tulips").json()["items"] == []
        one = archived[0]["id"]
        assert api.call("GET", f"{BASE}/archival/{one}", keys["other"]).status == 404
        assert api.call("DELETE", f"{BASE}/archival/{one}", keys["agent"]).json() == {"deleted": [one]}
        assert api.call("GET", f"{BASE}/archival/{one}", keys["agent"]).status == 404

    def test_given_a_task_when_completed_over_http_then_it_is_archived_with_its_context(
        self, api: Api, keys: dict[str, str]
    ) -> None:
        agent = keys["agent"]
        api.call("PATCH", f"{BASE}/blocks/human", agent, json_body={"set": {"current_task": "Draft essay"}})
        api.call("PATCH", f"{BASE}/blocks/human", agent, json_body={"append": {"context_notes": ["Chose topic"]}})
        r = api.call("PATCH", f"{BASE}/blocks/human", agent, json_body={"completeTask": True})
        assert r.json()["block"]["values"] == {"session_state": "idle"}
        [task] = r.json()["archived"]
        assert task["kind"] == "task" and "Task: Draft essay" in task["text"] and "- Chose topic" in task["text"]
        r = api.call("PATCH", f"{BASE}/blocks/human", agent, json_body={"completeTask": True})
        assert r.status == 422 and r.json()["code"] == "no_current_task"


class TestPrivacyControls:
    def test_given_memories_when_asked_what_is_remembered_then_everything_visible_by_category(
        self, api: Api, keys: dict[str, str]
    ) -> None:
        agent = keys["agent"]
        for key, value, category in (("drink", "tea", "preference"), ("city", "Oslo", "fact"), ("pet", "cat", "fact")):
            api.call("PUT", f"{BASE}/memories", agent, json_body={"key": key, "value": value, "category": category})
        hidden = api.call("PUT", f"{BASE}/memories", keys["other"], json_body={"key": "hobby", "value": "chess"})
        assert hidden.status == 200, hidden.body
        api.call("PATCH", f"{BASE}/blocks/human", agent, json_body={"set": {"name": "Alice"}})
        r = api.call("GET", f"{BASE}/remembered", agent).json()
        assert r["counts"] == {"fact": 2, "preference": 1}
        assert sorted(e["key"] for e in r["categories"]["fact"]) == ["city", "pet"]
        assert [b["name"] for b in r["blocks"]] == ["human"] and r["memoryEnabled"] is True
        assert api.call("GET", f"{BASE}/remembered", keys["admin"]).json()["counts"] == {"fact": 3, "preference": 1}

    def test_given_memories_when_forgotten_by_entry_key_and_category_then_they_leave(
        self, api: Api, keys: dict[str, str]
    ) -> None:
        agent = keys["agent"]
        ids = {}
        for key, value, category in (("drink", "tea", "preference"), ("city", "Oslo", "fact"), ("pet", "cat", "fact")):
            r = api.call("PUT", f"{BASE}/memories", agent, json_body={"key": key, "value": value, "category": category})
            ids[key] = r.json()["entry"]["id"]
        by_id = api.call("POST", f"{BASE}/forget", agent, json_body={"entryIds": [ids["drink"]]}).json()
        assert by_id["deleted"] == [ids["drink"]]
        by_key = api.call("POST", f"{BASE}/forget", agent, json_body={"keys": ["city"]}).json()
        assert by_key["deleted"] == [ids["city"]]
        by_cat = api.call("POST", f"{BASE}/forget", agent, json_body={"categories": ["fact"]}).json()
        assert by_cat["deleted"] == [ids["pet"]]
        assert api.call("GET", f"{BASE}/remembered", agent).json()["counts"] == {}
        assert api.call("GET", f"{BASE}/memories/search", agent, query="q=Oslo").json()["items"] == []
        empty = api.call("POST", f"{BASE}/forget", agent, json_body={})
        assert empty.status == 422

    def test_given_memory_turned_off_when_anything_is_written_then_403_memory_disabled(
        self, api: Api, keys: dict[str, str]
    ) -> None:
        r = api.call("PATCH", f"{BASE}/settings", keys["admin"], json_body={"memoryEnabled": False})
        assert r.status == 200
        for method, path, body in (
            ("PUT", f"{BASE}/memories", {"key": "k", "value": "v"}),
            ("PATCH", f"{BASE}/blocks/human", {"set": {"name": "Alice"}}),
            ("POST", f"{BASE}/proposals", {"change": {"type": "entry", "key": "k", "value": "v"}}),
        ):
            reply = api.call(method, path, keys["agent"], json_body=body)
            assert reply.status == 403, (path, reply.body)
            assert reply.json()["code"] == "memory_disabled"
        assert api.call("GET", f"{BASE}/remembered", keys["agent"]).json()["memoryEnabled"] is False

    def test_given_user_control_data_when_exported_and_erased_then_both_cover_it(
        self, api: Api, keys: dict[str, str]
    ) -> None:
        admin, agent = keys["admin"], keys["agent"]
        api.call("POST", f"{BASE}/proposals", agent, json_body={"change": {"type": "entry", "key": "k", "value": "v"}})
        api.call("PATCH", f"{BASE}/blocks/human", agent, json_body={"set": {"current_task": "Essay"}})
        api.call("PATCH", f"{BASE}/blocks/human", agent, json_body={"completeTask": True})
        export = api.call("GET", f"{BASE}/export", admin).json()
        assert len(export["proposals"]["items"]) == 1
        assert [v["block"]["version"] for v in export["blocks"]["history"]] == [1, 2]
        assert [r["kind"] for r in export["archival"]["items"]] == ["task"]
        receipt = api.call("DELETE", "/v1/users/alice", admin, query="confirm=CONFIRM").json()["counts"]
        assert (receipt["proposals"], receipt["blocks"], receipt["blockVersions"], receipt["archival"]) == (1, 1, 2, 1)
        after = api.call("GET", f"{BASE}/export", admin).json()
        assert after["proposals"]["items"] == [] and after["archival"]["items"] == []
        assert after["blocks"] == {"current": [], "history": []}
        assert api.call("GET", f"{BASE}/archival/search", agent, query="q=Essay").json()["items"] == []
