"""The API Gateway Lambda authorizer: an ``Authorization: Bearer <key>`` header in, an IAM policy out.

A good key gets an Allow on every route of the calling API and stage, because API
Gateway caches the answer per header value and replays it for the key's next requests
on any route; what each role may do is decided by the ``api`` Lambda from the principal
handed over in the context. A missing, malformed, unknown or revoked key fails with the
exact error message ``Unauthorized``, the one API Gateway turns into a 401. Anything else
(the table unreachable) fails with another message, which API Gateway answers with a 500
and which is counted in the ``AuthorizerFaults`` metric the alarms watch.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.data_classes.api_gateway_authorizer_event import (
    APIGatewayAuthorizerResponse,
    parse_api_gateway_arn,
)
from aws_lambda_powertools.utilities.typing import LambdaContext

from engram.api.auth import principal_context
from engram.container import Engram, get_engram
from engram.domain.errors import Unauthenticated
from engram.handlers.observability import logger, metrics, trace_handler

# API Gateway matches this exact message to answer 401 instead of 500.
UNAUTHORIZED = "Unauthorized"


class Unauthorized(Exception):
    def __init__(self) -> None:
        super().__init__(UNAUTHORIZED)


def presented_key(event: Mapping[str, Any]) -> str | None:
    """The credential from a TOKEN event, or the Authorization header of a REQUEST event."""
    if event.get("type") == "TOKEN":
        token = event.get("authorizationToken")
        return str(token) if token else None
    headers = event.get("headers") or {}
    for name, value in headers.items():
        if str(name).lower() == "authorization" and value:
            return str(value)
    return None


def authorize(event: Mapping[str, Any], engram: Engram) -> dict[str, Any]:
    try:
        principal = engram.keys.authenticate(presented_key(event))
    except Unauthenticated as exc:
        logger.info("api key rejected", extra={"reason": exc.message})
        metrics.add_metric(name="AuthorizerRejections", unit=MetricUnit.Count, value=1)
        raise Unauthorized() from None
    arn = parse_api_gateway_arn(str(event["methodArn"]))
    response = APIGatewayAuthorizerResponse(
        principal_id=principal.key_id or principal.agent_id,
        region=arn.region,
        aws_account_id=arn.aws_account_id,
        api_id=arn.api_id,
        stage=arn.stage,
        context=principal_context(principal),
        partition=arn.partition,
    )
    response.allow_all_routes()
    logger.append_keys(tenant_id=principal.tenant_id, agent_id=principal.agent_id)
    return response.asdict()


@logger.inject_lambda_context(log_event=False, clear_state=True)
@trace_handler  # X-Ray in Lambda only: see engram.handlers.observability
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    try:
        return authorize(event, get_engram())
    except Unauthorized:
        raise
    except Exception:
        logger.exception("authorizer fault")
        metrics.add_metric(name="AuthorizerFaults", unit=MetricUnit.Count, value=1)
        raise
