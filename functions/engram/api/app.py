"""The API application: resolver, routers, error mapping and the OpenAPI document."""

from __future__ import annotations

import json
import os
import traceback
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response, content_types
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from aws_lambda_powertools.event_handler.openapi.exceptions import (
    RequestUnsupportedContentType,
    RequestValidationError,
)
from aws_lambda_powertools.event_handler.openapi.models import (
    APIKey,
    HTTPBase,
    HTTPBearer,
    MutualTLS,
    OAuth2,
    OpenIdConnect,
)

from engram import __version__
from engram.api import json_text
from engram.domain.errors import EngramError

logger = Logger(service="engram", child=True)

API_TITLE = "Engram"
# Markdown (Swagger UI renders it): the header sits in a code span, or `<key>` would be
# read as an HTML tag and vanish.
API_DESCRIPTION = (
    "Persistent memory for AI agents: remember facts about users, recall what matters for "
    "each turn, forget on request. Every route but /health and /docs needs an API key "
    "(`engram keys create` prints one) sent as `Authorization: Bearer egm_...`; in this "
    "page, press Authorize and paste the key alone."
)
# HTTP bearer, so Swagger UI's Authorize adds the "Bearer " itself.
SECURITY_SCHEMES: dict[str, APIKey | HTTPBase | OAuth2 | OpenIdConnect | HTTPBearer | MutualTLS] = {
    "bearer": HTTPBearer(bearerFormat="egm_<key id>_<secret>", description="An Engram API key."),
}
SECURITY: list[dict[str, list[str]]] = [{"bearer": []}]


def error_response(status: int, code: str, message: str, details: dict[str, Any] | None = None) -> Response[str]:
    return Response(
        status_code=status,
        content_type=content_types.APPLICATION_JSON,
        body=json.dumps({"code": code, "message": message, "details": details or {}}, default=str),
    )


def error_event(status: int, code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    """The same error body as a raw API Gateway proxy response (outside the resolver)."""
    return {
        "statusCode": status,
        "headers": {"Content-Type": content_types.APPLICATION_JSON},
        "body": json.dumps({"code": code, "message": message, "details": details or {}}),
        "isBase64Encoded": False,
    }


JSON_MEDIA_TYPE = "application/json"


def unsupported_media_type_event(media_type: str) -> dict[str, Any]:
    # The media type is the client's own header, never body content, so it may be echoed.
    return error_event(
        415,
        "unsupported_media_type",
        "Send request bodies as JSON with 'Content-Type: application/json'.",
        {"contentType": media_type[:100], "accepted": [JSON_MEDIA_TYPE]},
    )


def _clean_validation_errors(errors: Any) -> list[dict[str, Any]]:
    # Never echo the rejected input back (or into logs): it may be a memory value.
    out = []
    for err in errors:
        loc = [str(p) for p in err.get("loc", ()) if p != "body" or len(err.get("loc", ())) == 1]
        out.append({"field": ".".join(loc), "type": err.get("type", ""), "message": err.get("msg", "")})
    return out


def create_app() -> APIGatewayRestResolver:
    from engram.api.idempotency import idempotency_middleware

    # Response bodies: the standard encoder's text, written faster (engram.api.json_text).
    app = APIGatewayRestResolver(enable_validation=True, serializer=json_text.dumps)
    _include_routers(app)
    app.use(middlewares=[idempotency_middleware])
    app.enable_swagger(
        path="/docs",
        title=API_TITLE,
        version=__version__,
        description=API_DESCRIPTION,
        security_schemes=SECURITY_SCHEMES,
        security=SECURITY,
    )
    _handle_errors(app)
    return app


def _include_routers(app: APIGatewayRestResolver) -> None:
    """Every resource's router: one file per resource under ``api/``."""
    from engram.api import agents, dream, health, memories, tools, users

    app.include_router(health.router)
    app.include_router(memories.router, prefix="/v1")
    app.include_router(users.router, prefix="/v1")
    app.include_router(agents.router, prefix="/v1")
    app.include_router(dream.router, prefix="/v1")
    app.include_router(tools.router, prefix="/v1")
    from engram.api import recall  # recall: tiers, hybrid ranking, the context block

    app.include_router(recall.router, prefix="/v1")
    from engram.api import conversations, long_term  # conversations and Mordecai's namespaces

    app.include_router(conversations.router, prefix="/v1")
    app.include_router(long_term.router, prefix="/v1")
    from engram.api import archival, blocks, proposals, remembered  # user control

    for user_control in (proposals, blocks, archival, remembered):
        app.include_router(user_control.router, prefix="/v1")


def _handle_errors(app: APIGatewayRestResolver) -> None:
    """Every error answers with the one error body (``code``, ``message``, ``details``)."""

    @app.exception_handler(EngramError)
    def _domain_error(exc: EngramError) -> Response[str]:
        return error_response(exc.status, exc.code, exc.message, exc.details)

    @app.exception_handler(RequestValidationError)
    def _invalid(exc: RequestValidationError) -> Response[str]:
        errors = _clean_validation_errors(exc.errors())
        if any(e["type"] == "json_invalid" for e in errors):
            return error_response(400, "malformed_json", "The request body is not valid JSON.")
        first = errors[0] if errors else {"field": "", "message": "invalid input"}
        return error_response(
            422,
            "validation_error",
            f"Invalid input at '{first['field']}': {first['message']}.",
            {"errors": errors},
        )

    @app.exception_handler(RequestUnsupportedContentType)
    def _unsupported(exc: RequestUnsupportedContentType) -> Response[str]:
        # Backstop: the handler answers 415 before the resolver runs (see handlers.api).
        return error_response(
            415,
            "unsupported_media_type",
            "Send request bodies as JSON with 'Content-Type: application/json'.",
            {"accepted": [JSON_MEDIA_TYPE]},
        )

    @app.exception_handler(RecursionError)
    def _too_deep(exc: RecursionError) -> Response[str]:
        # Backstop for the depth check in the handler (e.g. a base64-encoded body).
        return error_response(400, "too_deeply_nested", "The JSON body nests too deeply.")

    @app.exception_handler(UnicodeDecodeError)
    def _not_utf8(exc: UnicodeDecodeError) -> Response[str]:
        # Raised while the validation middleware decodes the body, before any route runs.
        return error_response(400, "invalid_encoding", "The request body must be UTF-8 encoded JSON.")

    @app.not_found
    def _not_found(exc: NotFoundError) -> Response[str]:
        return error_response(404, "route_not_found", "No such route; see /docs for the API.")

    @app.exception_handler(Exception)
    def _unexpected(exc: Exception) -> Response[str]:
        # Type and frames only: an exception's message can quote the input (a memory
        # value, a key), and logs must never hold either.
        frames = traceback.extract_tb(exc.__traceback__)[-8:]
        logger.error(
            "unhandled error",
            extra={
                "error_type": type(exc).__name__,
                "frames": [f"{f.name}@{os.path.basename(f.filename)}:{f.lineno}" for f in frames],
            },
        )
        return error_response(500, "internal_error", "Something went wrong on our side; it has been logged.")


def openapi_document() -> dict[str, Any]:
    app = create_app()
    return dict(
        json.loads(
            app.get_openapi_json_schema(
                title=API_TITLE,
                version=__version__,
                description=API_DESCRIPTION,
                security_schemes=SECURITY_SCHEMES,
                security=SECURITY,
            )
        )
    )
