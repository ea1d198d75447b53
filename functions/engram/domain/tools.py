"""LLM memory tools: one definition, exported as OpenAI, Anthropic and Bedrock Converse schemas.

The tools are EDDI's four (``rememberFact``, ``recallMemories``, ``searchMemory``,
``forgetFact``), Mordecai's ``search_memory`` and ``set_agent_name``, and YouLab's
``propose_memory_edit``. Each is defined once, by a pydantic model of its arguments
(which also validates a model's call); the provider formats are projections of it.

Also here, because they are pure: reading a model's tool call in any of the three
formats, shaping the tool result the provider expects back, and the texts a model reads.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engram.domain.agent_config import DEFAULT_CATEGORIES, AgentConfig
from engram.domain.errors import ValidationFailed

# The whitelist entry that turns on every memory tool (EDDI's name for its tool group).
MEMORY_TOOLSET = "usermemory"


class ToolFormat(StrEnum):
    OPENAI = "openai"
    # The OpenAI Responses API: flat ``{"type": "function", "name": ...}`` tools.
    OPENAI_RESPONSES = "openai_responses"
    ANTHROPIC = "anthropic"
    BEDROCK = "bedrock"


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


KEY_DESCRIPTION = 'Short snake_case name for the memory, e.g. "favorite_color" or "dietary_restriction".'


class RememberFactArgs(_Args):
    key: str = Field(min_length=1, max_length=1024, description=KEY_DESCRIPTION)
    value: str = Field(min_length=1, max_length=100_000, description="The value to remember.")
    category: str = Field(description="What kind of memory this is.")
    visibility: Literal["self", "group", "global"] = Field(
        "self",
        description="self: only this agent sees it; group: the agents of its groups; global: every agent.",
    )


class NoArgs(_Args):
    pass


class RecallMemoriesArgs(_Args):
    query: str | None = Field(
        None,
        max_length=2000,
        description="What the user just said or asked; the memories that matter for it come first.",
    )


class SearchMemoryArgs(_Args):
    query: str = Field(min_length=1, max_length=2000, description='Search text, e.g. "color".')


class ForgetFactArgs(_Args):
    key: str = Field(min_length=1, max_length=1024, description='The key to forget, e.g. "favorite_color".')


class TypedSearchArgs(_Args):
    query: str = Field(min_length=1, max_length=2000, description="What to look for in long-term memory.")
    memory_type: Literal["all", "facts", "preferences"] = Field(
        "all", description="Restrict the search to facts or preferences."
    )


class SetAgentNameArgs(_Args):
    name: str = Field(min_length=1, max_length=200, description='The name the user gave you, e.g. "Jarvis".')


class ProposeMemoryEditArgs(_Args):
    key: str = Field(min_length=1, max_length=1024, description=KEY_DESCRIPTION)
    value: str = Field(min_length=1, max_length=100_000, description="The proposed new value.")
    category: str = Field(description="What kind of memory this is.")
    visibility: Literal["self", "group", "global"] = Field("self", description="Who may see it once approved.")
    reason: str = Field("", max_length=2000, description="Why you propose this change; the user sees it.")


@dataclass(frozen=True, slots=True)
class ToolDef:
    name: str
    description: str
    args: type[_Args]
    # Whether a call counts against the agent's maxWritesPerTurn.
    writes: bool
    # Argument whose enum is the agent's allowed categories.
    has_category: bool = False


TOOLS: tuple[ToolDef, ...] = (
    ToolDef(
        "rememberFact",
        "Store a fact about the user so that it is remembered in later conversations.",
        RememberFactArgs,
        writes=True,
        has_category=True,
    ),
    ToolDef(
        "recallMemories",
        "Recall what you know about the user that matters for this turn: who they are, their core "
        "preferences and the memories most relevant to the query.",
        RecallMemoriesArgs,
        writes=False,
    ),
    ToolDef(
        "searchMemory",
        "Search the user's memories by keyword across keys and values.",
        SearchMemoryArgs,
        writes=False,
    ),
    ToolDef("forgetFact", "Delete a specific memory about the user by key.", ForgetFactArgs, writes=True),
    ToolDef(
        "search_memory",
        "Search long-term memory for facts and preferences about the user, e.g. when the user asks "
        "what you know about them or about past conversations.",
        TypedSearchArgs,
        writes=False,
    ),
    ToolDef(
        "set_agent_name",
        'Store your own name when the user gives you one ("I\'ll call you Jarvis").',
        SetAgentNameArgs,
        writes=True,
    ),
    ToolDef(
        "propose_memory_edit",
        "Propose a change to the user's memory; it is applied only after the user approves it.",
        ProposeMemoryEditArgs,
        writes=True,
        has_category=True,
    ),
)
TOOLS_BY_NAME: dict[str, ToolDef] = {t.name: t for t in TOOLS}
TOOL_NAMES: tuple[str, ...] = tuple(TOOLS_BY_NAME)
# Tools an agent gets only by naming them in builtInToolsWhitelist: search_memory is a second
# search tool, and two search tools side by side make models pick one at random.
OPT_IN_TOOLS: frozenset[str] = frozenset({"search_memory"})
DEFAULT_TOOL_NAMES: tuple[str, ...] = tuple(n for n in TOOL_NAMES if n not in OPT_IN_TOOLS)


# -- schemas ---------------------------------------------------------------------------
def _strip_titles(node: Any) -> Any:
    # pydantic adds a "title" to every property; providers ignore it and it costs tokens.
    if isinstance(node, dict):
        return {k: _strip_titles(v) for k, v in node.items() if k != "title"}
    if isinstance(node, list):
        return [_strip_titles(v) for v in node]
    return node


def input_schema(tool: ToolDef, categories: Sequence[str] = DEFAULT_CATEGORIES, strict: bool = False) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a tool's arguments; ``strict`` gives the subset
    OpenAI's strict mode accepts (every property required, optional ones nullable, no
    length limits or defaults). The executor checks the limits either way."""
    schema: dict[str, Any] = _strip_titles(tool.args.model_json_schema())
    schema.setdefault("properties", {})
    schema["additionalProperties"] = False
    if tool.has_category:
        schema["properties"]["category"] = {
            "type": "string",
            "enum": list(categories),
            "description": f"One of: {', '.join(categories)}.",
        }
    return _strict(schema) if strict else schema


# Keywords OpenAI's strict mode rejects; the executor still enforces them.
_NOT_STRICT = frozenset({"minLength", "maxLength", "default"})


def _strict(schema: dict[str, Any]) -> dict[str, Any]:
    required = set(schema.get("required", []))
    properties = {name: _strict_property(prop, name in required) for name, prop in schema["properties"].items()}
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def _strict_keys(schema: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if k not in _NOT_STRICT}


def _strict_property(prop: dict[str, Any], required: bool) -> dict[str, Any]:
    """Strict mode requires every property: an optional one becomes nullable instead."""
    prop = _strict_keys(prop)
    if "anyOf" in prop:  # pydantic's X | None
        types = [o["type"] for o in map(_strict_keys, prop.pop("anyOf")) if "type" in o]
        prop["type"] = types if len(types) > 1 else types[0]
    elif not required:
        prop["type"] = [prop["type"], "null"]
        if "enum" in prop:
            prop["enum"] = [*prop["enum"], None]
    return prop


def select(names: Iterable[str] | None = None) -> list[ToolDef]:
    if names is None:
        return [TOOLS_BY_NAME[n] for n in DEFAULT_TOOL_NAMES]
    wanted = set(names)
    unknown = wanted - set(TOOLS_BY_NAME)
    if unknown:
        raise ValidationFailed(f"Unknown tools: {', '.join(sorted(unknown))}.", tools=sorted(unknown))
    return [t for t in TOOLS if t.name in wanted]


def openai_tools(
    names: Iterable[str] | None = None, categories: Sequence[str] = DEFAULT_CATEGORIES, strict: bool = False
) -> list[Any]:
    """``tools`` for OpenAI Chat Completions (``{"type": "function", "function": ...}``)."""
    out = []
    for t in select(names):
        function: dict[str, Any] = {
            "name": t.name,
            "description": t.description,
            "parameters": input_schema(t, categories, strict),
        }
        if strict:
            function["strict"] = True
        out.append({"type": "function", "function": function})
    return out


def openai_responses_tools(
    names: Iterable[str] | None = None, categories: Sequence[str] = DEFAULT_CATEGORIES, strict: bool = False
) -> list[Any]:
    """``tools`` for the OpenAI Responses API (``{"type": "function", "name": ...}``)."""
    return [
        {
            "type": "function",
            "name": t.name,
            "description": t.description,
            "parameters": input_schema(t, categories, strict),
            "strict": strict,
        }
        for t in select(names)
    ]


def anthropic_tools(
    names: Iterable[str] | None = None, categories: Sequence[str] = DEFAULT_CATEGORIES, strict: bool = False
) -> list[Any]:
    """``tools`` for the Anthropic Messages API."""
    return [
        {"name": t.name, "description": t.description, "input_schema": input_schema(t, categories, strict)}
        for t in select(names)
    ]


def bedrock_tools(
    names: Iterable[str] | None = None, categories: Sequence[str] = DEFAULT_CATEGORIES, strict: bool = False
) -> list[Any]:
    """``toolConfig.tools`` for Bedrock Converse."""
    return [
        {
            "toolSpec": {
                "name": t.name,
                "description": t.description,
                "inputSchema": {"json": input_schema(t, categories, strict)},
            }
        }
        for t in select(names)
    ]


def tool_schemas(
    fmt: ToolFormat,
    names: Iterable[str] | None = None,
    categories: Sequence[str] = DEFAULT_CATEGORIES,
    strict: bool = False,
) -> list[Any]:
    exporters = {
        ToolFormat.OPENAI: openai_tools,
        ToolFormat.OPENAI_RESPONSES: openai_responses_tools,
        ToolFormat.ANTHROPIC: anthropic_tools,
        ToolFormat.BEDROCK: bedrock_tools,
    }
    return exporters[fmt](names, categories, strict)


def allowed_tools(config: AgentConfig) -> tuple[str, ...]:
    """The tools an agent may use: none without enableMemoryTools; otherwise every memory
    tool when ``usermemory`` is whitelisted, or the tools named one by one."""
    if not config.enable_memory_tools:
        return ()
    listed = set(config.built_in_tools_whitelist)
    return tuple(n for n in TOOL_NAMES if n in listed or (MEMORY_TOOLSET in listed and n not in OPT_IN_TOOLS))


# -- reading a model's tool call -----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ToolCall:
    name: str
    arguments: dict[str, Any]
    call_id: str | None
    format: ToolFormat
    # OpenAI has two call shapes: Chat Completions ("chat") and the Responses API ("responses").
    style: str = ""
    # Set when the model sent arguments that are not a JSON object: the executor answers with
    # an error result the model can read, so the conversation stays valid for the provider.
    argument_error: str | None = None


def detect_format(raw: Mapping[str, Any]) -> ToolFormat:
    if "toolUse" in raw or "toolUseId" in raw:
        return ToolFormat.BEDROCK
    if raw.get("type") == "tool_use":
        return ToolFormat.ANTHROPIC
    if "function" in raw or raw.get("type") == "function_call":
        return ToolFormat.OPENAI
    raise ValidationFailed(
        "Cannot tell the tool call's format: expected an OpenAI tool call ({'function': ...}), an Anthropic "
        "tool_use block ({'type': 'tool_use', ...}) or a Bedrock toolUse block ({'toolUse': ...}).",
        field="toolCall",
    )


def parse_tool_call(raw: Mapping[str, Any], fmt: ToolFormat | None = None) -> ToolCall:
    """Read a tool call exactly as the model's API returned it."""
    if not isinstance(raw, Mapping):
        raise ValidationFailed("The tool call must be a JSON object.", field="toolCall")
    fmt = fmt or detect_format(raw)
    if fmt is ToolFormat.OPENAI_RESPONSES:
        fmt = ToolFormat.OPENAI
    if fmt is ToolFormat.BEDROCK:
        use = raw.get("toolUse", raw)
        return _call(use.get("name"), use.get("input"), use.get("toolUseId"), fmt, "converse")
    if fmt is ToolFormat.ANTHROPIC:
        return _call(raw.get("name"), raw.get("input"), raw.get("id"), fmt, "messages")
    if raw.get("type") == "function_call":
        return _call(raw.get("name"), raw.get("arguments"), raw.get("call_id"), fmt, "responses")
    function = raw.get("function")
    if not isinstance(function, Mapping):
        raise ValidationFailed("An OpenAI tool call needs a 'function' object.", field="toolCall.function")
    return _call(function.get("name"), function.get("arguments"), raw.get("id"), fmt, "chat")


def _call(name: Any, arguments: Any, call_id: Any, fmt: ToolFormat, style: str) -> ToolCall:
    try:
        args, problem = _arguments(arguments), None
    except ValidationFailed as exc:
        args, problem = {}, exc.message
    return ToolCall(_name(name), args, _opt_str(call_id), fmt, style, problem)


def tool_calls_in(response: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The tool calls of a whole model response: an OpenAI chat completion (or its message),
    an Anthropic message, or a Bedrock Converse response (or its message)."""
    if "choices" in response:  # OpenAI chat completion
        return tool_calls_in(response["choices"][0]["message"]) if response["choices"] else []
    if "output" in response and isinstance(response["output"], Mapping):  # Bedrock Converse
        return tool_calls_in(response["output"].get("message") or {})
    if isinstance(response.get("output"), list):  # OpenAI Responses API
        return [i for i in response["output"] if isinstance(i, Mapping) and i.get("type") == "function_call"]
    if "tool_calls" in response:  # an OpenAI assistant message
        return list(response.get("tool_calls") or [])
    content = response.get("content")
    if isinstance(content, list):  # an Anthropic message or a Bedrock message
        return [b for b in content if isinstance(b, Mapping) and (b.get("type") == "tool_use" or "toolUse" in b)]
    return []


def _name(value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise ValidationFailed("The tool call has no tool name.", field="toolCall.name")
    return value


def _opt_str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _arguments(value: Any) -> dict[str, Any]:
    if value is None or value == "":
        return {}
    if isinstance(value, str):
        # OpenAI sends arguments as a JSON string, and models sometimes get it wrong.
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise ValidationFailed("The tool call's arguments are not valid JSON.", field="toolCall.arguments") from exc
    if not isinstance(value, dict):
        raise ValidationFailed("The tool call's arguments must be a JSON object.", field="toolCall.arguments")
    return value


def validate_arguments(tool: ToolDef, arguments: Mapping[str, Any]) -> _Args:
    # Strict-mode schemas make optional arguments nullable: a null means "not given".
    given = {k: v for k, v in arguments.items() if v is not None}
    try:
        return tool.args.model_validate(given)
    except ValidationError as exc:
        # Field names and reasons only: the rejected values may be memory content.
        problems = [
            {"field": ".".join(str(p) for p in e["loc"]), "type": e["type"], "message": e["msg"]} for e in exc.errors()
        ]
        first = problems[0]
        raise ValidationFailed(
            f"Invalid arguments for {tool.name}: '{first['field']}' {first['message'].lower()}.",
            tool=tool.name,
            errors=problems,
        ) from None


def tool_result(call: ToolCall, text: str, is_error: bool = False) -> dict[str, Any]:
    """The message or content block that hands the result back to the model."""
    if call.format is ToolFormat.BEDROCK:
        return {
            "toolResult": {
                "toolUseId": call.call_id or "",
                "content": [{"text": text}],
                "status": "error" if is_error else "success",
            }
        }
    if call.format is ToolFormat.ANTHROPIC:
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call.call_id or "", "content": text}
        if is_error:
            block["is_error"] = True
        return block
    if call.style == "responses":
        return {"type": "function_call_output", "call_id": call.call_id or "", "output": text}
    return {"role": "tool", "tool_call_id": call.call_id or "", "content": text}


# -- what the model reads -----------------------------------------------------------------
def bullet(key: str, value: str, category: str, visibility: str) -> str:
    return f"• {key} = {value} [{category}, {visibility}]"


def remembered_text(key: str, value: str, category: str, visibility: str) -> str:
    return f"✅ Remembered: {key} = {value} [{category}, {visibility}]"


def forgotten_text(key: str) -> str:
    return f"✅ Forgotten: {key}"


def nothing_to_forget_text(key: str) -> str:
    return f"Nothing to forget: no memory with key '{key}' is visible to this agent."


def bullets_text(lines: Sequence[str], empty: str) -> str:
    return "\n".join(lines) if lines else empty


def agent_name_text(name: str) -> str:
    return f"✅ Stored my name as '{name}'; I will remember it across our conversations."


def proposed_text(key: str, value: str, category: str, visibility: str) -> str:
    return f"📝 Proposed: {key} = {value} [{category}, {visibility}]; it will be applied once the user approves."


def error_text(message: str) -> str:
    return f"❌ {message}"
