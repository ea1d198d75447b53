"""Embeddings from Amazon Titan Text Embeddings v2 on Bedrock.

Request and answer bodies follow the model's documented parameters
(https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-titan-embed-text.html):
``inputText``, ``dimensions`` (256, 512 or 1024) and ``normalize``; the answer's
``embedding`` is the vector. The model embeds one text per call, so a batch runs a few
calls side by side.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Logger
from botocore.exceptions import BotoCoreError, ClientError

from engram.domain.errors import EmbedderUnavailable, Throttled

if TYPE_CHECKING:
    from mypy_boto3_bedrock_runtime import BedrockRuntimeClient

    from engram.settings import Settings

logger = Logger(service="engram", child=True)

TITAN_V2 = "amazon.titan-embed-text-v2:0"
DIMENSIONS = (256, 512, 1024)
# The model takes at most 50,000 characters (and 8,192 tokens) of non-empty text.
MAX_CHARS = 50_000
# When a long text still has too many tokens, embed its head: any 8,192 characters are
# at most 8,192 tokens in practice, and the start of a text carries its topic.
FALLBACK_CHARS = 8_192
# Oasis' threshold for sentence embeddings (design item 6). Titan v2 is a normalised
# sentence-level model of that kind; no Bedrock account is reachable from this build to
# tune it on our evaluation, so it stays at the documented value until measured.
DEDUP_THRESHOLD = 0.85
_THROTTLING = frozenset(
    {
        "ThrottlingException",
        "TooManyRequestsException",
        "ServiceQuotaExceededException",
        "ModelNotReadyException",
    }
)


def request_body(text: str, dimension: int) -> str:
    return json.dumps({"inputText": text, "dimensions": dimension, "normalize": True})


def vector_of(payload: bytes | str, dimension: int) -> list[float]:
    """The embedding of one answer, checked: the right size and finite."""
    data: Any = json.loads(payload)
    vector = data.get("embedding") if isinstance(data, dict) else None
    if not isinstance(vector, list) or len(vector) != dimension:
        raise EmbedderUnavailable("The embedding model answered with an unexpected vector.", expected=dimension)
    values = [float(v) for v in vector]
    if not all(math.isfinite(v) for v in values):
        raise EmbedderUnavailable("The embedding model answered with an unexpected vector.", expected=dimension)
    return values


class BedrockEmbedder:
    def __init__(
        self,
        client: BedrockRuntimeClient,
        *,
        model: str = TITAN_V2,
        dimension: int = 512,
        dedup_threshold: float = DEDUP_THRESHOLD,
        max_concurrency: int = 4,
    ) -> None:
        if dimension not in DIMENSIONS:
            raise ValueError(f"Titan Text Embeddings v2 makes vectors of {DIMENSIONS}, not {dimension}.")
        self._client = client
        self._model = model
        self._dim = dimension
        self._dedup = dedup_threshold
        self._concurrency = max(1, max_concurrency)

    @classmethod
    def from_settings(cls, settings: Settings) -> BedrockEmbedder:
        import boto3
        from botocore.config import Config

        client = boto3.client(
            "bedrock-runtime",
            region_name=settings.aws_region,
            # Standard retries back off on throttling before we give up and say so.
            config=Config(retries={"mode": "standard", "max_attempts": 3}, connect_timeout=3, read_timeout=10),
        )
        return cls(client, model=settings.bedrock_embedding_model, dimension=settings.bedrock_embedding_dimension)

    @property
    def model_id(self) -> str:
        # The size is part of the model: vectors of 256 and 512 dimensions do not compare.
        return f"bedrock:{self._model}:{self._dim}"

    @property
    def dimension(self) -> int:
        return self._dim

    @property
    def dedup_threshold(self) -> float:
        return self._dedup

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if len(texts) <= 1 or self._concurrency == 1:
            return [self._one(t) for t in texts]
        with ThreadPoolExecutor(max_workers=min(self._concurrency, len(texts))) as pool:
            return list(pool.map(self._one, texts))

    def _one(self, text: str) -> list[float]:
        if not text.strip():
            # The model refuses empty input; an empty text has no meaning to compare.
            return [0.0] * self._dim
        try:
            return self._invoke(text[:MAX_CHARS])
        except ClientError as exc:
            if _code(exc) == "ValidationException" and len(text) > FALLBACK_CHARS:
                try:
                    return self._invoke(text[:FALLBACK_CHARS])
                except ClientError as retry_exc:
                    raise _translate(retry_exc) from retry_exc
            raise _translate(exc) from exc
        except BotoCoreError as exc:
            logger.warning("bedrock call failed", extra={"model": self._model, "error_type": type(exc).__name__})
            raise EmbedderUnavailable("The embedding model cannot be reached.", model=self._model) from exc

    def _invoke(self, text: str) -> list[float]:
        response = self._client.invoke_model(
            modelId=self._model,
            body=request_body(text, self._dim),
            contentType="application/json",
            accept="application/json",
        )
        return vector_of(response["body"].read(), self._dim)


def _code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


def _translate(exc: ClientError) -> Exception:
    code = _code(exc)
    status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
    logger.warning("bedrock call failed", extra={"error_code": code, "status": status})
    if code in _THROTTLING or status == 429:
        return Throttled("The embedding model is busy; retry shortly.", errorCode=code)
    return EmbedderUnavailable("The embedding model refused the request.", errorCode=code)
