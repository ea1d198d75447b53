"""Fuzzing the API with schemathesis, driven by the generated OpenAPI document.

At least 2,000 generated requests against ``engram serve`` (a real HTTP server in a
subprocess): no 5xx, and every response conforms to the document (status code
declared, content type, body schema). Positive and negative (schema-violating) inputs
both; the budget is bounded so the suite stays fast.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.e2e.conftest import EngramServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

MIN_REQUESTS = 2000
DOC = Path(__file__).parents[2] / "docs" / "openapi.json"


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngramServer]:
    # Generous rate so that the fuzzer measures the API, not the rate limiter.
    srv = EngramServer(tmp_path_factory.mktemp("fuzz"), {"ENGRAM_REQUESTS_PER_SECOND_PER_KEY": "100000"}, "sqlite")
    srv.start()
    yield srv
    srv.stop()


def test_generated_requests_never_5xx_and_always_match_the_schema(fuzz_server: EngramServer) -> None:
    admin = fuzz_server.key("fuzz", "root", "admin")
    writer = fuzz_server.key("fuzz", "agent-a", "writer", groups=("g1",))
    with fuzz_server.client(writer) as c:
        for i in range(3):
            c.put("/v1/users/alice/memories", json={"key": f"k{i}", "value": f"v{i}"})
    schema = schemathesis.openapi.from_dict(json.loads(DOC.read_text()))
    operations = [r.ok() for r in schema.get_all_operations()]
    per_op = MIN_REQUESTS // (2 * len(operations)) + 5
    checks = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
    sent = 0
    failures: list[str] = []

    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            strategy = operation.as_strategy(generation_mode=mode)

            @settings(
                max_examples=per_op,
                deadline=None,
                derandomize=True,
                database=None,
                suppress_health_check=list(HealthCheck),
            )
            @given(case=strategy, use_admin=st.booleans())
            def run(case: schemathesis.Case, use_admin: bool) -> None:
                nonlocal sent
                key = admin if use_admin else writer
                headers = {**(case.headers or {}), "Authorization": f"Bearer {key}"}
                response = case.call(base_url=fuzz_server.url, headers=headers, timeout=30)
                sent += 1
                try:
                    case.validate_response(response, checks=checks)
                except Exception as exc:
                    failures.append(f"{operation.method.upper()} {operation.path} [{mode.value}]: {exc}")
                    raise

            try:
                run()
            except Exception:
                if len(failures) > 5:
                    break
    assert not failures, "\n\n".join(failures[:5])
    assert sent >= MIN_REQUESTS, f"only {sent} requests were generated"
