"""A LangGraph agent whose long-term memory is Engram, and LangChain tools over the same user.

No LLM needed: the "model" here is a rule that spots "I'm ..." statements, so the example
runs anywhere. A real agent passes ``engram_tools(...)`` to its chat model instead.

    engram serve &                                   # in another terminal
    export ENGRAM_URL=http://127.0.0.1:8700
    export ENGRAM_API_KEY=$(engram keys create --tenant default --agent assistant --role writer --json | jq -r .key)
    pip install ./functions/engram_memory_client langgraph langchain-core
    python examples/langgraph_memory.py --user alice
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Any, TypedDict

from engram_memory_client import EngramClient
from engram_memory_client.langchain_tools import EngramRetriever, engram_tools
from engram_memory_client.langgraph_store import EngramStore
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore

CONVERSATION = ["Hi! I'm vegetarian.", "I'm training for a marathon in May.", "What should I cook tonight?"]


class State(TypedDict):
    user: str
    message: str
    context: list[str]
    reply: str


def remember(state: State, *, store: BaseStore) -> dict[str, Any]:
    """Keep what the user says about themselves (namespace: user, category)."""
    match = re.search(r"\bI'm (.+?)[.!]?$", state["message"])
    if match:
        key = re.sub(r"\W+", "_", match.group(1).lower()).strip("_")[:60]
        store.put((state["user"], "fact"), key, {"text": f"The user is {match.group(1)}"})
    return {}


def recall(state: State, *, store: BaseStore) -> dict[str, Any]:
    """Engram's hybrid search over everything the user said before."""
    hits = store.search((state["user"],), query=state["message"], limit=5)
    return {"context": [str(h.value.get("text", h.value)) for h in hits]}


def answer(state: State) -> dict[str, Any]:
    known = "; ".join(state["context"]) or "nothing yet"
    return {"reply": f"(knowing: {known})"}


def build(store: BaseStore) -> Any:
    graph = StateGraph(State)
    graph.add_node("remember", remember)
    graph.add_node("recall", recall)
    graph.add_node("answer", answer)
    graph.add_edge(START, "remember")
    graph.add_edge("remember", "recall")
    graph.add_edge("recall", "answer")
    graph.add_edge("answer", END)
    return graph.compile(store=store)


def run(engram: EngramClient, user: str, out: Any = sys.stdout) -> list[str]:
    graph = build(EngramStore(engram))
    replies = []
    for message in CONVERSATION:
        state = graph.invoke({"user": user, "message": message, "context": [], "reply": ""})
        print(f"user: {message}\nagent: {state['reply']}", file=out)
        replies.append(state["reply"])
    # The same memory as LangChain tools (what a chat model would call) and a retriever.
    tools = {t.name: t for t in engram_tools(engram, user)}
    print("tool recall ->", tools["recall"].invoke({"message": "dinner ideas"}).replace("\n", " | "), file=out)
    docs = EngramRetriever(client=engram, user_id=user, k=2).invoke("marathon")
    print("retriever ->", [d.page_content for d in docs], file=out)
    return replies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--user", default="alice")
    args = parser.parse_args()
    url = os.environ.get("ENGRAM_URL", "http://127.0.0.1:8700")
    with EngramClient(url, os.environ["ENGRAM_API_KEY"]) as engram:
        run(engram, args.user)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
