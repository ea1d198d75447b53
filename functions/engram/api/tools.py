"""LLM memory tools: their schemas for the calling agent, and the executor of a model's call."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Header, Query

from engram.api.deps import UserId, context, new_router
from engram.api.responses import errors
from engram.api.schemas import ErrorBody
from engram.api.tool_schemas import FormatName, ToolExecuteRequest, ToolExecution, ToolList
from engram.container import Engram
from engram.domain.tools import ToolFormat, parse_tool_call
from engram.service.proposals import ToolProposals
from engram.service.tools import ToolService

router = new_router()
TAG = ["tools"]

TurnId = Annotated[
    str | None,
    Header(
        alias="Engram-Turn-Id",
        max_length=256,
        description="Identifies one conversation turn; maxWritesPerTurn counts the turn's writing tool calls.",
    ),
]


def tool_service(engram: Engram) -> ToolService:
    # Built per request from the container's parts: it holds no state of its own.
    conversation = engram.conversation
    return ToolService(
        memory=engram.memory,
        users=engram.users,
        agents=engram.agents,
        turns=engram.repos.turns,
        clock=engram.clock,
        long_term=conversation.long_term,
        proposals=ToolProposals(engram.proposals),
        recall=engram.recall,
    )


@router.get(
    "/tools",
    summary="The memory tools the calling agent may use, as OpenAI, Anthropic or Bedrock tool definitions",
    description=(
        "Only the tools the agent's configuration gives it (enableMemoryTools, builtInToolsWhitelist), "
        "with the category enum set to its allowed categories."
    ),
    tags=TAG,
    responses=errors(),
)
def list_tools(
    format: Annotated[FormatName, Query(description="Provider format.")] = "openai",
    strict: Annotated[
        bool,
        Query(
            description=(
                "Schemas OpenAI's strict mode accepts: every property required (optional ones nullable), "
                "no length limits; the executor still checks them."
            )
        ),
    ] = False,
) -> ToolList:
    engram, principal = context(router)
    tools = tool_service(engram)
    fmt = ToolFormat(format)
    return ToolList(format=format, names=list(tools.allowed(principal)), tools=tools.schemas(principal, fmt, strict))


@router.post(
    "/users/<userId>/tools/execute",
    summary="Run a model's memory tool call for this user and return the tool result to hand back",
    description=(
        "Errors the model caused (invalid arguments, a guardrail such as too_many_writes, a sensitive "
        "value) come back with 200 and isError=true, with a text for the model and the stable error "
        "code, and so do arguments that are not valid JSON (invalid_arguments) and a tool the agent "
        "was not given (tool_not_allowed); memory tools switched off for the agent is a 403."
    ),
    tags=TAG,
    responses=errors(400),
)
def execute_tool(userId: UserId, body: ToolExecuteRequest, turn: TurnId = None) -> ToolExecution:
    engram, principal = context(router)
    call = parse_tool_call(body.tool_call, None if body.format is None else ToolFormat(body.format))
    outcome = tool_service(engram).execute(principal, userId, call, turn, body.conversation_id, body.message_id)
    error = None
    if outcome.is_error:
        error = ErrorBody(
            code=outcome.error_code or "tool_error",
            message=outcome.error_message or outcome.text,
            details=outcome.error_details,
        )
    return ToolExecution(
        name=call.name,
        tool_call_id=call.call_id,
        format=call.format.value,
        is_error=outcome.is_error,
        text=outcome.text,
        error=error,
        data=outcome.data,
        result=outcome.result,
    )
