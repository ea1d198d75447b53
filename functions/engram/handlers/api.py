"""The ``api`` Lambda: API Gateway (REST) events in, the Powertools resolver does the rest.

One event at a time per process. Powertools' resolver keeps the request it is resolving
in state shared by every thread (``BaseRouter.current_event`` is a class attribute; the
routing context, with the matched route and its arguments, is one dict per resolver),
and its Logger and Metrics keep per-invocation keys the same way. That fits Lambda,
where an environment handles one event at a time, but ``engram serve`` calls this
handler from a thread pool: two requests resolved at once read each other's caller, body
and answer. So the whole invocation holds a process-wide lock; ``engram serve --workers
N`` gets parallelism from processes instead (measured, see docs/security.md). The caller
is also bound to the request's own context (``bound_principal``), so routes never read
it from the resolver's shared event.
"""

from __future__ import annotations

import functools
import threading
import warnings
from collections.abc import Callable
from typing import Any, TypeVar, cast

from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext

from engram.api.app import JSON_MEDIA_TYPE, create_app, error_event, unsupported_media_type_event
from engram.api.auth import bound_principal
from engram.api.limits import MAX_JSON_DEPTH, json_depth_exceeds
from engram.container import get_engram
from engram.handlers.observability import logger, metrics, trace_handler

# API Gateway already counts requests and latency; this function adds metrics only where
# it knows something new, so an invocation without one is normal, not worth a warning.
warnings.filterwarnings("ignore", message="No application metrics to publish")

_app: APIGatewayRestResolver | None = None
# Held for a whole invocation, and while the app is built (include_router rebinds the
# module-level routers to the app being built, so two builds at once would cross them).
_one_at_a_time = threading.Lock()

F = TypeVar("F", bound=Callable[..., Any])


def app() -> APIGatewayRestResolver:
    global _app
    if _app is None:
        _app = create_app()
    return _app


def _foreign_media_type(event: dict[str, Any]) -> str | None:
    """The declared media type of a body that is not JSON, or None when the body may be parsed.

    Every body the API takes is JSON. Powertools would otherwise raise on an unknown type
    (a 500) or parse a form body into something the route never declared.
    """
    if not event.get("body"):
        return None
    headers = {str(k).lower(): str(v) for k, v in (event.get("headers") or {}).items()}
    media_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    return None if media_type in ("", JSON_MEDIA_TYPE) else media_type


def _serialised(handle: F) -> F:
    @functools.wraps(handle)
    def run(event: dict[str, Any], context: Any) -> Any:
        with _one_at_a_time:
            return handle(event, context)

    return cast(F, run)


def _too_large(event: dict[str, Any]) -> bool:
    body = event.get("body")
    return body is not None and len(body) > get_engram().settings.max_body_bytes


@_serialised
@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST, log_event=False)
@trace_handler  # X-Ray in Lambda only: see engram.handlers.observability
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    if _too_large(event):
        limit = get_engram().settings.max_body_bytes
        return error_event(
            413,
            "payload_too_large",
            f"The request body exceeds {limit} bytes.",
            {"maxBodyBytes": limit},
        )
    media_type = _foreign_media_type(event)
    if media_type is not None:
        return unsupported_media_type_event(media_type)
    body = event.get("body")
    if body and not event.get("isBase64Encoded") and json_depth_exceeds(body):
        return error_event(
            400,
            "too_deeply_nested",
            f"The JSON body nests deeper than {MAX_JSON_DEPTH} levels.",
            {"maxDepth": MAX_JSON_DEPTH},
        )
    with bound_principal(event):
        return app().resolve(event, context)
