"""Settings as a Lambda cold start reads them: every value arrives as a string."""

from __future__ import annotations

import pytest
from engram.settings import Settings
from pydantic import ValidationError


@pytest.mark.parametrize("dimension", [256, 512, 1024])
def test_given_an_embedding_dimension_in_the_environment_then_it_is_read_as_a_number(
    monkeypatch: pytest.MonkeyPatch, dimension: int
) -> None:
    monkeypatch.setenv("ENGRAM_BEDROCK_EMBEDDING_DIMENSION", str(dimension))

    assert Settings().bedrock_embedding_dimension == dimension


@pytest.mark.parametrize("value", ["300", "big", ""])
def test_given_an_unsupported_embedding_dimension_then_settings_refuse_it(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("ENGRAM_BEDROCK_EMBEDDING_DIMENSION", value)

    with pytest.raises(ValidationError):
        Settings()
