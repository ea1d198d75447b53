"""The Lambda authorizer, driven with events shaped like the ones API Gateway sends."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from engram.api.auth import principal_context, principal_from_context
from engram.container import Engram, set_engram
from engram.domain.errors import StoreUnavailable
from engram.domain.models import Role
from engram.handlers import authorizer
from engram.local.lambda_context import LocalContext

from tests.support import engram_for

METHOD_ARN = "arn:aws:execute-api:eu-west-1:123456789012:a1b2c3d4e5/prod/POST/v1/users/u-1/memories"


def token_event(token: str | None) -> dict[str, Any]:
    # Recorded shape of a REST API TOKEN authorizer event.
    event: dict[str, Any] = {"type": "TOKEN", "methodArn": METHOD_ARN}
    if token is not None:
        event["authorizationToken"] = token
    return event


def request_event(headers: dict[str, str]) -> dict[str, Any]:
    # Recorded shape of a REST API REQUEST authorizer event (trimmed to what matters).
    return {
        "type": "REQUEST",
        "methodArn": METHOD_ARN,
        "resource": "/v1/{proxy+}",
        "path": "/v1/users/u-1/memories",
        "httpMethod": "POST",
        "headers": headers,
        "multiValueHeaders": {k: [v] for k, v in headers.items()},
        "queryStringParameters": {},
        "pathParameters": {"proxy": "users/u-1/memories"},
        "stageVariables": {},
        "requestContext": {
            "resourcePath": "/v1/{proxy+}",
            "httpMethod": "POST",
            "stage": "prod",
            "requestId": "c6af9ac6-7b61-11e6-9a41-93e8deadbeef",
            "accountId": "123456789012",
            "apiId": "a1b2c3d4e5",
            "identity": {"sourceIp": "203.0.113.7"},
        },
    }


@pytest.fixture
def engram(tmp_path: Path) -> Iterator[Engram]:
    built = engram_for(tmp_path)
    set_engram(built)
    yield built
    set_engram(None)


def call(event: dict[str, Any]) -> dict[str, Any]:
    return authorizer.handler(event, LocalContext())  # type: ignore[arg-type]


def test_given_a_valid_key_when_authorizing_then_every_route_of_the_stage_is_allowed_with_the_principal(
    engram: Engram,
) -> None:
    record, key = engram.keys.create("acme", "planner", frozenset({Role.WRITER}), ("team-a",))

    result = call(token_event(f"Bearer {key}"))

    assert result["principalId"] == record.key_id
    assert result["policyDocument"]["Statement"] == [
        {
            "Action": "execute-api:Invoke",
            "Effect": "Allow",
            "Resource": ["arn:aws:execute-api:eu-west-1:123456789012:a1b2c3d4e5/prod/*/*"],
        }
    ]
    assert result["context"] == principal_context(record.principal())
    # What the api Lambda reads back is the principal the key belongs to.
    assert principal_from_context(result["context"]) == record.principal()


def test_given_a_request_event_with_a_lowercase_header_when_authorizing_then_the_key_is_found(
    engram: Engram,
) -> None:
    record, key = engram.keys.create("acme", "reader", frozenset({Role.VIEWER}))

    result = call(request_event({"authorization": f"Bearer {key}", "host": "api.example.com"}))

    assert result["context"]["tenantId"] == "acme"
    assert result["context"]["agentId"] == "reader"
    assert result["context"]["roles"] == "viewer"
    assert result["context"]["keyId"] == record.key_id


@pytest.mark.parametrize(
    "token",
    [
        None,
        "",
        "Bearer not-an-engram-key",
        "Bearer egm_0123456789abcdef_" + "A" * 43,  # well-formed, never issued
    ],
    ids=["missing", "empty", "malformed", "unknown"],
)
def test_given_a_bad_key_when_authorizing_then_it_fails_with_the_message_api_gateway_maps_to_401(
    engram: Engram, token: str | None
) -> None:
    with pytest.raises(authorizer.Unauthorized) as caught:
        call(token_event(token))

    assert str(caught.value) == "Unauthorized"


def test_given_a_revoked_key_when_authorizing_then_it_is_unauthorized(engram: Engram) -> None:
    record, key = engram.keys.create("acme", "old", frozenset({Role.WRITER}))
    engram.keys.revoke(record.key_id)

    with pytest.raises(authorizer.Unauthorized):
        call(token_event(f"Bearer {key}"))


def test_given_the_right_key_id_with_a_wrong_secret_when_authorizing_then_it_is_unauthorized(
    engram: Engram,
) -> None:
    _, key = engram.keys.create("acme", "a", frozenset({Role.WRITER}))
    forged = key[:-1] + ("B" if key[-1] != "B" else "C")

    with pytest.raises(authorizer.Unauthorized):
        call(token_event(f"Bearer {forged}"))


def test_given_the_store_is_down_when_authorizing_then_it_fails_with_another_message_so_the_gateway_answers_500(
    engram: Engram, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unavailable(key_id: str) -> None:
        raise StoreUnavailable("The table is unreachable.")

    monkeypatch.setattr(engram.store, "get_api_key", unavailable)

    with pytest.raises(StoreUnavailable) as caught:
        call(token_event("Bearer egm_0123456789abcdef_" + "A" * 43))

    assert str(caught.value) != "Unauthorized"


def test_given_a_govcloud_method_arn_when_authorizing_then_the_policy_keeps_the_partition(engram: Engram) -> None:
    _, key = engram.keys.create("acme", "a", frozenset({Role.WRITER}))
    event = token_event(f"Bearer {key}")
    event["methodArn"] = "arn:aws-us-gov:execute-api:us-gov-west-1:123456789012:a1b2c3d4e5/prod/GET/health"

    result = call(event)

    assert result["policyDocument"]["Statement"][0]["Resource"] == [
        "arn:aws-us-gov:execute-api:us-gov-west-1:123456789012:a1b2c3d4e5/prod/*/*"
    ]
