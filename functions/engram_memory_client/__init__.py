"""Python client for Engram, persistent memory for AI agents: every API operation as a typed
method, sync (``EngramClient``) and async (``AsyncEngramClient``).

    pip install engram-memory-client

    from engram_memory_client import EngramClient

    with EngramClient("http://127.0.0.1:8700", key) as engram:
        engram.remember("alice", "favorite_color", "blue", category="preference")
        context = engram.recall("alice", message="What should I wear?")
        print(context.context)

Models (``engram_memory_client.models``) and methods are generated from the service's
OpenAPI document; errors are the classes of ``engram_memory_client.errors``.
"""

from engram_memory_client import models
from engram_memory_client._core import NOT_GIVEN, NotGiven, RetryPolicy
from engram_memory_client._operations import OPERATIONS
from engram_memory_client.aio import AsyncEngramClient, AsyncToolTurn
from engram_memory_client.errors import (
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
from engram_memory_client.sync import EngramClient, ToolTurn

__version__ = "0.1.0"

__all__ = [
    "NOT_GIVEN",
    "OPERATIONS",
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
    "NotGiven",
    "PayloadTooLarge",
    "PermissionDenied",
    "RateLimitError",
    "RetryPolicy",
    "SensitiveDataError",
    "ServerError",
    "ServiceUnavailable",
    "ToolTurn",
    "models",
]
