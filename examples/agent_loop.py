"""A whole agent loop with Engram's memory tools, no LLM needed.

A scripted "model" stands in for the LLM: it answers in the chosen provider's exact
response format (OpenAI, Anthropic or Bedrock Converse) and asks for memory tools the way
a real model would. Everything else is what a real agent does:

1. fetch the tools this agent may use, in the provider's format, to hand to the model;
2. send the conversation to the model;
3. run every tool call the model asks for through Engram (one turn id per user turn, so
   ``maxWritesPerTurn`` applies) and append the tool results it returns;
4. repeat until the model answers in text.

Run it against ``engram serve``:

    ENGRAM_URL=http://127.0.0.1:8700 ENGRAM_API_KEY=egm_... python examples/agent_loop.py --format anthropic
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from engram.domain.tools import tool_calls_in
from engram_memory_client import EngramClient

# What the user says, and the tool call a model makes of it: (tool name, arguments).
SCRIPT: list[tuple[str, str, dict[str, Any]]] = [
    (
        "My favourite colour is blue.",
        "rememberFact",
        {"key": "favorite_color", "value": "blue", "category": "preference"},
    ),
    ("I'm vegetarian, by the way.", "rememberFact", {"key": "diet", "value": "vegetarian", "category": "fact"}),
    ("I'll call you Jarvis.", "set_agent_name", {"name": "Jarvis"}),
    ("What do you know about me?", "recallMemories", {}),
    ("Do you remember anything about colours?", "searchMemory", {"query": "colour color"}),
    ("Please forget my favourite colour.", "forgetFact", {"key": "favorite_color"}),
    ("What do you know about me now?", "recallMemories", {}),
]


class ScriptedModel:
    """Plays the LLM: one tool call per user message, then a reply quoting the tool result."""

    def __init__(self, fmt: str) -> None:
        self.fmt = fmt
        self.calls = 0

    def respond(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        last = messages[-1]
        tool_text = _tool_result_text(last)
        if tool_text is not None:
            return self._text(f"(from memory) {tool_text}")
        said = _user_text(last)
        name, args = next((n, a) for text, n, a in SCRIPT if text == said)
        self.calls += 1
        return self._tool_call(f"call_{self.calls}", name, args)

    def _tool_call(self, call_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
        if self.fmt == "openai":
            call = {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            message = {"role": "assistant", "content": None, "tool_calls": [call]}
            return {"object": "chat.completion", "choices": [{"message": message, "finish_reason": "tool_calls"}]}
        if self.fmt == "anthropic":
            block = {"type": "tool_use", "id": call_id, "name": name, "input": args}
            return {"type": "message", "role": "assistant", "content": [block], "stop_reason": "tool_use"}
        block = {"toolUse": {"toolUseId": call_id, "name": name, "input": args}}
        return {"output": {"message": {"role": "assistant", "content": [block]}}, "stopReason": "tool_use"}

    def _text(self, text: str) -> dict[str, Any]:
        if self.fmt == "openai":
            message = {"role": "assistant", "content": text}
            return {"object": "chat.completion", "choices": [{"message": message, "finish_reason": "stop"}]}
        if self.fmt == "anthropic":
            return {"type": "message", "role": "assistant", "content": [{"type": "text", "text": text}]}
        return {"output": {"message": {"role": "assistant", "content": [{"text": text}]}}, "stopReason": "end_turn"}


def assistant_message(fmt: str, response: dict[str, Any]) -> dict[str, Any]:
    """The assistant message to keep in the conversation, from a whole model response."""
    if fmt == "openai":
        return dict(response["choices"][0]["message"])
    if fmt == "anthropic":
        return {"role": "assistant", "content": response["content"]}
    return dict(response["output"]["message"])


def user_message(fmt: str, text: str) -> dict[str, Any]:
    if fmt == "bedrock":
        return {"role": "user", "content": [{"text": text}]}
    return {"role": "user", "content": text}


def tool_results_message(fmt: str, results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """OpenAI wants one message per result; Anthropic and Bedrock one user message holding them."""
    if fmt == "openai":
        return results
    return [{"role": "user", "content": results}]


def run(engram: EngramClient, user_id: str, fmt: str, out: Any = sys.stdout) -> list[str]:
    tools = engram.list_tools(format=fmt)  # what a real agent passes to the model as its tools
    print(f"[{fmt}] tools offered to the model: {', '.join(tools.names)}", file=out)
    model = ScriptedModel(fmt)
    messages: list[dict[str, Any]] = []
    replies: list[str] = []
    for said, _, _ in SCRIPT:
        print(f"user: {said}", file=out)
        messages.append(user_message(fmt, said))
        turn = engram.turn(user_id)  # one turn id for every tool call this user message causes
        while True:
            response = model.respond(messages)
            messages.append(assistant_message(fmt, response))
            calls = tool_calls_in(response)
            if not calls:
                reply = _reply_text(messages[-1])
                replies.append(reply)
                print(f"agent: {reply}", file=out)
                break
            results = []
            for call in calls:
                execution = turn.execute(call)
                print(f"  tool {execution.name} -> {execution.text}", file=out)
                results.append(execution.result)
            messages.extend(tool_results_message(fmt, results))
    return replies


def _user_text(message: dict[str, Any]) -> str:
    content = message["content"]
    return content if isinstance(content, str) else content[0]["text"]


def _tool_result_text(message: dict[str, Any]) -> str | None:
    if message.get("role") == "tool":
        return str(message["content"])
    content = message.get("content")
    if isinstance(content, list) and content and isinstance(content[0], dict):
        block = content[0]
        if block.get("type") == "tool_result":
            return str(block["content"])
        if "toolResult" in block:
            return str(block["toolResult"]["content"][0]["text"])
    return None


def _reply_text(message: dict[str, Any]) -> str:
    content = message["content"]
    return content if isinstance(content, str) else content[0]["text"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", choices=["openai", "anthropic", "bedrock"], default="openai")
    parser.add_argument("--user", default="example-user")
    args = parser.parse_args()
    with EngramClient(os.environ.get("ENGRAM_URL", "http://127.0.0.1:8700"), os.environ["ENGRAM_API_KEY"]) as engram:
        run(engram, args.user, args.format)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
