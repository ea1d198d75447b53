"""The MCP server: memory tools over the official ``mcp`` SDK, by the key's role.

A viewer key reads (``recall``, ``list_user_memories``, ``get_visible_memories``,
``search_user_memories``, ``get_memory_by_key``, ``count_user_memories``); a writer key
also writes (``upsert_user_memory``, ``forget_memory_by_key``, ``delete_user_memory``), so
an assistant such as Claude Desktop or Cursor never needs a key that can erase users; an
admin key adds ``delete_all_user_memories``. A caller is listed only the tools its key
may use. Answers are compact (id, key, value, category, visibility per memory) unless a
tool is called with ``verbose=true``.

Transports: streamable HTTP at ``/mcp`` (``engram serve``, and the ``mcp`` Lambda through
API Gateway), stateless with JSON responses so that any instance can answer any request;
and stdio (``engram mcp --key ...``). The principal comes from the API key, checked by
``KeyAuth`` here or by the API Gateway authorizer in the cloud, never from tool arguments.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import anyio.to_thread
import mcp.types as mt
from aws_lambda_powertools import Logger
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from engram import __version__
from engram.api.schemas import ID_PATTERN, Entry
from engram.container import Engram
from engram.domain.agent_config import RecallOrder
from engram.domain.errors import ConfirmationRequired, EngramError, Forbidden, Unauthenticated
from engram.domain.models import Principal, Role, Visibility
from engram.domain.policies import scope_for
from engram.service.memory import UpsertCommand, matched_data
from engram.service.recall import RecallRequest

logger = Logger(service="engram", child=True)

PRINCIPAL_SCOPE_KEY = "engram.principal"
CONFIRMATION = "CONFIRM"


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


VERBOSE = Field(False, description="Every field of each memory instead of id, key, value, category and visibility.")


class RecallArgs(_Args):
    user_id: str = Field(alias="userId", pattern=ID_PATTERN, description="The user the memories are about.")
    message: str = Field(
        min_length=1, max_length=8000, description="What the user just said; the memories relevant to it come back."
    )
    token_budget: int = Field(1000, alias="tokenBudget", ge=50, le=8000, description="Size of the context block.")


class ListArgs(_Args):
    user_id: str = Field(alias="userId", pattern=ID_PATTERN, description="The user the memories are about.")
    category: str | None = Field(None, max_length=64, description="Only this category.")
    verbose: bool = VERBOSE
    limit: int = Field(50, ge=1, le=1000)
    cursor: str | None = Field(None, max_length=512, description="nextCursor of the previous page.")


class VisibleArgs(_Args):
    user_id: str = Field(alias="userId", pattern=ID_PATTERN, description="The user the memories are about.")
    agent_id: str | None = Field(
        None, alias="agentId", pattern=ID_PATTERN, description="Whose view (admin only if not the caller)."
    )
    group_id: str | None = Field(None, alias="groupId", pattern=ID_PATTERN)
    order: Literal["most_recent", "most_accessed"] | None = None
    limit: int | None = Field(None, ge=1, le=1000)
    verbose: bool = VERBOSE


class SearchArgs(_Args):
    user_id: str = Field(alias="userId", pattern=ID_PATTERN, description="The user the memories are about.")
    query: str = Field(min_length=1, max_length=2000, description="Keywords or a question.")
    limit: int = Field(10, ge=1, le=100)
    verbose: bool = VERBOSE


class KeyArgs(_Args):
    user_id: str = Field(alias="userId", pattern=ID_PATTERN, description="The user the memories are about.")
    key: str = Field(min_length=1, max_length=1024)
    verbose: bool = VERBOSE


class ForgetKeyArgs(_Args):
    user_id: str = Field(alias="userId", pattern=ID_PATTERN, description="The user the memories are about.")
    key: str = Field(min_length=1, max_length=1024, description='The key to forget, e.g. "favorite_color".')


class UserArgs(_Args):
    user_id: str = Field(alias="userId", pattern=ID_PATTERN, description="The user the memories are about.")


class UpsertArgs(_Args):
    user_id: str = Field(alias="userId", pattern=ID_PATTERN, description="The user the memories are about.")
    key: str = Field(min_length=1, max_length=1024)
    value: str = Field(min_length=1, max_length=100_000)
    category: str = Field("fact", min_length=1, max_length=64)
    visibility: Literal["self", "group", "global"] = "self"
    group_ids: list[str] | None = Field(None, alias="groupIds", max_length=50)
    source_message_id: str | None = Field(
        None,
        alias="sourceMessageId",
        pattern=ID_PATTERN,
        description="The user message the fact comes from: the same fact from the same message is remembered once.",
    )


class DeleteArgs(_Args):
    user_id: str = Field(alias="userId", pattern=ID_PATTERN, description="The user the memories are about.")
    entry_id: str = Field(alias="entryId", pattern=r"^mem_[0-9a-f]{24}$", description="The memory entry id.")


class DeleteAllArgs(_Args):
    user_id: str = Field(alias="userId", pattern=ID_PATTERN, description="The user the memories are about.")
    confirmation: str = Field(description='Must be exactly "CONFIRM": this erases everything about the user.')


@dataclass(frozen=True, slots=True)
class McpTool:
    name: str
    description: str
    args: type[_Args]
    role: Role

    def definition(self) -> mt.Tool:
        schema = self.args.model_json_schema(by_alias=True)
        schema["additionalProperties"] = False
        read_only = self.role is Role.VIEWER
        removes = self.name.startswith(("delete", "forget"))
        return mt.Tool(
            name=self.name,
            description=self.description,
            input_schema=schema,
            annotations=mt.ToolAnnotations(
                read_only_hint=read_only,
                destructive_hint=None if read_only else removes,
                idempotent_hint=read_only or removes,
            ),
        )


MCP_TOOLS: tuple[McpTool, ...] = (
    McpTool(
        "recall",
        "Call at the start of every turn: what you know about the user that matters for their message "
        "(identity, core preferences, relevant memories), as a context block within a token budget.",
        RecallArgs,
        Role.VIEWER,
    ),
    McpTool("list_user_memories", "List all memory entries for a user.", ListArgs, Role.VIEWER),
    McpTool(
        "get_visible_memories",
        "Get the entries visible to a specific agent: global ones, its own self ones and its groups'.",
        VisibleArgs,
        Role.VIEWER,
    ),
    McpTool("search_user_memories", "Search a user's memories by keyword and meaning.", SearchArgs, Role.VIEWER),
    McpTool("get_memory_by_key", "Look up a user's memories by key name.", KeyArgs, Role.VIEWER),
    McpTool("count_user_memories", "Count a user's live memory entries.", UserArgs, Role.VIEWER),
    McpTool(
        "upsert_user_memory",
        "Remember a fact about the user: insert, reinforce or update the memory under a key.",
        UpsertArgs,
        Role.WRITER,
    ),
    McpTool(
        "forget_memory_by_key",
        'Forget what is remembered under a key (e.g. when the user says "forget my address").',
        ForgetKeyArgs,
        Role.WRITER,
    ),
    McpTool("delete_user_memory", "Delete one memory entry by its id.", DeleteArgs, Role.WRITER),
    McpTool(
        "delete_all_user_memories",
        'GDPR delete-all: erase everything about a user (admin); requires confirmation="CONFIRM".',
        DeleteAllArgs,
        Role.ADMIN,
    ),
)
MCP_TOOLS_BY_NAME = {t.name: t for t in MCP_TOOLS}


def tools_for(principal: Principal) -> list[McpTool]:
    return [t for t in MCP_TOOLS if principal.has(t.role)]


def _entries(items: Any, verbose: bool = True) -> list[dict[str, Any]]:
    if verbose:
        return [Entry.of(e).model_dump(mode="json", by_alias=True) for e in items]
    # What a model needs to use a memory (about 100 characters, not 600).
    return [
        {"id": e.id, "key": e.key, "value": e.value, "category": e.category, "visibility": e.visibility.value}
        for e in items
    ]


class MemoryTools:
    """The eight tools over the services (synchronous; the MCP handlers run it in a thread)."""

    def __init__(self, engram: Engram) -> None:
        self.engram = engram

    def call(self, principal: Principal, name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        tool = MCP_TOOLS_BY_NAME[name]
        if not principal.has(tool.role):
            raise Forbidden(
                f"The tool '{name}' needs a {tool.role.value} key.", requiredRole=tool.role.value, tool=name
            )
        args = tool.args.model_validate(dict(arguments))
        result: dict[str, Any] = getattr(self, name)(principal, args)
        return result

    def recall(self, p: Principal, a: RecallArgs) -> dict[str, Any]:
        result = self.engram.recall.recall(p, a.user_id, RecallRequest(a.message, a.token_budget))
        items = [*result.preferences, *result.memories]
        return {
            "context": result.rendered.text,
            "items": [{"id": i.entry.id, "key": i.entry.key, "tier": i.tier, "why": i.why} for i in items],
        }

    def list_user_memories(self, p: Principal, a: ListArgs) -> dict[str, Any]:
        page = self.engram.memory.list_memories(
            p, a.user_id, scope_for(p), category=a.category, limit=a.limit, cursor=a.cursor
        )
        return {"items": _entries(page.items, a.verbose), "nextCursor": page.next_cursor}

    def get_visible_memories(self, p: Principal, a: VisibleArgs) -> dict[str, Any]:
        order = None if a.order is None else RecallOrder(a.order)
        page = self.engram.memory.visible(p, a.user_id, a.agent_id, a.group_id, order, a.limit)
        return {"items": _entries(page.items, a.verbose), "nextCursor": page.next_cursor}

    def search_user_memories(self, p: Principal, a: SearchArgs) -> dict[str, Any]:
        results = self.engram.memory.search(p, a.user_id, a.query, limit=a.limit)
        return {
            "query": a.query,
            "items": [{"entry": _entries([r.entry], a.verbose)[0], "score": round(r.score, 4)} for r in results],
        }

    def get_memory_by_key(self, p: Principal, a: KeyArgs) -> dict[str, Any]:
        page = self.engram.memory.list_memories(p, a.user_id, scope_for(p), key=a.key, limit=1000)
        return {"items": _entries(page.items, a.verbose)}

    def forget_memory_by_key(self, p: Principal, a: ForgetKeyArgs) -> dict[str, Any]:
        deleted = self.engram.memory.delete_by_key(p, a.user_id, a.key)
        return {"key": a.key, "deleted": [e.id for e in deleted]}

    def count_user_memories(self, p: Principal, a: UserArgs) -> dict[str, Any]:
        return {"count": self.engram.memory.count(p, a.user_id)}

    def upsert_user_memory(self, p: Principal, a: UpsertArgs) -> dict[str, Any]:
        command = UpsertCommand(
            key=a.key,
            value=a.value,
            category=a.category,
            visibility=Visibility(a.visibility),
            group_ids=None if a.group_ids is None else tuple(a.group_ids),
            source_message_id=a.source_message_id,
        )
        result = self.engram.memory.upsert(p, a.user_id, [command])[0]
        return {
            "outcome": result.outcome.value,
            "entry": _entries([result.entry], verbose=False)[0],
            "previousId": None if result.previous is None else result.previous.id,
            **matched_data(result.matched),
        }

    def delete_user_memory(self, p: Principal, a: DeleteArgs) -> dict[str, Any]:
        deleted = self.engram.memory.delete(p, a.user_id, a.entry_id)
        return {"deleted": {**_entries([deleted], verbose=False)[0], "status": deleted.status.value}}

    def delete_all_user_memories(self, p: Principal, a: DeleteAllArgs) -> dict[str, Any]:
        if a.confirmation != CONFIRMATION:
            raise ConfirmationRequired(
                'This erases everything about the user for good; call again with confirmation="CONFIRM".',
                field="confirmation",
            )
        receipt = self.engram.privacy.erase(p, a.user_id, a.confirmation)
        return {
            "tenantId": receipt.tenant_id,
            "userId": receipt.user_id,
            "erasedAt": receipt.erased_at.isoformat(),
            "counts": receipt.counts,
        }


def principal_from_request(request: Any) -> Principal:
    """The principal ``KeyAuth`` put on the HTTP request's scope."""
    principal = None if request is None else request.scope.get(PRINCIPAL_SCOPE_KEY)
    if not isinstance(principal, Principal):
        raise Unauthenticated("An API key is required: send it as 'Authorization: Bearer <key>'.")
    return principal


def create_server(
    engram_provider: Callable[[], Engram],
    principal: Principal | None = None,
) -> Server[Any]:
    """The MCP server. With ``principal`` (stdio) every request acts as it; otherwise each
    HTTP request carries its own, put there by ``KeyAuth``."""

    def who(ctx: Any) -> Principal:
        return principal if principal is not None else principal_from_request(ctx.request)

    async def list_tools(ctx: Any, params: mt.PaginatedRequestParams | None) -> mt.ListToolsResult:
        caller = who(ctx)
        return mt.ListToolsResult(tools=[t.definition() for t in tools_for(caller)])

    async def call_tool(ctx: Any, params: mt.CallToolRequestParams) -> mt.CallToolResult:
        caller = who(ctx)
        if params.name not in MCP_TOOLS_BY_NAME:
            raise MCPError(mt.INVALID_PARAMS, f"Unknown tool: {params.name}")
        tools = MemoryTools(engram_provider())
        try:
            result = await anyio.to_thread.run_sync(tools.call, caller, params.name, params.arguments or {})
        except ValidationError as exc:
            errors = [{"field": ".".join(str(x) for x in e["loc"]), "message": e["msg"]} for e in exc.errors()]
            first = errors[0]
            return _error_result(
                "validation_error", f"Invalid input at '{first['field']}': {first['message']}.", {"errors": errors}
            )
        except EngramError as exc:
            logger.info("mcp tool refused", extra={"tool": params.name, "code": exc.code})
            return _error_result(exc.code, exc.message, exc.details)
        # recall's text is the context block itself: what a model reads best.
        text = result["context"] if params.name == "recall" else json.dumps(result, ensure_ascii=False, default=str)
        return mt.CallToolResult(content=[mt.TextContent(type="text", text=text)], structured_content=result)

    return Server(
        "engram",
        version=__version__,
        title="Engram memory",
        instructions=(
            "Persistent memory of users for AI agents. Call recall with the user's message at the start "
            "of a turn; remember what the user tells you about themselves with upsert_user_memory and "
            "forget on request with forget_memory_by_key (writer keys). delete_all_user_memories needs "
            "an admin key and confirmation='CONFIRM'."
        ),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _error_result(code: str, message: str, details: Mapping[str, Any]) -> mt.CallToolResult:
    body = {"code": code, "message": message, "details": dict(details)}
    return mt.CallToolResult(
        content=[mt.TextContent(type="text", text=f"error [{code}]: {message}")],
        structured_content=body,
        is_error=True,
    )


# -- streamable HTTP ------------------------------------------------------------------------
Authenticate = Callable[[Scope], Principal]


class KeyAuth:
    """ASGI middleware: resolve the caller's principal before the MCP transport sees the request."""

    def __init__(self, app: ASGIApp, authenticate: Authenticate) -> None:
        self.app = app
        self.authenticate = authenticate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            principal = await anyio.to_thread.run_sync(self.authenticate, scope)
        except EngramError as exc:
            response = JSONResponse(
                {"code": exc.code, "message": exc.message, "details": exc.details},
                status_code=exc.status,
                headers={"WWW-Authenticate": "Bearer"} if exc.status == 401 else None,
            )
            await response(scope, receive, send)
            return
        scope[PRINCIPAL_SCOPE_KEY] = principal
        await self.app(scope, receive, send)


def bearer_authenticator(engram: Engram) -> Authenticate:
    def authenticate(scope: Scope) -> Principal:
        return engram.keys.authenticate(Headers(scope=scope).get("authorization"))

    return authenticate


def authorizer_authenticator(scope: Scope) -> Principal:
    """In Lambda the API Gateway authorizer has checked the key; its context is the principal."""
    from engram.api.auth import principal_of

    return principal_of(scope.get("aws.event") or {})


@dataclass
class McpEndpoint:
    """``/mcp``: the ASGI endpoint plus the session manager its host app must run."""

    app: ASGIApp
    manager: StreamableHTTPSessionManager

    @contextlib.asynccontextmanager
    async def lifespan(self, _app: Any = None) -> AsyncIterator[None]:
        async with self.manager.run():
            yield


def mcp_endpoint(
    engram_provider: Callable[[], Engram],
    authenticate: Authenticate,
    *,
    loopback: bool = True,
) -> McpEndpoint:
    # Loopback hosts get the SDK's DNS-rebinding guard (Host/Origin checks); behind API
    # Gateway the host is the gateway's and the guard has nothing to check.
    security = (
        TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
            allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
        )
        if loopback
        else TransportSecuritySettings(enable_dns_rebinding_protection=False)
    )
    manager = StreamableHTTPSessionManager(
        app=create_server(engram_provider),
        json_response=True,
        stateless=True,
        security_settings=security,
    )
    return McpEndpoint(KeyAuth(StreamableHTTPASGIApp(manager), authenticate), manager)


# -- stdio ----------------------------------------------------------------------------------
async def run_stdio(engram: Engram, principal: Principal) -> None:
    """Serve MCP on stdin/stdout as ``principal`` (the SDK diverts stray stdout to stderr)."""
    from mcp.server.stdio import stdio_server

    server = create_server(lambda: engram, principal)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
