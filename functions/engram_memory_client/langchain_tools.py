"""LangChain tools and a retriever over Engram: ``pip install 'engram-memory-client[langchain]'``.

    from engram_memory_client import EngramClient
    from engram_memory_client.langchain_tools import EngramRetriever, engram_tools

    engram = EngramClient(url, key)
    tools = engram_tools(engram, user_id="alice")      # remember, recall, search, forget
    retriever = EngramRetriever(client=engram, user_id="alice", k=5)

The user is bound when the tools are made (one set per conversation's user): a model never
chooses whose memory it touches. A refused call (a guardrail, a sensitive value, a missing
role) comes back to the model as the tool's text, with Engram's error code, not as an
exception that ends the run.
"""

from __future__ import annotations

from typing import Any, Literal

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from pydantic import BaseModel, ConfigDict, Field

from engram_memory_client.errors import APIError
from engram_memory_client.sync import EngramClient


class RememberArgs(BaseModel):
    key: str = Field(min_length=1, max_length=1024, description='Short snake_case name, e.g. "favorite_color".')
    value: str = Field(min_length=1, description="What to remember.")
    category: str = Field("fact", description="fact, preference, event, ...: one the agent may write.")


class RecallArgs(BaseModel):
    message: str = Field(min_length=1, description="What the user just said; memories relevant to it come back.")


class SearchArgs(BaseModel):
    query: str = Field(min_length=1, description="Keywords or a question.")


class ForgetArgs(BaseModel):
    key: str = Field(min_length=1, description='The key to forget, e.g. "favorite_color".')


def engram_tools(client: EngramClient, user_id: str, *, search_limit: int = 10) -> list[BaseTool]:
    """remember, recall, search and forget for one user, as LangChain tools."""

    def guarded(text: Any) -> Any:
        def run(**kwargs: Any) -> str:
            try:
                return str(text(**kwargs))
            except APIError as exc:
                raise ToolException(f"[{exc.code}] {exc.message}") from exc

        return run

    def remember(key: str, value: str, category: str = "fact") -> str:
        outcome = client.remember(user_id, key, value, category=category)
        if outcome.entry is None:  # the agent proposes instead of writing: the user decides
            return f"{outcome.outcome}: {key} = {value} [{category}]"
        return f"{outcome.outcome}: {outcome.entry.key} = {outcome.entry.value} [{outcome.entry.category}]"

    def recall(message: str) -> str:
        return client.recall(user_id, message=message).context or "Nothing is remembered about this user yet."

    def search(query: str) -> str:
        hits = client.search_memories(user_id, q=query, limit=search_limit).items
        lines = [f"• {h.entry.key} = {h.entry.value} [{h.entry.category}]" for h in hits]
        return "\n".join(lines) or f"No memories match '{query}'."

    def forget(key: str) -> str:
        deleted = client.forget_key(user_id, key).deleted
        return f"Forgotten: {key}" if deleted else f"Nothing was remembered under '{key}'."

    specs: list[tuple[str, str, Any, type[BaseModel]]] = [
        ("remember", "Remember a fact about the user for later conversations.", remember, RememberArgs),
        (
            "recall",
            "Recall what matters about the user for their message (call at the start of a turn).",
            recall,
            RecallArgs,
        ),
        ("search_memory", "Search the user's memories by keyword and meaning.", search, SearchArgs),
        ("forget", "Forget what is remembered under a key, when the user asks.", forget, ForgetArgs),
    ]
    return [
        StructuredTool.from_function(
            func=guarded(func), name=name, description=description, args_schema=schema, handle_tool_error=True
        )
        for name, description, func, schema in specs
    ]


class EngramRetriever(BaseRetriever):
    """Documents from a user's memories: ``search`` (hybrid search) or ``recall`` (the
    per-turn ranking: core preferences first, then what is relevant to the query)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    client: EngramClient
    user_id: str
    k: int = 5
    mode: Literal["search", "recall"] = "search"

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        if self.mode == "recall":
            recalled = self.client.recall(self.user_id, message=query, top_k=self.k)
            return [
                Document(
                    page_content=f"{item.entry.key}: {item.entry.value}",
                    metadata={
                        "id": item.entry.id,
                        "key": item.entry.key,
                        "category": item.entry.category,
                        "why": item.why,
                    },
                )
                for item in recalled.memories
            ]
        # A retriever hands back its k nearest documents, as LangChain's vector-store
        # retrievers do by default; no relevance threshold.
        hits = self.client.search_memories(self.user_id, q=query, limit=self.k, min_score=0.0).items
        return [
            Document(
                page_content=f"{h.entry.key}: {h.entry.value}",
                metadata={"id": h.entry.id, "key": h.entry.key, "category": h.entry.category, "score": h.score},
            )
            for h in hits
        ]
