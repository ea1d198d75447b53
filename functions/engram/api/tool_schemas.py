"""Bodies of the LLM tool routes (``/v1/tools`` and ``/v1/users/{userId}/tools/execute``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from engram.api.schemas import ApiModel, ErrorBody, Identifier

FormatName = Literal["openai", "openai_responses", "anthropic", "bedrock"]


class ToolList(ApiModel):
    format: FormatName
    names: list[str] = Field(description="The tools this agent may use, in the order given.")
    tools: list[dict[str, Any]] = Field(description="Tool definitions in the requested provider's format.")


class ToolExecuteRequest(ApiModel):
    tool_call: dict[str, Any] = Field(
        description=(
            "The tool call exactly as the model's API returned it: an OpenAI tool call "
            "({id, type: function, function: {name, arguments}}) or Responses function_call, an "
            "Anthropic tool_use block ({type: tool_use, id, name, input}), or a Bedrock Converse "
            "toolUse block ({toolUse: {toolUseId, name, input}})."
        )
    )
    format: FormatName | None = Field(None, description="Detected from the call's shape when absent.")
    conversation_id: Identifier | None = Field(None, description="Recorded as the source of written memories.")
    message_id: Identifier | None = Field(
        None,
        description="The user message this call acts on, recorded as the source of written memories: "
        "the same fact from the same message is remembered once, whatever thread or path brings it again.",
    )


class ToolExecution(ApiModel):
    name: str
    tool_call_id: str | None = None
    format: FormatName
    is_error: bool = Field(description="The call failed for a reason the model should read (bad arguments, ...).")
    text: str = Field(
        description="What the model reads, e.g. '✅ Remembered: favorite_color = blue [preference, self]'."
    )
    error: ErrorBody | None = None
    data: dict[str, Any] = Field(default_factory=dict, description="Structured result (entries, outcome, ...).")
    result: dict[str, Any] = Field(
        description="The tool result message or content block to append to the conversation, in the call's format."
    )
