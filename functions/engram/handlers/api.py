"""The ``api`` Lambda: API Gateway (REST) events in, the Powertools resolver does the rest."""

from __future__ import annotations

import warnings
from typing import Any

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext

from engram.api.app import JSON_MEDIA_TYPE, create_app, error_event, unsupported_media_type_event
from engram.api.limits import MAX_JSON_DEPTH, json_depth_exceeds
from engram.container import get_engram
from engram.handlers._tracing import trace_handler

logger = Logger(service="engram")
metrics = Metrics(namespace="Engram", service="engram")

# API Gateway already counts requests and latency; this function adds metrics only where
# it knows something new, so an invocation without one is normal, not worth a warning.
warnings.filterwarnings("ignore", message="No application metrics to publish")

_app: APIGatewayRestResolver | None = None


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


def _too_large(event: dict[str, Any]) -> bool:
    body = event.get("body")
    return body is not None and len(body) > get_engram().settings.max_body_bytes


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST, log_event=False)
@trace_handler  # X-Ray in Lambda only: see engram.handlers._tracing
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
    return app().resolve(event, context)
