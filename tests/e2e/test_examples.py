"""The examples run end to end against ``engram serve``: the scripted agent loop in every
provider format, and the Bedrock Converse snippet against a botocore Stubber."""

from __future__ import annotations

import importlib.util
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import boto3
import pytest
from botocore.stub import ANY, Stubber
from engram_memory_client import EngramClient

from tests.e2e.conftest import SERVER_BACKENDS, EngramServer
from tests.e2e.keys import make_keys

pytestmark = pytest.mark.e2e

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"examples_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngramServer]:
    """The examples exercise the client and the tools, not a backend: the embedded store will do."""
    data_dir = tmp_path_factory.mktemp("engram-examples")
    srv = EngramServer(data_dir, SERVER_BACKENDS["sqlite"](data_dir), "sqlite")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def key(server: EngramServer) -> str:
    return make_keys(server, ("acme", "assistant", ("writer",)))[0]


def test_given_a_served_engram_when_the_agent_loop_example_runs_as_a_script_then_it_remembers_and_forgets(
    server: EngramServer, key: str
) -> None:
    env = {**os.environ, "ENGRAM_URL": server.url, "ENGRAM_API_KEY": key}
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "agent_loop.py"), "--format", "anthropic", "--user", "script-user"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "tool rememberFact -> ✅ Remembered: favorite_color = blue [preference, self]" in out
    assert "tool forgetFact -> ✅ Forgotten: favorite_color" in out
    assert "agent: (from memory) • diet = vegetarian [fact, self]" in out.splitlines()[-1]


@pytest.mark.parametrize("fmt", ["openai", "anthropic", "bedrock"])
def test_given_each_provider_format_when_the_agent_loop_runs_then_memory_ends_as_the_conversation_left_it(
    server: EngramServer, key: str, fmt: str
) -> None:
    example = load("agent_loop")
    user = f"loop-{fmt}"
    with EngramClient(server.url, key) as engram:
        replies = example.run(engram, user, fmt, out=io.StringIO())
        assert len(replies) == len(example.SCRIPT)
        recalled = replies[3].removeprefix("(from memory) ").splitlines()
        assert sorted(recalled) == [
            "• diet = vegetarian [fact, self]",
            "• favorite_color = blue [preference, self]",
        ]
        assert "favorite_color = blue" in replies[4]
        assert [(e.key, e.value) for e in engram.iter_visible(user)] == [("diet", "vegetarian")]
        assert engram.get_profile(user).agent_names == {"assistant": "Jarvis"}


def test_given_the_bedrock_snippet_when_the_model_uses_a_memory_tool_then_engram_runs_it_and_converse_gets_the_result(
    server: EngramServer, key: str
) -> None:
    example = load("bedrock_converse")
    bedrock = boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    stubber = Stubber(bedrock)
    tool_use = {
        "toolUseId": "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q",
        "name": "rememberFact",
        "input": {"key": "favorite_color", "value": "blue", "category": "preference"},
    }
    usage = {"inputTokens": 455, "outputTokens": 63, "totalTokens": 518}
    with EngramClient(server.url, key) as engram:
        tools = engram.list_tools(format="bedrock").tools
        # The Stubber checks every request against the bedrock-runtime service model, so
        # Engram's tool specs and tool results must be valid Converse input.
        stubber.add_response(
            "converse",
            {
                "output": {"message": {"role": "assistant", "content": [{"toolUse": tool_use}]}},
                "stopReason": "tool_use",
                "usage": usage,
                "metrics": {"latencyMs": 812},
            },
            {"modelId": ANY, "system": ANY, "messages": ANY, "toolConfig": {"tools": tools}},
        )
        remembered = "✅ Remembered: favorite_color = blue [preference, self]"
        stubber.add_response(
            "converse",
            {
                "output": {"message": {"role": "assistant", "content": [{"text": "Blue it is."}]}},
                "stopReason": "end_turn",
                "usage": usage,
                "metrics": {"latencyMs": 640},
            },
            {
                "modelId": ANY,
                "system": ANY,
                "toolConfig": {"tools": tools},
                "messages": [
                    {"role": "user", "content": [{"text": "My favourite colour is blue."}]},
                    {"role": "assistant", "content": [{"toolUse": tool_use}]},
                    {
                        "role": "user",
                        "content": [
                            {
                                "toolResult": {
                                    "toolUseId": tool_use["toolUseId"],
                                    "content": [{"text": remembered}],
                                    "status": "success",
                                }
                            }
                        ],
                    },
                ],
            },
        )
        with stubber:
            reply = example.converse_with_memory(bedrock, engram, "bedrock-user", "My favourite colour is blue.")
        stubber.assert_no_pending_responses()
        assert reply == "Blue it is."
        assert [(e.key, e.value) for e in engram.iter_visible("bedrock-user")] == [("favorite_color", "blue")]


def test_given_a_served_engram_when_the_langgraph_example_runs_as_a_script_then_the_graph_remembers_and_recalls(
    server: EngramServer, key: str
) -> None:
    pytest.importorskip("langgraph")
    env = {**os.environ, "ENGRAM_URL": server.url, "ENGRAM_API_KEY": key}
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "langgraph_memory.py"), "--user", "graph-user"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # The last turn is answered from what the first two turns stored in Engram.
    assert "The user is vegetarian" in lines[5] and "marathon" in lines[5], done.stdout
    assert any(line.startswith("retriever -> ") and "marathon" in line for line in lines), done.stdout
