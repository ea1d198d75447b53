"""Dream runs through the API: start one by hand, read the reports, tenant by tenant."""

from __future__ import annotations

from datetime import timedelta

from engram.adapters.dream_queue import ThreadedDreamQueue
from engram.domain.models import Role

from tests.integration.conftest import Api


def _wait(api: Api) -> None:
    assert api.engram.dream is not None
    queue = api.engram.dream.queue
    assert isinstance(queue, ThreadedDreamQueue)
    queue.join()


def test_given_an_admin_when_a_run_is_started_then_it_is_accepted_and_its_report_shows_the_work(api: Api) -> None:
    writer = api.key("acme", "agent-a")
    admin = api.key("acme", "root", Role.ADMIN)
    # Only configured categories expire: this agent gives "context" a day.
    ttl = {"userMemoryConfig": {"ttlHours": {"context": 24}}}
    assert api.call("PUT", "/v1/agents/agent-a/config", admin, json_body=ttl).status == 200
    api.call("PUT", "/v1/users/alice/memories", writer, json_body={"key": "mood", "value": "ok", "category": "context"})
    api.call("PUT", "/v1/users/bob/memories", writer, json_body={"key": "city", "value": "Paris"})
    api.engram.clock.advance(timedelta(days=2))  # type: ignore[attr-defined]
    r = api.call("POST", "/v1/dream/runs", admin)
    assert r.status == 202, r.body
    started = r.json()
    assert started["scope"] == "tenant" and started["trigger"] == "manual"
    assert started["status"] in {"planning", "running", "completed"}
    _wait(api)
    report = api.call("GET", f"/v1/dream/runs/{started['runId']}", admin).json()
    assert report["status"] == "completed" and report["usersPlanned"] == 2 and report["usersDone"] == 2
    assert report["stats"]["usersProcessed"] == 2
    assert report["stats"]["expired"] == 1 and report["stats"]["entriesPruned"] == 1
    assert report["durationSeconds"] >= 0
    listing = api.call("GET", "/v1/dream/runs", admin, query="limit=5").json()
    assert [r["runId"] for r in listing["items"]] == [started["runId"]]


def test_given_another_tenant_when_it_reads_runs_then_it_sees_neither_the_run_nor_its_counts(api: Api) -> None:
    acme = api.key("acme", "root", Role.ADMIN)
    globex = api.key("globex", "root", Role.ADMIN)
    run_id = api.call("POST", "/v1/dream/runs", acme).json()["runId"]
    _wait(api)
    assert api.call("GET", f"/v1/dream/runs/{run_id}", globex).status == 404
    assert api.call("GET", "/v1/dream/runs", globex).json()["items"] == []


def test_given_a_non_admin_or_a_bad_id_when_calling_dream_routes_then_errors_are_stable(api: Api) -> None:
    writer = api.key("acme", "agent-a", Role.WRITER)
    admin = api.key("acme", "root", Role.ADMIN)
    r = api.call("POST", "/v1/dream/runs", writer)
    assert r.status == 403 and r.json()["code"] == "forbidden"
    assert api.call("GET", "/v1/dream/runs/not-a-run", admin).json()["code"] == "validation_error"
    assert api.call("GET", "/v1/dream/runs/dream_missing", admin).json()["code"] == "not_found"
    assert api.call("GET", "/v1/dream/runs", admin, query="limit=0").status == 422
    assert api.call("GET", "/v1/dream/runs", admin, query="cursor=@@@").json()["code"] == "validation_error"
