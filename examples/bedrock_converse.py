"""Bedrock Converse tool use with Engram's memory tools.

The model gets the tools this agent may use (``engram.list_tools(format="bedrock")``, already in
``toolConfig`` shape); every ``toolUse`` block it returns goes to Engram as is, and the
``toolResult`` block Engram returns goes back to the model as is.

    import boto3
    from engram_memory_client import EngramClient

    bedrock = boto3.client("bedrock-runtime", region_name="us-east-1")
    with EngramClient("https://memory.example.com", "egm_...") as engram:
        print(converse_with_memory(bedrock, engram, "alice", "My favourite colour is blue."))
"""

from __future__ import annotations

from typing import Any

from engram_memory_client import EngramClient

MODEL_ID = "anthropic.claude-3-5-sonnet-20240620-v1:0"
SYSTEM = (
    "You are a helpful assistant with a long-term memory of the user. Use the memory tools to "
    "remember what the user tells you about themselves, and to recall it when it helps."
)


def converse_with_memory(
    bedrock: Any,
    engram: EngramClient,
    user_id: str,
    user_text: str,
    *,
    model_id: str = MODEL_ID,
    max_rounds: int = 5,
) -> str:
    """One user turn: converse until the model answers in text, running its memory tool calls."""
    tool_config = {"tools": engram.list_tools(format="bedrock").tools}
    messages: list[dict[str, Any]] = [{"role": "user", "content": [{"text": user_text}]}]
    turn = engram.turn(user_id)  # the turn's writes count against maxWritesPerTurn together
    for _ in range(max_rounds):
        response = bedrock.converse(
            modelId=model_id,
            system=[{"text": SYSTEM}],
            messages=messages,
            toolConfig=tool_config,
        )
        message = response["output"]["message"]
        messages.append(message)
        if response["stopReason"] != "tool_use":
            return "".join(block.get("text", "") for block in message["content"])
        results = [turn.execute(block).result for block in message["content"] if "toolUse" in block]
        messages.append({"role": "user", "content": results})
    raise RuntimeError(f"The model was still calling tools after {max_rounds} rounds.")
