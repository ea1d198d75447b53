"""``Idempotency-Key`` on writes: a retried request applies once and replays its answer.

A Powertools middleware around every PUT/POST/PATCH/DELETE that carries the header.
Powertools' ``idempotent_function`` does the bookkeeping (in-progress records, expiry,
payload validation) on the same persistence as extraction: SQLite locally, the
idempotency table on DynamoDB in the cloud. The record key is the caller's tenant and
agent, the method, the path and the header, so two agents can never collide; the body's
hash is validated, so reusing a key for a different request is refused.

Only successful answers are kept. A domain error (4xx) is raised through Powertools,
which drops the record, so a corrected retry with the same key is applied; 5xx answers
are never stored either.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from threading import Lock
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response
from aws_lambda_powertools.event_handler.middlewares import NextMiddleware
from aws_lambda_powertools.utilities.data_classes import APIGatewayProxyEvent
from aws_lambda_powertools.utilities.idempotency import (
    BasePersistenceLayer,
    IdempotencyConfig,
    idempotent_function,
)
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyAlreadyInProgressError,
    IdempotencyPersistenceLayerError,
    IdempotencyValidationError,
)
from aws_lambda_powertools.utilities.idempotency.persistence.datarecord import DataRecord

from engram.adapters.idempotency import owner_of
from engram.api.auth import current_principal
from engram.container import Engram, get_engram
from engram.domain.errors import EngramError, StoreUnavailable, ValidationFailed

HEADER = "idempotency-key"
_USER_IN_PATH = re.compile(r"^/v1/users/([^/]+)")
REPLAY_HEADER = "Idempotent-Replayed"
WRITE_METHODS = frozenset({"PUT", "POST", "PATCH", "DELETE"})
RECORD_SECONDS = 24 * 3600


class RequestInProgress(EngramError):
    code = "request_in_progress"
    status = 409


class IdempotencyKeyReused(EngramError):
    code = "idempotency_key_reused"
    status = 422


class _NotStored(Exception):
    """Carries an answer that must not be remembered (a 5xx) out of Powertools."""

    def __init__(self, response: Response[Any]) -> None:
        super().__init__("not stored")
        self.response = response


Runner = Callable[..., dict[str, Any]]
_runners: dict[int, tuple[BasePersistenceLayer, Runner, IdempotencyConfig]] = {}
_lock = Lock()


def _mark_replay(response: Any, idempotent_data: DataRecord) -> Any:
    response["replayed"] = True
    return response


def _runner(engram: Engram, app: APIGatewayRestResolver) -> Runner:
    with _lock:
        cached = _runners.get(id(engram))
        if cached is not None:
            # In-progress records expire with the invocation's remaining time.
            cached[2].register_lambda_context(app.lambda_context)
            return cached[1]
        persistence = engram.write_idempotency
        config = IdempotencyConfig(
            event_key_jmespath="key",
            payload_validation_jmespath="bodyHash",
            raise_on_no_idempotency_key=True,
            expires_after_seconds=RECORD_SECONDS,
            response_hook=_mark_replay,
        )

        @idempotent_function(data_keyword_argument="request", persistence_store=persistence, config=config)
        def run(request: dict[str, Any], call: Callable[[], Response[Any]]) -> dict[str, Any]:
            response = call()
            if response.status_code >= 500:
                raise _NotStored(response)
            return {
                "status": response.status_code,
                "body": response.body,
                "contentType": response.headers.get("Content-Type", "application/json"),
            }

        config.register_lambda_context(app.lambda_context)
        _runners[id(engram)] = (persistence, run, config)
        return run  # type: ignore[no-any-return]  # the decorator erases the signature


def _request(event: APIGatewayProxyEvent, key: str) -> dict[str, str]:
    """What identifies a keyed write: its owner, the key in its caller's scope, and the
    body (a key used again with another body is refused)."""
    principal = current_principal()
    # The owner prefixes the record id so that erasing the user erases its records too.
    user = _USER_IN_PATH.match(event.path)
    return {
        "owner": owner_of(principal.tenant_id, user.group(1) if user else "-"),
        "key": "\x1f".join((principal.tenant_id, principal.agent_id, event.http_method, event.path, key)),
        "bodyHash": hashlib.sha256((event.body or "").encode()).hexdigest(),
    }


def idempotency_middleware(app: APIGatewayRestResolver, next_middleware: NextMiddleware) -> Response[Any]:
    event = app.current_event
    key = next((v for k, v in (event.headers or {}).items() if k.lower() == HEADER), None)
    if event.http_method not in WRITE_METHODS or key is None:
        return next_middleware(app)
    if not 1 <= len(key) <= 255 or not key.isprintable():
        raise ValidationFailed("The Idempotency-Key header must be 1-255 printable characters.", field=HEADER)
    try:
        stored = _runner(get_engram(), app)(request=_request(event, key), call=lambda: next_middleware(app))
    except _NotStored as exc:
        return exc.response
    except IdempotencyAlreadyInProgressError as exc:
        raise RequestInProgress("A request with this Idempotency-Key is still being processed; retry shortly.") from exc
    except IdempotencyValidationError as exc:
        raise IdempotencyKeyReused(
            "This Idempotency-Key was already used for a different request; use a new key."
        ) from exc
    except IdempotencyPersistenceLayerError as exc:
        raise StoreUnavailable("Idempotency records are unavailable; retry shortly.") from exc
    headers = {REPLAY_HEADER: "true"} if stored.get("replayed") else {}
    return Response(
        status_code=int(stored["status"]), content_type=str(stored["contentType"]), body=stored["body"], headers=headers
    )
