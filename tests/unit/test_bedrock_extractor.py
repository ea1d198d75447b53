"""The LLM extractor on Bedrock Converse, against botocore's Stubber (the service model checks requests)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import boto3
import pytest
from botocore.stub import ANY, Stubber
from engram.adapters.bedrock_extractor import TOOL_CONFIG, TOOL_NAME, BedrockExtractor, Pricing
from engram.domain.errors import StoreUnavailable, Throttled

MODEL = "anthropic.claude-3-haiku-20240307-v1:0"
SENT = datetime(2026, 1, 10, 21, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _aws_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")


def reply(tool_input: dict[str, Any], tokens_in: int = 900, tokens_out: int = 120) -> dict[str, Any]:
    return {
        "output": {
            "message": {
                "role": "assistant",
                "content": [{"toolUse": {"toolUseId": "tu-1", "name": TOOL_NAME, "input": tool_input}}],
            }
        },
        "stopReason": "tool_use",
        "usage": {"inputTokens": tokens_in, "outputTokens": tokens_out, "totalTokens": tokens_in + tokens_out},
        "metrics": {"latencyMs": 420},
    }


def extractor() -> tuple[BedrockExtractor, Stubber]:
    client = boto3.client("bedrock-runtime", region_name="us-east-1")
    return BedrockExtractor(client, MODEL, Pricing(0.00025, 0.00125)), Stubber(client)


def test_given_a_message_when_extracted_then_the_tool_call_becomes_facts_at_llm_confidence() -> None:
    ext, stub = extractor()
    stub.add_response(
        "converse",
        reply(
            {
                "facts": [
                    {"key": "favorite_food", "value": "ramen", "category": "preference", "confidence": 0.95},
                    {"key": "Trip Paris", "value": "went to Paris yesterday", "category": "event", "confidence": 0.9},
                ],
                "userName": "Alice",
            }
        ),
        {
            "modelId": MODEL,
            "system": ANY,
            "messages": [{"role": "user", "content": [{"text": ANY}]}],
            "toolConfig": TOOL_CONFIG,
            "inferenceConfig": {"maxTokens": 1024, "temperature": 0.0},
        },
    )
    with stub:
        got = ext.extract("I'm Alice. Ramen is my favourite now, and I went to Paris yesterday.", SENT)
        stub.assert_no_pending_responses()
    food, trip = got.facts
    assert (food.key, food.value, food.category, food.confidence) == ("favorite_food", "ramen", "preference", 0.85)
    # The model's relative time resolves against the message's own timestamp.
    assert trip.key == "trip_paris" and trip.value == "went to Paris on 2026-01-09"
    assert trip.valid_from is not None and trip.valid_from.date() == date(2026, 1, 9)
    assert got.identity.name == "Alice"
    assert got.usage is not None
    assert (got.usage.input_tokens, got.usage.output_tokens) == (900, 120)
    assert got.usage.cost_usd == pytest.approx(900 / 1000 * 0.00025 + 120 / 1000 * 0.00125)


def test_the_prompt_carries_the_message_time_for_relative_dates() -> None:
    ext, stub = extractor()
    seen: dict[str, Any] = {}

    def capture(params: dict[str, Any], **_: Any) -> None:
        seen.update(params)

    stub.client.meta.events.register("provide-client-params.bedrock-runtime.Converse", capture)
    stub.add_response("converse", reply({"facts": []}))
    with stub:
        ext.extract("I moved to Oslo last week", SENT)
    text = seen["messages"][0]["content"][0]["text"]
    assert "2026-01-10T21:00:00+00:00 (Saturday)" in text and "I moved to Oslo last week" in text


def test_uncertain_sensitive_and_malformed_facts_are_dropped_and_counted() -> None:
    ext, stub = extractor()
    stub.add_response(
        "converse",
        reply(
            {
                "facts": [
                    {"key": "likes", "value": "sushi", "category": "preference", "confidence": 0.3},
                    {"key": "card", "value": "4111 1111 1111 1111", "category": "fact", "confidence": 0.99},
                    {"key": "", "value": "x", "category": "fact", "confidence": 0.9},
                    {"key": "mood", "value": "tired", "category": "vibes", "confidence": 0.9},
                ]
            }
        ),
    )
    with stub:
        got = ext.extract("maybe I like sushi? my card is 4111 1111 1111 1111. tired.", SENT)
    assert got.dropped == {"uncertain": 1, "sensitive": 1, "unparsed": 1}
    assert [(f.key, f.category) for f in got.facts] == [("mood", "other")]


def test_trivial_messages_cost_no_model_call() -> None:
    ext, stub = extractor()
    with stub:
        assert ext.extract("thanks!", SENT).skipped == "trivial"
        stub.assert_no_pending_responses()


def test_no_tool_call_counts_as_unparsed_but_usage_is_still_recorded() -> None:
    ext, stub = extractor()
    answer = reply({})
    answer["output"]["message"]["content"] = [{"text": "I cannot help with that."}]
    stub.add_response("converse", answer)
    with stub:
        got = ext.extract("my favorite food is ramen", SENT)
    assert got.facts == [] and got.dropped == {"unparsed": 1}
    assert got.usage is not None and got.usage.input_tokens == 900


def test_throttling_and_other_errors_become_domain_errors_so_the_job_is_retried() -> None:
    ext, stub = extractor()
    stub.add_client_error("converse", "ThrottlingException", http_status_code=429)
    stub.add_client_error("converse", "AccessDeniedException", http_status_code=403)
    with stub:
        with pytest.raises(Throttled):
            ext.extract("my favorite food is ramen", SENT)
        with pytest.raises(StoreUnavailable):
            ext.extract("my favorite food is ramen", SENT)
