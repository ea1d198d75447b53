"""LLM tool definitions: valid JSON Schemas in three provider formats, and reading model calls."""

from __future__ import annotations

import json

import pytest
from engram.domain import tools as T
from engram.domain.agent_config import AgentConfig
from engram.domain.errors import ValidationFailed
from jsonschema import Draft202012Validator

from tests.recorded_tool_calls import CALL_IDS, RECORDED, REMEMBER_ARGS

FORMATS = list(T.ToolFormat)


def _schemas(
    fmt: T.ToolFormat,
    categories: tuple[str, ...] = ("preference", "fact", "context"),
    names: tuple[str, ...] | None = T.TOOL_NAMES,
    strict: bool = False,
) -> dict[str, dict]:
    out = {}
    for tool in T.tool_schemas(fmt, names, categories, strict):
        if fmt is T.ToolFormat.OPENAI:
            assert tool["type"] == "function"
            out[tool["function"]["name"]] = tool["function"]["parameters"]
        elif fmt is T.ToolFormat.OPENAI_RESPONSES:
            assert tool["type"] == "function"
            assert tool["strict"] is strict
            out[tool["name"]] = tool["parameters"]
        elif fmt is T.ToolFormat.ANTHROPIC:
            out[tool["name"]] = tool["input_schema"]
        else:
            out[tool["toolSpec"]["name"]] = tool["toolSpec"]["inputSchema"]["json"]
    return out


@pytest.mark.parametrize("fmt", FORMATS)
def test_given_every_tool_when_exported_in_a_format_then_each_schema_passes_the_json_schema_metaschema(
    fmt: T.ToolFormat,
) -> None:
    schemas = _schemas(fmt)
    assert list(schemas) == list(T.TOOL_NAMES)
    for name, schema in schemas.items():
        Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object", name
        assert schema["additionalProperties"] is False, name
        assert "title" not in json.dumps(schema), name


def test_given_the_three_formats_when_compared_then_they_carry_one_definition() -> None:
    by_format = {fmt: _schemas(fmt) for fmt in FORMATS}
    assert len({json.dumps(s, sort_keys=True) for s in by_format.values()}) == 1


def test_given_eddi_parameters_when_exported_then_remember_fact_takes_key_value_category_and_visibility() -> None:
    schema = _schemas(T.ToolFormat.ANTHROPIC)["rememberFact"]
    assert set(schema["properties"]) == {"key", "value", "category", "visibility"}
    assert schema["required"] == ["key", "value", "category"]
    assert schema["properties"]["visibility"]["enum"] == ["self", "group", "global"]
    assert schema["properties"]["visibility"]["default"] == "self"
    assert list(_schemas(T.ToolFormat.ANTHROPIC)["recallMemories"]["properties"]) == ["query"]
    typed = _schemas(T.ToolFormat.ANTHROPIC)["search_memory"]
    assert typed["properties"]["memory_type"]["enum"] == ["all", "facts", "preferences"]
    assert typed["required"] == ["query"]


def test_given_an_agents_categories_when_exported_then_the_category_enum_is_exactly_them() -> None:
    schema = _schemas(T.ToolFormat.OPENAI, ("event", "fact"))["rememberFact"]
    assert schema["properties"]["category"]["enum"] == ["event", "fact"]
    validator = Draft202012Validator(schema)
    assert validator.is_valid({"key": "k", "value": "v", "category": "event"})
    assert not validator.is_valid({"key": "k", "value": "v", "category": "preference"})
    assert not validator.is_valid({"key": "k", "value": "v", "category": "fact", "extra": 1})


@pytest.mark.parametrize("fmt", ["openai", "anthropic", "bedrock"])
def test_given_a_recorded_model_response_when_its_tool_call_is_read_then_name_arguments_and_id_come_out(
    fmt: str,
) -> None:
    calls = T.tool_calls_in(RECORDED[fmt])
    assert len(calls) == 1
    call = T.parse_tool_call(calls[0])
    assert call.format.value == fmt
    assert (call.name, call.arguments, call.call_id) == ("rememberFact", REMEMBER_ARGS, CALL_IDS[fmt])
    # The arguments satisfy the tool's own published schema.
    schema = _schemas(call.format)["rememberFact"]
    Draft202012Validator(schema).validate(call.arguments)


def test_given_an_openai_responses_api_call_when_read_then_its_result_is_a_function_call_output() -> None:
    raw = {"type": "function_call", "call_id": "call_9", "name": "searchMemory", "arguments": '{"query": "color"}'}
    call = T.parse_tool_call(raw)
    assert (call.format, call.style, call.arguments) == (T.ToolFormat.OPENAI, "responses", {"query": "color"})
    assert T.tool_result(call, "x") == {"type": "function_call_output", "call_id": "call_9", "output": "x"}
    assert T.tool_calls_in({"output": [raw, {"type": "message"}]}) == [raw]


def test_given_a_failed_call_when_shaped_then_each_provider_sees_the_error_flag() -> None:
    anthropic = T.parse_tool_call({"type": "tool_use", "id": "t1", "name": "forgetFact", "input": {"key": "k"}})
    bedrock = T.parse_tool_call({"toolUse": {"toolUseId": "b1", "name": "forgetFact", "input": {"key": "k"}}})
    assert T.tool_result(anthropic, "❌ no", True)["is_error"] is True
    assert "is_error" not in T.tool_result(anthropic, "ok")
    assert T.tool_result(bedrock, "❌ no", True)["toolResult"]["status"] == "error"


@pytest.mark.parametrize(
    "raw",
    [
        {"something": "else"},
        {"type": "tool_use", "id": "t", "input": {}},
        {"id": "c", "type": "function", "function": "rememberFact"},
    ],
)
def test_given_a_malformed_tool_call_when_read_then_it_is_a_validation_error(raw: dict) -> None:
    with pytest.raises(ValidationFailed):
        T.parse_tool_call(raw)


@pytest.mark.parametrize("arguments", ["{not json", "[1, 2]", '"text"'])
def test_given_arguments_that_are_not_a_json_object_when_read_then_the_call_keeps_its_id_and_the_problem(
    arguments: str,
) -> None:
    # The model's mistake, not the caller's: the executor must still answer the call by its id.
    call = T.parse_tool_call(
        {"id": "c", "type": "function", "function": {"name": "rememberFact", "arguments": arguments}}
    )
    assert (call.name, call.call_id, call.arguments) == ("rememberFact", "c", {})
    assert call.argument_error is not None and "JSON" in call.argument_error


def test_given_the_default_tool_set_when_listed_then_it_offers_exactly_one_search_tool() -> None:
    names = [t["name"] for t in T.anthropic_tools()]
    assert [n for n in names if "search" in n.lower()] == ["searchMemory"]
    assert "search_memory" in T.allowed_tools(AgentConfig(built_in_tools_whitelist=("usermemory", "search_memory")))


@pytest.mark.parametrize("fmt", [T.ToolFormat.OPENAI, T.ToolFormat.OPENAI_RESPONSES])
def test_given_strict_mode_when_exported_then_every_schema_follows_openais_strict_rules(fmt: T.ToolFormat) -> None:
    for name, schema in _schemas(fmt, strict=True).items():
        Draft202012Validator.check_schema(schema)
        assert schema["additionalProperties"] is False, name
        assert sorted(schema["required"]) == sorted(schema["properties"]), name
        text = json.dumps(schema)
        for keyword in ("minLength", "maxLength", "default", "anyOf"):
            assert f'"{keyword}"' not in text, (name, keyword)
    strict = _schemas(fmt, strict=True)
    # A strict model sends null for what it leaves out; the executor reads null as "not given".
    call = {"key": "k", "value": "v", "category": "fact", "visibility": None}
    Draft202012Validator(strict["rememberFact"]).validate(call)
    args = T.validate_arguments(T.TOOLS_BY_NAME["rememberFact"], call)
    assert args.visibility == "self"  # type: ignore[attr-defined]
    Draft202012Validator(strict["recallMemories"]).validate({"query": None})


def test_given_bad_arguments_when_validated_then_the_error_names_the_field_not_the_value() -> None:
    tool = T.TOOLS_BY_NAME["rememberFact"]
    with pytest.raises(ValidationFailed) as err:
        T.validate_arguments(tool, {"key": "pin", "value": "secret-1234", "category": "fact", "bogus": True})
    assert "bogus" in err.value.message
    assert "secret-1234" not in json.dumps(err.value.details)
    with pytest.raises(ValidationFailed, match="'value'"):
        T.validate_arguments(tool, {"key": "k", "category": "fact"})


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        (AgentConfig(), T.DEFAULT_TOOL_NAMES),
        (AgentConfig(built_in_tools_whitelist=("search_memory",)), ("search_memory",)),
        (AgentConfig(enable_memory_tools=False), ()),
        (AgentConfig(built_in_tools_whitelist=()), ()),
        (AgentConfig(built_in_tools_whitelist=("searchMemory", "rememberFact")), ("rememberFact", "searchMemory")),
    ],
)
def test_given_an_agent_config_when_asked_then_it_allows_the_whitelisted_tools(
    config: AgentConfig, expected: tuple[str, ...]
) -> None:
    assert T.allowed_tools(config) == expected


def test_given_eddi_texts_when_rendered_then_they_read_as_documented() -> None:
    assert T.remembered_text("favorite_color", "blue", "preference", "self") == (
        "✅ Remembered: favorite_color = blue [preference, self]"
    )
    assert T.forgotten_text("favorite_color") == "✅ Forgotten: favorite_color"
    assert T.bullet("language", "English", "preference", "global") == "• language = English [preference, global]"
