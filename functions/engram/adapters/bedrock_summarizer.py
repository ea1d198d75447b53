"""Dream's optional summariser: the Bedrock Converse API.

The cost cap is enforced before each call, so ``max_cost_micros`` must be a true upper
bound: output is capped by ``maxTokens``, and input tokens are bounded by the prompt's
UTF-8 bytes (a byte-level BPE token covers at least one byte) plus a fixed allowance
for the model's chat template. The actual cost comes from the answer's ``usage``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Logger
from botocore.exceptions import BotoCoreError, ClientError

from engram.domain.errors import StoreUnavailable, Throttled
from engram.ports import SummaryRequest, SummaryResult

if TYPE_CHECKING:
    from mypy_boto3_bedrock_runtime import BedrockRuntimeClient

    from engram.settings import Settings

logger = Logger(service="engram", child=True)

SYSTEM_PROMPT = (
    "You compress what an assistant remembers about a user. Merge the facts you are given "
    "into one short, neutral summary in the third person. Keep every distinct fact, drop "
    "repetition, add nothing that is not stated, and never include secrets, passwords, "
    "government ids or payment details. Answer with the summary only."
)
TEMPLATE_ALLOWANCE_TOKENS = 64
_THROTTLING = frozenset({"ThrottlingException", "TooManyRequestsException", "ServiceUnavailableException"})


def prompt(request: SummaryRequest) -> str:
    lines = "\n".join(f"- {fact}" for fact in request.facts)
    return f"Facts of category '{request.category}' (at most {request.max_chars} characters in the summary):\n{lines}"


class BedrockSummarizer:
    def __init__(
        self,
        client: BedrockRuntimeClient,
        *,
        model: str,
        usd_per_million_input: float,
        usd_per_million_output: float,
        max_output_tokens: int = 400,
    ) -> None:
        self._client = client
        self._model = model
        # US dollars per million tokens is micro-dollars per token.
        self._in = usd_per_million_input
        self._out = usd_per_million_output
        self._max_out = max_output_tokens

    @classmethod
    def from_settings(cls, settings: Settings) -> BedrockSummarizer:
        import boto3
        from botocore.config import Config

        client = boto3.client(
            "bedrock-runtime",
            region_name=settings.aws_region,
            config=Config(retries={"mode": "standard", "max_attempts": 3}, connect_timeout=3, read_timeout=60),
        )
        return cls(
            client,
            model=settings.bedrock_summary_model,
            usd_per_million_input=settings.summary_usd_per_million_input_tokens,
            usd_per_million_output=settings.summary_usd_per_million_output_tokens,
        )

    def _max_tokens(self, request: SummaryRequest) -> int:
        # Roughly four characters a token; never more than the configured ceiling.
        return max(16, min(self._max_out, request.max_chars // 3 + 16))

    def max_cost_micros(self, request: SummaryRequest) -> int:
        input_bound = len(SYSTEM_PROMPT.encode()) + len(prompt(request).encode()) + TEMPLATE_ALLOWANCE_TOKENS
        return math.ceil(input_bound * self._in + self._max_tokens(request) * self._out)

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        try:
            answer: Any = self._client.converse(
                modelId=self._model,
                system=[{"text": SYSTEM_PROMPT}],
                messages=[{"role": "user", "content": [{"text": prompt(request)}]}],
                inferenceConfig={"maxTokens": self._max_tokens(request), "temperature": 0.0},
            )
        except ClientError as exc:
            code = str(exc.response.get("Error", {}).get("Code", ""))
            logger.warning("bedrock converse failed", extra={"error_code": code, "model": self._model})
            if code in _THROTTLING:
                raise Throttled("The summarisation model is busy; retry shortly.", errorCode=code) from exc
            raise StoreUnavailable("The summarisation model refused the request.", errorCode=code) from exc
        except BotoCoreError as exc:
            raise StoreUnavailable("The summarisation model cannot be reached.", model=self._model) from exc
        usage = answer.get("usage") or {}
        cost = math.ceil(int(usage.get("inputTokens", 0)) * self._in + int(usage.get("outputTokens", 0)) * self._out)
        blocks = answer.get("output", {}).get("message", {}).get("content", [])
        text = "".join(b.get("text", "") for b in blocks if isinstance(b, dict))
        return SummaryResult(text.strip(), cost)
