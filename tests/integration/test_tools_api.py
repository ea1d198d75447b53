"""The tool routes through the gateway and handler: schemas per agent, executing model calls."""

from __future__ import annotations

import pytest
from engram.domain.agent_config import AgentConfig, Guardrails, UserMemoryConfig
from engram.domain.models import Role
from jsonschema import Draft202012Validator

from tests.integration.conftest import Api
from tests.recorded_tool_calls import RECORDED, REMEMBERED, call, expected_result

EXECUTE = "/v1/users/alice/tools/execute"


@pytest.mark.parametrize("fmt", ["openai", "anthropic", "bedrock"])
def test_given_a_recorded_model_call_when_posted_then_it_runs_and_returns_the_result_block(api: Api, fmt: str) -> None:
    key = api.key("acme", "alpha")
    tool_call = RECORDED[fmt]
    block = {
        "openai": lambda r: r["choices"][0]["message"]["tool_calls"][0],
        "anthropic": lambda r: r["content"][1],
        "bedrock": lambda r: r["output"]["message"]["content"][1],
    }[fmt](tool_call)
    reply = api.call("POST", EXECUTE, key, json_body={"toolCall": block, "conversationId": "conv-1"})
    assert reply.status == 200, reply.body
    body = reply.json()
    assert (body["name"], body["format"], body["isError"], body["text"]) == ("rememberFact", fmt, False, REMEMBERED)
    assert body["result"] == expected_result(fmt, REMEMBERED)
    assert body["data"]["entry"]["sourceConversationId"] == "conv-1"
    recall = api.call("POST", EXECUTE, key, json_body={"toolCall": call(fmt, "recallMemories", {})}).json()
    assert recall["text"] == "• favorite_color = blue [preference, self]"


@pytest.mark.parametrize("fmt", ["openai", "anthropic", "bedrock"])
def test_given_an_agent_when_it_asks_for_its_tools_then_it_gets_valid_schemas_in_that_format(
    api: Api, fmt: str
) -> None:
    admin = api.key("acme", "ops", Role.ADMIN)
    key = api.key("acme", "alpha")
    config = AgentConfig(
        built_in_tools_whitelist=("rememberFact", "forgetFact"),
        user_memory_config=UserMemoryConfig(guardrails=Guardrails(allowed_categories=("fact", "event"))),
    )
    assert api.call("PUT", "/v1/agents/alpha/config", admin, json_body=config.model_dump(by_alias=True)).status == 200
    body = api.call("GET", "/v1/tools", key, query=f"format={fmt}").json()
    assert body["names"] == ["rememberFact", "forgetFact"]
    assert len(body["tools"]) == 2
    for tool in body["tools"]:
        schema = {
            "openai": lambda t: t["function"]["parameters"],
            "anthropic": lambda t: t["input_schema"],
            "bedrock": lambda t: t["toolSpec"]["inputSchema"]["json"],
        }[fmt](tool)
        Draft202012Validator.check_schema(schema)
    remember = body["tools"][0]
    spec = remember.get("function") or remember.get("toolSpec") or remember
    schema = spec.get("parameters") or spec.get("input_schema") or spec["inputSchema"]["json"]
    assert schema["properties"]["category"]["enum"] == ["fact", "event"]


def test_given_a_tool_outside_the_whitelist_when_called_then_the_model_reads_tool_not_allowed(api: Api) -> None:
    admin = api.key("acme", "ops", Role.ADMIN)
    key = api.key("acme", "alpha")
    config = AgentConfig(built_in_tools_whitelist=("recallMemories",))
    api.call("PUT", "/v1/agents/alpha/config", admin, json_body=config.model_dump(by_alias=True))
    reply = api.call(
        "POST",
        EXECUTE,
        key,
        json_body={"toolCall": call("openai", "rememberFact", {"key": "k", "value": "v", "category": "fact"})},
    )
    assert reply.status == 200
    assert (reply.json()["isError"], reply.json()["error"]["code"]) == (True, "tool_not_allowed")
    # Memory tools switched off altogether is the caller's set-up, not the model's mistake.
    off = AgentConfig(enable_memory_tools=False)
    api.call("PUT", "/v1/agents/alpha/config", admin, json_body=off.model_dump(by_alias=True))
    reply = api.call("POST", EXECUTE, key, json_body={"toolCall": call("openai", "recallMemories", {})})
    assert (reply.status, reply.json()["code"]) == (403, "tool_not_allowed")


@pytest.mark.parametrize(
    "tool_call",
    [
        {"id": "call_1", "type": "function", "function": {"name": "rememberFact", "arguments": '{"key": "k", "val'}},
        {"type": "function_call", "call_id": "call_1", "name": "searchMemory", "arguments": "not json"},
        {"type": "tool_use", "id": "call_1", "name": "rememberFact", "input": "not an object"},
    ],
)
def test_given_arguments_that_are_not_valid_json_when_executed_then_it_is_200_with_an_is_error_result(
    api: Api, tool_call: dict
) -> None:
    key = api.key("acme", "alpha")
    reply = api.call("POST", EXECUTE, key, json_body={"toolCall": tool_call})
    assert reply.status == 200, reply.body
    body = reply.json()
    assert (body["isError"], body["error"]["code"], body["toolCallId"]) == (True, "invalid_arguments", "call_1")
    assert body["text"].startswith("❌ ")


def test_given_a_turn_id_header_when_a_turn_writes_too_much_then_the_model_reads_too_many_writes(api: Api) -> None:
    admin = api.key("acme", "ops", Role.ADMIN)
    key = api.key("acme", "alpha")
    config = AgentConfig(user_memory_config=UserMemoryConfig(guardrails=Guardrails(max_writes_per_turn=1)))
    api.call("PUT", "/v1/agents/alpha/config", admin, json_body=config.model_dump(by_alias=True))

    def write(n: int, turn: str) -> dict:
        tool_call = call("anthropic", "rememberFact", {"key": f"k{n}", "value": "v", "category": "fact"}, f"t{n}")
        reply = api.call("POST", EXECUTE, key, json_body={"toolCall": tool_call}, headers={"Engram-Turn-Id": turn})
        assert reply.status == 200, reply.body
        return reply.json()

    assert not write(1, "turn-1")["isError"]
    refused = write(2, "turn-1")
    assert refused["isError"] and refused["error"]["code"] == "too_many_writes"
    assert refused["result"] == {
        "type": "tool_result",
        "tool_use_id": "t2",
        "content": refused["text"],
        "is_error": True,
    }
    assert not write(3, "turn-2")["isError"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"toolCall": {"what": "ever"}}, 422, "validation_error"),
        ({"toolCall": {"type": "tool_use", "id": "x", "name": "recallMemories", "input": {}}, "extra": 1}, 422, None),
        ({"toolCall": {"type": "tool_use", "id": "x", "name": "recallMemories"}, "format": "gemini"}, 422, None),
        ({}, 422, "validation_error"),
    ],
)
def test_given_a_malformed_execute_request_when_posted_then_it_is_a_4xx_with_a_code(
    api: Api, body: dict, status: int, code: str | None
) -> None:
    reply = api.call("POST", EXECUTE, api.key("acme", "alpha"), json_body=body)
    assert reply.status == status, reply.body
    assert reply.json()["code"] == (code or "validation_error")


def test_given_no_key_when_executing_then_it_is_401(api: Api) -> None:
    reply = api.call("POST", EXECUTE, None, json_body={"toolCall": call("openai", "recallMemories", {})})
    assert reply.status == 401


@pytest.mark.parametrize("fmt", ["openai", "anthropic", "bedrock"])
def test_given_propose_memory_edit_when_the_user_approves_then_the_memory_lands(api: Api, fmt: str) -> None:
    admin = api.key("acme", "console", Role.ADMIN)
    key = api.key("acme", "alpha")
    assert "propose_memory_edit" in api.call("GET", "/v1/tools", key).json()["names"]
    args = {"key": "favorite_color", "value": "blue", "category": "preference", "reason": "the user said so"}
    body = api.call("POST", EXECUTE, key, json_body={"toolCall": call(fmt, "propose_memory_edit", args)}).json()
    assert not body["isError"], body
    assert body["text"].startswith("📝 Proposed: favorite_color = blue [preference, self]")
    proposal_id = body["data"]["proposal"]["id"]
    recall = call(fmt, "recallMemories", {})
    assert api.call("POST", EXECUTE, key, json_body={"toolCall": recall}).json()["text"] == (
        "No memories stored for this user yet."
    )
    pending = api.call("GET", "/v1/users/alice/proposals", admin).json()["items"]
    assert [p["id"] for p in pending] == [proposal_id]
    approved = api.call("POST", f"/v1/users/alice/proposals/{proposal_id}/approve", admin, json_body={})
    assert approved.status == 200, approved.body
    assert api.call("POST", EXECUTE, key, json_body={"toolCall": recall}).json()["text"] == (
        "• favorite_color = blue [preference, self]"
    )


def test_given_require_approval_when_remember_fact_runs_then_the_model_is_told_it_was_proposed(api: Api) -> None:
    admin = api.key("acme", "console", Role.ADMIN)
    key = api.key("acme", "alpha")
    config = AgentConfig(require_approval=("preference",))
    api.call("PUT", "/v1/agents/alpha/config", admin, json_body=config.model_dump(by_alias=True))
    args = {"key": "favorite_color", "value": "blue", "category": "preference"}
    body = api.call("POST", EXECUTE, key, json_body={"toolCall": call("openai", "rememberFact", args)}).json()
    assert body["text"].startswith("📝 Proposed: favorite_color = blue")
    assert body["data"]["outcome"] == "proposed" and body["data"]["proposalId"]
    assert api.call("GET", "/v1/users/alice/memories/count", key).json()["count"] == 0
