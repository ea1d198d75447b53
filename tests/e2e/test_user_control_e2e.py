"""User control over real HTTP against ``engram serve``: one full approval flow and one
rotation into archival memory."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import EngramServer
from tests.e2e.keys import make_keys

pytestmark = pytest.mark.e2e


def test_given_an_agent_needing_approval_when_the_user_decides_then_exactly_the_approved_change_lands(
    server: EngramServer,
) -> None:
    admin, agent = make_keys(server, ("uc", "console", ("admin",)), ("uc", "coach", ("writer",)))
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

        [kept] = coach.get(f"{base}/memories").json()["items"]
        assert kept["value"] == "evenings"
        history = coach.get(f"{base}/memories/{kept['id']}/history").json()["items"]
        assert [(h["actor"]["type"], h["reason"]) for h in history] == [("user", f"approved proposal {second_id}")]
        decided = console.get(f"{base}/proposals", params={"status": "all"}).json()["items"]
        assert sorted(p["status"] for p in decided) == ["approved", "rejected", "superseded"]


def test_given_a_block_past_its_threshold_when_it_grows_then_it_stays_under_its_limit_and_archival_search_finds_everything(
    server: EngramServer,
) -> None:
    admin, agent = make_keys(server, ("uc2", "console", ("admin",)), ("uc2", "tutor", ("writer",)))
    base = "/v1/users/sam"
    topics = ["photosynthesis", "mitochondria", "osmosis", "enzymes", "glycolysis", "ribosomes", "meiosis", "ecology"]
    with server.client(admin) as console, server.client(agent) as tutor:
        # A configured block whose list has no item limit: only the character limit rotates it.
        schema = {
            "name": "revision",
            "fields": [{"name": "subject"}, {"name": "done", "kind": "list"}],
            "maxChars": 300,
        }
        config = {"memoryBlocks": {"rotation": "preservative", "schemas": [schema]}}
        assert console.put("/v1/agents/tutor/config", json=config).status_code == 200
        tutor.put(f"{base}/blocks/revision", json={"values": {"subject": "Biology"}})
        archived: dict[str, set[str]] = {}
        for topic in topics:
            r = tutor.patch(f"{base}/blocks/revision", json={"append": {"done": [f"Revised {topic} with flashcards"]}})
            assert r.status_code == 200, r.text
            block = r.json()["block"]
            assert block["chars"] <= block["maxChars"] == 300
            for a in r.json()["archived"]:
                assert a["kind"] == "rotation"
                archived[a["id"]] = {i["value"] for i in a["items"]}
        assert archived

        block = tutor.get(f"{base}/blocks/revision").json()
        assert block["values"]["subject"] == "Biology"
        in_core = set(block["values"].get("done", []))
        records = tutor.get(f"{base}/archival", params={"limit": 100}).json()["items"]
        assert {r["id"] for r in records} == set(archived)
        moved = set().union(*archived.values())
        assert in_core | moved == {f"Revised {t} with flashcards" for t in topics} and not in_core & moved
        for fact in moved:
            topic = fact.split()[1]
            for mode in ("keyword", "semantic"):
                # The suite's hash embedder is no judge of meaning: ask semantic mode for the
                # nearest records (minScore 0), not for those past the tuned threshold.
                params = {"q": topic, "mode": mode, **({"minScore": 0} if mode == "semantic" else {})}
                hits = tutor.get(f"{base}/archival/search", params=params).json()["items"]
                assert any(fact in h["record"]["text"] for h in hits), (mode, fact)
