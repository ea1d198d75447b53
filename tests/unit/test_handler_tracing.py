"""X-Ray tracing is wired in the Lambda runtime only, and patches only what Engram calls out through."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from engram.handlers.observability import PATCHED_MODULES, trace_handler, tracing_enabled

LAMBDA = {"LAMBDA_TASK_ROOT": "/var/task", "AWS_LAMBDA_FUNCTION_NAME": "engram-test", "AWS_REGION": "us-east-1"}
RUNTIME_VARS = ("LAMBDA_TASK_ROOT", "AWS_SAM_LOCAL", "AWS_CHALICE_CLI_MODE", "POWERTOOLS_TRACE_DISABLED")

PROBE = """
import json, sys
import engram.handlers.api as api, engram.handlers.authorizer as authz
def traced(f):
    # functools.wraps copies names, not code: the code objects tell the wrappers apart.
    while f is not None:
        if f.__code__.co_qualname.startswith("Tracer."):
            return True
        f = getattr(f, "__wrapped__", None)
    return False
patched = None
if "aws_xray_sdk.core.patcher" in sys.modules:
    patched = sorted(sys.modules["aws_xray_sdk.core.patcher"]._PATCHED_MODULES)
print(json.dumps({
    "xray_imported": "aws_xray_sdk" in sys.modules,
    "traced": [traced(api.handler), traced(authz.handler)],
    "patched": patched,
}))
"""


def _probe(extra: dict[str, str]) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k not in RUNTIME_VARS}
    out = subprocess.run(
        [sys.executable, "-c", PROBE], env={**env, **extra}, capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in RUNTIME_VARS:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_given_no_lambda_runtime_when_asked_then_tracing_is_off(clean_env: pytest.MonkeyPatch) -> None:
    assert tracing_enabled() is False


def test_given_the_lambda_runtime_when_asked_then_tracing_is_on(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("LAMBDA_TASK_ROOT", "/var/task")
    assert tracing_enabled() is True


@pytest.mark.parametrize(
    ("name", "value"),
    [("POWERTOOLS_TRACE_DISABLED", "true"), ("AWS_SAM_LOCAL", "true"), ("AWS_CHALICE_CLI_MODE", "true")],
)
def test_given_lambda_runtime_but_tracing_turned_off_or_emulated_then_tracing_is_off(
    clean_env: pytest.MonkeyPatch, name: str, value: str
) -> None:
    clean_env.setenv("LAMBDA_TASK_ROOT", "/var/task")
    clean_env.setenv(name, value)
    assert tracing_enabled() is False


def test_given_no_lambda_runtime_when_wrapping_then_the_handler_is_returned_unchanged(
    clean_env: pytest.MonkeyPatch,
) -> None:
    def handler(event: dict[str, object], context: object) -> dict[str, object]:
        return {"ok": event}

    assert trace_handler(handler) is handler


def test_given_no_lambda_runtime_when_handlers_are_imported_then_the_xray_sdk_is_not() -> None:
    found = _probe({})
    assert found == {"xray_imported": False, "traced": [False, False], "patched": None}


@pytest.mark.slow
def test_given_the_lambda_runtime_when_handlers_are_imported_then_traced_and_only_outbound_clients_patched() -> None:
    found = _probe(LAMBDA)
    assert found["xray_imported"] is True
    assert found["traced"] == [True, True]
    assert found["patched"] == sorted(PATCHED_MODULES)
