"""Model responses that ask for a memory tool, as each provider's API returns them.

Shapes follow the providers' documented responses (OpenAI Chat Completions, Anthropic
Messages, Bedrock Converse); ids are the providers' formats, the rest is what a model
says when told "my favourite colour is blue" with Engram's tools.
"""

from __future__ import annotations

import json
from typing import Any

REMEMBER_ARGS = {"key": "favorite_color", "value": "blue", "category": "preference"}
REMEMBERED = "✅ Remembered: favorite_color = blue [preference, self]"

OPENAI_CHAT_COMPLETION: dict[str, Any] = {
    "id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
    "object": "chat.completion",
    "created": 1741570283,
    "model": "gpt-4o-2024-08-06",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_Qx3HhZ4mN8wq1sV7",
                        "type": "function",
                        "function": {"name": "rememberFact", "arguments": json.dumps(REMEMBER_ARGS)},
                    }
                ],
                "refusal": None,
                "annotations": [],
            },
            "logprobs": None,
            "finish_reason": "tool_calls",
        }
    ],
    "usage": {"prompt_tokens": 412, "completion_tokens": 27, "total_tokens": 439},
    "service_tier": "default",
    "system_fingerprint": "fp_fc9f1d7035",
}

ANTHROPIC_MESSAGE: dict[str, Any] = {
    "id": "msg_01Aq9w938a90dw8q4DRw3zkd",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-20250514",
    "content": [
        {"type": "text", "text": "I'll remember that your favourite colour is blue."},
        {
            "type": "tool_use",
            "id": "toolu_01A09q90qw90lq917835lq9",
            "name": "rememberFact",
            "input": REMEMBER_ARGS,
        },
    ],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 472, "output_tokens": 91},
}

BEDROCK_CONVERSE: dict[str, Any] = {
    "ResponseMetadata": {"RequestId": "5f7c2e1a-2b7d-4a43-9d7e-3c1f0b7d2a11", "HTTPStatusCode": 200},
    "output": {
        "message": {
            "role": "assistant",
            "content": [
                {"text": "Noted, I'll remember it."},
                {
                    "toolUse": {
                        "toolUseId": "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q",
                        "name": "rememberFact",
                        "input": REMEMBER_ARGS,
                    }
                },
            ],
        }
    },
    "stopReason": "tool_use",
    "usage": {"inputTokens": 455, "outputTokens": 63, "totalTokens": 518},
    "metrics": {"latencyMs": 1057},
}

RECORDED = {"openai": OPENAI_CHAT_COMPLETION, "anthropic": ANTHROPIC_MESSAGE, "bedrock": BEDROCK_CONVERSE}
CALL_IDS = {
    "openai": "call_Qx3HhZ4mN8wq1sV7",
    "anthropic": "toolu_01A09q90qw90lq917835lq9",
    "bedrock": "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q",
}


def expected_result(fmt: str, text: str) -> dict[str, Any]:
    """The tool result each provider expects back for a successful call."""
    if fmt == "openai":
        return {"role": "tool", "tool_call_id": CALL_IDS[fmt], "content": text}
    if fmt == "anthropic":
        return {"type": "tool_result", "tool_use_id": CALL_IDS[fmt], "content": text}
    return {"toolResult": {"toolUseId": CALL_IDS[fmt], "content": [{"text": text}], "status": "success"}}


def call(fmt: str, name: str, arguments: dict[str, Any], call_id: str = "c1") -> dict[str, Any]:
    """A tool call block in a provider's format (for tools beyond the recorded one)."""
    if fmt == "openai":
        return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}
    if fmt == "anthropic":
        return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}
    return {"toolUse": {"toolUseId": call_id, "name": name, "input": arguments}}
