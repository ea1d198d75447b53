"""The LangGraph store and the LangChain tools and retriever, run by the real libraries
against Engram's real HTTP app (in process, offline)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypedDict

import pytest
from engram.domain.models import Role
from engram.local.server import create_asgi_app
from engram_memory_client import EngramClient
from starlette.testclient import TestClient

from tests.support import engram_for

langgraph = pytest.importorskip("langgraph", reason="make install-dev installs langgraph")
langchain_core = pytest.importorskip("langchain_core", reason="make install-dev installs langchain-core")

from engram_memory_client.langchain_tools import EngramRetriever, engram_tools  # noqa: E402
from engram_memory_client.langgraph_store import AGENT, CATEGORY, USER, EngramStore, NamespaceLayout  # noqa: E402
from langgraph.graph import END, START, StateGraph  # noqa: E402
from langgraph.store.base import BaseStore  # noqa: E402

URL = "http://127.0.0.1:8700"


@pytest.fixture
def keys(tmp_path: Path) -> Iterator[dict[str, Any]]:
    engram = engram_for(tmp_path)
    made = {
        "alpha": engram.keys.create("acme", "alpha", frozenset({Role.WRITER}))[1],
        "beta": engram.keys.create("acme", "beta", frozenset({Role.WRITER}))[1],
    }
    with TestClient(create_asgi_app(engram), base_url=URL) as http:
        yield {name: EngramClient(URL, key, http_client=http) for name, key in made.items()}


def test_given_the_engram_store_when_langgraph_puts_gets_searches_and_deletes_then_engram_holds_the_items(
    keys: dict[str, EngramClient],
) -> None:
    store = EngramStore(keys["alpha"])
    assert isinstance(store, BaseStore)
    store.put(("alice", "preference"), "food", {"likes": "spicy ramen", "since": 2020})
    store.put(("alice", "fact"), "pet", {"text": "has a dog called Rex"})

    item = store.get(("alice", "preference"), "food")
    assert item is not None and item.value == {"likes": "spicy ramen", "since": 2020}
    assert item.namespace == ("alice", "preference")
    assert store.get(("alice", "fact"), "food") is None  # another category, another namespace
    # Through Engram's own API the item is an ordinary memory of that user and category.
    [entry] = keys["alpha"].memories_by_key("alice", "food").items
    assert (entry.category, entry.source_agent_id) == ("preference", "alpha")

    hits = store.search(("alice",), query="dog Rex")
    assert hits and hits[0].key == "pet" and hits[0].score is not None
    assert {i.key for i in store.search(("alice",))} == {"food", "pet"}
    assert [i.key for i in store.search(("alice", "preference"))] == ["food"]
    assert [i.key for i in store.search(("alice",), filter={"since": 2020})] == ["food"]
    assert store.list_namespaces(prefix=("alice",)) == [("alice", "fact"), ("alice", "preference")]

    store.put(("alice", "preference"), "food", {"likes": "sushi"})  # an update supersedes in Engram
    assert store.get(("alice", "preference"), "food").value == {"likes": "sushi"}
    store.delete(("alice", "preference"), "food")
    assert store.get(("alice", "preference"), "food") is None
    assert keys["alpha"].count_memories("alice").count == 1

    async def later() -> Any:
        return await store.aget(("alice", "fact"), "pet")

    assert asyncio.run(later()).value == {"text": "has a dog called Rex"}


def test_given_a_layout_with_an_agent_when_used_then_reads_narrow_to_it_and_writes_stay_the_keys_own(
    keys: dict[str, EngramClient],
) -> None:
    layout = NamespaceLayout((USER, AGENT, CATEGORY))
    alpha, beta = EngramStore(keys["alpha"], layout), EngramStore(keys["beta"], layout)
    keys["beta"].remember("bob", "city", "Lisbon", visibility="global")
    alpha.put(("bob", "alpha", "fact"), "city", {"value": "Porto"})
    # alpha sees beta's global entry and its own; the agent segment picks one.
    assert alpha.get(("bob", "beta", "fact"), "city").value == {"value": "Lisbon"}  # a plain string reads back
    assert alpha.get(("bob", "alpha", "fact"), "city").value == {"value": "Porto"}
    with pytest.raises(PermissionError):
        alpha.put(("bob", "beta", "fact"), "city", {"value": "Faro"})
    assert beta.get(("bob", "beta", "fact"), "city").value == {"value": "Lisbon"}

    prefixed = EngramStore(keys["alpha"], NamespaceLayout(("memories", USER)))
    prefixed.put(("memories", "carol"), "tea", {"likes": "green tea"})
    assert keys["alpha"].memories_by_key("carol", "tea").items[0].category == "fact"
    assert prefixed.search(("other", "carol")) == []


def test_given_the_store_in_a_compiled_graph_when_nodes_remember_and_read_then_the_graph_sees_engram(
    keys: dict[str, EngramClient],
) -> None:
    class State(TypedDict):
        user: str
        said: str
        known: list[str]

    def remember(state: State, *, store: BaseStore) -> dict[str, Any]:
        store.put((state["user"], "fact"), "said", {"text": state["said"]})
        return {}

    def read(state: State, *, store: BaseStore) -> dict[str, Any]:
        return {"known": [str(i.value["text"]) for i in store.search((state["user"],), query=state["said"])]}

    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_node("read", read)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "read")
    builder.add_edge("read", END)
    graph = builder.compile(store=EngramStore(keys["alpha"]))
    out = graph.invoke({"user": "dave", "said": "I moved to Berlin", "known": []})
    assert out["known"] == ["I moved to Berlin"]


def test_given_langchain_tools_when_invoked_then_they_remember_recall_search_and_forget(
    keys: dict[str, EngramClient],
) -> None:
    tools = {t.name: t for t in engram_tools(keys["alpha"], "erin")}
    assert set(tools) == {"remember", "recall", "search_memory", "forget"}
    stored = tools["remember"].invoke({"key": "favorite_color", "value": "blue", "category": "preference"})
    # The outcome word is Engram's (created, or reinforced when the client's write is retried).
    assert stored.split(":")[0] in {"created", "reinforced"} and "favorite_color = blue" in stored, stored
    assert "blue" in tools["recall"].invoke({"message": "what colour should the cake be?"})
    assert "favorite_color = blue" in tools["search_memory"].invoke({"query": "favorite color"})
    # A refusal reaches the model as text with Engram's code, not as an exception.
    refused = tools["remember"].invoke({"key": "card", "value": "4111 1111 1111 1111"})
    assert "[sensitive_data]" in refused
    assert tools["forget"].invoke({"key": "favorite_color"}) == "Forgotten: favorite_color"
    assert "No memories match" in tools["search_memory"].invoke({"query": "favorite color"})
    # The same tools through a model's tool call (what an agent executor sends).
    call = {"name": "search_memory", "args": {"query": "anything"}, "id": "call_1", "type": "tool_call"}
    message = tools["search_memory"].invoke(call)
    assert message.tool_call_id == "call_1"


def test_given_a_langchain_retriever_when_invoked_then_memories_come_back_as_documents(
    keys: dict[str, EngramClient],
) -> None:
    keys["alpha"].remember("frank", "allergy", "allergic to peanuts")
    keys["alpha"].remember("frank", "city", "lives in Oslo")
    docs = EngramRetriever(client=keys["alpha"], user_id="frank", k=2).invoke("peanuts")
    assert docs[0].page_content == "allergy: allergic to peanuts"
    assert docs[0].metadata["key"] == "allergy" and docs[0].metadata["score"] > 0
    recalled = EngramRetriever(client=keys["alpha"], user_id="frank", mode="recall").invoke("can I eat peanut butter?")
    assert "allergy" in [d.metadata["key"] for d in recalled]
