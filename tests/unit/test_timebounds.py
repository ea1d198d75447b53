"""Any time the API accepts round-trips through the stores' string form (issue #17 item 11)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from engram.api.schemas import UpsertRequest
from engram.domain.serialization import parse_ts, ts
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

offsets = st.integers(min_value=-(24 * 60 - 1), max_value=24 * 60 - 1).map(lambda m: timezone(timedelta(minutes=m)))
naive = st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31, 23, 59, 59, 999999))


@given(naive, offsets)
def test_given_any_time_with_any_offset_when_sent_then_refused_cleanly_or_round_tripped(
    moment: datetime, tz: timezone
) -> None:
    value = moment.replace(tzinfo=tz)
    try:
        body = UpsertRequest.model_validate({"key": "k", "value": "v", "sourceTime": value.isoformat()})
    except ValidationError as exc:
        locations = [e["loc"] for e in exc.errors()]
        body = None
    if body is None:
        assert locations == [("sourceTime",)]
        return
    accepted = body.source_time
    assert accepted is not None
    stored = ts(accepted)
    assert len(stored) == len("2026-01-15T10:30:00.000000Z")
    assert parse_ts(stored) == accepted


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("1900-01-01T00:00:00Z", True),
        ("1899-12-31T23:59:59.999999Z", False),
        ("1900-01-01T00:30:00+01:00", False),
        ("2999-12-31T23:59:59.999999Z", True),
        ("3000-01-01T00:00:00Z", False),
        ("2999-12-31T20:00:00-05:00", False),
        ("0001-01-01T00:00:00+05:00", False),
        ("9999-12-31T23:00:00-05:00", False),
        ("0999-01-01T00:00:00Z", False),
    ],
)
def test_the_bounds_are_exact(text: str, ok: bool) -> None:
    try:
        UpsertRequest.model_validate({"key": "k", "value": "v", "validFrom": text})
    except ValidationError:
        assert not ok
    else:
        assert ok
    assert ts(datetime(2026, 1, 15, tzinfo=UTC)) == "2026-01-15T00:00:00.000000Z"
