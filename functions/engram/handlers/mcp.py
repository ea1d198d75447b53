"""The ``mcp`` Lambda: MCP over streamable HTTP behind API Gateway.

Stateless with JSON responses, so every invocation stands alone: the API Gateway
authorizer has checked the key and its context is the principal. The SDK's session
manager runs once per instance of its class, so each invocation gets a fresh one (cheap:
no I/O, the container and its clients are reused).
"""

from __future__ import annotations

from typing import Any, cast

from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext

from engram.container import get_engram
from engram.handlers.observability import logger, trace_handler


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST, log_event=False)
@trace_handler
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    from mangum import Mangum
    from starlette.applications import Starlette
    from starlette.routing import Route

    from engram.api.mcp_server import authorizer_authenticator, mcp_endpoint

    endpoint = mcp_endpoint(get_engram, authorizer_authenticator, loopback=False)
    app = Starlette(routes=[Route("/{path:path}", endpoint.app)], lifespan=endpoint.lifespan)
    result: dict[str, Any] = Mangum(app, lifespan="on")(event, cast(Any, context))
    result["statusCode"] = int(result["statusCode"])  # Mangum hands back an HTTPStatus
    return result
