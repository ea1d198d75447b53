"""A LangGraph ``BaseStore`` backed by Engram: ``pip install 'engram-memory-client[langgraph]'``.

    from engram_memory_client import EngramClient
    from engram_memory_client.langgraph_store import EngramStore

    store = EngramStore(EngramClient(url, key))            # namespaces ("<user>", "<category>")
    graph = builder.compile(store=store)

A namespace maps onto Engram's user, category and (optionally) agent by a layout of
placeholders and literal segments: the default ``("{user}", "{category}")`` reads
``("alice", "preference")``; ``("memories", "{user}")`` reads ``("memories", "alice")`` with
every item in ``default_category``; ``("{user}", "{agent}", "{category}")`` adds the agent
whose entries are meant. Writes always act as the API key's agent (Engram takes identity
from credentials, never from a request), so an ``{agent}`` segment naming another agent is
refused on write and narrows reads to that agent's entries visible to this key.

Item values are JSON objects stored as the memory's value; a memory written by something
else (a plain string) reads back as ``{"value": "..."}``. Engram's own rules still apply:
the category must be one the agent may write, sensitive values are refused, and expiry is
the category's TTL (``PutOp.ttl`` is not used).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from engram_memory_client import models
from engram_memory_client.errors import NotFoundError
from engram_memory_client.sync import EngramClient

USER, AGENT, CATEGORY = "{user}", "{agent}", "{category}"
_PAGE = 200


@dataclass(frozen=True)
class Target:
    user_id: str
    agent_id: str | None
    category: str | None


@dataclass(frozen=True)
class NamespaceLayout:
    parts: tuple[str, ...] = (USER, CATEGORY)
    default_category: str = "fact"

    def __post_init__(self) -> None:
        if self.parts.count(USER) != 1:
            raise ValueError("A namespace layout needs exactly one {user} segment.")

    def parse(self, namespace: tuple[str, ...], *, prefix: bool = False) -> Target | None:
        """The user, agent and category a namespace names; None if it is not of this layout."""
        if len(namespace) > len(self.parts) or (not prefix and len(namespace) != len(self.parts)):
            return None
        found: dict[str, str] = {}
        for part, value in zip(self.parts, namespace, strict=False):
            if part in (USER, AGENT, CATEGORY):
                found[part] = value
            elif part != value:
                return None
        if USER not in found:
            return None
        category = found.get(CATEGORY)
        if CATEGORY not in self.parts and not prefix:
            category = self.default_category
        return Target(found[USER], found.get(AGENT), category)

    def build(self, entry: models.Entry) -> tuple[str, ...]:
        values = {USER: entry.user_id, AGENT: entry.source_agent_id or "", CATEGORY: entry.category}
        return tuple(values.get(part, part) for part in self.parts)


class EngramStore(BaseStore):
    """LangGraph's long-term memory store over an Engram service."""

    supports_ttl = False

    def __init__(self, client: EngramClient, layout: NamespaceLayout | None = None) -> None:
        self.client = client
        self.layout = layout or NamespaceLayout()
        self._agent: str | None = None

    # -- BaseStore --------------------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return [self._run(op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        # The sync client in a worker thread: one HTTP stack to reason about.
        return await asyncio.to_thread(self.batch, list(ops))

    def _run(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            return self._get(op)
        if isinstance(op, PutOp):
            self._put(op)
            return None
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._namespaces(op)
        raise TypeError(f"Unknown store operation: {type(op).__name__}")

    # -- operations -------------------------------------------------------------------------
    def _target(self, namespace: tuple[str, ...]) -> Target:
        target = self.layout.parse(namespace)
        if target is None:
            raise ValueError(f"Namespace {namespace!r} does not match the layout {self.layout.parts!r}.")
        return target

    def _entry(self, target: Target, key: str) -> models.Entry | None:
        try:
            found = self.client.memories_by_key(target.user_id, key).items
        except NotFoundError:
            return None
        matching = [e for e in found if self._matches(e, target)]
        # Several agents may hold the key; this key's own entry comes first.
        matching.sort(key=lambda e: e.source_agent_id != self.agent_id)
        return matching[0] if matching else None

    def _matches(self, entry: models.Entry, target: Target) -> bool:
        if target.category is not None and entry.category != target.category:
            return False
        return target.agent_id is None or entry.source_agent_id == target.agent_id

    def _get(self, op: GetOp) -> Item | None:
        target = self._target(op.namespace)
        entry = self._entry(target, op.key)
        return None if entry is None else self._item(entry)

    def _put(self, op: PutOp) -> None:
        target = self._target(op.namespace)
        if target.agent_id is not None and target.agent_id != self.agent_id:
            raise PermissionError(
                f"Engram writes as the API key's agent ({self.agent_id}), not as {target.agent_id!r}."
            )
        if op.value is None:
            entry = self._entry(Target(target.user_id, self.agent_id, target.category), op.key)
            if entry is not None:
                self.client.delete_memory(target.user_id, entry.id)
            return
        self.client.upsert_memory(
            target.user_id,
            key=op.key,
            value=json.dumps(dict(op.value), ensure_ascii=False, sort_keys=True),
            category=target.category or self.layout.default_category,
        )

    def _search(self, op: SearchOp) -> list[SearchItem]:
        target = self.layout.parse(op.namespace_prefix, prefix=True)
        if target is None:
            return []
        wanted = op.offset + op.limit
        found: list[SearchItem] = []
        for entry, score in self._candidates(target, op.query, wanted):
            if not self._matches(entry, target):
                continue
            item = self._item(entry, score)
            if op.filter and not _filtered(item.value, op.filter):
                continue
            found.append(item)
            if len(found) >= wanted:
                break
        return found[op.offset : wanted]

    def _candidates(
        self, target: Target, query: str | None, wanted: int
    ) -> Iterator[tuple[models.Entry, float | None]]:
        if query:
            # A LangGraph store's search answers the nearest items, best first, with no
            # threshold (as InMemoryStore does); the graph decides what is relevant.
            hits = self.client.search_memories(
                target.user_id,
                q=query,
                limit=min(100, max(wanted * 3, 10)),
                category=target.category,
                min_score=0.0,
            )
            for hit in hits.items:
                yield hit.entry, hit.score
            return
        for entry in self.client.iter_memories(target.user_id, category=target.category, limit=_PAGE):
            yield entry, None

    def _namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        # Engram cannot list users through an agent's key: the user must be in the prefix.
        prefix: tuple[str, ...] = ()
        for condition in op.match_conditions or ():
            if condition.match_type == "prefix":
                prefix = tuple(str(p) for p in condition.path)
        target = self.layout.parse(prefix, prefix=True)
        if target is None:
            return []
        seen: dict[tuple[str, ...], None] = {}
        for entry in self.client.iter_memories(target.user_id, category=target.category, limit=_PAGE):
            if self._matches(entry, target):
                namespace = self.layout.build(entry)
                seen[namespace[: op.max_depth] if op.max_depth else namespace] = None
        return sorted(seen)[op.offset : op.offset + op.limit]

    # -- helpers ----------------------------------------------------------------------------
    @property
    def agent_id(self) -> str:
        if self._agent is None:
            self._agent = self.client.whoami().agent_id
        return self._agent

    def _item(self, entry: models.Entry, score: float | None = None) -> SearchItem:
        return SearchItem(
            namespace=self.layout.build(entry),
            key=entry.key,
            value=_value(entry.value),
            created_at=entry.created_at,
            updated_at=entry.updated_at,
            score=score,
        )


def _value(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return {"value": text}
    return value if isinstance(value, dict) else {"value": value}


def _filtered(value: dict[str, Any], wanted: dict[str, Any]) -> bool:
    return all(value.get(k) == v for k, v in wanted.items())
