"""Tenant and agent isolation, as a property.

Hypothesis runs random sequences of operations by several tenants and agents through
the API (the same gateway and handler as ``engram serve``) and checks after every step
that no response holds data outside the caller's tenant and visibility. Values carry
their writer's tenant and agent, so a leak is visible in any field that echoes them.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from engram.adapters.sqlite import SqliteStore
from engram.container import set_engram
from engram.domain.models import Role
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, rule

from tests.integration.conftest import Api
from tests.support import engram_for

TENANTS = ("t1", "t2")
AGENTS = {"a": ("g1",), "b": ("g1",), "c": ("g2",)}
USERS = ("u1", "u2")
KEYS = ("color", "city", "food")


def _dynamodb(tmp: Path) -> Any:
    from engram.adapters.dynamodb import DynamoStore, create_table

    from tests.moto_server import dynamodb_client, fresh_table_name, moto_endpoint

    client = dynamodb_client(moto_endpoint())
    name = fresh_table_name("iso")
    create_table(client, name)
    return DynamoStore(client, name)


# name -> (factory of a store in a tmp dir, examples): DynamoDB runs on moto server,
# which serves one request at a time, so it gets a smaller (still random) budget.
ISOLATION_STORES: dict[str, tuple[Callable[[Path], Any], int]] = {
    "sqlite": (lambda tmp: SqliteStore(tmp / "iso.db"), 25),
    "dynamodb": (_dynamodb, 8),
}


class Isolation(RuleBasedStateMachine):
    store_factory: Callable[[Path], Any] = ISOLATION_STORES["sqlite"][0]

    entries = Bundle("entries")

    def __init__(self) -> None:
        super().__init__()
        tmp = Path(tempfile.mkdtemp(prefix="engram-iso-"))
        engram = engram_for(tmp, store=type(self).store_factory(tmp))
        set_engram(engram)
        self.api = Api(engram)
        self.keys: dict[tuple[str, str, str], str] = {}
        for t in TENANTS:
            for agent, groups in AGENTS.items():
                self.keys[(t, agent, "writer")] = self.api.key(t, agent, Role.WRITER, groups=groups)
            self.keys[(t, "root", "admin")] = self.api.key(t, "root", Role.ADMIN)
        # entry id -> (tenant, agent, visibility, groups)
        self.owner: dict[str, tuple[str, str, str, tuple[str, ...]]] = {}

    def _check(self, tenant: str, agent: str, reply_body: Any, admin: bool = False) -> None:
        text = json.dumps(reply_body)
        for other in TENANTS:
            if other != tenant:
                assert f"<{other}:" not in text, f"{tenant}/{agent} saw data of {other}: {text[:300]}"
        for item in _entries_in(reply_body):
            owner = self.owner.get(item["id"])
            assert owner is not None, f"unknown entry in response: {item['id']}"
            assert owner[0] == tenant
            if admin:
                continue
            # Judge each object by its own visibility, not the entry's latest: a history
            # version or a restored one must have been visible to the caller when current.
            vis, o_agent, groups = item["visibility"], item["sourceAgentId"], item["groupIds"]
            allowed = vis == "global" or o_agent == agent or (vis == "group" and set(groups) & set(AGENTS[agent]))
            assert allowed, f"{agent} saw {o_agent}'s {vis} entry {item['id']} (version {item.get('version')})"

    @rule(
        target=entries,
        tenant=st.sampled_from(TENANTS),
        agent=st.sampled_from(sorted(AGENTS)),
        user=st.sampled_from(USERS),
        key=st.sampled_from(KEYS),
        visibility=st.sampled_from(("self", "group", "global")),
        n=st.integers(0, 3),
    )
    def write(self, tenant: str, agent: str, user: str, key: str, visibility: str, n: int) -> str:
        body = {"key": key, "value": f"<{tenant}:{agent}> v{n}", "visibility": visibility}
        reply = self.api.call("PUT", f"/v1/users/{user}/memories", self.keys[(tenant, agent, "writer")], json_body=body)
        assert reply.status == 200, reply.body
        data = reply.json()
        groups = tuple(data["entry"]["groupIds"])
        self.owner[data["entry"]["id"]] = (tenant, agent, visibility, groups)
        if data.get("previousId"):
            self.owner.setdefault(data["previousId"], (tenant, agent, visibility, groups))
        self._check(tenant, agent, data)
        return f"{user}/{data['entry']['id']}"

    @rule(target=entries, ref=entries, visibility=st.sampled_from(("self", "group", "global")), n=st.integers(0, 3))
    def reshare(self, ref: str, visibility: str, n: int) -> str:
        """The writer of an entry writes its key again with another visibility (one identity
        for self and group), so its history mixes versions that different agents could see."""
        user, entry_id = ref.split("/")
        tenant, agent, _, _ = self.owner[entry_id]
        entry = self.api.call("GET", f"/v1/users/{user}/memories/{entry_id}", self.keys[(tenant, "root", "admin")])
        if entry.status != 200:
            return ref
        key = entry.json()["key"]
        return self.write(tenant, agent, user, key, visibility, n)

    @rule(ref=entries, agent=st.sampled_from(sorted(AGENTS)), version=st.integers(1, 4))
    def peer_history(self, ref: str, agent: str, version: int) -> None:
        """Another agent of the same tenant reads the entry's history and restores a version:
        each version shown or restored must have been visible to it when current."""
        user, entry_id = ref.split("/")
        tenant = self.owner[entry_id][0]
        key = self.keys[(tenant, agent, "writer")]
        base = f"/v1/users/{user}/memories/{entry_id}"
        for reply in (
            self.api.call("GET", f"{base}/history", key),
            self.api.call("POST", f"{base}/restore", key, json_body={"version": version}),
        ):
            assert reply.status in (200, 404, 409, 422), reply.body
            if reply.status == 200:
                data = reply.json()
                if "outcome" in data:
                    self.owner[data["entry"]["id"]] = self.owner[entry_id]
                self._check(tenant, agent, data)

    @rule(
        ref=entries,
        tenant=st.sampled_from(TENANTS),
        agent=st.sampled_from(sorted(AGENTS)),
        op=st.sampled_from(("get", "history", "delete", "restore")),
        version=st.integers(1, 4),
    )
    def touch(self, ref: str, tenant: str, agent: str, op: str, version: int) -> None:
        user, entry_id = ref.split("/")
        key = self.keys[(tenant, agent, "writer")]
        base = f"/v1/users/{user}/memories/{entry_id}"
        reply = {
            "get": lambda: self.api.call("GET", base, key),
            "history": lambda: self.api.call("GET", f"{base}/history", key),
            "delete": lambda: self.api.call("DELETE", base, key),
            "restore": lambda: self.api.call("POST", f"{base}/restore", key, json_body={"version": version}),
        }[op]()
        assert reply.status < 500, reply.body
        o_tenant, o_agent, vis, groups = self.owner[entry_id]
        visible = o_tenant == tenant and (
            vis == "global" or o_agent == agent or (vis == "group" and set(groups) & set(AGENTS[agent]))
        )
        if not visible:
            assert reply.status == 404, (op, reply.status, reply.body)
        if reply.status == 200:
            data = reply.json()
            if op == "restore":
                self.owner[data["entry"]["id"]] = (o_tenant, o_agent, vis, groups)
            self._check(tenant, agent, data)

    @rule(
        tenant=st.sampled_from(TENANTS),
        agent=st.sampled_from([*sorted(AGENTS), "root"]),
        user=st.sampled_from(USERS),
        op=st.sampled_from(("visible", "all", "search", "count", "key", "export")),
    )
    def read(self, tenant: str, agent: str, user: str, op: str) -> None:
        admin = agent == "root"
        key = self.keys[(tenant, agent, "admin" if admin else "writer")]
        base = f"/v1/users/{user}"
        reply = {
            "visible": lambda: self.api.call("GET", f"{base}/memories/visible", key),
            "all": lambda: self.api.call("GET", f"{base}/memories", key, query="status=all"),
            "search": lambda: self.api.call("GET", f"{base}/memories/search", key, query="q=color city food v1"),
            "count": lambda: self.api.call("GET", f"{base}/memories/count", key),
            "key": lambda: self.api.call("GET", f"{base}/memories/key/color", key),
            "export": lambda: self.api.call("GET", f"{base}/export", key),
        }[op]()
        if op == "export" and not admin:
            assert reply.status == 403
            return
        assert reply.status == 200, reply.body
        self._check(tenant, agent, reply.json(), admin=admin)

    @invariant()
    def counts_never_cross_tenants(self) -> None:
        for t in TENANTS:
            for u in USERS:
                count = self.api.call("GET", f"/v1/users/{u}/memories/count", self.keys[(t, "root", "admin")]).json()
                live = self.api.engram.store.count_live(t, u, self.api.engram.clock.now())
                assert count["count"] == live


def _entries_in(body: Any) -> list[dict[str, Any]]:
    """Every memory entry object anywhere in a response body."""
    found: list[dict[str, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "id" in node and "sourceAgentId" in node and "visibility" in node:
                found.append(node)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(body)
    return found


@pytest.mark.parametrize("backend", sorted(ISOLATION_STORES))
def test_no_response_crosses_tenant_or_visibility(backend: str, request: pytest.FixtureRequest) -> None:
    factory, examples = ISOLATION_STORES[backend]
    if backend == "dynamodb":
        from tests.moto_server import stop_moto

        request.session.config.add_cleanup(stop_moto)
    machine = type(f"Isolation_{backend}", (Isolation,), {"store_factory": staticmethod(factory)})
    runner = machine.TestCase
    runner.settings = settings(
        max_examples=examples, stateful_step_count=25, deadline=None, suppress_health_check=list(HealthCheck)
    )
    try:
        runner().runTest()
    finally:
        set_engram(None)


def test_history_and_restore_leave_out_versions_the_caller_could_not_see(api: Api) -> None:
    # Given agent a's private note, later shared with its group g1 (the same identity)
    a = api.key("t1", "a", Role.WRITER, groups=("g1",))
    b = api.key("t1", "b", Role.WRITER, groups=("g1",))
    base = "/v1/users/u1/memories"
    private = {"key": "plan", "value": "<t1:a> private draft", "visibility": "self"}
    first = api.call("PUT", base, a, json_body=private).json()["entry"]
    shared = api.call("PUT", base, a, json_body={**private, "value": "<t1:a> shared", "visibility": "group"})
    entry = shared.json()["entry"]
    assert entry["visibility"] == "group"
    hidden = [v["version"] for v in api.call("GET", f"{base}/{entry['id']}/history", a).json()["items"]]
    assert len(hidden) >= 2, hidden
    # When b, a group member, reads the history and tries to restore the private version
    seen = api.call("GET", f"{base}/{entry['id']}/history", b)
    restore = api.call("POST", f"{base}/{entry['id']}/restore", b, json_body={"version": first["version"]})
    # Then b sees only the shared version, and the private one is as absent as a missing one
    assert seen.status == 200, seen.body
    assert "private draft" not in seen.body.decode()
    assert [v["entry"]["visibility"] for v in seen.json()["items"]] == ["group"]
    assert restore.status == 404, restore.body
    assert restore.json()["code"] == "not_found"
    # And a, who wrote it, still sees and may restore every version
    assert api.call("POST", f"{base}/{entry['id']}/restore", a, json_body={"version": first["version"]}).status == 200
