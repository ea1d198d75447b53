"""User control over real HTTP against ``engram serve``: one full approval flow and one
rotation into archival memory, both surviving a restart."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import EngramServer

pytestmark = pytest.mark.e2e


def test_given_an_agent_needing_approval_when_the_user_approves_then_the_change_lands_and_survives_restart(
    server: EngramServer,
) -> None:
    admin = server.key("uc", "console", "admin")
    agent = server.key("uc", "coach", "writer")
    base = "/v1/users/maya"
    with server.client(admin) as console, server.client(agent) as coach:
        config = {"requireApproval": ["preference", "block:human"], "proposalExpiryHours": 48}
        assert console.put("/v1/agents/coach/config", json=config).status_code == 200

        # The agent writes twice to the same memory: the second proposal supersedes the first.
        first = coach.put(f"{base}/memories", json={"key": "study_time", "value": "mornings", "category": "preference"})
        assert first.status_code == 202, first.text
        second = coach.put(
            f"{base}/memories", json={"key": "study_time", "value": "evenings", "category": "preference"}
        )
        assert second.status_code == 202
        first_id, second_id = first.json()["proposal"]["id"], second.json()["proposal"]["id"]
        assert coach.get(f"{base}/memories").json()["items"] == []

        pending = console.get(f"{base}/proposals").json()["items"]
        assert [p["id"] for p in pending] == [second_id]
        assert pending[0]["after"]["value"] == "evenings"

        stale = console.post(f"{base}/proposals/{first_id}/approve", json={})
        assert stale.status_code == 409 and stale.json()["code"] == "proposal_superseded"

        approved = console.post(f"{base}/proposals/{second_id}/approve", json={"note": "yes, evenings"})
        assert approved.status_code == 200, approved.text
        entry = approved.json()["entry"]
        assert (entry["key"], entry["value"], entry["category"]) == ("study_time", "evenings", "preference")

        # A block edit by the agent is a proposal too; the user rejects it: nothing changes.
        block = coach.patch(f"{base}/blocks/human", json={"set": {"name": "Maya"}})
        assert block.status_code == 202
        rejected = console.post(f"{base}/proposals/{block.json()['proposal']['id']}/reject", json={})
        assert rejected.json()["status"] == "rejected"
        assert coach.get(f"{base}/blocks/human").status_code == 404

    server.restart()

    with server.client(admin) as console, server.client(agent) as coach:
        [kept] = coach.get(f"{base}/memories").json()["items"]
        assert kept["value"] == "evenings"
        history = coach.get(f"{base}/memories/{kept['id']}/history").json()["items"]
        assert [(h["actor"]["type"], h["reason"]) for h in history] == [("user", f"approved proposal {second_id}")]
        decided = console.get(f"{base}/proposals", params={"status": "all"}).json()["items"]
        assert sorted(p["status"] for p in decided) == ["approved", "rejected", "superseded"]


def test_given_a_block_past_its_threshold_when_it_grows_then_it_stays_under_its_limit_and_archival_search_finds_everything(
    server: EngramServer,
) -> None:
    admin = server.key("uc2", "console", "admin")
    agent = server.key("uc2", "tutor", "writer")
    base = "/v1/users/sam"
    topics = ["photosynthesis", "mitochondria", "osmosis", "enzymes", "glycolysis", "ribosomes", "meiosis", "ecology"]
    with server.client(admin) as console, server.client(agent) as tutor:
        config = {"memoryBlocks": {"maxChars": 300, "rotation": "preservative"}}
        assert console.put("/v1/agents/tutor/config", json=config).status_code == 200
        tutor.patch(f"{base}/blocks/human", json={"set": {"name": "Sam", "current_task": "Biology revision"}})
        archived_ids: set[str] = set()
        for topic in topics:
            r = tutor.patch(f"{base}/blocks/human", json={"append": {"facts": [f"Revised {topic} with flashcards"]}})
            assert r.status_code == 200, r.text
            block = r.json()["block"]
            assert block["chars"] <= block["maxChars"] == 300
            archived_ids |= {a["id"] for a in r.json()["archived"]}
        assert archived_ids

    server.restart()

    with server.client(agent) as tutor:
        block = tutor.get(f"{base}/blocks/human").json()
        assert block["values"]["name"] == "Sam" and block["values"]["current_task"] == "Biology revision"
        in_core = set(block["values"].get("facts", []))
        records = tutor.get(f"{base}/archival", params={"limit": 100}).json()["items"]
        assert {r["id"] for r in records} == archived_ids
        archived = {i["value"] for r in records for i in r["items"]}
        assert in_core | archived == {f"Revised {t} with flashcards" for t in topics}
        for fact in archived:
            topic = fact.split()[1]
            hits = tutor.get(f"{base}/archival/search", params={"q": topic}).json()["items"]
            assert any(fact in h["record"]["text"] for h in hits), fact
