"""Isolation under concurrency: no request ever sees another's tenant, body or answer.

``engram serve`` (one process, and ``--workers 2``) is driven by 36 concurrent clients:
3 tenants x 2 agents x 3 users, each identity with one raw-HTTP client and one
``AsyncEngramClient``. They mix reads and writes over every route family (memories,
search, recall, conversations, proposals, blocks, archival, tools, MCP), half of the raw
writes with an ``Idempotency-Key`` (the async client sends one on every write).

Every value a client writes carries its owner's tag, ``iso<tenant><agent><user>``, and
the user ids are the same in every tenant. So any answer can be checked against its
caller without knowing its shape: a tag of anyone else anywhere in it is cross-talk. A
write's answer must also be about that very write (its key), every status must be the
one the route documents (no 5xx, no 4xx), and at the end every acknowledged write is read
back under its owner, while every identity's full listing holds only its own tags.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from engram_memory_client import APIError, AsyncEngramClient, RetryPolicy

from tests.e2e.conftest import EngramServer
from tests.e2e.keys import make_keys

pytestmark = pytest.mark.e2e

TENANTS, AGENTS, USERS = 3, 2, 3
# At least 10,000 requests per run (ENGRAM_ISOLATION_REQUESTS to change it).
REQUESTS = int(os.environ.get("ENGRAM_ISOLATION_REQUESTS", "10000"))
TAG = re.compile(r"iso(\d)(\d)(\d)")
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18"}


@dataclass(frozen=True)
class Identity:
    tenant: int
    agent: int
    user: int

    @property
    def tag(self) -> str:
        return f"iso{self.tenant}{self.agent}{self.user}"

    @property
    def user_id(self) -> str:
        return f"u{self.user}"  # the same ids in every tenant: only the tenant tells them apart

    @property
    def base(self) -> str:
        return f"/v1/users/{self.user_id}"


@dataclass
class Ledger:
    """What the run saw: request counts, problems, and the writes the server acknowledged."""

    sent: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    by_route: Counter[str] = field(default_factory=Counter)
    cross_talk: list[str] = field(default_factory=list)
    wrong_answer: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    memories: dict[Identity, set[str]] = field(default_factory=dict)
    messages: dict[Identity, list[tuple[str, str]]] = field(default_factory=dict)
    proposals: dict[Identity, set[str]] = field(default_factory=dict)
    blocks: dict[tuple[Identity, str], str] = field(default_factory=dict)

    def check(self, who: Identity, route: str, text: str) -> None:
        foreign = {m.group(0) for m in TAG.finditer(text)} - {who.tag}
        if foreign:
            self.cross_talk.append(f"{who.tag} {route}: answer holds {sorted(foreign)}")


@dataclass
class Run:
    server: EngramServer
    keys: dict[Identity, str]
    ledger: Ledger = field(default_factory=Ledger)
    serial: Iterator[int] = field(default_factory=itertools.count)

    def budget_left(self) -> bool:
        return self.ledger.sent < REQUESTS


Op = Callable[[], Awaitable[None]]


class RawClient:
    """A client speaking plain HTTP with httpx, half its writes with an Idempotency-Key."""

    def __init__(self, run: Run, who: Identity, http: httpx.AsyncClient) -> None:
        self.run, self.who, self.http = run, who, http
        self.auth = {"Authorization": f"Bearer {run.keys[who]}"}
        self.last_key: str | None = None
        self.writes = 0

    def _headers(self) -> dict[str, str]:
        self.writes += 1
        if self.writes % 2:
            return {**self.auth, "Idempotency-Key": uuid.uuid4().hex}
        return self.auth

    async def send(
        self,
        route: str,
        method: str,
        path: str,
        *,
        ok: int = 200,
        write: bool = False,
        extra: dict[str, str] | None = None,
        **kw: Any,
    ) -> Any:
        ledger = self.run.ledger
        ledger.sent += 1
        ledger.by_route[route] += 1
        headers = {**(self._headers() if write else self.auth), **(extra or {})}
        try:
            r = await self.http.request(method, path, headers=headers, **kw)
        except httpx.TransportError as exc:
            ledger.failed.append(f"{self.who.tag} {route}: {type(exc).__name__}")
            return None
        ledger.statuses[r.status_code] += 1
        ledger.check(self.who, route, r.text)
        if r.status_code != ok:
            ledger.failed.append(f"{self.who.tag} {route}: {r.status_code} {r.text[:300]}")
            return None
        return r.json()

    def fresh(self, kind: str) -> str:
        return f"{self.who.tag}-{kind}-r{next(self.run.serial)}"

    # -- memories, search, recall ---------------------------------------------------------
    async def put_memory(self) -> None:
        key = self.fresh("m")
        body = await self.send(
            "memories.put",
            "PUT",
            f"{self.who.base}/memories",
            write=True,
            json={"key": key, "value": f"value {key}", "category": "fact"},
        )
        if body is not None:
            if (body.get("entry") or {}).get("key") != key:
                self.run.ledger.wrong_answer.append(f"{self.who.tag} PUT {key} answered {body.get('entry')}")
            else:
                self.run.ledger.memories.setdefault(self.who, set()).add(key)
                self.last_key = key

    async def batch(self) -> None:
        keys = [self.fresh("b") for _ in range(3)]
        body = await self.send(
            "memories.batch",
            "POST",
            f"{self.who.base}/memories/batch",
            write=True,
            json={"entries": [{"key": k, "value": f"value {k}"} for k in keys]},
        )
        if body is not None:
            got = [(r.get("entry") or {}).get("key") for r in body.get("results", [])]
            if got != keys:
                self.run.ledger.wrong_answer.append(f"{self.who.tag} batch {keys} answered {got}")
            else:
                self.run.ledger.memories.setdefault(self.who, set()).update(keys)

    async def get_key(self) -> None:
        if self.last_key is None:
            return await self.put_memory()
        key = self.last_key
        body = await self.send("memories.key", "GET", f"{self.who.base}/memories/key/{key}")
        if body is not None and [e["key"] for e in body["items"]] != [key]:
            self.run.ledger.wrong_answer.append(f"{self.who.tag} GET key {key}: {[e['key'] for e in body['items']]}")

    async def listing(self) -> None:
        await self.send("memories.list", "GET", f"{self.who.base}/memories", params={"limit": 20})

    async def count(self) -> None:
        await self.send("memories.count", "GET", f"{self.who.base}/memories/count")

    async def search(self) -> None:
        await self.send("search", "GET", f"{self.who.base}/memories/search", params={"q": "value", "limit": 10})

    async def recall(self) -> None:
        await self.send("recall", "POST", f"{self.who.base}/recall", json={"message": "what do you know about me?"})

    # -- conversations (extraction runs in the background) --------------------------------
    async def append(self) -> None:
        thread = f"th-{self.who.tag}"
        mid = self.fresh("msg")
        content = f"My favourite colour is {mid}."
        body = await self.send(
            "conversations.append",
            "POST",
            f"{self.who.base}/threads/{thread}/messages",
            write=True,
            json={"messages": [{"id": mid, "content": content}]},
        )
        if body is not None:
            if mid not in json.dumps(body):
                self.run.ledger.wrong_answer.append(f"{self.who.tag} append {mid} answered without it")
            else:
                self.run.ledger.messages.setdefault(self.who, []).append((thread, mid))

    async def window(self) -> None:
        if not any(t.startswith("th-") for t, _ in self.run.ledger.messages.get(self.who, [])):
            return await self.append()
        await self.send("conversations.window", "GET", f"{self.who.base}/threads/th-{self.who.tag}/messages")

    # -- proposals, blocks, archival ------------------------------------------------------
    async def propose(self) -> None:
        key = self.fresh("p")
        body = await self.send(
            "proposals.create",
            "POST",
            f"{self.who.base}/proposals",
            ok=201,
            write=True,
            json={"change": {"type": "entry", "key": key, "value": f"value {key}"}, "reason": key},
        )
        if body is not None:
            if key not in json.dumps(body):
                self.run.ledger.wrong_answer.append(f"{self.who.tag} proposal {key} answered without it")
            else:
                self.run.ledger.proposals.setdefault(self.who, set()).add(body["id"])

    async def proposals(self) -> None:
        await self.send("proposals.list", "GET", f"{self.who.base}/proposals")

    async def put_block(self) -> None:
        role = self.fresh("role")
        body = await self.send(
            "blocks.put", "PUT", f"{self.who.base}/blocks/persona", write=True, json={"values": {"role": role}}
        )
        if body is not None:
            if role not in json.dumps(body):
                self.run.ledger.wrong_answer.append(f"{self.who.tag} block persona {role} answered without it")
            else:
                self.run.ledger.blocks[(self.who, "persona")] = role

    async def get_block(self) -> None:
        if (self.who, "persona") not in self.run.ledger.blocks:
            return await self.put_block()
        await self.send("blocks.get", "GET", f"{self.who.base}/blocks/persona")

    async def archival(self) -> None:
        await self.send("archival.search", "GET", f"{self.who.base}/archival/search", params={"q": "fact"})

    # -- tools and MCP ---------------------------------------------------------------------
    async def tool(self) -> None:
        key = self.fresh("t")
        call = {
            "id": f"call_{key}",
            "type": "function",
            "function": {
                "name": "rememberFact",
                "arguments": json.dumps({"key": key, "value": f"value {key}", "category": "fact"}),
            },
        }
        body = await self.send(
            "tools.execute", "POST", f"{self.who.base}/tools/execute", write=True, json={"toolCall": call}
        )
        if body is not None:
            if body.get("isError") or key not in json.dumps(body):
                self.run.ledger.wrong_answer.append(f"{self.who.tag} tool {key}: {json.dumps(body)[:200]}")
            else:
                self.run.ledger.memories.setdefault(self.who, set()).add(key)

    async def mcp(self) -> None:
        key = self.fresh("mcp")
        rpc = {
            "jsonrpc": "2.0",
            "id": next(self.run.serial),
            "method": "tools/call",
            "params": {
                "name": "upsert_user_memory",
                "arguments": {"userId": self.who.user_id, "key": key, "value": f"value {key}"},
            },
        }
        body = await self.send("mcp.upsert", "POST", "/mcp", json=rpc, extra=MCP_HEADERS)
        if body is not None:
            result = body.get("result") or {}
            if result.get("isError") or key not in json.dumps(result):
                self.run.ledger.wrong_answer.append(f"{self.who.tag} mcp {key}: {json.dumps(body)[:200]}")
            else:
                self.run.ledger.memories.setdefault(self.who, set()).add(key)
        rpc = {
            "jsonrpc": "2.0",
            "id": next(self.run.serial),
            "method": "tools/call",
            "params": {"name": "list_user_memories", "arguments": {"userId": self.who.user_id, "limit": 20}},
        }
        await self.send("mcp.list", "POST", "/mcp", json=rpc, extra=MCP_HEADERS)

    def ops(self) -> list[Op]:
        return [
            self.put_memory,
            self.get_key,
            self.recall,
            self.search,
            self.put_memory,
            self.listing,
            self.append,
            self.count,
            self.propose,
            self.get_key,
            self.put_block,
            self.tool,
            self.window,
            self.mcp,
            self.batch,
            self.proposals,
            self.get_block,
            self.archival,
            self.recall,
        ]


class TypedClient:
    """The same identity through ``AsyncEngramClient`` (an Idempotency-Key on every write)."""

    def __init__(self, run: Run, who: Identity, client: AsyncEngramClient) -> None:
        self.run, self.who, self.c = run, who, client
        self.facts = 0

    async def call(self, route: str, send: Awaitable[Any]) -> Any:
        ledger = self.run.ledger
        ledger.sent += 1
        ledger.by_route[route] += 1
        try:
            result = await send
        except APIError as exc:
            ledger.statuses[exc.status] += 1
            ledger.failed.append(f"{self.who.tag} client {route}: {exc.status} {exc}")
            return None
        ledger.statuses[200] += 1
        text = result.model_dump_json(by_alias=True) if hasattr(result, "model_dump_json") else json.dumps(result)
        ledger.check(self.who, f"client {route}", text)
        return result

    def fresh(self, kind: str) -> str:
        return f"{self.who.tag}-{kind}-c{next(self.run.serial)}"

    async def remember(self) -> None:
        key = self.fresh("m")
        out = await self.call("memories.put", self.c.remember(self.who.user_id, key, f"value {key}"))
        if out is not None:
            if out.entry is None or out.entry.key != key:
                self.run.ledger.wrong_answer.append(f"{self.who.tag} client remember {key}: {out.entry}")
            else:
                self.run.ledger.memories.setdefault(self.who, set()).add(key)
                got = await self.call("memories.key", self.c.memories_by_key(self.who.user_id, key))
                if got is not None and [e.key for e in got.items] != [key]:
                    self.run.ledger.wrong_answer.append(f"{self.who.tag} client read {key}")

    async def recall(self) -> None:
        await self.call("recall", self.c.recall(self.who.user_id, message="what is my favourite colour?"))

    async def search(self) -> None:
        await self.call("search", self.c.search_memories(self.who.user_id, q="value"))

    async def count(self) -> None:
        await self.call("memories.count", self.c.count_memories(self.who.user_id))

    async def append(self) -> None:
        thread = f"tc-{self.who.tag}"
        mid = self.fresh("msg")
        out = await self.call(
            "conversations.append",
            self.c.append_messages(self.who.user_id, thread, messages=[{"id": mid, "content": f"I live in {mid}."}]),
        )
        if out is not None:
            self.run.ledger.messages.setdefault(self.who, []).append((thread, mid))

    async def block(self) -> None:
        self.facts += 1
        fact = self.fresh("fact")
        out = await self.call("blocks.patch", self.c.patch_block(self.who.user_id, "human", append={"facts": [fact]}))
        if out is not None:
            if fact not in out.model_dump_json():
                self.run.ledger.wrong_answer.append(f"{self.who.tag} client block {fact} answered without it")
            else:
                self.run.ledger.blocks[(self.who, "human")] = fact

    async def archival(self) -> None:
        await self.call("archival.list", self.c.list_archival(self.who.user_id))

    async def tool(self) -> None:
        call = {
            "id": "call_search",
            "type": "function",
            "function": {"name": "searchMemory", "arguments": json.dumps({"query": "value"})},
        }
        await self.call("tools.execute", self.c.execute_tool(self.who.user_id, tool_call=call))

    async def proposals(self) -> None:
        await self.call("proposals.list", self.c.list_proposals(self.who.user_id))

    def ops(self) -> list[Op]:
        return [
            self.remember,
            self.recall,
            self.append,
            self.search,
            self.block,
            self.count,
            self.remember,
            self.tool,
            self.archival,
            self.proposals,
        ]


async def _drive(server: EngramServer, keys: dict[Identity, str]) -> Run:
    run = Run(server, keys)
    no_retry = RetryPolicy(max_retries=0)  # a 5xx must show, not be retried away
    # Idle connections close on the client's side (2 s) before the server's keep-alive
    # timeout (5 s) can close them under a request in flight.
    limits = httpx.Limits(max_connections=len(keys), max_keepalive_connections=len(keys), keepalive_expiry=2)
    async with httpx.AsyncClient(base_url=server.url, timeout=60, limits=limits) as http:
        pools = [httpx.AsyncClient(timeout=60, limits=limits) for _ in keys]
        typed = [
            AsyncEngramClient(server.url, keys[who], retry=no_retry, http_client=pool)
            for who, pool in zip(keys, pools, strict=True)
        ]
        clients: list[RawClient | TypedClient] = [RawClient(run, who, http) for who in keys]
        clients += [TypedClient(run, who, c) for who, c in zip(keys, typed, strict=True)]

        async def loop(n: int, client: RawClient | TypedClient) -> None:
            ops = client.ops()
            i = n  # clients start at different points of their mix
            while run.budget_left():
                await ops[i % len(ops)]()
                i += 1

        await asyncio.gather(*(loop(n, c) for n, c in enumerate(clients)))
        for pool in pools:
            await pool.aclose()
    return run


def _identities() -> list[Identity]:
    return [Identity(t, a, u) for t in range(TENANTS) for a in range(AGENTS) for u in range(USERS)]


def _keys(server: EngramServer) -> dict[Identity, str]:
    agent_keys = make_keys(
        server, *[(f"tenant{t}", f"agent{a}", ("writer",)) for t in range(TENANTS) for a in range(AGENTS)]
    )
    admins = make_keys(server, *[(f"tenant{t}", "ops", ("admin",)) for t in range(TENANTS)])
    # Room for every write of the run: the default cap would evict the oldest entries.
    for t, admin in enumerate(admins):
        with server.client(admin) as c:
            for a in range(AGENTS):
                config = {"userMemoryConfig": {"maxEntriesPerUser": 100_000, "onCapReached": "reject"}}
                r = c.put(f"/v1/agents/agent{a}/config", json=config)
                assert r.status_code == 200, r.text
            assert t >= 0
    return {who: agent_keys[who.tenant * AGENTS + who.agent] for who in _identities()}


def _read_back(run: Run) -> list[str]:
    """Every acknowledged write is there under its owner; each owner's whole view is its own."""
    lost: list[str] = []
    for who, key in run.keys.items():
        with run.server.client(key) as c:
            seen: set[str] = set()
            cursor = None
            while True:
                params = {"limit": 1000, **({"cursor": cursor} if cursor else {})}
                r = c.get(f"{who.base}/memories", params=params)
                assert r.status_code == 200, r.text
                run.ledger.check(who, "readback memories", r.text)
                page = r.json()
                seen.update(e["key"] for e in page["items"])
                cursor = page.get("nextCursor")
                if not cursor:
                    break
            lost += [f"{who.tag} memory {k}" for k in run.ledger.memories.get(who, set()) - seen]
            r = c.get(f"{who.base}/proposals", params={"limit": 1000})
            run.ledger.check(who, "readback proposals", r.text)
            have = {p["id"] for p in r.json()["items"]}
            lost += [f"{who.tag} proposal {p}" for p in run.ledger.proposals.get(who, set()) - have]
            for thread, mid in run.ledger.messages.get(who, []):
                r = c.get(f"{who.base}/threads/{thread}/messages/{mid}")
                run.ledger.check(who, "readback message", r.text)
                if r.status_code != 200:
                    lost.append(f"{who.tag} message {mid}: {r.status_code}")
            for name in ("persona", "human"):
                want = run.ledger.blocks.get((who, name))
                r = c.get(f"{who.base}/blocks/{name}")
                run.ledger.check(who, f"readback block {name}", r.text)
                if want is not None and want not in r.text:
                    lost.append(f"{who.tag} block {name} lost {want}")
            for route in ("archival", "threads", "remembered"):
                r = c.get(f"{who.base}/{route}")
                run.ledger.check(who, f"readback {route}", r.text)
    return lost


@pytest.fixture(scope="module", params=[1, 2], ids=["one-process", "workers-2"])
def loaded_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngramServer]:
    workers = int(request.param)
    server = EngramServer(
        tmp_path_factory.mktemp(f"isolation-{workers}"),
        {"ENGRAM_REQUESTS_PER_SECOND_PER_KEY": "1000000"},
        "sqlite",
        serve_args=("--workers", str(workers)),
        ready_seconds=120,  # spawned workers each import the app: slow on a busy machine
    )
    server.start()
    yield server
    server.stop()


def test_given_36_concurrent_clients_of_18_identities_when_they_mix_every_route_then_no_answer_crosses(
    loaded_server: EngramServer,
) -> None:
    # Given three tenants with two agents each, and the same three user ids in every tenant
    keys = _keys(loaded_server)

    # When 36 clients (raw HTTP and the async client) send mixed requests at once
    run = asyncio.run(_drive(loaded_server, keys))
    ledger = run.ledger
    lost = _read_back(run)

    # Then nothing crossed, nothing failed and every acknowledged write is there
    summary = {
        "requests": ledger.sent,
        "statuses": dict(ledger.statuses),
        "routes": dict(ledger.by_route),
        "cross_talk": len(ledger.cross_talk),
        "wrong_answer": len(ledger.wrong_answer),
        "failed": len(ledger.failed),
        "lost": len(lost),
        "acknowledged_memories": sum(len(v) for v in ledger.memories.values()),
    }
    print(json.dumps(summary))
    assert ledger.sent >= REQUESTS
    assert ledger.cross_talk == [], (summary, ledger.cross_talk[:10])
    assert ledger.wrong_answer == [], (summary, ledger.wrong_answer[:10])
    assert ledger.failed == [], (summary, ledger.failed[:10])
    assert lost == [], (summary, lost[:10])
    assert not [s for s in ledger.statuses if s >= 500]
