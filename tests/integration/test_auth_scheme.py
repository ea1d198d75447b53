"""The Authorization header as HTTP says it: a case-insensitive Bearer scheme, documented so
that Swagger UI shows it whole and adds the scheme itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from engram.api.app import openapi_document
from engram.domain.errors import Unauthenticated
from engram.domain.models import Role

from tests.support import engram_for


@pytest.mark.parametrize("scheme", ["Bearer", "bearer", "BEARER", "BeArEr"])
def test_given_any_case_of_the_bearer_scheme_when_authenticating_then_the_key_is_accepted(
    tmp_path: Path, scheme: str
) -> None:
    engram = engram_for(tmp_path)
    _, key = engram.keys.create("acme", "alpha", frozenset({Role.WRITER}))
    assert engram.keys.authenticate(f"{scheme} {key}").agent_id == "alpha"
    with pytest.raises(Unauthenticated):
        engram.keys.authenticate(f"Basic {key}")


def test_given_the_openapi_document_when_rendered_then_auth_is_http_bearer_and_no_tag_is_swallowed() -> None:
    doc = openapi_document()
    assert doc["components"]["securitySchemes"]["bearer"]["type"] == "http"
    assert doc["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
    assert doc["security"] == [{"bearer": []}]
    description = doc["info"]["description"]
    # Markdown drops <word> outside code spans as an HTML tag ("Bearer '." in Swagger UI).
    outside_code = re.sub(r"`[^`]*`", "", description)
    assert not re.search(r"<[A-Za-z]", outside_code), description
    assert "`Authorization: Bearer egm_...`" in description
