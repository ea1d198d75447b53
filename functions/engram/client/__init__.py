"""Python client for Engram: sync (``EngramClient``) and async (``AsyncEngramClient``).

    from engram.client import EngramClient

    with EngramClient("http://127.0.0.1:8700", key) as engram:
        engram.remember("alice", "favorite_color", "blue", category="preference")
        for entry in engram.iter_visible("alice"):
            print(entry.key, entry.value)

Models are the API's own pydantic schemas (``engram.api.schemas``); errors are the
classes of ``engram.client.errors``. Tool schemas for OpenAI, Anthropic and Bedrock
come from ``engram.domain.tools`` offline, or per agent from ``client.tools(format)``.
"""

from engram.client._core import RetryPolicy
from engram.client.aio import AsyncEngramClient, AsyncToolTurn
from engram.client.errors import (
    APIError,
    AuthenticationError,
    ConflictError,
    ConnectionFailed,
    EngramClientError,
    GuardrailError,
    InvalidRequest,
    NotFoundError,
    PayloadTooLarge,
    PermissionDenied,
    RateLimitError,
    SensitiveDataError,
    ServerError,
    ServiceUnavailable,
)
from engram.client.sync import EngramClient, ToolTurn
from engram.domain.tools import anthropic_tools, bedrock_tools, openai_tools

__all__ = [
    "APIError",
    "AsyncEngramClient",
    "AsyncToolTurn",
    "AuthenticationError",
    "ConflictError",
    "ConnectionFailed",
    "EngramClient",
    "EngramClientError",
    "GuardrailError",
    "InvalidRequest",
    "NotFoundError",
    "PayloadTooLarge",
    "PermissionDenied",
    "RateLimitError",
    "RetryPolicy",
    "SensitiveDataError",
    "ServerError",
    "ServiceUnavailable",
    "ToolTurn",
    "anthropic_tools",
    "bedrock_tools",
    "openai_tools",
]
