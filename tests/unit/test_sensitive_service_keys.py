"""A service's key named by the service in a setting ("OPENWEATHER_KEY=..."): found when the
value was drawn at random, not under a kind of key that is no credential (secret_settings)."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules


@pytest.mark.parametrize(
    "text",
    [
        "MAPBOX_KEY=4e8a1c0b9d2f6e3a7b5c8d1e0f9a2b3c",
        "STATSIG_SERVER_KEY=secret-Kq8Zr2Lm9Pt7Vx4Nc6Wb3Yh5",
        'jwt_signing_key: "b3f1e9c2a7d40586f1e2d3c4b5a69788"',
        "export POSTHOG_PROJECT_KEY=phc-0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d",
    ],
)
def test_a_random_value_under_a_service_s_key_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "REDIS_CACHE_KEY=4e8a1c0b9d2f6e3a7b5c8d1e0f9a2b3c",
        "IDEMPOTENCY_KEY=9b7d2e04-a8c3-4f6b-9e59-7e2c9a41f0b8",
        "PUBLIC_KEY=4e8a1c0b9d2f6e3a7b5c8d1e0f9a2b3c",
        "PRIMARY_KEY=9b7d2e04-a8c3-4f6b-9e59-7e2c9a41f0b8",
        "S3_OBJECT_KEY=uploads/2024/report.pdf",
        "DEFAULT_SORT_KEY=created_at",
        "FEATURE_FLAG_KEY=new-checkout-flow",
    ],
)
def test_a_key_that_is_no_credential_or_holds_no_random_value_passes(text: str) -> None:
    assert find_by_rules(text) is None
