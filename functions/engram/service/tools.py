"""Running a model's memory tool call for an agent (the executor behind ``/tools/execute``).

The agent's configuration decides which tools it has (``enableMemoryTools``,
``builtInToolsWhitelist``); every writing tool counts against ``maxWritesPerTurn`` for
the turn id the caller sends. Errors the model caused (bad arguments, a guardrail, a
sensitive value, nothing to find) come back as a tool result flagged as an error, so
the model reads them and can correct itself; so do arguments that are not JSON and a
tool the agent was not given (a result must follow every call, or the provider rejects
the next request). Errors of the caller's set-up (the key's role, memory tools switched
off, an outage) raise and become HTTP errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from engram.domain import tools as T
from engram.domain.agent_config import AgentConfig
from engram.domain.errors import (
    EngramError,
    Forbidden,
    PayloadTooLarge,
    RateLimited,
    StoreUnavailable,
    Throttled,
    ToolNotAllowed,
    Unauthenticated,
)
from engram.domain.models import MemoryEntry, Principal, Role, Visibility
from engram.domain.policies import require_role
from engram.domain.serialization import entry_to_dict
from engram.ports import Clock, TurnCounter
from engram.service.agents import AgentConfigService
from engram.service.long_term import LongTermItem, MemoryType
from engram.service.memory import TURN_WINDOW, MemoryService, UpsertCommand, matched_data
from engram.service.recall import RecallRequest, RecallResult
from engram.service.users import UserService

# Mordecai's retrieval top-k. The minimum relevance of a hit is the one ranking's,
# tuned per embedder (domain/ranking.py): Mordecai's fixed 0.2 meant nothing on another
# embedder's scale.
SEARCH_TOP_K = 10
# recallMemories: the context's token budget with a query, the entries shown without one.
RECALL_TOKEN_BUDGET = 800
RECALL_LIMIT = 20
MEMORY_OFF_TEXT = "The user has turned memory off: nothing about them is remembered or recalled."

# Failures the caller (not the model) must deal with: they leave as exceptions.
_CALLER_ERRORS: tuple[type[EngramError], ...] = (
    Unauthenticated,
    Forbidden,
    ToolNotAllowed,
    RateLimited,
    Throttled,
    StoreUnavailable,
    PayloadTooLarge,
)


class ProposalSink(Protocol):
    """What ``propose_memory_edit`` needs from the proposals feature."""

    def propose(
        self,
        principal: Principal,
        user_id: str,
        key: str,
        value: str,
        category: str,
        visibility: Visibility,
        reason: str,
    ) -> Mapping[str, Any]: ...


class Recaller(Protocol):
    """The per-turn recall (``service.recall.RecallService``)."""

    def recall(self, principal: Principal, user_id: str, request: RecallRequest) -> RecallResult: ...


class LongTermSearch(Protocol):
    """Mordecai's long-term namespaces (``service.long_term.LongTermMemory``)."""

    def search(
        self,
        principal: Principal,
        user_id: str,
        text: str,
        memory_type: MemoryType = MemoryType.ALL,
        limit: int = 10,
        min_score: float | None = None,
    ) -> list[LongTermItem]: ...


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    call: T.ToolCall
    text: str
    is_error: bool = False
    error_code: str | None = None
    error_message: str | None = None
    error_details: dict[str, Any] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def result(self) -> dict[str, Any]:
        return T.tool_result(self.call, self.text, self.is_error)


@dataclass(frozen=True, slots=True)
class _Invocation:
    principal: Principal
    user_id: str
    call: T.ToolCall
    turn_id: str | None
    conversation_id: str | None
    message_id: str | None = None


_RUNNERS = {
    "rememberFact": "_remember",
    "recallMemories": "_recall",
    "searchMemory": "_keyword_search",
    "forgetFact": "_forget",
    "search_memory": "_typed_search",
    "set_agent_name": "_set_agent_name",
    "propose_memory_edit": "_propose",
}


@dataclass
class ToolService:
    memory: MemoryService
    users: UserService
    agents: AgentConfigService
    turns: TurnCounter
    clock: Clock
    proposals: ProposalSink | None = None
    # With conversation memory, search_memory also finds session summaries (Mordecai's
    # /summaries namespace); without it, facts and preferences only.
    long_term: LongTermSearch | None = None
    recall: Recaller | None = None

    def available(self) -> tuple[str, ...]:
        """Tools this deployment can run (proposals need the proposals feature)."""
        return tuple(n for n in T.TOOL_NAMES if n != "propose_memory_edit" or self.proposals is not None)

    def config(self, principal: Principal) -> AgentConfig:
        return self.agents.get(principal.tenant_id, principal.agent_id)

    def allowed(self, principal: Principal) -> tuple[str, ...]:
        """The tools this agent may use, in definition order."""
        available = self.available()
        return tuple(n for n in T.allowed_tools(self.config(principal)) if n in available)

    def schemas(self, principal: Principal, fmt: T.ToolFormat, strict: bool = False) -> list[Any]:
        config = self.config(principal)
        categories = config.user_memory_config.guardrails.allowed_categories
        return T.tool_schemas(fmt, self.allowed(principal), categories, strict)

    def execute(
        self,
        principal: Principal,
        user_id: str,
        call: T.ToolCall,
        turn_id: str | None = None,
        conversation_id: str | None = None,
        message_id: str | None = None,
    ) -> ToolOutcome:
        require_role(principal, Role.VIEWER)
        config = self.config(principal)
        if not config.enable_memory_tools:
            raise ToolNotAllowed(
                "Memory tools are turned off for this agent (enableMemoryTools is false).", tool=call.name
            )
        tool = T.TOOLS_BY_NAME.get(call.name)
        if tool is None or tool.name not in self.available():
            return _failure(
                call,
                "unknown_tool",
                f"There is no memory tool called '{call.name}'.",
                {"tools": list(self.allowed(principal))},
            )
        if tool.name not in self.allowed(principal):
            return _failure(
                call,
                "tool_not_allowed",
                f"The tool '{tool.name}' is not available to you; use one of: {', '.join(self.allowed(principal))}.",
                {"tool": tool.name, "tools": list(self.allowed(principal))},
            )
        if call.argument_error is not None:
            return _failure(
                call,
                "invalid_arguments",
                f"{call.argument_error} Call {tool.name} again with a JSON object of arguments.",
                {"tool": tool.name},
            )
        try:
            args = T.validate_arguments(tool, call.arguments)
            if not tool.writes and not self.memory.gate.policy(principal, user_id, as_agent=True).memory_readable:
                # What a read tool returns goes into the model's context: memory off is
                # an answer the model should relay, not an error it should retry.
                return ToolOutcome(call, MEMORY_OFF_TEXT, data={"memoryEnabled": False, "entries": []})
            if tool.writes and tool.name != "rememberFact":
                # rememberFact is counted by the write pipeline itself, with the entry.
                self._count_write(principal, config, turn_id)
            runner = getattr(self, _RUNNERS[tool.name])
            invocation = _Invocation(principal, user_id, call, turn_id, conversation_id, message_id)
            outcome: ToolOutcome = runner(invocation, args)
            return outcome
        except _CALLER_ERRORS:
            raise
        except EngramError as exc:
            return _failure(call, exc.code, exc.message, exc.details)

    def _count_write(self, principal: Principal, config: AgentConfig, turn_id: str | None) -> None:
        if turn_id is None:
            return  # without a turn id each call is its own turn of one write
        self.turns.add_turn_writes(
            principal.tenant_id,
            principal.agent_id,
            turn_id,
            1,
            config.user_memory_config.guardrails.max_writes_per_turn,
            self.clock.now() + TURN_WINDOW,
        )

    # -- the tools ------------------------------------------------------------------------
    def _remember(self, inv: _Invocation, args: Any) -> ToolOutcome:
        a: T.RememberFactArgs = args
        command = UpsertCommand(
            key=a.key,
            value=a.value,
            category=a.category,
            visibility=Visibility(a.visibility),
            source_conversation_id=inv.conversation_id,
            source_message_id=inv.message_id,
        )
        result = self.memory.upsert(inv.principal, inv.user_id, [command], inv.turn_id)[0]
        e = result.entry
        if str(result.outcome) == "proposed":
            # The agent's requireApproval turned the write into a proposal for the user.
            proposal = getattr(result, "proposal", None)
            return ToolOutcome(
                inv.call,
                T.proposed_text(e.key, e.value, e.category, e.visibility.value),
                data={"outcome": "proposed", "proposalId": getattr(proposal, "id", None)},
            )
        return ToolOutcome(
            inv.call,
            T.remembered_text(e.key, e.value, e.category, e.visibility.value),
            data={"outcome": result.outcome.value, "entry": _entry(e), **matched_data(result.matched)},
        )

    def _recall(self, inv: _Invocation, args: Any) -> ToolOutcome:
        a: T.RecallMemoriesArgs = args
        if a.query and a.query.strip() and self.recall is not None:
            # The per-turn context: identity, core preferences and what matters for the query,
            # within a token budget (never every memory the user has).
            result = self.recall.recall(inv.principal, inv.user_id, RecallRequest(a.query, RECALL_TOKEN_BUDGET))
            items = [*result.preferences, *result.memories]
            return ToolOutcome(
                inv.call,
                result.rendered.text or "No memories stored for this user yet.",
                data={"entries": [{"id": i.entry.id, "key": i.entry.key, "why": i.why} for i in items]},
            )
        page = self.memory.visible(inv.principal, inv.user_id, limit=RECALL_LIMIT + 1)
        entries = page.items[:RECALL_LIMIT]
        text = T.bullets_text([_bullet(e) for e in entries], "No memories stored for this user yet.")
        if len(page.items) > RECALL_LIMIT or page.next_cursor is not None:
            text += f"\n(the {RECALL_LIMIT} most recent; pass a query to recall what matters for it)"
        return ToolOutcome(inv.call, text, data={"entries": [_entry(e) for e in entries]})

    def _keyword_search(self, inv: _Invocation, args: Any) -> ToolOutcome:
        a: T.SearchMemoryArgs = args
        # EDDI's searchMemory is a keyword search: only hits that share a word with the query.
        hits = [r for r in self.memory.search(inv.principal, inv.user_id, a.query, limit=SEARCH_TOP_K) if r.keyword > 0]
        return ToolOutcome(
            inv.call,
            T.bullets_text([_bullet(r.entry) for r in hits], f"No memories match '{a.query}'."),
            data={"entries": [_entry(r.entry) for r in hits]},
        )

    def _forget(self, inv: _Invocation, args: Any) -> ToolOutcome:
        a: T.ForgetFactArgs = args
        deleted = self.memory.delete_by_key(inv.principal, inv.user_id, a.key)
        if not deleted:
            return ToolOutcome(inv.call, T.nothing_to_forget_text(a.key), data={"deleted": []})
        return ToolOutcome(inv.call, T.forgotten_text(a.key), data={"deleted": [e.id for e in deleted]})

    def _typed_search(self, inv: _Invocation, args: Any) -> ToolOutcome:
        a: T.TypedSearchArgs = args
        if self.long_term is not None:
            items = self.long_term.search(inv.principal, inv.user_id, a.query, MemoryType(a.memory_type), SEARCH_TOP_K)
            lines = [_long_term_bullet(i) for i in items]
            data = [_long_term_item(i) for i in items]
        else:
            # Mordecai's namespaces: /preferences holds preferences, /facts everything else.
            results = self.memory.search(inv.principal, inv.user_id, a.query, limit=SEARCH_TOP_K * 3)
            kind = {"all": None, "facts": False, "preferences": True}[a.memory_type]
            hits = [r for r in results if kind in (None, r.entry.category == "preference")][:SEARCH_TOP_K]
            lines = [_bullet(r.entry) for r in hits]
            data = [{**_entry(r.entry), "score": r.score} for r in hits]
        return ToolOutcome(
            inv.call,
            "Based on my memory:\n" + "\n".join(lines) if lines else "No relevant memories found.",
            data={"entries": data},
        )

    def _set_agent_name(self, inv: _Invocation, args: Any) -> ToolOutcome:
        a: T.SetAgentNameArgs = args
        profile = self.users.set_agent_name(inv.principal, inv.user_id, a.name)
        return ToolOutcome(
            inv.call,
            T.agent_name_text(a.name),
            data={"agentId": inv.principal.agent_id, "agentNames": profile.agent_names},
        )

    def _propose(self, inv: _Invocation, args: Any) -> ToolOutcome:
        a: T.ProposeMemoryEditArgs = args
        if self.proposals is None:  # excluded by available(); kept for type narrowing
            return _failure(inv.call, "unknown_tool", "Proposals are not available in this deployment.", {})
        proposal = self.proposals.propose(
            inv.principal, inv.user_id, a.key, a.value, a.category, Visibility(a.visibility), a.reason
        )
        return ToolOutcome(
            inv.call, T.proposed_text(a.key, a.value, a.category, a.visibility), data={"proposal": dict(proposal)}
        )


def _entry(e: MemoryEntry) -> dict[str, Any]:
    d = entry_to_dict(e)
    d.pop("tenantId")
    d.pop("identityId")
    return d


def _bullet(e: MemoryEntry) -> str:
    return T.bullet(e.key, e.value, e.category, e.visibility.value)


def _long_term_bullet(item: LongTermItem) -> str:
    if item.entry is not None:
        return _bullet(item.entry)
    summary = item.summary
    return f"• summary of conversation {summary.thread_id}: {summary.text}" if summary else f"• {item.namespace}"


def _long_term_item(item: LongTermItem) -> dict[str, Any]:
    out: dict[str, Any] = {"namespace": item.namespace, "memoryType": item.memory_type.value, "score": item.score}
    if item.entry is not None:
        out.update(_entry(item.entry))
    elif item.summary is not None:
        out.update({"threadId": item.summary.thread_id, "summary": item.summary.text})
    return out


def _failure(call: T.ToolCall, code: str, message: str, details: Mapping[str, Any]) -> ToolOutcome:
    return ToolOutcome(
        call,
        T.error_text(message),
        is_error=True,
        error_code=code,
        error_message=message,
        error_details=dict(details),
    )
