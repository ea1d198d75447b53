"""Observability for every Lambda handler: one logger, one metrics namespace, one tracing style.

Every handler imports ``logger``, ``metrics`` and ``trace_handler`` / ``trace_method``
from here and stacks them the same way::

    @logger.inject_lambda_context(log_event=False)
    @trace_handler
    @metrics.log_metrics
    def handler(event, context): ...

Logs are structured (keys, never f-strings) and never hold memory values; metrics go
to the ``Engram`` namespace as EMF; traces never capture responses.

X-Ray tracing is paid for only where it records something.

Powertools' ``Tracer`` imports the X-Ray SDK, and through its sampler botocore's session
machinery (about 150 ms together), as soon as it is constructed, even when it then
disables itself, which it does everywhere but inside the Lambda runtime. So outside
Lambda (``engram serve``, the CLI, tests) the handler is used as it is and the SDK is
never imported; inside Lambda the Tracer wraps it exactly as the decorator would.

Inside Lambda, only the libraries the functions call out through are patched: botocore
(DynamoDB, SQS, Bedrock) and requests (OpenSearch's ``RequestsHttpConnection``). The
default, ``patch_all``, also imports every other library X-Ray supports that happens to
be installed (sqlite3, httpx, httplib, ...) during init, to trace calls Engram's
functions do not make, or that botocore's subsegments already cover.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.shared import constants
from aws_lambda_powertools.shared.functions import strtobool

F = TypeVar("F", bound=Callable[..., Any])

PATCHED_MODULES = ("botocore", "requests")
SERVICE = "engram"
NAMESPACE = "Engram"

logger = Logger(service=SERVICE)
metrics = Metrics(namespace=NAMESPACE, service=SERVICE)


def tracing_enabled() -> bool:
    """What Powertools' Tracer decides for itself: on in the Lambda runtime unless turned off,
    off under SAM local, Chalice local or anywhere else."""
    if strtobool(os.getenv(constants.TRACER_DISABLED_ENV, "false")):
        return False
    in_lambda = bool(os.getenv(constants.LAMBDA_TASK_ROOT_ENV))
    emulated = bool(os.getenv(constants.SAM_LOCAL_ENV) or os.getenv(constants.CHALICE_LOCAL_ENV))
    return in_lambda and not emulated


def trace_handler(handler: F) -> F:
    """``Tracer().capture_lambda_handler(capture_response=False)`` in Lambda, the handler itself elsewhere.

    Responses are never captured: they hold memory values, which must not leave the
    function in traces any more than in logs.
    """
    if not tracing_enabled():
        return handler
    return cast(F, _tracer().capture_lambda_handler(handler, capture_response=False))


def trace_method(method: F) -> F:
    """``Tracer().capture_method(capture_response=False)`` in Lambda: a subsegment per call."""
    if not tracing_enabled():
        return method
    return cast(F, _tracer().capture_method(method, capture_response=False))


def _tracer() -> Any:
    from aws_lambda_powertools import Tracer

    # Tracer instances share their provider: constructing one per decorated function is cheap.
    return Tracer(service=SERVICE, patch_modules=PATCHED_MODULES)
