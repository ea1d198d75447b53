"""A ``FactExtractor`` on Amazon Bedrock: Converse with a forced tool call.

The model answers only by calling ``record_facts`` with structured facts, so there is
no free text to parse. What it returns is checked like any other extraction: the
sensitive filter, known categories, a confidence floor, relative times resolved
against the message's own timestamp. Stored facts carry the LLM confidence (0.85,
behaviour item 14); each call's tokens and cost are returned and logged.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Logger
from botocore.exceptions import BotoCoreError, ClientError

from engram.domain.errors import StoreUnavailable, Throttled
from engram.domain.extraction import (
    EXTRACTION_CATEGORIES,
    LLM_CONFIDENCE,
    ExtractedFact,
    Extraction,
    IdentityUpdate,
    LlmUsage,
    is_trivial,
)
from engram.domain.relative_time import resolve_in_text
from engram.domain.sensitive import find_sensitive

if TYPE_CHECKING:
    from mypy_boto3_bedrock_runtime.client import BedrockRuntimeClient
    from mypy_boto3_bedrock_runtime.type_defs import ConverseResponseTypeDef, ToolConfigurationTypeDef

logger = Logger(service="engram", child=True)

TOOL_NAME = "record_facts"
# Below this the model itself is unsure: the same rule that drops "maybe" and "might".
MIN_MODEL_CONFIDENCE = 0.5
_IMPORTANCE = {"fact": 70, "preference": 75, "event": 60, "feeling": 60, "other": 50}
_KEY = re.compile(r"[^a-z0-9:_]+")

SYSTEM_PROMPT = """You extract durable facts about the user from one message the user wrote to an assistant.
Call record_facts exactly once. Rules:
- Only what the user states about themselves ("my", "I", "I'm"): never about other people, never the assistant.
- Skip questions, hypotheticals, wishes and anything uncertain ("maybe", "might", "if", "would", "thinking about").
- Never record passwords, secrets, card or account numbers, or government ids.
- key: short snake_case subject, e.g. favorite_food, location, employer, likes:pizza, event:trip_paris.
- category: fact | preference | event | feeling | other. Feelings are momentary; events happen at a time.
- Resolve relative times ("yesterday", "next week") against the time the message was sent, given below,
  and put the resolved ISO date in "date".
- userName / nickname / agentName only when the user states them ("my name is", "call me", "I'll call you").
- If there is nothing durable, call record_facts with an empty facts list."""

TOOL_CONFIG: ToolConfigurationTypeDef = {
    "tools": [
        {
            "toolSpec": {
                "name": TOOL_NAME,
                "description": "Record the facts the user stated about themselves in this message.",
                "inputSchema": {
                    "json": {
                        "type": "object",
                        "properties": {
                            "facts": {
                                "type": "array",
                                "items": {
                                    "type": "object",
                                    "properties": {
                                        "key": {"type": "string"},
                                        "value": {"type": "string"},
                                        "category": {"type": "string", "enum": list(EXTRACTION_CATEGORIES)},
                                        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                                        "date": {"type": "string", "description": "ISO date, if the fact has one"},
                                    },
                                    "required": ["key", "value", "category", "confidence"],
                                },
                            },
                            "userName": {"type": "string"},
                            "nickname": {"type": "string"},
                            "agentName": {"type": "string"},
                        },
                        "required": ["facts"],
                    }
                },
            }
        }
    ],
    "toolChoice": {"tool": {"name": TOOL_NAME}},
}


# The message's framing (timestamp, tags) and the request's own structure.
PROMPT_ALLOWANCE_BYTES = 200


@dataclass(frozen=True, slots=True)
class Pricing:
    """USD per 1,000 tokens (defaults: Claude 3 Haiku on demand)."""

    input_per_1k: float = 0.00025
    output_per_1k: float = 0.00125

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return round(input_tokens / 1000 * self.input_per_1k + output_tokens / 1000 * self.output_per_1k, 8)


class BedrockExtractor:
    def __init__(
        self,
        client: BedrockRuntimeClient,
        model_id: str = "anthropic.claude-3-haiku-20240307-v1:0",
        pricing: Pricing | None = None,
        max_tokens: int = 1024,
    ) -> None:
        self._client = client
        self._model_id = model_id
        self._pricing = pricing or Pricing()
        self._max_tokens = max_tokens

    @property
    def name(self) -> str:
        return f"bedrock:{self._model_id}"

    def extract(self, text: str, timestamp: datetime) -> Extraction:
        if is_trivial(text):
            return Extraction(skipped="trivial")  # no model call for "ok" or "thanks"
        reply = self._converse(text, timestamp)
        usage_in = int(reply.get("usage", {}).get("inputTokens", 0))
        usage_out = int(reply.get("usage", {}).get("outputTokens", 0))
        usage = LlmUsage(self._model_id, usage_in, usage_out, self._pricing.cost(usage_in, usage_out))
        logger.info(
            "llm extraction call",
            extra={
                "model_id": self._model_id,
                "input_tokens": usage_in,
                "output_tokens": usage_out,
                "cost_usd": usage.cost_usd,
            },
        )
        payload = _tool_input(reply)
        if payload is None:
            return Extraction(dropped={"unparsed": 1}, usage=usage)
        facts, dropped = _facts(payload.get("facts"), text, timestamp)
        identity = IdentityUpdate(
            _clean_name(payload.get("userName")),
            _clean_name(payload.get("nickname")),
            _clean_name(payload.get("agentName")),
        )
        return Extraction(facts, identity, dropped, usage=usage)

    def max_cost_usd(self, text: str) -> float:
        """Every token is at least one byte: the prompt's bytes bound its input tokens."""
        if is_trivial(text):
            return 0.0
        sent = len(SYSTEM_PROMPT.encode()) + len(json.dumps(TOOL_CONFIG).encode()) + len(text.encode())
        return self._pricing.cost(sent + PROMPT_ALLOWANCE_BYTES, self._max_tokens)

    def _converse(self, text: str, timestamp: datetime) -> ConverseResponseTypeDef:
        sent = f"{timestamp.isoformat()} ({timestamp.strftime('%A')})"
        try:
            return self._client.converse(
                modelId=self._model_id,
                system=[{"text": SYSTEM_PROMPT}],
                messages=[
                    {
                        "role": "user",
                        "content": [{"text": f"Message sent at {sent}:\n<message>\n{text}\n</message>"}],
                    }
                ],
                toolConfig=TOOL_CONFIG,
                inferenceConfig={"maxTokens": self._max_tokens, "temperature": 0.0},
            )
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "")
            if code in ("ThrottlingException", "ServiceQuotaExceededException"):
                raise Throttled("The extraction model is throttling; the job will be retried.") from exc
            raise StoreUnavailable("The extraction model refused the request.", errorCode=code) from exc
        except BotoCoreError as exc:
            raise StoreUnavailable("The extraction model cannot be reached.") from exc


def _tool_input(reply: ConverseResponseTypeDef) -> dict[str, Any] | None:
    for block in reply.get("output", {}).get("message", {}).get("content", []):
        use = block.get("toolUse")
        if use is not None and use.get("name") == TOOL_NAME and isinstance(use.get("input"), dict):
            return dict(use["input"])
    return None


def _facts(raw: Any, text: str, timestamp: datetime) -> tuple[list[ExtractedFact], dict[str, int]]:
    dropped: Counter[str] = Counter()
    out: list[ExtractedFact] = []
    for item in raw if isinstance(raw, list) else []:
        fact = _fact(item, text, timestamp)
        if isinstance(fact, str):
            dropped[fact] += 1
        else:
            out.append(fact)
    return out, dict(dropped)


def _fact(item: Any, text: str, timestamp: datetime) -> ExtractedFact | str:
    """One fact the model reported, or why it is dropped ("unparsed", "uncertain",
    "sensitive")."""
    if not isinstance(item, dict):
        return "unparsed"
    key = _KEY.sub("_", str(item.get("key", "")).strip().casefold()).strip("_")[:100]
    value = str(item.get("value", "")).strip()
    category = str(item.get("category", "other"))
    try:
        confidence = float(item.get("confidence", 0.0))
    except (TypeError, ValueError):
        confidence = 0.0
    if not key or not value:
        return "unparsed"
    if confidence < MIN_MODEL_CONFIDENCE:
        return "uncertain"
    if find_sensitive(value, key) is not None:
        return "sensitive"
    if category not in EXTRACTION_CATEGORIES:
        category = "other"
    value, when = resolve_in_text(value, timestamp)
    valid_from = _date(item.get("date"), timestamp)
    if valid_from is None and when is not None:
        valid_from = datetime.combine(when.start, time(0), tzinfo=timestamp.tzinfo)
    return ExtractedFact(key, value, category, LLM_CONFIDENCE, _IMPORTANCE[category], text[:4000], "llm", valid_from)


def _date(raw: Any, timestamp: datetime) -> datetime | None:
    if not isinstance(raw, str):
        return None
    try:
        day = date.fromisoformat(raw[:10])
    except ValueError:
        return None
    return datetime.combine(day, time(0), tzinfo=timestamp.tzinfo)


def _clean_name(raw: Any) -> str | None:
    if not isinstance(raw, str):
        return None
    name = " ".join(raw.split())[:200]
    return name or None
