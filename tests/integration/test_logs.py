"""Logs never contain memory values or API keys, whatever happens."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest
from engram.domain.models import Role
from engram.service.memory import MemoryService

from tests.integration.conftest import Api

SECRET_VALUE = "zebra-crossing-7731"


@pytest.fixture
def logs() -> Iterator[io.StringIO]:
    """Everything the service logs, formatted exactly as Powertools writes it."""
    import engram.handlers.api  # noqa: F401  (configures the "engram" logger)

    logger = logging.getLogger("engram")
    sink = io.StringIO()
    handler = logging.StreamHandler(sink)
    handler.setFormatter(logger.handlers[0].formatter)
    logger.addHandler(handler)
    yield sink
    logger.removeHandler(handler)


def test_values_and_keys_never_reach_the_logs(api: Api, logs: io.StringIO, monkeypatch: pytest.MonkeyPatch) -> None:
    writer = api.key("acme", "a")
    admin = api.key("acme", "root", Role.ADMIN)
    base = "/v1/users/alice/memories"
    api.call("PUT", base, writer, json_body={"key": "code_name", "value": SECRET_VALUE})
    api.call("PUT", base, writer, json_body={"key": "card", "value": "4111 1111 1111 1111"})
    api.call("PUT", base, writer, json_body={"key": "k" * 300, "value": SECRET_VALUE})
    api.call("PUT", base, writer, json_body={"key": "x", "value": SECRET_VALUE, "bogus": SECRET_VALUE})
    api.call("PUT", base, writer, body='{"key": "x", "value": "' + SECRET_VALUE)
    api.call("GET", f"{base}/search", writer, query=f"q={SECRET_VALUE}")
    api.call("GET", base, "egm_0123456789abcdef_" + "A" * 43)
    api.call("GET", "/v1/users/alice/export", admin)

    def explode(*args: object, **kwargs: object) -> None:
        raise RuntimeError(f"database said no to {SECRET_VALUE}")

    monkeypatch.setattr(MemoryService, "upsert", explode)
    reply = api.call("PUT", base, writer, json_body={"key": "y", "value": SECRET_VALUE})
    assert reply.status == 500
    assert SECRET_VALUE not in reply.body.decode()

    text = logs.getvalue()
    assert "unhandled error" in text  # the failure itself was logged...
    for secret in (SECRET_VALUE, "4111 1111 1111 1111", writer, admin, writer.split("_")[-1]):
        assert secret not in text  # ...but nothing a user told us, nor any key
